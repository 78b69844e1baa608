"""Power-series polynomials, the `numpy.poly1d` interface (NumPy reference: "Polynomials",
"Power series (poly1d)").

Coefficients stay on the device, highest power first. Routines that decide a shape from
values (`roots` and `poly1d` trimming leading zeros, `polyfit`'s rank warning) read that one
number on the host, as CuPy's do. The module sits above `cuarray.linalg` (eigenvalues for
`roots` and `poly`, least squares for `polyfit`), which it imports on first use to keep
`import cuarray` light.
"""
import operator
import warnings

import numpy

from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core import _reductions_stats as _rs
from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import Cache
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _device
from cuarray._routines.joining import concatenate, hstack
from cuarray._routines.manipulation import atleast_1d

__all__ = ["poly1d", "poly", "polyadd", "polysub", "polymul", "polyval", "polyfit", "roots",
           "polyder", "polyint", "polydiv"]

_i64 = numpy.dtype(numpy.int64)
_f64 = numpy.dtype(numpy.float64)
_NO_FMA = ("--fmad=false",)
_op = Cache()   # key -> Op, built on first use


def _coeffs(p, name):
    if isinstance(p, poly1d):
        return p.coeffs
    return _device(p, name)


def _zeros(shape, dtype):
    from cuarray._routines.creation import zeros
    return zeros(shape, dtype)


# ---- evaluation ----------------------------------------------------------------------------------
def polyval(p, x):
    """cuarray version of `numpy.polyval`: Horner's scheme in one kernel, rounding after each
    multiply and add as NumPy's loop does. A `poly1d` `x` gives the composed polynomial."""
    if isinstance(x, poly1d):
        y = poly1d(0)
        for pv in _coeffs(p, "polyval"):
            y = y * x + poly1d(pv.reshape(1))
        return y
    p = _coeffs(p, "polyval")
    x = _device(x, "polyval")
    if p.size == 0:
        return _zeros(x._shape, x.dtype)
    if p.ndim != 1:  # NumPy iterates over the first axis; rows broadcast against x
        y = None
        for pv in p:
            y = pv + 0 * x if y is None else y * x + pv
        return y
    dt = _dt.check_dtype(numpy.result_type(x.dtype, p.dtype))
    out = ndarray._alloc(x._shape, dt)
    if out.size:
        if dt.kind == "b":
            body = "bool v = false; for (long long k = 0; k < p.size(); ++k) v = (v && xv) || p[k]; y = v;"
            U = dt
        else:
            U = numpy.dtype(f"u{dt.itemsize}") if dt.kind == "i" else dt
            body = ("const WU w = WU(cuarray_cast<U>(xv)); U v = U(0);"
                    " for (long long k = 0; k < p.size(); ++k)"
                    " v = U(WU(U(WU(v) * w)) + WU(cuarray_cast<U>(p[k])));"
                    " y = cuarray_cast<T>(v);")
        from cuarray._routines.math import _types
        op = _op(("polyval", p.dtype.char, dt.char), lambda: Op(
            f"cuarray_polyval_{p.dtype.char}{dt.char}",
            [Param("p", "raw", p.dtype), Param("xv", "in", dt), Param("y", "out", dt)], body,
            preamble=_types(T=dt, U=U), options=_NO_FMA))
        op.launch((p, x, out))
    return out


# ---- arithmetic ------------------------------------------------------------------------------------
def _combine(a1, a2, ufunc, name):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1 = atleast_1d(_coeffs(a1, name))
    a2 = atleast_1d(_coeffs(a2, name))
    diff_len = a2._shape[0] - a1._shape[0]
    if diff_len == 0:
        val = ufunc(a1, a2)
    elif diff_len > 0:
        val = ufunc(concatenate((_zeros((diff_len,), a1.dtype), a1)), a2)
    else:
        val = ufunc(a1, concatenate((_zeros((-diff_len,), a2.dtype), a2)))
    return poly1d(val) if truepoly else val


def polyadd(a1, a2):
    """cuarray version of `numpy.polyadd`."""
    return _combine(a1, a2, _u.add, "polyadd")


def polysub(a1, a2):
    """cuarray version of `numpy.polysub`."""
    return _combine(a1, a2, _u.subtract, "polysub")


def polymul(a1, a2):
    """cuarray version of `numpy.polymul` (a convolution of the coefficients)."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    from cuarray._routines.adding_removing import trim_zeros
    from cuarray._routines.statistics import convolve
    # NumPy and CuPy drop leading zeros first (NumPy by making poly1d objects).
    a1 = trim_zeros(atleast_1d(_coeffs(a1, "polymul")), trim="f")
    a2 = trim_zeros(atleast_1d(_coeffs(a2, "polymul")), trim="f")
    a1 = a1 if a1.size else _zeros((1,), a1.dtype)
    a2 = a2 if a2.size else _zeros((1,), a2.dtype)
    val = convolve(a1, a2)
    return poly1d(val) if truepoly else val


def polyder(p, m=1):
    """cuarray version of `numpy.polyder`: each step multiplies by the powers (one kernel)."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    p = atleast_1d(_coeffs(p, "polyder"))
    from cuarray._routines.creation import arange
    for _ in range(m):
        n = p._shape[0] - 1
        p = _u.multiply(p[:-1], arange(n, 0, -1))
    return poly1d(p) if truepoly else p


