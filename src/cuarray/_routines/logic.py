"""Logic functions, array tests and small utilities (NumPy reference: "Logic functions",
"Binary operations" packing, "Functional programming", floating-point error handling).

Whole-array tests (`allclose`, `array_equal`, `array_equiv`) return 0-d device arrays, as
CuPy's do: nothing synchronises until the caller reads the value (`bool(...)`).
"""
import cmath
import contextlib
import contextvars
import math
import operator

import numpy

from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core import dtypes as _dt
from cuarray._core import ufunc_table as _table
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.reduction import ReduceOp, RParam
from cuarray._routines._args import _device, _flat_or_axis, _norm_axis
from cuarray._routines.joining import stack
from cuarray._routines.manipulation import expand_dims

_i64 = numpy.dtype(numpy.int64)
_u8 = numpy.dtype(numpy.uint8)
_bool = numpy.dtype(numpy.bool_)
_PY = (bool, int, float, complex)

__all__ = [
    "isclose", "allclose", "array_equal", "array_equiv", "isreal", "iscomplex", "isrealobj",
    "iscomplexobj", "isneginf", "isposinf", "isscalar", "shares_memory", "may_share_memory",
    "apply_along_axis", "apply_over_axes", "piecewise", "packbits", "unpackbits", "binary_repr",
    "asarray_chkfinite", "common_type", "result_type", "can_cast", "min_scalar_type", "errstate",
    "seterr", "geterr", "seterrcall", "geterrcall",
]

_ops = {}


def _op(key, build):
    op = _ops.get(key)
    if op is None:
        op = _ops[key] = build()
    return op


def _ctype_defs(**names):
    return "\n".join(f"typedef {_dt.ctype(dt)} {n};" for n, dt in names.items())


# ---- closeness ---------------------------------------------------------------------------------
_CLOSE_PRE = r"""
template <class V> __device__ __forceinline__ double _ic_abs(const V& v) { return fabs((double)v); }
template <class V> __device__ __forceinline__ double _ic_abs(const complex<V>& v) { return (double)cuarray_cabs(v); }
__device__ __forceinline__ double _ic_abs(const half& v) { return fabs((double)(float)v); }
template <class V> __device__ __forceinline__ bool _ic_finite(const V& v) { return isfinite(v); }
__device__ __forceinline__ bool _ic_finite(const half& v) { return isfinite((float)v); }
template <class V> __device__ __forceinline__ bool _ic_nan(const V& v) { return !(v == v); }
template <class V> __device__ __forceinline__ double _ic_d(const V& v) { return (double)v; }
__device__ __forceinline__ double _ic_d(const half& v) { return (double)(float)v; }
"""


def _kind(v, name):
    """('weak', python value) for Python scalars, else ('strong', dtype, value or array)."""
    if isinstance(v, _PY):
        return ("weak", v)
    if isinstance(v, numpy.generic):
        return ("strong", _dt.check_dtype(v.dtype), v)
    return ("strong", _device(v, name).dtype, _device(v, name))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """cuarray version of `numpy.isclose`: one kernel computing NumPy's expression
    `|a - b| <= atol + rtol * |b|` (and `a == b`) in the dtypes NumPy uses for each step.
    Returns an array (0-d for scalar inputs)."""
    if not (isinstance(rtol, _PY) and isinstance(atol, _PY)):
        return _isclose_ufuncs(a, b, rtol, atol, equal_nan)
    ka, kb = _kind(a, "isclose"), _kind(b, "isclose")
    if ka[0] == "weak" and kb[0] == "weak":
        from cuarray._core.transfer import asarray
        return asarray(numpy.asarray(numpy.isclose(a, b, rtol, atol, equal_nan)))
    # NumPy makes b inexact first; a Python b stays a (weak) Python float.
    if kb[0] == "weak":
        yv = float(b) if isinstance(b, int) else b
        dy, ydesc = None, yv
    else:
        dy = _dt.check_dtype(numpy.result_type(kb[1], 1.0))
        ydesc = dy
    D = _dt.check_dtype(numpy.result_type(ka[1], ydesc))
    x_role = "scalar" if ka[0] == "weak" or not isinstance(ka[2], ndarray) else "in"
    xs = ka[2] if x_role == "in" else D.type(ka[1] if ka[0] == "weak" else ka[2])
    if dy is None:
        # b is a Python number: its tolerance and finiteness are Python arithmetic, as in NumPy.
        tol = atol + rtol * abs(yv)
        fin = cmath.isfinite(yv) if isinstance(yv, complex) else math.isfinite(yv)
        ynan = cmath.isnan(yv) if isinstance(yv, complex) else math.isnan(yv)
        out = ndarray._alloc(xs._shape if x_role == "in" else (), _bool)
        if out.size:
            _isclose_scalar_op(D, x_role, bool(equal_nan)).launch(
                (xs, D.type(yv), _dt.real_dtype(D).type(tol), numpy.bool_(fin), numpy.bool_(ynan), out))
        return out
    y_role = "in" if isinstance(kb[2], ndarray) else "scalar"
    ys = kb[2] if y_role == "in" else dy.type(kb[2])
    out = ndarray._alloc(numpy.broadcast_shapes(*[v._shape for v in (xs, ys) if isinstance(v, ndarray)]), _bool)
    if out.size:
        RY = _dt.real_dtype(dy)
        _isclose_op(D, dy, x_role, y_role, bool(equal_nan)).launch((xs, ys, RY.type(rtol), RY.type(atol), out))
    return out


