"""Mathematical functions that are not ufuncs (NumPy reference: "Mathematical functions",
"Polynomials" and `trace`).

Each follows NumPy's arithmetic step by step: fused kernels round to the result dtype
after every operation NumPy performs (float16 work goes through float32, as NumPy's
does) and are compiled without fused multiply-add, so results match NumPy's bits where
CUDA's math library agrees with the host's.
"""
import numpy

from cuarray._core import _copy
from cuarray._core import _routines_math as _math
from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import Cache
from cuarray._core._routines_math import _NO_FMA, types as _types
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _device, _host_error, _norm_axis
from cuarray._core._take_put import _take_axis
from cuarray._routines.joining import concatenate

_i64 = numpy.dtype(numpy.int64)
_f64 = numpy.dtype(numpy.float64)
_c128 = numpy.dtype(numpy.complex128)
_bool = numpy.dtype(numpy.bool_)

__all__ = [
    "around", "round", "fix", "nan_to_num", "real_if_close", "diff", "ediff1d", "gradient",
    "trapezoid", "trapz", "interp", "i0", "sinc", "unwrap", "trace",
]

_op = Cache()


# ---- rounding ------------------------------------------------------------------------------------
def around(a, decimals=0, out=None):
    """cuarray version of `numpy.around` (NumPy's algorithm: scale, rint, unscale, in the
    array's dtype; integers with negative `decimals` go through float64)."""
    a = _device(a, "around")
    if out is not None and not isinstance(out, ndarray):
        raise _host_error("around", out)
    return _math.around(a, decimals, out)


round = around


def fix(x, out=None):
    """cuarray version of `numpy.fix` (rounding toward zero: NumPy's ceil/floor pair equals
    trunc, dtype included)."""
    x = _device(x, "fix")
    return _u.trunc(x) if out is None else _u.trunc(x, out=out)


_NAN_TO_NUM_PRE = r"""
__device__ __forceinline__ R _n2n(R v, R nanv, R pinf, R ninf) {
  const WR w = WR(v);
  if (w != w) return nanv;
  if (isinf(w)) return w > 0 ? pinf : ninf;
  return v;
}
"""


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """cuarray version of `numpy.nan_to_num`: one kernel (in place when copy=False)."""
    x = _device(x, "nan_to_num")
    dt = x.dtype
    if dt.kind not in "fc":
        return x.copy() if copy else x
    rd = _dt.real_dtype(dt)
    info = numpy.finfo(rd)
    to = _copy.to_scalar
    vals = (to(nan, rd), to(info.max if posinf is None else posinf, rd),
            to(info.min if neginf is None else neginf, rd))
    res = ndarray._alloc(x._shape, dt, "F" if x._f_contig and not x._c_contig else "C") if copy else x
    if x.size:
        body = ("y = T(_n2n(x.real(), nanv, pinf, ninf), _n2n(x.imag(), nanv, pinf, ninf));"
                if dt.kind == "c" else "y = _n2n(x, nanv, pinf, ninf);")
        op = _op(("nan_to_num", dt.char), lambda: Op(
            f"cuarray_nan_to_num_{dt.char}",
            [Param("x", "in", dt), Param("nanv", "scalar", rd), Param("pinf", "scalar", rd),
             Param("ninf", "scalar", rd), Param("y", "out", dt)], body,
            preamble=_types(T=dt, R=rd) + _NAN_TO_NUM_PRE))
        op.launch((x,) + vals + (res,))
    return res


def real_if_close(a, tol=100):
    """cuarray version of `numpy.real_if_close`; reads whether all imaginary parts are small
    on the host (synchronises), since the result's dtype depends on it."""
    a = _device(a, "real_if_close")
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = numpy.finfo(a.dtype).eps * tol
    if bool(_r.all(_u.less(_u.absolute(a.imag), tol))):
        return a.real
    return a


