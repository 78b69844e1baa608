"""Structured (and void) dtypes: bytes on the device, as CuPy 14 has them.

Arrays of them are created from NumPy data or by `empty`/`zeros`, copied, viewed, indexed,
and read or written one field at a time (`a['x']` is a strided view of the field, as in
NumPy). Kernels that compute on whole items do not exist: ufuncs raise NumPy's TypeError.
`make_aligned_dtype` lays a dtype out for kernels (CUDA's alignment rules).
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import contiguous_strides

_INVALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
            "or boolean arrays are valid indices")
_UINT8 = numpy.dtype(numpy.uint8)


def is_field_key(key):
    """A field name, or a list of them (NumPy's multi-field index)."""
    return isinstance(key, str) or (isinstance(key, list) and len(key) > 0 and
                                    all(isinstance(k, str) for k in key))


def field(a, key):
    """`a[key]` for a field name or a list of names: a view of `a`'s memory, as NumPy's."""
    dt = a.dtype
    if dt.names is None:
        raise IndexError(_INVALID)
    if isinstance(key, list):
        sub = dt[key]     # NumPy's multi-field dtype: the same itemsize, the fields' offsets
        return a._view(a._shape, a._strides, 0, _dt.check_dtype(sub))
    try:
        fdt, offset = dt.fields[key][:2]
    except KeyError:
        raise ValueError(f"no field of name {key}") from None
    base, sub_shape = (fdt.base, fdt.shape) if fdt.subdtype is not None else (fdt, ())
    return a._view(a._shape + sub_shape,
                   a._strides + tuple(contiguous_strides(sub_shape, base.itemsize, "C")), offset,
                   _dt.check_dtype(base))


def set_field(a, key, value):
    """`a[key] = value`: fields of a multi-field index are assigned by position."""
    from cuarray._core._copy import assign
    view = field(a, key)
    if isinstance(key, list):
        assign_fields(view, value)
    else:
        assign(view, value)


def assign_fields(view, value):
    """view[...] = value for a structured `view`, one field at a time (a multi-field view
    has gaps that belong to other fields)."""
    from cuarray._core._copy import assign
    names = view.dtype.names
    if isinstance(value, ndarray) and value.dtype.names is not None:
        if len(value.dtype.names) != len(names):
            raise ValueError("structures must have the same size")
        for n, m in zip(names, value.dtype.names):
            sub = field(view, n)
            src = field(value, m)
            if sub.dtype.names is not None:
                assign_fields(sub, src)
            else:
                assign(sub, src)
        return
    if isinstance(value, (numpy.void, numpy.ndarray)) and value.dtype.names is not None:
        from cuarray._core.transfer import asarray
        return assign_fields(view, asarray(numpy.asarray(value)))
    for n in names:
        sub = field(view, n)
        if sub.dtype.names is not None:
            assign_fields(sub, value)
        else:
            assign(sub, value)


def as_bytes(a):
    """`a` seen as uint8 with one more axis (its items' bytes): how structured items are
    copied, gathered and scattered."""
    return a._view(a._shape + (a.dtype.itemsize,), a._strides + (1,), 0, _UINT8)


def _bytes_key(key):
    """The index `key` of a structured array as an index of its `as_bytes` view."""
    return (key if isinstance(key, tuple) else (key,)) + (slice(None),)


def getitem(a, key):
    """`a[key]` with index arrays or masks for a structured `a` (a gather of its bytes)."""
    r = as_bytes(a)[_bytes_key(key)]
    r = r if r._c_contig else r.copy()
    return r._view(r._shape[:-1], tuple(contiguous_strides(r._shape[:-1], a.dtype.itemsize, "C")),
                   0, a.dtype)


def setitem(a, key, value):
    """`a[key] = value` with index arrays or masks for a structured `a`."""
    from cuarray._core.transfer import asarray
    if not isinstance(value, ndarray):
        value = asarray(numpy.asarray(value, dtype=a.dtype))
    if value.dtype != a.dtype:
        raise TypeError(f"cannot assign {value.dtype!r} items to an array of {a.dtype!r}")
    as_bytes(a)[_bytes_key(key)] = as_bytes(value)


def fill(a, value):
    """a.fill(value) for structured items: every field gets `value`, as in NumPy."""
    if a.dtype.names is None:
        raise TypeError(f"cannot fill an array of {a.dtype!r} (unstructured void) with a value")
    assign_fields(a, value)


# ---- make_aligned_dtype ----------------------------------------------------------------------

def _cuda_alignment(dt):
    """CUDA's alignment of a non-structured item: its size rounded down to a power of two,
    at most 16 (complex<double> is 16-byte aligned on the device, 8 on the host)."""
    size = dt.base.itemsize if dt.subdtype is not None else dt.itemsize
    al = 1
    while al * 2 <= min(size, 16):
        al *= 2
    return al


def _aligned(dt, alignment, recurse):
    """(the laid-out dtype, its alignment)."""
    if alignment != -1 and (alignment <= 0 or alignment & (alignment - 1)):
        raise ValueError("alignment must be a positive power of 2 (or -1 for the smallest)")
    if dt.names is None:
        final = dt.alignment if dt.subdtype is None else dt.base.alignment
        layout, end = dt, dt.itemsize
    else:
        names, formats, offsets = [], [], []
        end, final, last = 0, 1, 0
        for name in dt.names:
            sub, off = dt.fields[name][:2]
            if off < last:
                raise ValueError("make_aligned_dtype() needs the fields in memory order (it "
                                 "recomputes their offsets)")
            last = off + sub.itemsize
            meta = (sub.metadata or {}).get("__cuda_alignment__")
            if meta is not None:
                al = meta
            elif sub.names is None:
                al = _cuda_alignment(sub)
            elif not recurse:
                al = sub.alignment
            else:
                sub, al = _aligned(sub, -1, True)
            end = (end + al - 1) // al * al
            names.append(name)
            formats.append(sub)
            offsets.append(end)
            end += sub.itemsize
            final = max(final, al)
        layout = None
    meta = None
    if alignment != -1:
        if alignment < final:
            raise ValueError(f"make_aligned_dtype(): alignment={alignment} is smaller than the "
                             f"dtype's own alignment {final}")
        final = alignment
        meta = {"__cuda_alignment__": alignment}
    itemsize = (end + final - 1) // final * final
    if layout is not None:   # not structured: nothing to lay out, only the size to check
        if itemsize != dt.itemsize:
            raise ValueError(f"alignment {final} is larger than the itemsize of {dt!r}")
        return (numpy.dtype(dt, metadata=meta) if meta else dt), final
    if dt.itemsize > itemsize:
        raise ValueError(f"{dt!r} is larger ({dt.itemsize} bytes) than its aligned layout "
                         f"({itemsize} bytes)")
    spec = {"names": names, "formats": formats, "offsets": offsets, "itemsize": itemsize}
    res = numpy.dtype(spec, align=True, metadata=meta) if meta else numpy.dtype(spec, align=True)
    return res, final


def make_aligned_dtype(dtype, *, alignment=-1, recurse=True):
    """cuarray version of `cupy.make_aligned_dtype`: a structured dtype whose fields sit at
    CUDA's alignments (a scalar's size up to 16 bytes: complex128 aligns to 16), its size a
    multiple of the largest; `alignment` (a power of two) raises it and is recorded in the
    dtype's metadata as ``__cuda_alignment__``."""
    return _aligned(numpy.dtype(dtype), alignment, recurse)[0]
