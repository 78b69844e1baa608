"""take, put, choose, compress, nonzero and diagonal, with the argument helpers the other
indexing routines share (public face: `_routines/indexing.py`; here because they are
ndarray methods too).

Index arguments may be cuarray arrays, lists, NumPy arrays or scalars: host index data is
transferred explicitly. Integer indices that are out of bounds wrap in mode='raise', as
CuPy's indexing does; CUARRAY_CHECK_BOUNDS=1 makes them raise NumPy's IndexError.
"""
import operator
import warnings

import numpy

from cuarray._core import _copy, _indexing
from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core._kernel_helpers import Cache
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import flat_or_axis as _flat_or_axis
from cuarray._core.transfer import asarray

_I64 = numpy.dtype(numpy.int64)
_BOOL = numpy.dtype(numpy.bool_)
_MODES = ("raise", "wrap", "clip")


# ---- helpers --------------------------------------------------------------------------------

def _need(a, name):
    if not isinstance(a, ndarray):
        from cuarray._core.host_policy import device_array
        return device_array(a, name)
    return a


def _device(x):
    """Index-like data as a device array (host data: an explicit transfer)."""
    if isinstance(x, ndarray):
        return x
    h = numpy.asarray(x)
    if h.size == 0 and h.dtype.kind == "f" and not isinstance(x, numpy.ndarray):
        h = h.astype(numpy.intp)   # an empty list is an empty index, as in NumPy
    _dt.check_dtype(h.dtype)
    return asarray(h)


def _int_index(x, cast_sequences=False, rule="safe"):
    """An integer index array on the device; NumPy's TypeError for arrays that do not cast to
    int64 by `rule`. cast_sequences: lists of numbers are truncated (numpy.take and put)."""
    if cast_sequences and not isinstance(x, (ndarray, numpy.ndarray)):
        h = numpy.asarray(x)
        x = h.astype(numpy.intp) if h.dtype.kind == "f" else h
    x = _device(x)
    if not numpy.can_cast(x.dtype, _I64, rule):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to dtype('int64') according to "
                        f"the rule '{rule}'")
    return x.astype(_I64) if x.dtype == _BOOL else x


def _safe(values, dtype):
    """NumPy's rule for place/putmask: array values must cast safely (lists and scalars need not)."""
    if isinstance(values, (ndarray, numpy.ndarray)) and not numpy.can_cast(values.dtype, dtype, "safe"):
        raise TypeError(f"Cannot cast array data from {values.dtype!r} to {dtype!r} according to "
                        f"the rule 'safe'")


def _clipmode(mode):
    if mode not in _MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    return mode


_op = Cache()


def _fix(var, n, mode):
    """C statement bringing index `var` into [0, n): wrap or clip ('raise' wraps: it was
    checked beforehand when checking is on)."""
    if mode == "clip":
        return f"if ({var} < 0) {var} = 0; else if ({var} >= {n}) {var} = {n} - 1;"
    return (f"if ((unsigned long long){var} >= (unsigned long long){n}) "
            f"{{ {var} %= {n}; if ({var} < 0) {var} += {n}; }}")


def _check_out_kind(dtype, out, name):
    """NumPy 2.5's rule for take's (and compress's) out=: the result is cast into `out`;
    a cast the 'same_kind' rule refuses still happens, with a DeprecationWarning. (NumPy
    before 2.5 checked the reverse cast, out to result, under 'safe': a float64 take into
    a complex out raised TypeError there, and is allowed from 2.5 on.)"""
    if out is None:
        return
    out = _need(out, f"{name} out=")
    if not numpy.can_cast(dtype, out.dtype, "same_kind"):
        warnings.warn(f"Implicit casting of output to a different kind. The result of {name} "
                      f"({dtype}) is cast to out's {out.dtype}, which the 'same_kind' rule does "
                      f"not allow (deprecated in NumPy 2.5); pass an out of a compatible dtype.",
                      DeprecationWarning, stacklevel=3)


def _raise_check(x, n, axis=0):
    """NumPy's IndexError for out-of-bounds values of x, when CUARRAY_CHECK_BOUNDS is on."""
    if _indexing.check_bounds_enabled():
        bad = _indexing.first_out_of_range(x, -n, n)
        if bad is not None:
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")


