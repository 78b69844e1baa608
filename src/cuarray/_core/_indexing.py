"""Advanced and boolean indexing: `a[key]` and `a[key] = v` for keys that are not purely
ints, slices, None and Ellipsis.

A key is normalised here (host index data is transferred: the key asked for it), planned
on the host (_index_plan.py, pure Python) and run by one generated kernel: the gather /
scatter of _gather_scatter.py (out-of-bounds indices wrap, as CuPy's do;
`CUARRAY_CHECK_BOUNDS=1` makes them raise NumPy's IndexError instead), or, for one boolean
mask covering the whole array, the stream compaction of _compact.py; other masks become
`nonzero` index arrays. The engine's users (ndarray, the indexing routines, `ufunc.at`)
import it from here; `__all__` names what they reach.
"""
import operator

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._compact import (compress_flat, count_true, mask_fill, nonzero,
                                    nonzero_coords, place_flat)
from cuarray._core._gather_scatter import (check_bounds_enabled, first_out_of_range, gather,
                                           scatter_kernel, scatter_key)
from cuarray._core._index_plan import _is_array, check_key, plan_index, value_strides
from cuarray._core.ndarray import ndarray

__all__ = [
    "getitem", "setitem", "normalize_key", "expand_masks", "prepare", "scatter", "remember",
    # planning, kernels and masks, from the modules named above
    "check_key", "plan_index", "value_strides", "check_bounds_enabled", "first_out_of_range",
    "gather", "scatter_kernel", "scatter_key", "compress_flat", "count_true", "mask_fill",
    "nonzero", "nonzero_coords", "place_flat",
]

_INVALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
            "or boolean arrays are valid indices")


# ---- keys -----------------------------------------------------------------------------------

def _host_index(k):
    """A host sequence or numpy array used as an index: an int, a bool, or a device array."""
    from cuarray._core import transfer
    if isinstance(k, numpy.ndarray):
        h = k
    else:
        try:
            h = numpy.asarray(k)
        except TypeError:   # a list holding device arrays: assembled on the device
            return _device_index(transfer.array(k))
    if h.dtype.kind == "f" and h.size == 0:
        h = h.astype(numpy.intp)   # an empty list indexes nothing, as in NumPy
    if h.dtype.kind not in "biu":
        raise IndexError(_INVALID if h.dtype.kind in "fcO" and not isinstance(k, numpy.ndarray)
                         else "arrays used as indices must be of integer (or boolean) type")
    if h.ndim == 0:
        return bool(h) if h.dtype.kind == "b" else int(h)
    return transfer.asarray(h)


def _device_index(k):
    kind = k.dtype.kind
    if kind == "b":
        return bool(k.get()) if k.ndim == 0 else k  # a 0-d mask's value sizes the result
    if kind in "iu":
        return k
    raise IndexError("arrays used as indices must be of integer (or boolean) type")


def normalize_key(key):
    """The key as a list of entries for `check_key`/`plan_index`; host index data is
    transferred to the device (an explicit transfer: the key asked for it)."""
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            out.append(k)
        elif isinstance(k, ndarray):
            out.append(_device_index(k))
        elif isinstance(k, (bool, numpy.bool_)):
            out.append(bool(k))
        elif isinstance(k, (int, numpy.integer)):
            out.append(int(k))
        elif isinstance(k, (list, numpy.ndarray)):
            out.append(_host_index(k))
        elif hasattr(k, "__cuda_array_interface__"):
            from cuarray._core import transfer
            out.append(_device_index(transfer.asarray(k)))
        elif hasattr(k, "__index__") and not isinstance(k, (float, complex)):
            out.append(operator.index(k))
        else:
            raise IndexError(_INVALID)
    return out


def expand_masks(shape, entries):
    """Validate; replace each boolean mask (1-d or more) by its `nonzero` index arrays."""
    check_key(shape, entries)
    if not any(_is_array(e) and e.dtype.kind == "b" for e in entries):
        return entries
    out = []
    for e in entries:
        if _is_array(e) and e.dtype.kind == "b":
            out.extend(nonzero(e))
        else:
            out.append(e)
    return out


def _full_mask(a, entries):
    """The mask when the key is one boolean array covering every axis of `a`."""
    if len(entries) == 1:
        m = entries[0]
        if isinstance(m, ndarray) and m.dtype.kind == "b" and m.ndim == a.ndim and m.ndim:
            check_key(a._shape, entries)
            # a mask with zero-length axes where `a` has others selects nothing: general path
            return m if m._shape == a._shape else None
    return None