def _isclose_scalar_op(D, x_role, equal_nan):
    """isclose(x, b) for a Python number b, its tolerance `tolv` computed on the host."""
    RD = _dt.real_dtype(D)
    return _op(("isclose_s", D.char, x_role, equal_nan), lambda: Op(
        f"cuarray_isclose_s_{D.char}_{x_role[0]}",
        [Param("x", x_role, D), Param("yv", "scalar", D), Param("tolv", "scalar", RD),
         Param("fin", "scalar", _bool), Param("ynan", "scalar", _bool), Param("o", "out", _bool)],
        "const D d = cuarray_cast<D>(x - yv); const RD ad = cuarray_cast<RD>(_ic_abs(d));"
        " bool r = (_ic_d(ad) <= _ic_d(tolv) && fin) || x == yv;"
        + (" r = r || (_ic_nan(x) && ynan);" if equal_nan else "") + " o = r;",
        preamble=_ctype_defs(D=D, RD=RD) + _CLOSE_PRE, options=("--fmad=false",)))


def _isclose_op(D, dy, x_role, y_role, equal_nan):
    """isclose(x, y): |x - y| in D, the tolerance in y's (inexact) real type, as NumPy does."""
    RD, RY = _dt.real_dtype(D), _dt.real_dtype(dy)
    return _op(("isclose", D.char, dy.char, x_role, y_role, equal_nan), lambda: Op(
        f"cuarray_isclose_{D.char}{dy.char}_{x_role[0]}{y_role[0]}",
        [Param("x", x_role, D), Param("y", y_role, dy), Param("rt", "scalar", RY),
         Param("at", "scalar", RY), Param("o", "out", _bool)],
        "const D yd = cuarray_cast<D>(y); const D d = cuarray_cast<D>(x - yd);"
        " const RD ad = cuarray_cast<RD>(_ic_abs(d));"
        " const RY ay = cuarray_cast<RY>(_ic_abs(y));"
        " const RY t = cuarray_cast<RY>(at + cuarray_cast<RY>(rt * ay));"
        " bool r = (_ic_d(ad) <= _ic_d(t) && _ic_finite(y)) || x == yd;"
        + (" r = r || (_ic_nan(x) && _ic_nan(y));" if equal_nan else "") + " o = r;",
        preamble=_ctype_defs(D=D, RD=RD, RY=RY) + _CLOSE_PRE, options=("--fmad=false",)))


