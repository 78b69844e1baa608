"""The distributions shared by RandomState and Generator, and how one draw is launched.

A draw converts its parameters (Python scalars stay scalars; NumPy data and lists are
checked on the host, then uploaded; cuarray arrays are checked by a small kernel, which
synchronises), works out the output shape as NumPy does, and runs either a vectorised
Philox kernel (closed-form distributions with scalar parameters) or an element kernel
(everything else, and the stateful bit generators).
"""
import math
import operator
import warnings
from typing import Callable, NamedTuple

import numpy

from cuarray._core._out import into_out
from cuarray._core.ndarray import ndarray
from cuarray.random import _kernels
from cuarray.random._bit_generator import kernel

_KIND_DTYPE = {"d": numpy.dtype(numpy.float64), "l": numpy.dtype(numpy.int64)}
_I64 = numpy.iinfo(numpy.int64)
_MASK64 = (1 << 64) - 1
_POISSON_LAM_MAX = float(_I64.max - numpy.sqrt(_I64.max) * 10)


class _Cond(NamedTuple):
    """A parameter condition that is an error: C over a0..a2, NumPy over a list of arrays."""
    c: str
    np: Callable
    message: str
    exc: type = ValueError


def _non_negative(j, name):  # NumPy's CONS_NON_NEGATIVE: -0.0 counts as negative, NaN passes
    return _Cond(f"!isnan(a{j}) && signbit(a{j})",
                 lambda a: ~numpy.isnan(a[j]) & numpy.signbit(a[j]), f"{name} < 0")


def _positive(j, name):  # CONS_POSITIVE
    return _Cond(f"a{j} <= 0", lambda a: a[j] <= 0, f"{name} <= 0")


def _int_non_negative(j, name):
    return _Cond(f"a{j} < 0", lambda a: a[j] < 0, f"{name} < 0")


def _prob(j, name, c, np_fn, message):
    return _Cond(c.format(a=f"a{j}"), lambda a: np_fn(a[j]), message.format(name=name))


_CONDS = {
    "uniform": [_Cond("!isfinite(a1 - a0)", lambda a: ~numpy.isfinite(a[1] - a[0]),
                      "Range exceeds valid bounds", OverflowError)],
    "normal": [_non_negative(1, "scale")],
    "lognormal": [_non_negative(1, "sigma")],
    "exponential": [_non_negative(0, "scale")],
    "gumbel": [_non_negative(1, "scale")],
    "laplace": [_non_negative(1, "scale")],
    "logistic": [_non_negative(1, "scale")],
    "rayleigh": [_non_negative(0, "scale")],
    "weibull": [_non_negative(0, "a")],
    "pareto": [_positive(0, "a")],
    "power": [_positive(0, "a")],
    "triangular": [_Cond("a0 > a1", lambda a: a[0] > a[1], "left > mode"),
                   _Cond("a1 > a2", lambda a: a[1] > a[2], "mode > right"),
                   _Cond("a0 == a2", lambda a: a[0] == a[2], "left == right")],
    "standard_gamma": [_non_negative(0, "shape")],
    "gamma": [_non_negative(0, "shape"), _non_negative(1, "scale")],
    "beta": [_positive(0, "a"), _positive(1, "b")],
    "chisquare": [_positive(0, "df")],
    "noncentral_chisquare": [_positive(0, "df"), _non_negative(1, "nonc")],
    "f": [_positive(0, "dfnum"), _positive(1, "dfden")],
    "noncentral_f": [_positive(0, "dfnum"), _positive(1, "dfden"), _non_negative(2, "nonc")],
    "standard_t": [_positive(0, "df")],
    "vonmises": [_non_negative(1, "kappa")],
    "wald": [_positive(0, "mean"), _positive(1, "scale")],
    "poisson": [_non_negative(0, "lam"),
                _Cond(f"a0 > {_POISSON_LAM_MAX!r}", lambda a: a[0] > _POISSON_LAM_MAX,
                      "lam value too large")],
    "binomial": [_int_non_negative(0, "n"),
                 _prob(1, "p", "!({a} >= 0 && {a} <= 1)", lambda x: ~((x >= 0) & (x <= 1)),
                       "{name} < 0, {name} > 1 or {name} is NaN")],
    "negative_binomial": [_Cond("!(a0 > 0)", lambda a: ~(a[0] > 0), "n <= 0"),
                          _prob(1, "p", "!({a} > 0 && {a} <= 1)", lambda x: ~((x > 0) & (x <= 1)),
                                "{name} <= 0, {name} > 1 or {name} contains NaNs")],
    "geometric": [_prob(0, "p", "!({a} > 0 && {a} <= 1)", lambda x: ~((x > 0) & (x <= 1)),
                        "{name} <= 0, {name} > 1 or {name} contains NaNs")],
    "hypergeometric": [_int_non_negative(0, "ngood"), _int_non_negative(1, "nbad"),
                       _int_non_negative(2, "nsample"),
                       _Cond("a0 + a1 < a2", lambda a: a[0] + a[1] < a[2], "ngood + nbad < nsample")],
    "logseries": [_prob(0, "p", "!({a} >= 0 && {a} < 1)", lambda x: ~((x >= 0) & (x < 1)),
                        "{name} < 0, {name} >= 1 or {name} is NaN")],
    "zipf": [_Cond("!(a0 > 1)", lambda a: ~(a[0] > 1), "a <= 1 or a is NaN")],
}