def prepare(a, key):
    """(plan, entries) for `a[key]`, masks expanded."""
    entries = expand_masks(a._shape, normalize_key(key))
    return plan_index(a._shape, a._strides, entries), entries


# ---- getitem / setitem --------------------------------------------------------------------

_fast = {}   # layouts of `a` and of one integer index array -> FastGather


def getitem(a, key):
    """a[key] for a key with index arrays, masks or bools (ndarray.__getitem__ calls this)."""
    fk = None
    if type(key) is ndarray and key.dtype.kind in "iu":
        fk = (a._shape, a._strides, a.dtype.char, a._device_id, key._shape, key._strides,
              key.dtype.char, key._device_id)
        hit = _fast.get(fk)
        if hit is not None and not check_bounds_enabled():
            return hit.run(a, key)
    if a.dtype.kind == "V" or type(key) is str or type(key) is list:
        from cuarray._core import structured
        if structured.is_field_key(key):
            return structured.field(a, key)
        if a.dtype.kind == "V":
            return structured.getitem(a, key)
    entries = normalize_key(key)
    m = _full_mask(a, entries)
    if m is not None:
        return compress_flat(m, a)
    entries = expand_masks(a._shape, entries)
    record = None
    if fk is not None and a.size:
        record = lambda fg: remember(_fast, fk, fg)   # noqa: E731
    return gather(a, plan_index(a._shape, a._strides, entries), entries, record=record)


def remember(cache, fk, fast):
    """Keep a replayable launch (FastGather, FastScatter) under its layouts, at most 256."""
    if len(cache) >= 256:
        cache.pop(next(iter(cache)))
    cache[fk] = fast


_fast_set = {}   # layouts of `a`, of one integer index array and of the value -> FastScatter


def setitem(a, key, value):
    """a[key] = value; with repeated indices one of the writes wins, as in CuPy."""
    fk = None
    if type(key) is ndarray and key.dtype.kind in "iu" and type(value) is ndarray and \
            value.dtype == a.dtype and a.dtype.kind != "V" and value._mem is not a._mem:
        fk = scatter_key(a, key, value)
        hit = _fast_set.get(fk)
        if hit is not None and not check_bounds_enabled():
            return hit.run(a, key, value)
    if a.dtype.kind == "V" or type(key) is str or type(key) is list:
        from cuarray._core import structured
        if structured.is_field_key(key):
            return structured.set_field(a, key, value)
        if a.dtype.kind == "V":
            return structured.setitem(a, key, value)
    entries = normalize_key(key)
    m = _full_mask(a, entries)
    if m is not None:
        return _mask_assign(a, m, value)
    entries = expand_masks(a._shape, entries)
    record = None
    if fk is not None:
        record = lambda fs: remember(_fast_set, fk, fs)   # noqa: E731
    scatter(a, plan_index(a._shape, a._strides, entries), entries, value, record=record)


def _value(value, dtype):
    """('scalar', numpy scalar) or ('array', device array of `dtype`) for an assigned value."""
    from cuarray._core import _copy, transfer
    if isinstance(value, ndarray):
        return "array", value if value.dtype == dtype else value.astype(dtype)
    if isinstance(value, (bool, int, float, complex, numpy.generic)):
        return "scalar", _copy.to_scalar(value, dtype)
    h = numpy.asarray(value)
    if h.ndim == 0:
        return "scalar", _copy.to_scalar(h[()], dtype)
    _dt.check_dtype(h.dtype)
    return "array", transfer.asarray(h.astype(dtype, copy=False))


def scatter(a, plan, entries, value, mode="wrap", record=None):
    """a[planned key] = value (broadcast to the result's shape, cast to a's dtype);
    `record` as in scatter_kernel."""
    vmode, v = _value(value, a.dtype)
    if vmode == "array":
        value_strides(v._shape, v._strides, plan.shape)   # NumPy's error before any work
    scatter_kernel(a, plan, entries, (vmode, v), "set", mode=mode, record=record)


def _mask_assign(a, mask, value):
    vmode, v = _value(value, a.dtype)
    if vmode == "scalar":
        return mask_fill(a, mask, v)
    if v.ndim > 1:
        raise TypeError(f"NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                        f"input, input has {v.ndim} dimensions")
    if v.size == 1:
        return mask_fill(a, mask, v.reshape(()))
    total = count_true(mask)
    if v.size != total:
        raise ValueError(f"NumPy boolean array indexing assignment cannot assign {v.size} input "
                         f"values to the {total} output values where the mask is true")
    place_flat(a, mask, v)
