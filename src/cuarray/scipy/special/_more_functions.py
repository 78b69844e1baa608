"""agm, powm1, spence, softplus, diric, factorial, factorial2, factorialk, bernoulli and
euler of cuarray.scipy.special (cuarray versions of SciPy's).

agm, powm1 and spence are ufunc table rows (double-precision device code; float32 loops
round once). diric and the factorials are Python functions, as SciPy's, over private
ufuncs of the same table. bernoulli and euler build SciPy's coefficient table on the host
from exact rational recurrences and hand it to the device.
"""
import math
from fractions import Fraction

import numpy

from cuarray.scipy.special._math import SOURCE as _BASE

SOURCE_MORE = _BASE + r"""
// ---- arithmetic-geometric mean ------------------------------------------------------------
CUARRAY_FN double cusp_agm(double a, double b) {
  if (a != a || b != b) return CUSP_NAN;
  if ((a < 0 && b > 0) || (a > 0 && b < 0)) return CUSP_NAN;
  if ((isinf(a) && b == 0) || (isinf(b) && a == 0)) return CUSP_NAN;
  if (a == 0 || b == 0) return 0.0;
  double s = 1;
  if (a < 0) { a = -a; b = -b; s = -1; }   // agm(-a, -b) = -agm(a, b)
  // halves and square roots taken apart: neither a + b nor a * b may overflow
  for (int i = 0; i < 64 && a != b; ++i) {
    const double m = 0.5 * a + 0.5 * b, g = sqrt(a) * sqrt(b);
    if (fabs(m - g) <= 2.2e-16 * m) { a = m; b = m; break; }
    a = m;
    b = g;
  }
  return s * a;
}

// ---- x**y - 1 -------------------------------------------------------------------------------
CUARRAY_FN double cusp_powm1_any(double x, double y) {
  if (y == 0 || x == 1) return 0.0;   // also for a NaN partner, as SciPy
  if (x != x || y != y) return CUSP_NAN;
  if (x == 0) return y < 0 ? CUSP_INF : -1.0;
  if (x < 0) {
    if (isinf(y) || y != floor(y)) return CUSP_NAN;
    if (fmod(y, 2.0) != 0) return pow(x, y) - 1;
    x = -x;   // an even power: the accurate positive branch below
  }
  if (isinf(x) || isinf(y)) return pow(x, y) - 1;
  const double l = y * log(x);
  return fabs(l) < 0.5 ? expm1(l) : pow(x, y) - 1;
}
// SciPy gives 0, not inf, where a base in (0, 1) to a negative power overflows the type
CUARRAY_FN double cusp_powm1(double x, double y) {
  const double r = cusp_powm1_any(x, y);
  return (isinf(r) && x > 0 && x < 1 && y < 0) ? 0.0 : r;
}
CUARRAY_FN float cusp_powm1(float x, float y) {
  const double r = cusp_powm1_any(x, y);
  return (r > 3.4028234663852886e38 && x > 0 && x < 1 && y < 0) ? 0.0f : (float)r;
}

// ---- Spence's function, dilog(1 - x) -----------------------------------------------------------
// Li2(u) = sum u^k / k^2 for |u| <= 1/2
CUARRAY_FN double cusp_li2_series(double u) {
  double p = u, s = u;
  for (int k = 2; k < 80; ++k) {
    p *= u;
    const double t = p / ((double)k * k);
    s += t;
    if (fabs(t) < 1e-17 * fabs(s)) break;
  }
  return s;
}
CUARRAY_FN double cusp_spence(double x) {
  const double pi2_6 = CUSP_PI * CUSP_PI / 6;
  if (x != x || x < 0) return CUSP_NAN;
  if (x == 1) return 0.0;
  if (x == 0) return pi2_6;
  if (isinf(x)) return CUSP_NAN;   // SciPy's value
  if (x < 0.5) {   // Li2(1 - x) = pi^2/6 - log(x) log(1 - x) - Li2(x)
    return pi2_6 - log(x) * log1p(-x) - cusp_li2_series(x);
  }
  if (x <= 1.5) return cusp_li2_series(1 - x);   // 1 - x exact here
  if (x <= 2) {   // Landen: Li2(u) = -Li2(u / (u - 1)) - log(1 - u)^2 / 2, u = 1 - x
    const double lx = log(x);
    return -cusp_li2_series((x - 1) / x) - 0.5 * lx * lx;
  }
  // u = 1 - x < -1: Li2(u) = -pi^2/6 - log(-u)^2 / 2 - Li2(1 / u), then Landen on 1/u
  // in (-1, 0): Li2(1/u) = -Li2(1 / (1 - u)) - log(1 - 1/u)^2 / 2, 1 / (1 - u) = 1 / x
  const double lxm = log(x - 1), l2 = log(x / (x - 1));
  return -pi2_6 - 0.5 * lxm * lxm + cusp_li2_series(1 / x) + 0.5 * l2 * l2;
}

// ---- the Dirichlet kernel sin(n x / 2) / (n sin(x / 2)) ----------------------------------------
// SciPy's cut-off below which sin(x/2) counts as 0 depends on the precision
CUARRAY_FN double cusp_diric_core(double x, double n, double minval) {
  if (!(n > 0) || n != floor(n)) return CUSP_NAN;
  const double d = sin(x);   // x holds x / 2
  if (fabs(d) < minval) return (fmod(rint(x / CUSP_PI) * (n - 1), 2.0) == 0) ? 1.0 : -1.0;
  return sin(n * x) / (n * d);
}
CUARRAY_FN double cusp_diric(double x, double n) { return cusp_diric_core(x / 2, n, 1e-7); }
CUARRAY_FN float cusp_diric(float x, float n) {
  return (float)cusp_diric_core((double)(x / 2.0f), (double)n, 1e-3);
}

// ---- multifactorials -------------------------------------------------------------------------
// n!(k) of SciPy's extend='zero': 0 below 0, a gamma-function product (n integer when k > 1)
CUARRAY_FN double cusp_factorialk(double n, double k) {
  if (n != n) return n;
  if (n < 0) return 0.0;
  if (k == 1) return tgamma(n + 1);
  // k^((n - r)/k) Gamma(n/k + 1) / Gamma(r/k + 1) max(r, 1): SciPy's scalar form, whose
  // power has an integer exponent (SciPy's array form splits it into two inexact ones)
  const double r = fmod(n, k);
  return pow(k, (n - r) / k) * tgamma(n / k + 1) / tgamma(r / k + 1) * (r > 1 ? r : 1.0);
}
// float loop (k = 1 only): SciPy's n + 1 and gamma run in float32 for float32 and small
// integer n, then land in a float64 result
CUARRAY_FN float cusp_factorialk(float n, float k) {
  return (n != n || n < 0) ? (n < 0 ? 0.0f : n) : (float)tgamma((double)(n + 1.0f));
}
CUARRAY_FN double cusp_gamma1p(double v) { return v == -1 ? CUSP_NAN : tgamma(v + 1); }
// extend='complex' for real n and real k > 0: k^(n/k) Gamma(n/k + 1) / (k^(1/k) Gamma(1/k + 1))
CUARRAY_FN double cusp_factorialk_ext(double n, double k) {
  if (k == 1) return cusp_gamma1p(n);
  return pow(k, n / k) * cusp_gamma1p(n / k) / tgamma(1 / k + 1) / pow(k, 1 / k);
}
CUARRAY_FN float cusp_factorialk_ext(float n, float k) {   // k = 1: gamma(n + 1) of float32
  return n == -1 ? (float)CUSP_NAN : (float)tgamma((double)(n + 1.0f));
}
// the exact product n (n - k) (n - 2k) ... of int64 (callers bound n so it cannot overflow)
CUARRAY_FN long long cusp_factorialk_exact(long long n, long long k) {
  if (n < 0) return 0;
  long long r = 1;
  for (long long m = n; m > 1; m -= k) r *= m;
  return r;
}
"""