# ---- sizes, dtypes and parameters ------------------------------------------------------------
def _size(size):
    """None, or `size` as a tuple of non-negative ints."""
    if size is None:
        return None
    try:
        shape = (operator.index(size),)
    except TypeError:
        shape = tuple(operator.index(s) for s in size)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def _float_dtype(dtype):
    dtype = numpy.dtype(dtype)
    if dtype.char not in "fd":
        raise TypeError(f"cuarray.random only supports float32 and float64, got {dtype}")
    return dtype


def _int_dtype(dtype):
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "iu":
        raise TypeError(f"Unsupported dtype {dtype.name!r}: an integer dtype is needed")
    return dtype


def _i64(x):
    """A Python int as the int64 with the same low 64 bits (uint64 bounds wrap, on purpose)."""
    x = int(x) & _MASK64
    return numpy.int64(x - (1 << 64) if x >= 1 << 63 else x)


def _contiguous(a, dtype):
    if a.dtype == dtype and a._c_contig:
        return a
    return a.astype(dtype, order="C")


class _P:
    """One distribution parameter: a Python scalar, or an array (host copy and/or device)."""

    __slots__ = ("kind", "scalar", "host", "dev", "shape")

    def __init__(self, value, kind):
        self.kind, self.scalar, self.host, self.dev = kind, None, None, None
        dtype = _KIND_DTYPE[kind]
        if isinstance(value, ndarray):
            if value.dtype.kind not in "biuf":
                raise TypeError(f"distribution parameters must be real numbers, not {value.dtype}")
            self.dev, self.shape = _contiguous(value, dtype), value.shape
            return
        a = numpy.asarray(value)
        if a.dtype.kind not in "biuf":
            raise TypeError(f"distribution parameters must be real numbers, not {a.dtype}")
        if a.ndim == 0:
            self.scalar, self.shape = (float(a) if kind == "d" else int(a)), ()
        else:
            self.host, self.shape = a.astype(dtype), a.shape

    def host_value(self):
        if self.host is not None:
            return self.host
        return numpy.asarray(self.scalar, _KIND_DTYPE[self.kind])

    def upload(self):
        if self.host is not None and self.dev is None:
            from cuarray import asarray
            self.dev = asarray(self.host)


def _broadcast(shapes):
    """NumPy's broadcast of shape tuples (cheaper than numpy.broadcast_shapes per call)."""
    nd = max((len(s) for s in shapes), default=0)
    out = [1] * nd
    for s in shapes:
        for d, n in enumerate(s, nd - len(s)):
            if n != out[d]:
                if out[d] != 1 and n != 1:
                    raise ValueError("shape mismatch: objects cannot be broadcast to a single "
                                     f"shape: {' and '.join(map(str, shapes))}")
                out[d] = n if out[d] == 1 else out[d]
    return tuple(out)


