"""Logic functions (NumPy reference: "Logic functions"): truth value and closeness tests,
array contents, array type testing, comparisons of whole arrays.

Whole-array tests (`allclose`, `array_equal`, `array_equiv`) return 0-d device arrays, as
CuPy's do: nothing synchronises until the caller reads the value (`bool(...)`).
"""
import cmath
import math

import numpy

from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core import dtypes as _dt
from cuarray._core import ufunc_table as _table
from cuarray._core._kernel_helpers import Cache
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.reduction import ReduceOp, RParam
from cuarray._routines._args import _array_like, _device

_bool = numpy.dtype(numpy.bool_)
_PY = (bool, int, float, complex)

__all__ = [
    "isclose", "allclose", "array_equal", "array_equiv", "isreal", "iscomplex", "isrealobj",
    "iscomplexobj", "isfortran", "isneginf", "isposinf", "isscalar", "asarray_chkfinite",
]

_op = Cache()   # key -> Op, built on first use


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
    x = _array_like(x, "isreal")
    if x.dtype.kind == "c":
        return _u.equal(x.imag, 0)
    from cuarray._routines.creation import ones
    return ones(x._shape, _bool)


def iscomplex(x):
    """cuarray version of `numpy.iscomplex`."""
    x = _array_like(x, "iscomplex")
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


def isfortran(a):
    """cuarray version of `numpy.isfortran`: True for Fortran-ordered arrays that are not also
    C-contiguous."""
    return bool(a.flags.f_contiguous and not a.flags.c_contiguous)


def isscalar(element):
    """cuarray version of `numpy.isscalar` (a cuarray array, even 0-d, is not a scalar)."""
    return numpy.isscalar(element)



def asarray_chkfinite(a, dtype=None, order=None):
    """cuarray version of `numpy.asarray_chkfinite`; the finiteness test reads one flag on the
    host (synchronises)."""
    from cuarray._core.transfer import asarray
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.kind in "fc" and not bool(_r.all(_u.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a