_DD_F = ["ff->f", "dd->d"]

# name: (loops in SciPy's order, C function, summary)
TABLE_MORE = {
    "agm": (_DD_F, "agm", "The arithmetic-geometric mean of a and b."),
    "powm1": (_DD_F, "powm1", "x**y - 1, accurate when y is small or x is near 1."),
    "spence": (["f->f", "d->d"], "spence", "Spence's function, the dilogarithm of 1 - z "
                                           "(real arguments)."),
    "_diric": (_DD_F, "diric", "The Dirichlet kernel."),
    "_factorialk": (_DD_F, "factorialk", "The multifactorial (SciPy's extend='zero')."),
    "_factorialk_ext": (_DD_F, "factorialk_ext",
                        "The multifactorial continued to real n (extend='complex')."),
    "_factorialk_exact": (["ll->l"], "factorialk_exact", "The multifactorial in int64."),
}


def _register():
    """Adds this table's ufuncs to cuarray.scipy.special's (their preamble holds only the
    code above)."""
    from cuarray.scipy.special._ufuncs import UFUNCS, SpecialUfunc
    for name, (types, fn, doc) in TABLE_MORE.items():
        UFUNCS[name] = SpecialUfunc(name, types, fn, f"{doc}\n\ncuarray version of "
                                    f"`scipy.special.{name.lstrip('_')}`.", SOURCE_MORE)
    return UFUNCS