def _layout(pshape, oshape):
    """(div, mod) so that element i of `oshape` reads element (i // div) % mod of a
    C-contiguous array of `pshape` (mod 0: element i); None when the axes the parameter
    keeps are not one contiguous run of `oshape` (then it is materialised)."""
    nd = len(oshape)
    ps = (1,) * (nd - len(pshape)) + tuple(pshape)
    kept = [d for d in range(nd) if ps[d] != 1]
    if not kept:
        return 1, 1
    first, last = kept[0], kept[-1]
    if any(ps[d] == 1 and oshape[d] != 1 for d in range(first, last + 1)):
        return None
    div, mod = math.prod(oshape[last + 1:]), math.prod(oshape[first:last + 1])
    return (1, 0) if div == 1 and mod == math.prod(oshape) else (div, mod)


def _param_args(params, shape):
    """Kernel arguments (pointer, div, mod, scalar) for each parameter, for output `shape`."""
    args = []
    for p in params:
        zero = numpy.float64(0.0) if p.kind == "d" else numpy.int64(0)
        if p.dev is None:
            value = numpy.float64(p.scalar) if p.kind == "d" else _i64(p.scalar)
            args += [None, numpy.int64(1), numpy.int64(1), value]
            continue
        arr, lay = p.dev, _layout(p.shape, shape)
        if lay is None:
            from cuarray import broadcast_to
            arr, lay = _contiguous(broadcast_to(arr, shape), arr.dtype), (1, 0)
        args += [arr, numpy.int64(lay[0]), numpy.int64(lay[1]), zero]
    return args


def _validate(tag, params, conds):
    """Raise NumPy's error for the first violated condition; leaves every array on the device."""
    if conds and all(p.dev is None for p in params):
        vals = [p.host_value() for p in params]
        with numpy.errstate(all="ignore"):
            for c in conds:
                if numpy.any(c.np(vals)):
                    raise c.exc(c.message)
    for p in params:
        p.upload()
    if conds and any(p.dev is not None for p in params):
        counts = _count(tag, params, conds)
        for c, k in zip(conds, counts):
            if k:
                raise c.exc(c.message)


def _count(tag, params, conds):
    """How many elements violate each condition, counted on the device (synchronises)."""
    from cuarray import zeros
    shape = _broadcast([p.shape for p in params])
    n = math.prod(shape)
    counts = zeros(len(conds), numpy.uint64)
    if n:
        k = kernel(_kernels.check_kernel, tag, "".join(p.kind for p in params),
                   tuple(c.c for c in conds))
        k(k.grid(n), (counts, numpy.int64(n), *_param_args(params, shape)))
    return [int(x) for x in counts.get()]


def _out_shape(size, params, out):
    pshape = _broadcast([p.shape for p in params])
    shape = _size(size)
    if shape is None:
        shape = pshape if out is None else out.shape
    if pshape and _broadcast([pshape, shape]) != shape:
        raise ValueError(f"shape mismatch: parameters of shape {pshape} cannot be broadcast to "
                         f"size {shape}")
    return shape


def _output(out, shape, dtype, needs_c):
    if out is None:
        return ndarray._alloc(shape, dtype)
    if not isinstance(out, ndarray):
        raise TypeError(f"out must be a cuarray.ndarray, not {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"Supplied output array has the wrong type. Expected {dtype.name}, "
                        f"got {out.dtype.name}")
    if out.shape != shape:
        raise ValueError("size must match out.shape when used together")
    if not (out._c_contig or (out._f_contig and not needs_c)):
        raise ValueError("Supplied output array is not contiguous, writable or aligned.")
    return out