def _isclose_ufuncs(a, b, rtol, atol, equal_nan):
    """NumPy's isclose expression step by step (array or NumPy-scalar tolerances)."""
    x = a if isinstance(a, _PY) else _device(a, "isclose")
    y = b if isinstance(b, _PY) else _device(b, "isclose")
    rtol = rtol if isinstance(rtol, _PY) else _device(rtol, "isclose")
    atol = atol if isinstance(atol, _PY) else _device(atol, "isclose")
    if isinstance(y, ndarray):
        y = y.astype(numpy.result_type(y.dtype, 1.0), copy=False)
    elif isinstance(y, int):
        y = float(y)
    ay = _u.absolute(y) if isinstance(y, ndarray) else abs(y)
    tol = _u.add(atol, _u.multiply(rtol, ay))
    result = _u.logical_or(_u.logical_and(_u.less_equal(_u.absolute(_u.subtract(x, y)), tol),
                                          _u.isfinite(y)), _u.equal(x, y))
    if equal_nan:
        result = _u.logical_or(result, _u.logical_and(_u.isnan(x), _u.isnan(y)))
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """cuarray version of `numpy.allclose`; returns a 0-d bool array (as CuPy does) rather
    than a Python bool, so nothing synchronises until it is read."""
    return _r.all(isclose(a, b, rtol, atol, equal_nan))


# ---- equality of whole arrays ------------------------------------------------------------------
def _all_equal_op(l0, l1, nan):
    """The reduction `all(in0 == in1)` over NumPy's equal loop types (NaNs equal when `nan`)."""
    def build():
        body = _table.body("equal", (l0, l1), (_bool,))
        pre = (_CLOSE_PRE + f"__device__ __forceinline__ bool _eq({_dt.ctype(l0)} in0, "
               f"{_dt.ctype(l1)} in1) {{ bool out0; {body} return out0; }}")
        mp = "(_eq(in0, in1) || (_ic_nan(in0) && _ic_nan(in1)))" if nan else "_eq(in0, in1)"
        return ReduceOp(f"cuarray_all_equal_{l0.char}{l1.char}{'_n' if nan else ''}",
                        [RParam("in0", "in", l0), RParam("in1", "in", l1), RParam("out0", "out", _bool)],
                        mp, "a && b", "out0 = a", "true", "bool", pre)
    return _op(("all_equal", l0.char, l1.char, nan), build)


def _all_equal(a, b, shape, equal_nan):
    """0-d bool: a == b everywhere on `shape` (broadcast), NaNs equal when `equal_nan`.
    One reduction kernel, comparing with NumPy's equal loop for the two dtypes."""
    loop = numpy.equal.resolve_dtypes((a.dtype, b.dtype, None))
    l0, l1 = _dt.check_dtype(loop[0]), _dt.check_dtype(loop[1])
    out = ndarray._alloc((), _bool)
    _all_equal_op(l0, l1, equal_nan and (l0.kind in "fc" or l1.kind in "fc")).launch(
        [a, b, out], tuple(range(len(shape))), shape)
    return out


def _false():
    from cuarray._routines.creation import zeros
    return zeros((), _bool)


def array_equal(a1, a2, equal_nan=False):
    """cuarray version of `numpy.array_equal`; returns a 0-d bool array (as CuPy does)."""
    a1, a2 = _device(a1, "array_equal"), _device(a2, "array_equal")
    if a1._shape != a2._shape:
        return _false()
    return _all_equal(a1, a2, a1._shape, equal_nan)


def array_equiv(a1, a2):
    """cuarray version of `numpy.array_equiv`; returns a 0-d bool array (as CuPy does)."""
    a1, a2 = _device(a1, "array_equiv"), _device(a2, "array_equiv")
    try:
        shape = numpy.broadcast_shapes(a1._shape, a2._shape)
    except ValueError:
        return _false()
    return _all_equal(a1, a2, shape, False)


# ---- type tests ----------------------------------------------------------------------------------
def isreal(x):
    """cuarray version of `numpy.isreal`."""
    x = _device(x, "isreal")
    if x.dtype.kind == "c":
        return _u.equal(x.imag, 0)
    from cuarray._routines.creation import ones
    return ones(x._shape, _bool)


def iscomplex(x):
    """cuarray version of `numpy.iscomplex`."""
    x = _device(x, "iscomplex")
    if x.dtype.kind == "c":
        return _u.not_equal(x.imag, 0)
    from cuarray._routines.creation import zeros
    return zeros(x._shape, _bool)