_UFUNCS = _register()
agm, powm1, spence = _UFUNCS["agm"], _UFUNCS["powm1"], _UFUNCS["spence"]


def _ufunc(name):
    return _UFUNCS[name]


def _need(x, name):
    from cuarray.scipy.special._functions import _need as need
    return need(x, name)


def softplus(x, **kwargs):
    """log(1 + exp(x)) (cuarray version of `scipy.special.softplus`: `logaddexp(0, x)`,
    taking the ufunc keywords)."""
    import cuarray
    return cuarray.logaddexp(0, x, **kwargs)


def diric(x, n):
    """The periodic sinc function sin(n x / 2) / (n sin(x / 2)) (cuarray version of
    `scipy.special.diric`)."""
    from cuarray._core.ndarray import ndarray
    x = _need(x, "diric")
    # SciPy takes n as an array: a Python int is int64, so float32 x gives float64 there
    nt = n.dtype if isinstance(n, ndarray) else numpy.asarray(n).dtype
    yt = numpy.result_type(x.dtype, nt)
    if yt.kind == "c":
        raise TypeError("cuarray.scipy.special.diric has no complex loops")
    if yt.kind != "f":
        yt = numpy.dtype(numpy.float64)
    if yt.itemsize < 4:   # float16: the float32 loop (SciPy's cut-off is the same), rounded
        return _ufunc("_diric")(x, n, dtype=numpy.float32).astype(yt)
    return _ufunc("_diric")(x, n, dtype=yt)


# the largest n whose n!(k) fits int64 (SciPy's own bounds for its int64 results)
_INT64_LIMITS = {1: 20, 2: 33, 3: 44, 4: 54, 5: 65, 6: 74, 7: 84, 8: 93, 9: 101}


def _kind(t):
    """'i', 'f', 'c' or None: the kind of a scalar type or dtype, as SciPy sorts them (bool
    and everything else: None)."""
    try:
        t = numpy.dtype(t)
    except TypeError:
        return None
    for kind, base in (("i", numpy.integer), ("f", numpy.floating),
                       ("c", numpy.complexfloating)):
        if numpy.issubdtype(t, base):
            return kind
    return None


def _factorialx(fname, n, k, exact, extend):
    """factorial, factorial2 and factorialk: SciPy's checks, then the device kernels."""
    from cuarray._core.ndarray import ndarray
    if extend not in ("zero", "complex"):
        raise ValueError("argument `extend` must be either 'zero' or 'complex', received: "
                         f"{extend}")
    if exact and extend == "complex":
        raise ValueError("Incompatible options: `exact=True` and `extend='complex'`")
    unsup = f"Unsupported data type for {{}} in {fname}: {{}}"
    needs_complex = ("In order to use non-integer arguments, you must opt into this by "
                     "passing `extend='complex'`. Note that this changes the result for all "
                     "negative arguments (which by default return 0).")
    if fname == "factorialk":
        kk = _kind(type(k))
        if kk is None:
            raise ValueError(unsup.format("`k`", type(k)))
        if kk in "fc" and extend != "complex":
            raise ValueError(needs_complex)
        if extend == "zero" and k < 1:
            raise ValueError("For `extend='zero'`, k must be a positive integer, received: "
                             f"{k}")
        if k == 0:
            raise ValueError("Parameter k cannot be zero!")
    complex_kinds = "c" if fname == "factorial" else "fc"
    if not isinstance(n, ndarray) and numpy.ndim(n) == 0 and not isinstance(n, numpy.ndarray):
        nk = _kind(type(n))
        if nk is None and n is not None:
            raise ValueError(unsup.format("`n`", type(n)))
        if nk is not None and nk in complex_kinds and extend != "complex":
            raise ValueError(needs_complex)
        if exact and nk == "i" and n >= 0:
            # SciPy's exact scalar is a Python int, of any size: host integer arithmetic
            return math.prod(range(int(n), 1, -int(k)))
        if exact and nk == "i":
            return 0
        if n is None or (nk != "c" and numpy.isnan(n)):
            n, exact = numpy.float64("nan"), False   # SciPy's NaN, exact or not
        elif exact:
            raise ValueError(f"`exact=True` only supports integers, cannot use data type "
                             f"{type(n)}")
    n = _need(n, fname)
    nk = _kind(n.dtype)
    if nk is None:
        raise ValueError(unsup.format("`n`", n.dtype))
    if nk in complex_kinds and extend != "complex":
        raise ValueError(needs_complex)
    if exact and nk == "f":
        raise ValueError(f"`exact=True` only supports integers, cannot use data type "
                         f"{n.dtype}")
    if nk == "c" or (extend == "complex" and (_kind(type(k)) == "c" or k < 0)):
        raise TypeError(f"cuarray.scipy.special.{fname}: complex results are not provided")
    if n.size == 0:
        return n
    if exact:
        from cuarray._core._reductions import amax
        top = int(amax(n))   # the one size the int64 result needs checked
        if int(k) not in _INT64_LIMITS or top > _INT64_LIMITS[int(k)]:
            raise OverflowError(f"{fname}({top}, exact=True) exceeds int64 (SciPy's "
                                "object-dtype results are not provided)")
        return _ufunc("_factorialk_exact")(n.astype(numpy.int64, copy=False), int(k))
    if extend == "complex":   # float32 n keeps float32 results for k = 1, as SciPy's
        if k == 1:
            return _ufunc("_factorialk_ext")(n, 1.0)
        return _ufunc("_factorialk_ext")(n, float(k), dtype=numpy.float64)
    if k == 1:   # SciPy's gamma(n + 1) takes the float32 loop where n casts to it
        return _ufunc("_factorialk")(n, 1.0).astype(numpy.float64, copy=False)
    return _ufunc("_factorialk")(n, float(k), dtype=numpy.float64)