def draw(bg, dist, values, size, dtype, out=None, conds=None, vec=None, row=False):
    """Samples of `dist` (a `_kernels.DISTS` or, with `vec`, `ROW_DISTS` name).

    `vec` is a device vector (or a function giving it, called once the parameters are
    checked) for row kernels; with `row`, each item of `size` is a row of len(vec) outputs.
    """
    kinds = (_kernels.ROW_DISTS if vec is not None else _kernels.DISTS)[dist][0]
    params = [_P(v, k) for v, k in zip(values, kinds)]
    shape = _out_shape(size, params, out)
    _validate(dist, params, _CONDS.get(dist, ()) if conds is None else conds)
    if callable(vec):
        vec = vec()
    has_arrays = any(p.dev is not None for p in params)
    out = _output(out, shape + ((vec.size,) if row else ()), dtype, has_arrays)
    n = math.prod(shape)
    if out.size == 0:
        return out
    if vec is not None:
        args = _param_args(params, shape) + [vec, numpy.int64(vec.size)]
        bg._element(_kernels.row_kernel, (dist, bg._engine, dtype.char), out, n, args)
        return out
    bulk = _kernels.DISTS[dist][2]
    if bulk is not None and not has_arrays and bg._engine == "philox" and dtype.char in "fd":
        s = [numpy.float64(p.scalar) for p in params]
        s += [numpy.float64(0.0)] * (3 - len(s))
        bg._bulk(_kernels.bulk_kernel, (dist, dtype.char), out, 4 if dtype.char == "f" else 2, s)
    else:
        bg._element(_kernels.element_kernel, (dist, bg._engine, dtype.char), out, n,
                    _param_args(params, shape))
    return out


def bounded(bg, out, lo, rm1):
    """Fill `out` with integers uniform on [lo, lo + rm1] (Python ints; rm1 < 2**64)."""
    if out.size == 0:
        return out
    c = out.dtype.char
    if bg._engine != "philox":
        args = [None, numpy.int64(1), numpy.int64(1), _i64(lo), None, numpy.int64(1),
                numpy.int64(1), _i64(lo + rm1), None, numpy.int64(1), numpy.int64(1), numpy.int64(0)]
        bg._element(_kernels.element_kernel, ("integers", bg._engine, c), out, out.size, args)
    elif rm1 < 1 << 32:  # one word per output, 4 per block; reject below 2^32 mod range
        r = rm1 + 1
        bg._bulk(_kernels.bounded_kernel, (c, False), out, 4,
                 (numpy.uint64(r), numpy.uint64((1 << 32) % r), numpy.uint64(lo & _MASK64)))
    else:  # two words per output; reject below 2^64 mod range
        r = rm1 + 1
        bg._bulk(_kernels.bounded_kernel, (c, True), out, 2,
                 (numpy.uint64(rm1), numpy.uint64((1 << 64) % r), numpy.uint64(lo & _MASK64)))
    return out


def _host_vector(x, dtype, name):
    """A 1-d parameter vector as a host copy to validate (reading a cuarray vector back
    synchronises) and a function giving it on the device."""
    host = x.get() if isinstance(x, ndarray) else numpy.asarray(x)
    if host.ndim != 1:
        raise ValueError(f"{name} must be a one-dimensional sequence")
    if host.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, not {host.dtype}")
    host = host.astype(dtype)

    def device():
        from cuarray import asarray
        return _contiguous(x, numpy.dtype(dtype)) if isinstance(x, ndarray) else asarray(host)
    return host, device


def _is_int_scalar(x):
    return isinstance(x, (int, numpy.integer)) or (
        isinstance(x, numpy.ndarray) and x.ndim == 0 and x.dtype.kind in "iu")