def iscomplexobj(x):
    """cuarray version of `numpy.iscomplexobj` (from the dtype alone)."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = numpy.asarray(x).dtype
    return issubclass(numpy.dtype(dt).type, numpy.complexfloating)


def isrealobj(x):
    """cuarray version of `numpy.isrealobj` (from the dtype alone)."""
    return not iscomplexobj(x)


def _signbit(x):
    try:
        return _u.signbit(x)
    except TypeError as e:
        raise TypeError(f"This operation is not supported for {x.dtype} values because it would be "
                        "ambiguous.") from e


def isneginf(x, out=None):
    """cuarray version of `numpy.isneginf`."""
    x = _device(x, "isneginf")
    sb = _signbit(x)
    inf = _u.isinf(x)
    return _u.logical_and(inf, sb) if out is None else _u.logical_and(inf, sb, out=out)


def isposinf(x, out=None):
    """cuarray version of `numpy.isposinf`."""
    x = _device(x, "isposinf")
    sb = _u.logical_not(_signbit(x))
    inf = _u.isinf(x)
    return _u.logical_and(inf, sb) if out is None else _u.logical_and(inf, sb, out=out)


def isscalar(element):
    """cuarray version of `numpy.isscalar` (a cuarray array, even 0-d, is not a scalar)."""
    return numpy.isscalar(element)


# NumPy's dtype functions dispatch on cuarray arrays (NEP 18) back to cuarray: the versions
# here hand NumPy an equivalent host stand-in, so re-exporting NumPy's would recurse.
def _stand_in(a):
    return numpy.empty(0, a.dtype) if isinstance(a, ndarray) else a


def common_type(*arrays):
    """cuarray version of `numpy.common_type` (from the dtypes of cuarray or NumPy arrays)."""
    return numpy.common_type(*[_stand_in(a) for a in arrays])


def result_type(*arrays_and_dtypes):
    """cuarray version of `numpy.result_type` (arrays count by dtype, as NumPy 2 does)."""
    return numpy.result_type(*[a.dtype if isinstance(a, ndarray) else a for a in arrays_and_dtypes])


def can_cast(from_, to, casting="safe"):
    """cuarray version of `numpy.can_cast`."""
    return numpy.can_cast(from_.dtype if isinstance(from_, ndarray) else from_, to, casting)


def min_scalar_type(a):
    """cuarray version of `numpy.min_scalar_type`; a 0-d device array is read on the host
    (synchronises), since NumPy decides from its value."""
    if isinstance(a, ndarray):
        a = a.get() if a.ndim == 0 else numpy.empty(0, a.dtype)
    return numpy.min_scalar_type(a)


# ---- memory overlap ------------------------------------------------------------------------------
class _Span:
    """A device array's address layout seen through NumPy's array interface: NumPy's overlap
    solver only does arithmetic on the pointer and strides, never reads the memory."""

    __slots__ = ("_a",)

    def __init__(self, a):
        self._a = a

    @property
    def __array_interface__(self):
        a = self._a
        return {"shape": a._shape, "strides": a._strides, "typestr": a.dtype.str,
                "data": (a._ptr, False), "version": 3}


def _overlap_test(fn, a, b, max_work):
    if isinstance(a, ndarray) != isinstance(b, ndarray):
        return False  # device and host memory never overlap
    if not isinstance(a, ndarray):
        return fn(a, b, max_work=max_work)
    if a._device_id != b._device_id or a.size == 0 or b.size == 0:
        return False
    return fn(numpy.asarray(_Span(a)), numpy.asarray(_Span(b)), max_work=max_work)


def shares_memory(a, b, max_work=None):
    """cuarray version of `numpy.shares_memory`: exact, by NumPy's own solver applied to the
    arrays' device addresses and strides (no device work)."""
    return _overlap_test(numpy.shares_memory, a, b, max_work)


def may_share_memory(a, b, max_work=None):
    """cuarray version of `numpy.may_share_memory` (address bounds by default)."""
    return _overlap_test(numpy.may_share_memory, a, b, max_work)