def take(a, indices, axis=None, out=None, mode="raise"):
    """cuarray version of `numpy.take`. mode='raise' wraps out-of-bounds indices (raises under
    CUARRAY_CHECK_BOUNDS=1); 'wrap' and 'clip' are NumPy's."""
    a = _need(a, "take")
    mode = _clipmode(mode)
    if a.ndim == 0 and axis is not None:
        a = a.reshape(1)    # as NumPy (and CuPy): a 0-d array takes along axis 0 or -1
    a, axis = _flat_or_axis(a, axis)
    n = a._shape[axis]
    _check_out_kind(a.dtype, out, "take")
    if isinstance(indices, (int, numpy.integer)) or (isinstance(indices, numpy.ndarray) and
                                                     indices.ndim == 0):
        i = operator.index(indices)
        rest = a._shape[:axis] + a._shape[axis + 1:]
        if n == 0:
            if 0 not in rest:
                raise IndexError("cannot do a non-empty take from an empty axes.")
            return _copy.into_out(a[(slice(None),) * axis + (slice(0, 0),)].reshape(rest).copy(),
                           out, "take")
        if mode == "raise" and not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
        i = min(max(i, 0), n - 1) if mode == "clip" else i % n
        return _copy.into_out(a[(slice(None),) * axis + (i,)].copy(), out, "take")
    idx = _int_index(indices, cast_sequences=True, rule="same_kind")
    if n == 0 and idx.size:
        rest = a._shape[:axis] + a._shape[axis + 1:]
        if 0 not in rest:   # as NumPy: an error only where the result would have elements
            raise IndexError("cannot do a non-empty take from an empty axes.")
        shape = a._shape[:axis] + idx.shape + a._shape[axis + 1:]
        return _copy.into_out(a[(slice(None),) * axis + (slice(0, 0),)].reshape(shape).copy(), out,
                       "take")
    entries = [slice(None)] * axis + [idx]
    plan = _indexing.plan_index(a._shape, a._strides, entries)
    kmode = "clip" if mode == "clip" else "wrap"
    check = mode == "raise"
    if out is not None and out._shape == plan.shape and out.dtype == a.dtype and out._c_contig \
            and out._mem is not a._mem:
        return _indexing.gather(a, plan, entries, kmode, out, check)
    return _copy.into_out(_indexing.gather(a, plan, entries, kmode, None, check), out, "take")


def put(a, ind, v, mode="raise"):
    """cuarray version of `numpy.put`: a.flat[ind] = v, v repeated as needed. With repeated
    indices one of the writes wins. mode='raise' wraps (raises under CUARRAY_CHECK_BOUNDS=1)."""
    a = _need(a, "put")
    mode = _clipmode(mode)
    ind = _int_index(ind, cast_sequences=True).reshape(-1)
    vmode, val = _indexing._value(v, a.dtype)
    if ind.size == 0 or (vmode == "array" and val.size == 0):
        return
    n = a.size
    if n == 0:
        raise IndexError("cannot replace elements of an empty array")
    if mode == "raise":
        _raise_check(ind, n)
    if vmode == "array":
        val = val.reshape(-1)
        if val._mem is a._mem:
            val = val.copy()
    role = "raw" if vmode == "array" else "scalar"
    src = "v[i % v.size()]" if role == "raw" else "v"
    kmode = "clip" if mode == "clip" else "wrap"
    op = _op(("put", a.dtype.char, role, kmode), lambda: Op(
        f"cuarray_put_{a.dtype.char}_{role}_{kmode}",
        [Param("j", "in", _I64), Param("v", role, a.dtype), Param("a", "raw", a.dtype),
         Param("n", "scalar", _I64)],
        f"long long k = j; {_fix('k', 'n', kmode)} a[k] = {src};"))
    op.launch((ind, val, a, numpy.int64(n)))