class _Distributions:
    """Distribution methods shared by `RandomState` and `Generator`.

    Each returns a cuarray array; `size=None` with scalar parameters gives a 0-d array
    (as CuPy), not a Python scalar. Float methods take `dtype` float32 or float64 (CuPy's
    extension); integer methods take an integer `dtype`.
    """

    def _f(self, dist, values, size, dtype, out=None):
        return draw(self._bit_generator, dist, values, size, _float_dtype(dtype), out)

    def _i(self, dist, values, size, dtype):
        return draw(self._bit_generator, dist, values, size, _int_dtype(dtype))

    # ---- closed-form continuous distributions ----------------------------------------------
    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.uniform`."""
        return self._f("uniform", (low, high), size, dtype)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.normal` (Box-Muller)."""
        return self._f("normal", (loc, scale), size, dtype)

    def standard_normal(self, size=None, dtype=float, out=None):
        """cuarray version of `numpy.random.Generator.standard_normal` (Box-Muller)."""
        return self._f("normal", (0.0, 1.0), size, dtype, out)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.lognormal`."""
        return self._f("lognormal", (mean, sigma), size, dtype)

    def exponential(self, scale=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.exponential` (inversion)."""
        return self._f("exponential", (scale,), size, dtype)

    def standard_exponential(self, size=None, dtype=float, method="inv", out=None):
        """cuarray version of `numpy.random.Generator.standard_exponential`.

        Both methods ('inv', 'zig') draw by inversion: the same distribution.
        """
        if method not in ("inv", "zig"):
            raise ValueError(f"method must be 'inv' or 'zig', got {method!r}")
        return self._f("exponential", (1.0,), size, dtype, out)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.gumbel`."""
        return self._f("gumbel", (loc, scale), size, dtype)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.laplace`."""
        return self._f("laplace", (loc, scale), size, dtype)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.logistic`."""
        return self._f("logistic", (loc, scale), size, dtype)

    def rayleigh(self, scale=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.rayleigh`."""
        return self._f("rayleigh", (scale,), size, dtype)

    def weibull(self, a, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.weibull`."""
        return self._f("weibull", (a,), size, dtype)

    def pareto(self, a, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.pareto` (Lomax, as NumPy)."""
        return self._f("pareto", (a,), size, dtype)

    def power(self, a, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.power`."""
        return self._f("power", (a,), size, dtype)

    def standard_cauchy(self, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.standard_cauchy`."""
        return self._f("standard_cauchy", (), size, dtype)

    def triangular(self, left, mode, right, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.triangular`."""
        return self._f("triangular", (left, mode, right), size, dtype)

    # ---- continuous distributions by rejection ---------------------------------------------
    def standard_gamma(self, shape, size=None, dtype=float, out=None):
        """cuarray version of `numpy.random.Generator.standard_gamma` (Marsaglia-Tsang)."""
        return self._f("standard_gamma", (shape,), size, dtype, out)

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.gamma` (Marsaglia-Tsang)."""
        return self._f("gamma", (shape, scale), size, dtype)

    def beta(self, a, b, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.beta`."""
        return self._f("beta", (a, b), size, dtype)

    def chisquare(self, df, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.chisquare`."""
        return self._f("chisquare", (df,), size, dtype)

    def noncentral_chisquare(self, df, nonc, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.noncentral_chisquare`."""
        return self._f("noncentral_chisquare", (df, nonc), size, dtype)

    def f(self, dfnum, dfden, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.f`."""
        return self._f("f", (dfnum, dfden), size, dtype)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.noncentral_f`."""
        return self._f("noncentral_f", (dfnum, dfden, nonc), size, dtype)

    def standard_t(self, df, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.standard_t`."""
        return self._f("standard_t", (df,), size, dtype)

    def vonmises(self, mu, kappa, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.vonmises` (Best-Fisher)."""
        return self._f("vonmises", (mu, kappa), size, dtype)

    def wald(self, mean, scale, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.wald`."""
        return self._f("wald", (mean, scale), size, dtype)

    # ---- discrete distributions ------------------------------------------------------------
    def poisson(self, lam=1.0, size=None, dtype=int):
        """cuarray version of `numpy.random.Generator.poisson` (PTRS for lam >= 10)."""
        return self._i("poisson", (lam,), size, dtype)

    def binomial(self, n, p, size=None, dtype=int):
        """cuarray version of `numpy.random.Generator.binomial` (inversion; BTRS for n p >= 10)."""
        return self._i("binomial", (n, p), size, dtype)

    def negative_binomial(self, n, p, size=None, dtype=int):
        """cuarray version of `numpy.random.Generator.negative_binomial` (gamma-Poisson)."""
        return self._i("negative_binomial", (n, p), size, dtype)

    def geometric(self, p, size=None, dtype=int):
        """cuarray version of `numpy.random.Generator.geometric` (inversion)."""
        return self._i("geometric", (p,), size, dtype)

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=int):
        """cuarray version of `numpy.random.Generator.hypergeometric` (urn; HRUA otherwise)."""
        return self._i("hypergeometric", (ngood, nbad, nsample), size, dtype)

    def logseries(self, p, size=None, dtype=int):
        """cuarray version of `numpy.random.Generator.logseries`."""
        return self._i("logseries", (p,), size, dtype)

    def zipf(self, a, size=None, dtype=int):
        """cuarray version of `numpy.random.Generator.zipf` (truncated to the int64 range)."""
        return self._i("zipf", (a,), size, dtype)

    # ---- multivariate distributions --------------------------------------------------------
    def dirichlet(self, alpha, size=None, dtype=float):
        """cuarray version of `numpy.random.Generator.dirichlet`.

        A cuarray `alpha` is read back to validate it (synchronises).
        """
        host, device = _host_vector(alpha, numpy.float64, "alpha")
        if numpy.any(~(host >= 0)):
            raise ValueError("alpha < 0")
        return draw(self._bit_generator, "dirichlet", (), size, _float_dtype(dtype),
                    vec=device, row=True)

    def multinomial(self, n, pvals, size=None):
        """cuarray version of `numpy.random.Generator.multinomial` (conditional binomials).

        `pvals` is one 1-d vector; a cuarray `pvals` is read back to validate it.
        """
        host, device = _host_vector(pvals, numpy.float64, "pvals")
        if host.size == 0:
            raise ValueError("pvals must have at least one entry")
        if numpy.any(~((host >= 0) & (host <= 1))):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if host[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        return draw(self._bit_generator, "multinomial", (n,), size, numpy.dtype(numpy.int64),
                    conds=[_int_non_negative(0, "n")], vec=device, row=True)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
        """cuarray version of `numpy.random.Generator.multivariate_hypergeometric`.

        Both methods draw one hypergeometric per color (NumPy's 'marginals' algorithm);
        they give the same distribution.
        """
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        host, device = _host_vector(colors, numpy.int64, "colors")
        total = sum(int(c) for c in host)
        if numpy.any(host < 0) or total > _I64.max:
            raise ValueError("colors must be a one-dimensional sequence of nonnegative integers "
                             "not exceeding 9223372036854775807.")
        conds = [_Cond("a0 < 0", lambda a: a[0] < 0, "nsample must be nonnegative."),
                 _Cond(f"a0 > {total}LL", lambda a: a[0] > total, "nsample > sum(colors)")]
        return draw(self._bit_generator, "multivariate_hypergeometric", (nsample,), size,
                    numpy.dtype(numpy.int64), conds=conds, vec=device, row=True)

    def _multivariate_normal(self, mean, cov, size, check_valid, tol, method, dtype):
        import cuarray
        from cuarray import linalg
        dtype = _float_dtype(dtype)
        mean = cuarray.asarray(mean, dtype=numpy.float64)
        cov = cuarray.asarray(cov, dtype=numpy.float64)
        if mean.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        shape = _size(size) or ()
        d = mean.shape[0]
        psd = True
        if method == "cholesky":
            factor = linalg.cholesky(cov)  # cov = L L^T; raises LinAlgError if not definite
        elif method == "eigh":
            s, u = linalg.eigh(cov)
            if check_valid != "ignore":
                psd = not bool(cuarray.any(s < -tol))
            factor = u * cuarray.sqrt(cuarray.abs(s))
        else:
            u, s, vh = linalg.svd(cov)
            if check_valid != "ignore":
                psd = bool(cuarray.allclose((vh.T * s) @ vh, cov, rtol=tol, atol=tol))
            factor = vh.T * cuarray.sqrt(s)
        if not psd:
            msg = "covariance is not symmetric positive-semidefinite."
            if check_valid == "raise":
                raise ValueError(msg)
            warnings.warn(msg, RuntimeWarning, stacklevel=3)
        z = self.standard_normal(shape + (d,)).reshape(-1, d)
        x = z @ factor.T + mean
        return x.reshape(shape + (d,)).astype(dtype, copy=False)

    # ---- integers --------------------------------------------------------------------------
    def _integers(self, low, high, size, dtype, endpoint):
        dtype = numpy.dtype(dtype)
        if dtype.kind not in "biu":
            raise TypeError(f"Unsupported dtype {dtype.name!r} for randint")
        if high is None:
            low, high = 0, low
        if dtype.kind == "b":
            lo_min, hi_max = 0, 1
        else:
            lo_min, hi_max = int(numpy.iinfo(dtype).min), int(numpy.iinfo(dtype).max)
        excl = 0 if endpoint else 1
        order_msg = "low > high" if endpoint else "low >= high"
        if numpy.isscalar(low) and numpy.isscalar(high):
            lo, hi = int(low), int(high) - excl
            if lo > hi:
                raise ValueError(order_msg)
            if lo < lo_min:
                raise ValueError(f"low is out of bounds for {dtype.name}")
            if hi > hi_max:
                raise ValueError(f"high is out of bounds for {dtype.name}")
            out = ndarray._alloc(_size(size) or (), dtype)
            return bounded(self._bit_generator, out, lo, hi - lo)
        conds = [_Cond("a0 > a1 - a2", lambda a: a[0] > a[1] - a[2], order_msg)]
        if lo_min > _I64.min:
            conds.append(_Cond(f"a0 < {lo_min}LL", lambda a: a[0] < lo_min,
                               f"low is out of bounds for {dtype.name}"))
        if hi_max < _I64.max:
            conds.append(_Cond(f"a1 - a2 > {hi_max}LL", lambda a: a[1] - a[2] > hi_max,
                               f"high is out of bounds for {dtype.name}"))
        return draw(self._bit_generator, "integers", (low, high, excl), size, dtype, conds=conds)

    # ---- permutations and sampling ---------------------------------------------------------
    def _random_keys(self, shape):
        keys = ndarray._alloc(tuple(shape), numpy.dtype(numpy.uint64))
        if keys.size:
            self._bit_generator._raw(keys.reshape(-1).view(numpy.uint32))
        return keys

    def _perm(self, n):
        """A uniformly random permutation of range(n): argsort of 64-bit random keys."""
        from cuarray import argsort
        return argsort(self._random_keys((n,)))

    def permutation(self, x, axis=0):
        """cuarray version of `numpy.random.Generator.permutation` (sorts random keys)."""
        from cuarray import asarray, take
        if _is_int_scalar(x):
            return self._perm(int(x))
        arr = x if isinstance(x, ndarray) else asarray(x)
        if arr.ndim < 1:
            raise IndexError("x must be an integer or at least 1-dimensional")
        axis = numpy.lib.array_utils.normalize_axis_index(axis, arr.ndim)
        return take(arr, self._perm(arr.shape[axis]), axis=axis)

    def shuffle(self, x, axis=0):
        """cuarray version of `numpy.random.Generator.shuffle`: permutes `x` in place."""
        if not isinstance(x, ndarray):
            raise TypeError(f"The array must be cuarray.ndarray, not {type(x).__name__}")
        if x.ndim == 0:
            raise TypeError("An array whose ndim is 0 is not supported")
        from cuarray import take
        axis = numpy.lib.array_utils.normalize_axis_index(axis, x.ndim)
        x[...] = take(x, self._perm(x.shape[axis]), axis=axis)

    def permuted(self, x, axis=None, out=None):
        """cuarray version of `numpy.random.Generator.permuted`: each slice along `axis`
        shuffled independently (all of `x` when axis is None)."""
        from cuarray import argsort, asarray, take, take_along_axis
        arr = x if isinstance(x, ndarray) else asarray(x)
        if axis is None:
            res = take(arr.reshape(-1), self._perm(arr.size)).reshape(arr.shape)
        else:
            axis = numpy.lib.array_utils.normalize_axis_index(axis, arr.ndim)
            res = take_along_axis(arr, argsort(self._random_keys(arr.shape), axis=axis), axis)
        return into_out(res, out, arr.shape, "out must be a cuarray.ndarray of the same shape as x")

    def _probabilities(self, p, n):
        """(p, its cumulative sums) on the device, checked as NumPy checks them."""
        from cuarray import asarray, cumsum
        atol = numpy.sqrt(numpy.finfo(numpy.float64).eps)
        if isinstance(p, ndarray):
            if p.ndim != 1:
                raise ValueError("p must be 1-dimensional")
            if p.size != n:
                raise ValueError("a and p must have same size")
            dev = _contiguous(p, numpy.dtype(numpy.float64))
            par = _P(dev, "d")
            if _count("probabilities", [par], [_Cond("!(a0 >= 0)", None, "")])[0]:
                raise ValueError("probabilities are not non-negative")
            cdf = cumsum(dev)
            if n and abs(float(cdf[-1]) - 1.0) > atol:  # reads one value (synchronises)
                raise ValueError("probabilities do not sum to 1")
            return dev, cdf
        host = numpy.asarray(p, dtype=numpy.float64)
        if host.ndim != 1:
            raise ValueError("p must be 1-dimensional")
        if host.size != n:
            raise ValueError("a and p must have same size")
        if numpy.any(~(host >= 0)):
            raise ValueError("probabilities are not non-negative")
        if abs(math.fsum(host) - 1.0) > atol:
            raise ValueError("probabilities do not sum to 1")
        return asarray(host), asarray(numpy.cumsum(host))

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """cuarray version of `numpy.random.Generator.choice`.

        With `p`, draws use the cumulative sums (replace=True) or Efraimidis-Spirakis keys
        (replace=False); without, uniform integers or a random permutation. `shuffle` is
        accepted: samples without replacement are always in random order.
        """
        from cuarray import asarray
        pop = None
        if _is_int_scalar(a):
            n = int(a)
            if n < 0:
                raise ValueError("a must be a non-negative integer unless no samples are taken")
        else:
            pop = a if isinstance(a, ndarray) else asarray(a)
            if pop.ndim == 0:
                raise ValueError("a must be 1-dimensional or an integer")
            axis = numpy.lib.array_utils.normalize_axis_index(axis, pop.ndim)
            n = pop.shape[axis]
        shape = _size(size) or ()
        m = math.prod(shape)
        if n == 0 and m:
            raise ValueError("a cannot be empty unless no samples are taken")
        if p is not None:
            p, cdf = self._probabilities(p, n)
        if not replace and m > n:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        i64 = numpy.dtype(numpy.int64)
        if m == 0:
            idx = ndarray._alloc(shape, i64)
        elif replace and p is None:
            idx = self._integers(0, n, shape, i64, False)
        elif replace:
            idx = draw(self._bit_generator, "choice_cdf", (), shape, i64, vec=cdf)
        elif p is None:
            idx = self._perm(n)[:m].reshape(shape)
        else:
            nonzero = _count("nonzero", [_P(p, "d")], [_Cond("a0 > 0", None, "")])[0]
            if nonzero < m:
                raise ValueError("Fewer non-zero entries in p than size")
            keys = draw(self._bit_generator, "weighted_key", (p,), None,
                        numpy.dtype(numpy.float64), conds=())
            from cuarray import argsort
            idx = argsort(keys)[:m].reshape(shape)
        if pop is None:
            return idx
        from cuarray import take
        return take(pop, idx, axis=axis)

    def bytes(self, length):
        """cuarray version of `numpy.random.Generator.bytes`: `length` random bytes, drawn
        on the device and returned as a Python bytes object (synchronises)."""
        length = operator.index(length)
        if length < 0:
            raise ValueError("length must be non-negative")
        words = ndarray._alloc(((length + 3) // 4,), numpy.dtype(numpy.uint32))
        if words.size:
            self._bit_generator._raw(words)
        return words.get().tobytes()[:length]
