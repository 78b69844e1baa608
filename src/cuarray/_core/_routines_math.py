"""around and trace, the ndarray methods `round` and `trace` (public face:
`_routines/math.py`, which checks the arguments first), and `types`, the typedefs
hand-written elementwise bodies use."""
import operator

import numpy

from cuarray._core import _copy
from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import Cache
from cuarray._core._routines_indexing import diagonal
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray

_f64 = numpy.dtype(numpy.float64)
_bool = numpy.dtype(numpy.bool_)
_NO_FMA = ("--fmad=false",)  # NumPy rounds each step: a fused multiply-add would not
_op = Cache()


def types(**names):
    """typedefs for the dtypes a body names, and W<name>: the type NumPy computes in
    (float for float16, the type itself otherwise)."""
    lines = []
    for name, dt in names.items():
        c = _dt.ctype(dt)
        lines.append(f"typedef {c} {name}; typedef {'float' if c == 'half' else c} W{name};")
    return "\n".join(lines)


# ---- rounding ------------------------------------------------------------------------------------
def _power_of_ten(n):
    # NumPy's power_of_ten(): a table below 1e9, then repeated multiplication.
    if n < 9:
        return float(10 ** n)
    r = 1e9
    for _ in range(n - 9):
        r *= 10.0
    return r


_ROUND_PRE = r"""
__device__ __forceinline__ R _rnd(R x, R f, bool neg) {
  R y = neg ? R(WR(x) / WR(f)) : R(WR(x) * WR(f));
  y = R(rint(WR(y)));
  return neg ? R(WR(y) * WR(f)) : R(WR(y) / WR(f));
}
"""


def _round_op(dt, int_input):
    def build():
        if int_input:  # true_divide into float64, rint, multiply, then NumPy's cast back
            body = "double v = double(x) / f; v = rint(v); y = cuarray_cast<T>(v * f);"
            return Op(f"cuarray_round_int_{dt.char}",
                      [Param("x", "in", dt), Param("f", "scalar", _f64), Param("neg", "scalar", _bool),
                       Param("y", "out", dt)], body, preamble=types(T=dt), options=_NO_FMA)
        rd = _dt.real_dtype(dt)
        body = ("y = T(_rnd(x.real(), f, neg), _rnd(x.imag(), f, neg));" if dt.kind == "c"
                else "y = _rnd(x, f, neg);")
        return Op(f"cuarray_round_{dt.char}",
                  [Param("x", "in", dt), Param("f", "scalar", rd), Param("neg", "scalar", _bool),
                   Param("y", "out", dt)], body, preamble=types(T=dt, R=rd) + _ROUND_PRE,
                  options=_NO_FMA)
    return _op(("round", dt.char, int_input), build)


def around(a, decimals=0, out=None):
    """`numpy.around` for a cuarray array `a` and `out` (None or a cuarray array):
    NumPy's algorithm, scale, rint, unscale, in the array's dtype; integers with
    negative `decimals` go through float64."""
    decimals = operator.index(decimals)
    dt = a.dtype
    if out is not None and out._shape != a._shape:
        raise ValueError(f"output array has shape {out._shape}, expected {a._shape}")
    if dt.kind in "iu" and decimals >= 0:
        if out is None:
            return a.copy()
        _copy.copy_into(out, a)
        return out
    if decimals == 0 and dt.kind != "c":
        return _u.rint(a) if out is None else _u.rint(a, out=out)
    f = _power_of_ten(abs(decimals))
    fused = dt.kind in "fc" or (dt.kind in "iu" and out is None)
    if not fused or (out is not None and out.dtype != dt):
        # NumPy's ufunc sequence into `out` (its casting rules and errors included).
        first, second = (_u.multiply, _u.divide) if decimals >= 0 else (_u.divide, _u.multiply)
        res = out if out is not None else ndarray._alloc(a._shape, dt)
        first(a, f, out=res)
        _u.rint(res, out=res)
        second(res, f, out=res)
        return res
    res = out if out is not None else ndarray._alloc(a._shape, dt)
    if res.size:
        scale = _f64.type(f) if dt.kind in "iu" else _dt.real_dtype(dt).type(f)
        _round_op(dt, dt.kind in "iu").launch((a, scale, numpy.bool_(decimals < 0), res))
    return res




def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum along a diagonal view of `a` (a cuarray array)."""
    return _r.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)
