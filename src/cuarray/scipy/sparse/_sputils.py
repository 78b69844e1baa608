"""Index dtype helpers (cuarray versions of `scipy.sparse.get_index_dtype` and
`scipy.sparse.safely_cast_index_arrays`)."""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse._base import issparse

_I32 = numpy.iinfo(numpy.int32)


def get_index_dtype(arrays=(), maxval=None, check_contents=False):
    """The index dtype (numpy.int32 or numpy.int64) that holds `maxval` and the values of
    `arrays` (cuarray version of `scipy.sparse.get_index_dtype`).

    `arrays` may hold cuarray or NumPy arrays; with `check_contents`, an integer array
    wider than int32 has its minimum and maximum read (synchronises).
    """
    if numpy.intc().itemsize != 4:
        return numpy.int64
    if maxval is not None and numpy.int64(maxval) > _I32.max:
        return numpy.int64
    if isinstance(arrays, (ndarray, numpy.ndarray)):
        arrays = (arrays,)
    for arr in arrays:
        if not isinstance(arr, ndarray):
            arr = numpy.asarray(arr)
        if numpy.can_cast(arr.dtype, numpy.int32):
            continue
        if check_contents:
            if arr.size == 0:
                continue
            if arr.dtype.kind in "iu" and (int(arr.min()) >= _I32.min
                                           and int(arr.max()) <= _I32.max):
                continue
        return numpy.int64
    return numpy.int32


def safely_cast_index_arrays(A, idx_dtype=numpy.int32, msg=""):
    """A's index arrays cast to `idx_dtype`, after checking that their values fit it
    (cuarray version of `scipy.sparse.safely_cast_index_arrays`).

    Returns (indices, indptr) for CSR/CSC, the `coords` tuple for COO ((row, col), or
    (col,) for a 1-D array) and `offsets` for DIA; arrays already of `idx_dtype` are
    returned as they are. Reads at most one value and one flag (synchronises).
    """
    if not issparse(A):
        raise TypeError(f"safely_cast_index_arrays expects a sparse array or matrix, got "
                        f"{type(A).__name__}")
    idx_dtype = numpy.dtype(idx_dtype)
    if idx_dtype.kind not in "iu":
        raise ValueError(f"idx_dtype must be an integer dtype, got {idx_dtype}")
    if not msg:
        msg = f"dtype {idx_dtype.type}"
    max_value = int(numpy.iinfo(idx_dtype).max)
    # Indices are below the largest dimension, so only a shape that does not fit the
    # dtype needs the values themselves checked.
    big = max(A.shape) > max_value

    def too_large(arrays):
        return big and any(bool((a > max_value).any()) for a in arrays)

    if A.format in ("csr", "csc"):
        if A.indptr.size and int(A.indptr[-1]) > max_value:
            raise ValueError(f"indptr values too large for {msg}")
        if too_large((A.indices,)):
            raise ValueError(f"indices values too large for {msg}")
        return (A.indices.astype(idx_dtype, copy=False),
                A.indptr.astype(idx_dtype, copy=False))
    if A.format == "coo":
        if too_large(A.coords):
            raise ValueError(f"coords values too large for {msg}")
        return tuple(c.astype(idx_dtype, copy=False) for c in A.coords)
    if A.format == "dia":
        if too_large((A.offsets,)):
            raise ValueError(f"offsets values too large for {msg}")
        return A.offsets.astype(idx_dtype, copy=False)
    raise TypeError(f"Format {A.format} is not associated with index arrays.")