def choose(a, choices, out=None, mode="raise"):
    """cuarray version of `numpy.choose`. mode='raise' checks the indices on the device and
    reads one flag (synchronises), as CuPy does."""
    mode = _clipmode(mode)
    a = _int_index(a)
    if isinstance(choices, ndarray):
        chs = [choices[k] for k in range(choices._shape[0])] if choices.ndim else [choices]
    else:
        chs = [x if isinstance(x, ndarray) else _device(x) for x in choices]
    n = len(chs)
    if n == 0:
        raise ValueError("0-length sequence.")
    dtype = numpy.result_type(*[c.dtype for c in chs])
    shape = _sh.broadcast_shapes(a._shape, *[c._shape for c in chs])
    if mode == "raise":
        if _indexing.first_out_of_range(a, 0, n) is not None:
            raise ValueError("invalid entry in choice array")
    if isinstance(choices, ndarray) and choices.dtype == dtype and choices._c_contig and \
            choices._shape[1:] == shape:
        stack = choices
    else:
        stack = ndarray._alloc((n,) + shape, dtype)
        for k, c in enumerate(chs):
            _copy.copy_into(stack[k], c)
    kmode = "clip" if mode == "clip" else "wrap"
    op = _op(("choose", dtype.char, kmode), lambda: Op(
        f"cuarray_choose_{dtype.char}_{kmode}",
        [Param("j", "in", _I64), Param("ch", "raw", dtype), Param("n", "scalar", _I64),
         Param("y", "out", dtype)],
        f"long long k = j; {_fix('k', 'n', kmode)} y = ch[k * _ind.size() + i];"))
    res = ndarray._alloc(shape, dtype)
    if res.size:
        op.launch((a, stack, numpy.int64(n), res))
    return _copy.into_out(res, out, "choose")


def _truncate_condition(cond, n, axis):
    """A 1-D condition cut to n entries; entries beyond n must all be False (NumPy's IndexError)."""
    if cond.size > n:
        extra = _indexing.nonzero(cond[n:])[0]
        if extra.size:
            first = n + int(extra[0:1].get()[0])
            raise IndexError(f"index {first} is out of bounds for axis {axis} with size {n}")
        cond = cond[:n]
    return cond


def compress(condition, a, axis=None, out=None):
    """cuarray version of `numpy.compress` (reads the selected count: synchronises)."""
    a = _need(a, "compress")
    _check_out_kind(a.dtype, out, "compress")
    cond = _device(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    a, axis = _flat_or_axis(a, axis)
    n = a._shape[axis]
    cond = _truncate_condition(cond, n, axis)
    if a.ndim == 1:
        res = _indexing.compress_flat(cond, a[:cond.size])
    else:
        idx = _indexing.nonzero(cond)[0]
        entries = [slice(None)] * axis + [idx]
        res = _indexing.gather(a, _indexing.plan_index(a._shape, a._strides, entries), entries)
    return _copy.into_out(res, out, "compress")


def _scalar_or_device(x):
    if isinstance(x, (bool, int, float, complex, numpy.generic)):
        return x
    return _device(x)


def nonzero(a):
    """cuarray version of `numpy.nonzero` (reads the count of nonzero elements: synchronises)."""
    a = _need(a, "nonzero")
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return _indexing.nonzero(a)


def diagonal_view(shape, strides, offset=0, axis1=0, axis2=1):
    """(shape, strides, byte offset) of the diagonal view (pure planning, NumPy's errors)."""
    nd = len(shape)
    if nd < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    offset = operator.index(offset)
    a1 = _axis(axis1, nd, "axis1")
    a2 = _axis(axis2, nd, "axis2")
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    n1, n2 = shape[a1], shape[a2]
    s1, s2 = strides[a1], strides[a2]
    if offset >= 0:
        n, off = min(n1, n2 - offset), offset * s2
    else:
        n, off = min(n1 + offset, n2), -offset * s1
    if n <= 0:
        n, off = 0, 0
    rest = [d for d in range(nd) if d not in (a1, a2)]
    return (tuple(shape[d] for d in rest) + (n,), tuple(strides[d] for d in rest) + (s1 + s2,), off)


def _axis(axis, nd, name):
    axis = operator.index(axis)
    if not -nd <= axis < nd:
        raise numpy.exceptions.AxisError(axis, nd, msg_prefix=name)
    return axis % nd


def diagonal(a, offset=0, axis1=0, axis2=1):
    """cuarray version of `numpy.diagonal`: a writable view, as in CuPy."""
    a = _need(a, "diagonal")
    shape, strides, off = diagonal_view(a._shape, a._strides, offset, axis1, axis2)
    return a._view(shape, strides, off)