def polyint(p, m=1, k=None):
    """cuarray version of `numpy.polyint`."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = [0] * m
    k = numpy.atleast_1d(k) if not isinstance(k, ndarray) else atleast_1d(k)
    if len(k) == 1 and m > 1:
        k = [k[0]] * m
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    p = atleast_1d(_coeffs(p, "polyint"))
    from cuarray._routines.creation import arange, full
    for j in range(m):
        y = _u.true_divide(p, arange(p._shape[0], 0, -1))
        kj = k[j]
        kj = kj.reshape(1) if isinstance(kj, ndarray) else full((1,), kj, numpy.result_type(y.dtype, kj))
        p = concatenate((y, kj))
    return poly1d(p) if truepoly else p


def polydiv(u, v):
    """cuarray version of `numpy.polydiv`: long division, one step per quotient term
    (reads the leading coefficient's scale on the host once, for NumPy's trimming)."""
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = atleast_1d(_coeffs(u, "polydiv")).astype(numpy.result_type(_coeffs(u, "polydiv").dtype, 1.0))
    v = atleast_1d(_coeffs(v, "polydiv"))
    w = _u.add(u[0], v[0])
    m = u._shape[0] - 1
    n = v._shape[0] - 1
    scale = _u.true_divide(1.0, v[0])
    q = _zeros((max(m - n + 1, 1),), w.dtype)
    r = u.astype(w.dtype, copy=True)
    for k in range(0, m - n + 1):
        d = _u.multiply(scale, r[k])
        q[k] = d
        r[k:k + n + 1] -= _u.multiply(d, v)
    # NumPy drops leading remainder terms while allclose(r[0], 0): |r[0]| <= 1e-8.
    close = _u.less_equal(_u.absolute(r), 1e-8)
    nz = int(_rs.argmin(close).get()) if r.size and not bool(_r.all(close)) else max(r.size - 1, 0)
    r = r[nz:]
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


# ---- roots and fitting -------------------------------------------------------------------------------
def poly(seq_of_zeros):
    """cuarray version of `numpy.poly`: the coefficients of the monic polynomial with the
    given roots (or the characteristic polynomial of a square matrix). The result keeps the
    roots' type: complex roots give complex coefficients, as in CuPy."""
    x = seq_of_zeros.coeffs if isinstance(seq_of_zeros, poly1d) else _device(seq_of_zeros, "poly")
    if x.ndim == 2 and x._shape[0] == x._shape[1] and x._shape[0] != 0:
        from cuarray.linalg import eigvals
        x = eigvals(x)
    elif x.ndim == 1:
        x = x.astype(numpy.mintypecode(x.dtype.char), copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if x.size == 0:
        return 1.0
    from cuarray._routines.creation import ones
    from cuarray._routines.statistics import convolve
    a = ones((1,), x.dtype)
    one = ones((1,), x.dtype)
    for k in range(x.size):
        a = convolve(a, concatenate((one, _u.negative(x[k:k + 1]))), mode="full")
    return a


def roots(p):
    """cuarray version of `numpy.roots`: eigenvalues of the companion matrix. Reads where the
    leading and trailing zeros end on the host (synchronises once)."""
    p = atleast_1d(_coeffs(p, "roots"))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    from cuarray._routines.creation import ones
    from cuarray._routines.joining import stack
    nz = _u.not_equal(p, 0)
    first, back, anyv = (int(v) for v in stack([_rs.argmax(nz), _rs.argmax(nz[::-1]),
                                                _r.any(nz).astype(_i64)]).get()) \
        if p.size else (0, 0, 0)
    if not anyv:
        return _zeros((0,), _f64)
    last = p._shape[0] - 1 - back
    trailing_zeros = p._shape[0] - last - 1
    p = p[first:last + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(_f64)
    N = p._shape[0]
    if N > 1:
        from cuarray._routines.creation_more import diag
        A = diag(ones((N - 2,), p.dtype), -1)
        A[0, :] = -p[1:] / p[0]
        from cuarray.linalg import eigvals
        r = eigvals(A)
    else:
        r = _zeros((0,), _f64)
    return hstack((r, _zeros((trailing_zeros,), r.dtype)))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """cuarray version of `numpy.polyfit`: least squares on the scaled Vandermonde matrix
    (`linalg.lstsq`); the rank test for `RankWarning` reads the rank on the host."""
    from cuarray.linalg import inv, lstsq, matmul, outer
    from cuarray.polynomial.polynomial import polyvander
    order = operator.index(deg) + 1
    x = _device(x, "polyfit")
    y = _device(y, "polyfit")
    x = x.astype(numpy.result_type(x.dtype, 1.0), copy=False)
    y = y.astype(numpy.result_type(y.dtype, 1.0), copy=False)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x._shape[0] != y._shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.size * numpy.finfo(x.dtype).eps
    lhs = polyvander(x, deg)[:, ::-1]
    rhs = y
    if w is not None:
        w = _device(w, "polyfit")
        w = w.astype(numpy.result_type(w.dtype, 1.0), copy=False)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w._shape[0] != y._shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = _u.multiply(lhs, w[:, None])
        rhs = _u.multiply(rhs, w if rhs.ndim == 1 else w[:, None])
    if lhs.dtype.kind == "c":
        scale = _u.sqrt(_r.sum(_u.real(_u.multiply(lhs, _u.conjugate(lhs))), axis=0))
    else:
        scale = _u.sqrt(_r.sum(_u.multiply(lhs, lhs), axis=0))
    lhs = _u.true_divide(lhs, scale)
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = _u.true_divide(c.T, scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", numpy.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        base = inv(matmul(lhs.T, lhs))
        base = _u.true_divide(base, outer(scale, scale))
        if cov == "unscaled":
            fac = 1
        else:
            if x.size <= order:
                raise ValueError("the number of data points must exceed order to scale the "
                                 "covariance matrix")
            fac = _u.true_divide(resids, x.size - order)
        if y.ndim == 1:
            return c, _u.multiply(base, fac)
        return c, _u.multiply(base[:, :, None], fac)
    return c


# ---- poly1d ------------------------------------------------------------------------------------------
class poly1d:
    """cuarray version of `numpy.poly1d`: coefficients on the device, highest power first.
    Printing reads them on the host."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None and variable != c_or_r._variable:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c_or_r = atleast_1d(_device(c_or_r, "poly1d"))
        if c_or_r.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        from cuarray._routines.adding_removing import trim_zeros
        c = trim_zeros(c_or_r, trim="f")
        if c.size == 0:
            c = _zeros((1,), c_or_r.dtype)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        """The coefficients, highest power first (a device array)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        """The name of the polynomial's variable."""
        return self._variable

    @property
    def order(self):
        """The degree of the polynomial."""
        return self._coeffs.size - 1

    o = order

    @property
    def roots(self):
        """The roots of the polynomial (`roots`)."""
        return roots(self._coeffs)

    r = roots

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use "
                        "`.get()` to construct a NumPy array explicitly.")

    def get(self, stream=None):
        """The polynomial as a `numpy.poly1d` (copies the coefficients to the host)."""
        return numpy.poly1d(self._coeffs.get(stream), variable=self._variable)

    def __repr__(self):
        return repr(self.get())

    def __str__(self):
        return str(self.get())

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(_u.negative(self._coeffs))

    def __pos__(self):
        return self

    def __mul__(self, other):
        if _is_scalar(other):
            return poly1d(_u.multiply(self._coeffs, other))
        return polymul(self, _as_poly(other))

    def __rmul__(self, other):
        if _is_scalar(other):
            return poly1d(_u.multiply(other, self._coeffs))
        return polymul(_as_poly(other), self)

    def __add__(self, other):
        return polyadd(self, _as_poly(other))

    __radd__ = __add__

    def __sub__(self, other):
        return polysub(self, _as_poly(other))

    def __rsub__(self, other):
        return polysub(_as_poly(other), self)

    def __pow__(self, val):
        if not numpy.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        from cuarray._routines.creation import ones
        res = poly1d(ones((1,), self._coeffs.dtype))
        base = self
        n = int(val)
        while n:  # squaring: log2(n) convolutions instead of n
            if n & 1:
                res = polymul(res, base)
            n >>= 1
            if n:
                base = polymul(base, base)
        return res

    def __truediv__(self, other):
        if _is_scalar(other):
            return poly1d(_u.true_divide(self._coeffs, other))
        return polydiv(self, _as_poly(other))

    def __rtruediv__(self, other):
        return polydiv(_as_poly(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs._shape != other._coeffs._shape:
            return False
        return bool(_r.all(_u.equal(self._coeffs, other._coeffs)))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        ind = self.order - val
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[ind]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            zr = _zeros((key - self.order,), self._coeffs.dtype)
            self._coeffs = concatenate((zr, self._coeffs))
            ind = 0
        else:
            ind = self.order - key
        self._coeffs[ind] = val

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """The `m`-th antiderivative (`polyint`)."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The `m`-th derivative (`polyder`)."""
        return poly1d(polyder(self._coeffs, m=m))


def _is_scalar(x):
    return isinstance(x, (bool, int, float, complex, numpy.generic)) or (
        isinstance(x, ndarray) and x.ndim == 0)


def _as_poly(x):
    return x if isinstance(x, poly1d) else poly1d(x)
