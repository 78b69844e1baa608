"""save_npz / load_npz (cuarray versions of `scipy.sparse`'s): the same `.npz` layout as
SciPy's, so files move between the two. Saving copies the matrix to the host; loading
copies it to the device."""
import numpy

from cuarray.scipy.sparse._base import CLASSES

_FIELDS = {"csr": ("data", "indices", "indptr"), "csc": ("data", "indices", "indptr"),
           "coo": ("data", "row", "col"), "dia": ("data", "offsets")}


def save_npz(file, matrix, compressed=True):
    """Write `matrix` (a cuarray sparse matrix or array) to `file` in SciPy's format."""
    fmt = matrix.format
    arrays = {name: getattr(matrix, name).get() for name in _FIELDS[fmt]}
    arrays.update(format=fmt.encode("ascii"), shape=numpy.array(matrix.shape))
    if matrix._family == "array":
        arrays["_is_array"] = True
    (numpy.savez_compressed if compressed else numpy.savez)(file, **arrays)


def load_npz(file):
    """Read a sparse matrix or array written by `save_npz` (cuarray's or SciPy's)."""
    from cuarray._core.transfer import asarray
    with numpy.load(file, allow_pickle=False) as f:
        fmt = f["format"].item()
        fmt = fmt.decode("ascii") if isinstance(fmt, bytes) else str(fmt)
        if fmt not in _FIELDS:
            raise ValueError(f"cuarray has no {fmt} sparse format; convert the matrix to "
                             "csr, csc, coo or dia before saving it")
        family = "array" if "_is_array" in f.files and bool(f["_is_array"]) else "matrix"
        shape = tuple(int(s) for s in f["shape"])
        parts = [asarray(f[name]) for name in _FIELDS[fmt]]
    cls = CLASSES[family, fmt]
    if fmt == "coo":
        return cls((parts[0], (parts[1], parts[2])), shape=shape)
    if fmt == "dia":
        return cls((parts[0], parts[1]), shape=shape)
    return cls(tuple(parts), shape=shape)