# ---- functional programming ----------------------------------------------------------------------
def _as_result(r, name):
    return _device(r, name)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """cuarray version of `numpy.apply_along_axis`: `func1d` is called on each 1-D view (a
    Python loop; each call runs on the device)."""
    arr = _device(arr, "apply_along_axis")
    nd = arr.ndim
    axis = _norm_axis(axis, nd)
    dims = list(range(nd))
    inarr_view = arr.transpose(dims[:axis] + dims[axis + 1:] + [axis])
    inds = (ind + (Ellipsis,) for ind in numpy.ndindex(inarr_view._shape[:-1]))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _as_result(func1d(inarr_view[ind0], *args, **kwargs), "apply_along_axis")
    buff = ndarray._alloc(inarr_view._shape[:-1] + res._shape, res.dtype)
    buff_dims = list(range(buff.ndim))
    buff_permute = (buff_dims[0:axis] + buff_dims[buff.ndim - res.ndim:buff.ndim]
                    + buff_dims[axis:buff.ndim - res.ndim])
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _as_result(func1d(inarr_view[ind], *args, **kwargs), "apply_along_axis")
    return buff.transpose(buff_permute)


def apply_over_axes(func, a, axes):
    """cuarray version of `numpy.apply_over_axes`."""
    val = _device(a, "apply_over_axes")
    N = val.ndim
    if numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct shape")
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    """cuarray version of `numpy.piecewise`: constants are written through the condition
    masks; callables receive the selected elements (`x[cond]`), as in NumPy, which reads
    each selection's size on the host."""
    x = _device(x, "piecewise")
    n2 = len(funclist)
    # NumPy's rule for a single condition, where indexing a 1-D device array gives a 0-d
    # array rather than NumPy's scalar.
    if isinstance(condlist, ndarray):
        single = condlist.ndim <= 1 and x.ndim != 0
    else:
        single = numpy.isscalar(condlist) or (not isinstance(condlist[0], (list, ndarray)) and x.ndim != 0)
    if single:
        condlist = [condlist]
    if isinstance(condlist, ndarray):
        conds = condlist.astype(_bool, copy=False)
    else:
        conds = stack([_device(c, "piecewise").astype(_bool, copy=False) for c in condlist])
    n = conds._shape[0]
    if n == n2 - 1:
        condelse = _u.logical_not(_r.any(conds, axis=0, keepdims=True))
        from cuarray._routines.joining import concatenate
        conds = concatenate([conds, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    from cuarray._routines.creation import zeros
    y = zeros(x._shape, x.dtype)
    for k, func in enumerate(funclist):
        cond = conds[k]
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


# ---- bit packing -------------------------------------------------------------------------------
def _bitorder(bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder == "little"


def _axis_split(shape, axis):
    pre = post = 1
    for s in shape[:axis]:
        pre *= s
    for s in shape[axis + 1:]:
        post *= s
    return pre, post


def packbits(a, axis=None, bitorder="big"):
    """cuarray version of `numpy.packbits`: one kernel, eight inputs per output byte."""
    a = _device(a, "packbits")
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    little = _bitorder(bitorder)
    a, axis = _flat_or_axis(a, axis)
    n = a._shape[axis]
    m = (n + 7) // 8
    out = ndarray._alloc(a._shape[:axis] + (m,) + a._shape[axis + 1:], _u8)
    if out.size:
        _, post = _axis_split(a._shape, axis)
        op = _op(("packbits", a.dtype.char), lambda: Op(
            f"cuarray_packbits_{a.dtype.char}",
            [Param("x", "raw", a.dtype), Param("n", "scalar", _i64), Param("m", "scalar", _i64),
             Param("post", "scalar", _i64), Param("little", "scalar", _bool), Param("y", "out", _u8)],
            "const long long q = i % post, t = i / post, j = t % m, base = (t / m) * n;"
            " unsigned int v = 0;"
            " for (int b = 0; b < 8; ++b) { const long long k = 8 * j + b;"
            "   if (k < n && cuarray_nonzero(x[(base + k) * post + q])) v |= little ? (1u << b) : (128u >> b); }"
            " y = (unsigned char)v;"))
        op.launch((a, _i64.type(n), _i64.type(m), _i64.type(post), numpy.bool_(little), out))
    return out


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """cuarray version of `numpy.unpackbits`: one kernel, one output bit per thread."""
    a = _device(a, "unpackbits")
    if a.dtype != _u8:
        raise TypeError("Expected an input array of unsigned byte data type")
    little = _bitorder(bitorder)
    a, axis = _flat_or_axis(a, axis)
    n = a._shape[axis]
    total = 8 * n
    if count is None:
        m = total
    else:
        count = operator.index(count)
        if count < 0:
            if -count > total:
                raise ValueError("-count larger than number of elements")
            m = total + count
        else:
            m = count
    out = ndarray._alloc(a._shape[:axis] + (m,) + a._shape[axis + 1:], _u8)
    if out.size:
        _, post = _axis_split(a._shape, axis)
        op = _op(("unpackbits",), lambda: Op(
            "cuarray_unpackbits",
            [Param("x", "raw", _u8), Param("n", "scalar", _i64), Param("m", "scalar", _i64),
             Param("post", "scalar", _i64), Param("little", "scalar", _bool), Param("y", "out", _u8)],
            "const long long q = i % post, t = i / post, k = t % m, base = (t / m) * n;"
            " unsigned int v = 0;"
            " if (k < 8 * n) { const unsigned int byte = x[(base + k / 8) * post + q];"
            "   v = little ? (byte >> (k % 8)) & 1u : (byte >> (7 - k % 8)) & 1u; }"
            " y = (unsigned char)v;"))
        op.launch((a, _i64.type(n), _i64.type(m), _i64.type(post), numpy.bool_(little), out))
    return out


def binary_repr(num, width=None):
    """cuarray version of `numpy.binary_repr` (a host string; a 0-d array is read first)."""
    if isinstance(num, ndarray):
        num = num.item()
    return numpy.binary_repr(num, width)


def asarray_chkfinite(a, dtype=None, order=None):
    """cuarray version of `numpy.asarray_chkfinite`; the finiteness test reads one flag on the
    host (synchronises)."""
    from cuarray._core.transfer import asarray
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.kind in "fc" and not bool(_r.all(_u.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


# ---- floating-point error handling ----------------------------------------------------------------
_ERR_KEYS = ("divide", "over", "under", "invalid")
_ERR_VALUES = ("ignore", "warn", "raise", "call", "print", "log")
_err = contextvars.ContextVar("cuarray_errstate",
                              default=(("divide", "warn"), ("over", "warn"), ("under", "ignore"),
                                       ("invalid", "warn"), ("call", None)))


def geterr():
    """cuarray version of `numpy.geterr`. GPU kernels never trap on floating-point errors:
    the setting is recorded (and returned here) but has no effect, as in CuPy."""
    state = dict(_err.get())
    state.pop("call")
    return state


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """cuarray version of `numpy.seterr`: records the setting and returns the old one; it has
    no effect on device computations (see `geterr`)."""
    old = geterr()
    new = dict(_err.get())
    for key, value in zip(_ERR_KEYS, (divide, over, under, invalid)):
        value = value if value is not None else all
        if value is not None:
            if value not in _ERR_VALUES:
                raise ValueError(f"invalid error handling mode {value!r}; expected one of {_ERR_VALUES}")
            new[key] = value
    _err.set(tuple(new.items()))
    return old


def geterrcall():
    """cuarray version of `numpy.geterrcall` (recorded only; see `geterr`)."""
    return dict(_err.get())["call"]


def seterrcall(func):
    """cuarray version of `numpy.seterrcall` (recorded only; see `geterr`)."""
    if func is not None and not callable(func) and not hasattr(func, "write"):
        raise ValueError("Only callable can be used as callback")
    old = geterrcall()
    new = dict(_err.get())
    new["call"] = func
    _err.set(tuple(new.items()))
    return old


class errstate(contextlib.ContextDecorator):
    """cuarray version of `numpy.errstate`: a context manager (and decorator) that sets
    `seterr`/`seterrcall` inside and restores them on exit. It changes nothing on the
    device: GPU kernels never trap on floating-point errors."""

    def __init__(self, *, call=numpy._NoValue, all=None, divide=None, over=None, under=None,
                 invalid=None):
        self._call = call
        self._kwargs = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._tokens = []

    def __enter__(self):
        token = _err.set(_err.get())
        seterr(**self._kwargs)
        if self._call is not numpy._NoValue:
            seterrcall(self._call)
        self._tokens.append(token)
        return self

    def __exit__(self, *exc):
        _err.reset(self._tokens.pop())
        return False