def factorial(n, exact=False, extend="zero"):
    """n! = gamma(n + 1) (cuarray version of `scipy.special.factorial`). exact=True takes
    integer arrays whose results fit int64 (OverflowError past 20!, where SciPy turns to
    Python ints); extend='complex' takes real n only."""
    return _factorialx("factorial", n, 1, exact, extend)


def factorial2(n, exact=False, extend="zero"):
    """The double factorial n!! (cuarray version of `scipy.special.factorial2`, with
    factorial's limits on exact=True and extend='complex')."""
    return _factorialx("factorial2", n, 2, exact, extend)


def factorialk(n, k, exact=False, extend="zero"):
    """The multifactorial n!(k) (cuarray version of `scipy.special.factorialk`, with
    factorial's limits on exact=True and extend='complex'; k > 0)."""
    return _factorialx("factorialk", n, k, exact, extend)


def _to_float(q):
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def _check_order(n):
    if not numpy.isscalar(n) or n < 0:
        raise ValueError("n must be a non-negative integer.")
    return int(n)


def _table(values):
    import cuarray
    return cuarray.asarray(numpy.array(values, dtype=numpy.float64))


def bernoulli(n):
    """The Bernoulli numbers B_0 ... B_n (B_1 = -1/2) as a float64 device array (cuarray
    version of `scipy.special.bernoulli`)."""
    n = _check_order(n)
    exact = {0: Fraction(1)}   # the nonzero ones: B_0, B_1 and the even ones
    out = [1.0]
    for m in range(1, n + 1):
        if m > 1 and m % 2:
            out.append(0.0)
            continue
        if m >= 4 and math.isinf(out[m - 2]):
            # |B_2j| grows without bound past B_14 and alternates in sign: once float64
            # overflows, every later even one is infinite too
            out.append(math.inf if (m // 2) % 2 else -math.inf)
            continue
        # sum_{j=0}^{m} C(m + 1, j) B_j = 0
        s = sum((math.comb(m + 1, j) * b for j, b in exact.items()), Fraction(0))
        exact[m] = -s / (m + 1)
        out.append(_to_float(exact[m]))
    return _table(out)


def euler(n):
    """The Euler numbers E_0 ... E_n as a float64 device array (cuarray version of
    `scipy.special.euler`)."""
    n = _check_order(n)
    exact = [1]
    out = [1.0]
    for m in range(1, n + 1):
        if m % 2:
            exact.append(0)
            out.append(0.0)
            continue
        if m > 2 and math.isinf(out[-2]):
            out.append(-math.inf if (m // 2) % 2 else math.inf)   # sign of E_2j is (-1)^j
            continue
        # sum_{j even} C(m, j) E_j = 0
        exact.append(-sum(math.comb(m, j) * exact[j] for j in range(0, m, 2)))
        out.append(_to_float(exact[-1]))
    return _table(out)