# ---- differences and integrals ---------------------------------------------------------------------
def diff(a, n=1, axis=-1, prepend=numpy._NoValue, append=numpy._NoValue):
    """cuarray version of `numpy.diff`: one kernel per order."""
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _device(a, "diff")
    nd = a.ndim
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _norm_axis(axis, nd)
    combined = [_diff_edge(prepend, a, axis), a, _diff_edge(append, a, axis)]
    combined = [c for c in combined if c is not None]
    if len(combined) > 1:
        a = concatenate(combined, axis)
    lo = (slice(None),) * axis + (slice(1, None),)
    hi = (slice(None),) * axis + (slice(None, -1),)
    op = _u.not_equal if a.dtype == _bool else _u.subtract
    for _ in range(n):
        a = op(a[lo], a[hi])
    return a


def _diff_edge(v, a, axis):
    if v is numpy._NoValue:
        return None
    v = _device(v, "diff")
    if v.ndim == 0:
        from cuarray._routines.manipulation import broadcast_to
        shape = list(a._shape)
        shape[axis] = 1
        v = broadcast_to(v, tuple(shape))
    return v


def ediff1d(ary, to_end=None, to_begin=None):
    """cuarray version of `numpy.ediff1d`: one allocation, one subtract kernel."""
    ary = _device(ary, "ediff1d").ravel()
    dt = ary.dtype
    if to_begin is None and to_end is None:
        return _u.subtract(ary[1:], ary[:-1])
    parts = []
    for name, v in (("to_begin", to_begin), ("to_end", to_end)):
        if v is None:
            parts.append(None)
            continue
        v = _device(v, "ediff1d")
        if not numpy.can_cast(v.dtype, dt, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
        parts.append(v.ravel())
    begin, end = parts
    l_begin = 0 if begin is None else begin.size
    l_end = 0 if end is None else end.size
    l_diff = max(ary.size - 1, 0)
    result = ndarray._alloc((l_diff + l_begin + l_end,), dt)
    if l_begin:
        _copy.copy_into(result[:l_begin], begin)
    if l_end:
        _copy.copy_into(result[l_begin + l_diff:], end)
    if l_diff:
        _u.subtract(ary[1:], ary[:-1], out=result[l_begin:l_begin + l_diff])
    return result


def _ndim(x):
    return x.ndim if isinstance(x, ndarray) else numpy.ndim(x)


def gradient(f, *varargs, axis=None, edge_order=1):
    """cuarray version of `numpy.gradient`. Coordinate arrays are device arrays; testing them
    for uniform spacing (as NumPy does, to pick its formula) reads one flag on the host."""
    f = _device(f, "gradient")
    N = f.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        from cuarray._routines._args import _axis_tuple
        axes = _axis_tuple(axis, N)
    len_axes = len(axes)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len_axes
    elif n == 1 and _ndim(varargs[0]) == 0:
        dx = list(varargs) * len_axes
    elif n == len_axes:
        dx = list(varargs)
        for i, distances in enumerate(dx):
            if _ndim(distances) == 0:
                continue
            distances = _device(distances, "gradient")
            if distances.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if len(distances) != f._shape[axes[i]]:
                raise ValueError("when 1d, distances must match the length of the corresponding "
                                 "dimension")
            if distances.dtype.kind in "iu":
                distances = distances.astype(_f64)
            diffx = diff(distances)
            if bool(_r.all(_u.equal(diffx, diffx[0]))):
                diffx = diffx[0]
            dx[i] = diffx
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(_f64)
        otype = _f64
    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if f._shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least "
                             "(edge_order + 1) elements are required.")
        out = ndarray._alloc(f._shape, otype)

        def at(sl):
            return (slice(None),) * ax + (sl,)
        uniform = _ndim(ax_dx) == 0
        if uniform:
            out[at(slice(1, -1))] = (f[at(slice(2, None))] - f[at(slice(None, -2))]) / (2. * ax_dx)
        else:
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            shape = [1] * N
            shape[ax] = -1
            a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[at(slice(1, -1))] = (a * f[at(slice(None, -2))] + b * f[at(slice(1, -1))]
                                     + c * f[at(slice(2, None))])
        if edge_order == 1:
            dx_0 = ax_dx if uniform else ax_dx[0]
            out[at(0)] = (f[at(1)] - f[at(0)]) / dx_0
            dx_n = ax_dx if uniform else ax_dx[-1]
            out[at(-1)] = (f[at(-1)] - f[at(-2)]) / dx_n
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[0], ax_dx[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = -dx1 / (dx2 * (dx1 + dx2))
            out[at(0)] = a * f[at(0)] + b * f[at(1)] + c * f[at(2)]
            if uniform:
                a, b, c = 0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[-2], ax_dx[-1]
                a = dx2 / (dx1 * (dx1 + dx2))
                b = -(dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[at(-1)] = a * f[at(-3)] + b * f[at(-2)] + c * f[at(-1)]
        outvals.append(out)
    return outvals[0] if len_axes == 1 else tuple(outvals)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """cuarray version of `numpy.trapezoid` (returns a 0-d array for 1-D input)."""
    y = _device(y, "trapezoid")
    if x is None:
        d = dx
    else:
        x = _device(x, "trapezoid")
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d._shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    nd = y.ndim
    axis = _norm_axis(axis, nd)
    lo = (slice(None),) * axis + (slice(1, None),)
    hi = (slice(None),) * axis + (slice(None, -1),)
    return _r.sum(d * (y[lo] + y[hi]) / 2.0, axis=axis)


trapz = trapezoid


# ---- interpolation ---------------------------------------------------------------------------------
_INTERP_SEARCH = r"""
__device__ __forceinline__ long long _interp_index(double v, const CArray<double, 1, true>& xp,
                                                   long long n) {
  // NumPy's binary_search_with_guess: -1 below, n above, else the last j with xp[j] <= v.
  if (v > xp[n - 1]) return n;
  if (v < xp[0LL]) return -1;
  long long lo = 0, hi = n;
  while (lo < hi) { const long long mid = lo + ((hi - lo) >> 1); if (v >= xp[mid]) lo = mid + 1; else hi = mid; }
  return lo - 1;
}
__device__ __forceinline__ double _interp_part(double v, double x0, double x1, double y0, double y1,
                                               double slope) {
  double r = slope * (v - x0) + y0;
  if (r != r) { r = slope * (v - x1) + y1; if (r != r && y0 == y1) r = y0; }
  return r;
}
"""

_INTERP_REAL = (
    "const double v = x; const double lv = has_left ? lval : fp[0LL];"
    " const double rv = has_right ? rval : fp[n - 1];"
    " if (n == 1) { y = v < xp[0LL] ? lv : (v > xp[0LL] ? rv : fp[0LL]); }"
    " else if (v != v) { y = v; }"
    " else { const long long j = _interp_index(v, xp, n);"
    "   if (j == -1) y = lv; else if (j == n) y = rv; else if (j == n - 1) y = fp[j];"
    "   else if (xp[j] == v) y = fp[j];"
    "   else { const double s = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);"
    "          y = _interp_part(v, xp[j], xp[j + 1], fp[j], fp[j + 1], s); } }")

_INTERP_COMPLEX = (
    "typedef complex<double> Z; const double v = x; const Z lv = has_left ? lval : fp[0LL];"
    " const Z rv = has_right ? rval : fp[n - 1];"
    " if (n == 1) { y = v < xp[0LL] ? lv : (v > xp[0LL] ? rv : fp[0LL]); }"
    " else if (v != v) { y = Z(v, 0.0); }"
    " else { const long long j = _interp_index(v, xp, n);"
    "   if (j == -1) y = lv; else if (j == n) y = rv; else if (j == n - 1) y = fp[j];"
    "   else if (xp[j] == v) y = fp[j];"
    "   else { const double inv = 1.0 / (xp[j + 1] - xp[j]); const Z a = fp[j], b = fp[j + 1];"
    "          y = Z(_interp_part(v, xp[j], xp[j + 1], a.re, b.re, (b.re - a.re) * inv),"
    "                _interp_part(v, xp[j], xp[j + 1], a.im, b.im, (b.im - a.im) * inv)); } }")


def interp(x, xp, fp, left=None, right=None, period=None):
    """cuarray version of `numpy.interp`: one kernel, a binary search per point (float64,
    or complex128 for complex `fp`, as NumPy computes)."""
    x, xp, fp = (_device(v, "interp") for v in (x, xp, fp))
    for v in (x, xp):
        if v.dtype.kind == "c":
            raise TypeError(f"Cannot cast array data from {v.dtype!r} to dtype('float64') according "
                            "to the rule 'safe'")
    cplx = fp.dtype.kind == "c"
    ft = _c128 if cplx else _f64
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp, fp = x.astype(_f64), xp.astype(_f64), fp.astype(ft)
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp._shape[0] != fp._shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = _u.remainder(x, period)
        xp = _u.remainder(xp, period)
        from cuarray._core._routines_sorting import argsort
        order = argsort(xp).astype(_i64, copy=False)
        xp, fp = _take_axis(xp, order, 0), _take_axis(fp, order, 0)
        xp = concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = concatenate((fp[-1:], fp, fp[0:1]))
    if xp.ndim > 1 or fp.ndim > 1:
        raise ValueError("object too deep for desired array")
    if xp.ndim == 0 or fp.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    n = xp._shape[0]
    if n == 0:
        raise ValueError("array of sample points is empty")
    if fp._shape[0] != n:
        raise ValueError("fp and xp are not of the same length.")
    xp = xp.astype(_f64, order="C", copy=False)  # the raw kernel parameters are C-contiguous
    fp = fp.astype(ft, order="C", copy=False)
    out = ndarray._alloc(x._shape, ft)
    if out.size:
        op = _op(("interp", cplx), lambda: Op(
            f"cuarray_interp_{'c' if cplx else 'r'}",
            [Param("x", "in", _f64), Param("xp", "raw", _f64), Param("fp", "raw", ft),
             Param("n", "scalar", _i64), Param("has_left", "scalar", _bool), Param("lval", "scalar", ft),
             Param("has_right", "scalar", _bool), Param("rval", "scalar", ft), Param("y", "out", ft)],
            _INTERP_COMPLEX if cplx else _INTERP_REAL, preamble=_INTERP_SEARCH, options=_NO_FMA))
        lv = _scalar_of(left, ft)
        rv = _scalar_of(right, ft)
        op.launch((x, xp, fp, _i64.type(n), numpy.bool_(left is not None), lv,
                   numpy.bool_(right is not None), rv, out))
    return out


def _scalar_of(v, dt):
    if v is None:
        return dt.type(0)
    if isinstance(v, ndarray):
        v = v.get()[()]
    if dt.kind != "c" and numpy.iscomplexobj(v):
        raise TypeError("must be real number, not complex")
    return dt.type(v)


# ---- special functions --------------------------------------------------------------------------
_I0A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
        1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
        -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
        9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
        -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
        1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
        -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
        1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
        -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
        1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
        3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
        1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
        -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
        7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
        -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
        3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
        2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
        8.04490411014108831608E-1)

# Cephes' Chebyshev series as NumPy evaluates it: every operation in the array's dtype.
_I0_PRE = (
    "__device__ const double _i0A[30] = {" + ", ".join(repr(c) for c in _I0A) + "};\n"
    "__device__ const double _i0B[25] = {" + ", ".join(repr(c) for c in _I0B) + "};\n" + r"""
__device__ __forceinline__ T _chbevl(T x, const double* vals, int n) {
  T b0 = T(vals[0]), b1 = T(0), b2 = T(0);
  for (int i = 1; i < n; ++i) {
    b2 = b1; b1 = b0;
    b0 = T(WT(T(WT(T(WT(x) * WT(b1))) - WT(b2))) + WT(T(vals[i])));
  }
  return T(WT(T(0.5)) * WT(T(WT(b0) - WT(b2))));
}
__device__ __forceinline__ T _i0(T x) {
  x = T(fabs(WT(x)));
  const T e = T(exp(WT(x)));
  if (WT(x) <= WT(8.0)) {
    const T z = T(WT(T(WT(x) / WT(T(2.0)))) - WT(T(2.0)));
    return T(WT(e) * WT(_chbevl(z, _i0A, 30)));
  }
  const T z = T(WT(T(WT(T(32.0)) / WT(x))) - WT(T(2.0)));
  return T(WT(T(WT(e) * WT(_chbevl(z, _i0B, 25)))) / WT(T(sqrt(WT(x)))));
}
""")


def i0(x):
    """cuarray version of `numpy.i0` (the modified Bessel function of order 0, Cephes'
    Chebyshev expansion as NumPy evaluates it)."""
    x = _device(x, "i0")
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    dt = x.dtype if x.dtype.kind == "f" else _f64
    out = ndarray._alloc(x._shape, dt)
    if out.size:
        op = _op(("i0", dt.char), lambda: Op(
            f"cuarray_i0_{dt.char}", [Param("x", "in", dt), Param("y", "out", dt)], "y = _i0(x);",
            preamble=_types(T=dt) + _I0_PRE, options=_NO_FMA))
        op.launch((x, out))
    return out


_SINC_REAL = "const T v = T(WT(pi) * WT(x)); const T s = v != T(0) ? v : eps; y = T(WT(T(sin(WT(s)))) / WT(s));"
_SINC_COMPLEX = "const T v = T(pi) * x; const T s = (v.re != 0 || v.im != 0) ? v : eps; y = sin(s) / s;"


def sinc(x):
    """cuarray version of `numpy.sinc`: one kernel doing NumPy's `sin(y) / y` with
    `y = pi * x` (zeros replaced by the dtype's eps), in the result dtype."""
    x = _device(x, "sinc")
    dt = _dt.check_dtype(numpy.result_type(x.dtype, 1.0))
    out = ndarray._alloc(x._shape, dt)
    if out.size:
        eps = numpy.finfo(dt).eps if dt.kind == "f" else dt.type(1e-20)
        op = _op(("sinc", dt.char), lambda: Op(
            f"cuarray_sinc_{dt.char}",
            [Param("x", "in", dt), Param("pi", "scalar", _dt.real_dtype(dt)), Param("eps", "scalar", dt),
             Param("y", "out", dt)], _SINC_COMPLEX if dt.kind == "c" else _SINC_REAL,
            preamble=_types(T=dt), options=_NO_FMA))
        op.launch((x, _dt.real_dtype(dt).type(numpy.pi), dt.type(eps), out))
    return out


def unwrap(p, discont=None, axis=-1, *, period=2 * numpy.pi):
    """cuarray version of `numpy.unwrap` (NumPy's sequence of array operations)."""
    p = _device(p, "unwrap")
    nd = p.ndim
    dd = diff(p, axis=axis)
    axis = _norm_axis(axis, nd)
    if discont is None:
        discont = period / 2
    dtype = numpy.result_type(dd.dtype, period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _u.add(_u.remainder(_u.subtract(dd, interval_low), period), interval_low)
    if boundary_ambiguous:
        mask = _u.logical_and(_u.equal(ddmod, interval_low), _u.greater(dd, 0))
        ddmod = _u.where(mask, _scalar_as(interval_high, ddmod.dtype), ddmod)
    ph_correct = _u.subtract(ddmod, dd)
    ph_correct = _u.where(_u.less(_u.absolute(dd), discont), ph_correct.dtype.type(0), ph_correct)
    up = p.astype(dtype, copy=True)
    sl = (slice(None),) * axis + (slice(1, None),)
    from cuarray._core import scan
    up[sl] = _u.add(p[sl], scan.cumsum(ph_correct, axis))
    return up


def _scalar_as(v, dt):
    return _copy.to_scalar(v, dt)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """cuarray version of `numpy.trace`: the sum along a diagonal view (a 0-d array for 2-D
    input)."""
    return _math.trace(_device(a, "trace"), offset, axis1, axis2, dtype, out)
