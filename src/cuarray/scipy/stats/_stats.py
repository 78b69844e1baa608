"""Descriptive statistics, ranks and correlations (cuarray versions of `scipy.stats`'
functions of the same names), built on cuarray's reductions, sorts and special functions.

Reductions return 0-d arrays where SciPy returns scalars (no hidden synchronisation).
`nan_policy='raise'` reads one flag from the device; 'omit' uses NaN-aware reductions.
"""
import collections
import math

import numpy

import cuarray as cp
from cuarray._core.host_policy import host_error

_POLICIES = ("propagate", "raise", "omit")

DescribeResult = collections.namedtuple(
    "DescribeResult", ("nobs", "minmax", "mean", "variance", "skewness", "kurtosis"))
ModeResult = collections.namedtuple("ModeResult", ("mode", "count"))
PearsonRResult = collections.namedtuple("PearsonRResult", ("statistic", "pvalue"))
SignificanceResult = collections.namedtuple("SignificanceResult", ("statistic", "pvalue"))


class LinregressResult(collections.namedtuple(
        "LinregressResult", ("slope", "intercept", "rvalue", "pvalue", "stderr"))):
    """SciPy's result: a 5-tuple (`slope, intercept, r, p, se = linregress(x, y)`) that
    also has `intercept_stderr`, as an attribute only."""

    def __new__(cls, slope, intercept, rvalue, pvalue, stderr, intercept_stderr):
        self = super().__new__(cls, slope, intercept, rvalue, pvalue, stderr)
        self.intercept_stderr = intercept_stderr
        return self

    def __getnewargs__(self):
        return tuple(self) + (self.intercept_stderr,)

    def __repr__(self):
        return f"{super().__repr__()[:-1]}, intercept_stderr={self.intercept_stderr!r})"


def _need(a, name):
    if isinstance(a, cp.ndarray):
        return a
    if isinstance(a, (numpy.ndarray, list, tuple)):
        raise host_error(name, a, "cuarray.scipy.stats.")
    return cp.asarray(numpy.asarray(a))


def _prep(a, axis, nan_policy, name):
    """(float array, axis, omit): axis=None flattens; 'raise' checks for NaN here."""
    if nan_policy not in _POLICIES:
        raise ValueError("nan_policy must be one of {'propagate', 'raise', 'omit'}")
    a = _need(a, name)
    if a.dtype.kind not in "fc":
        a = a.astype(numpy.float64)
    if axis is None:
        a, axis = a.ravel(), 0
    elif a.ndim == 0:
        a = a.reshape(1)
    axis = numpy.lib.array_utils.normalize_axis_index(axis, a.ndim)
    if nan_policy == "raise" and bool(cp.isnan(a).any()):
        raise ValueError("The input contains nan values")
    return a, axis, nan_policy == "omit"


def _count(a, axis, omit, keepdims=False):
    if omit:
        return cp.sum(~cp.isnan(a), axis=axis, keepdims=keepdims).astype(a.dtype.char.lower())
    return a.shape[axis]


def _mean(a, axis, omit, keepdims=False):
    return (cp.nanmean if omit else cp.mean)(a, axis=axis, keepdims=keepdims)


def _moment(a, order, axis, omit, center=None, keepdims=False):
    c = _mean(a, axis, omit, keepdims=True) if center is None else center
    return _mean((a - c) ** order, axis, omit, keepdims)


def _keep(x, axis, keepdims):
    return cp.expand_dims(x, axis) if keepdims else x


def moment(a, order=1, axis=0, nan_policy="propagate", *, center=None, keepdims=False):
    """The order-th central moment (cuarray version of `scipy.stats.moment`)."""
    a, axis, omit = _prep(a, axis, nan_policy, "moment")
    if order == 0 or (order == 1 and center is None):
        shape = a.shape[:axis] + ((1,) if keepdims else ()) + a.shape[axis + 1:]
        return cp.full(shape, 1.0 if order == 0 else 0.0, dtype=a.dtype)
    return _moment(a, order, axis, omit, center, keepdims)


def _zero_var(m2, mean, dtype):
    eps = numpy.finfo(dtype).eps
    return m2 <= (eps * mean) ** 2


def _moments(a, axis, omit, k):
    """The second and `k`-th central moments along `axis`, and where the variance is zero
    (to rounding, as SciPy judges it)."""
    mean = _mean(a, axis, omit, keepdims=True)
    m2 = _mean((a - mean) ** 2, axis, omit)
    mk = _mean((a - mean) ** k, axis, omit)
    return m2, mk, _zero_var(m2, cp.squeeze(mean, axis), a.dtype)


def _unbiased(vals, zero, a, axis, omit, n_min, corr):
    """`corr(n)` of the count n where n > `n_min` and the variance is not zero, else `vals`."""
    n = _count(a, axis, omit)
    if not omit and n <= n_min:
        return vals   # corr(n) would divide by zero (a Python number); SciPy keeps vals
    return cp.where(~zero & (cp.asarray(n) > n_min), corr(n), vals)


def skew(a, axis=0, bias=True, nan_policy="propagate", *, keepdims=False):
    """The sample skewness (cuarray version of `scipy.stats.skew`)."""
    a, axis, omit = _prep(a, axis, nan_policy, "skew")
    m2, m3, zero = _moments(a, axis, omit, 3)
    vals = cp.where(zero, cp.nan, m3 / m2 ** 1.5)
    if not bias:
        vals = _unbiased(vals, zero, a, axis, omit, 2,
                         lambda n: cp.sqrt((n - 1.0) * n) / (n - 2.0) * m3 / m2 ** 1.5)
    return _keep(vals.astype(a.dtype, copy=False), axis, keepdims)


def kurtosis(a, axis=0, fisher=True, bias=True, nan_policy="propagate", *, keepdims=False):
    """The sample kurtosis, Fisher's (excess) or Pearson's (cuarray version of
    `scipy.stats.kurtosis`)."""
    a, axis, omit = _prep(a, axis, nan_policy, "kurtosis")
    m2, m4, zero = _moments(a, axis, omit, 4)
    vals = cp.where(zero, cp.nan, m4 / m2 ** 2.0)
    if not bias:
        vals = _unbiased(vals, zero, a, axis, omit, 3, lambda n: 1.0 / (n - 2) / (n - 3) * (
            (n * n - 1.0) * m4 / m2 ** 2.0 - 3 * (n - 1) ** 2.0) + 3)
    if fisher:
        vals = vals - 3
    return _keep(vals.astype(a.dtype, copy=False), axis, keepdims)


def describe(a, axis=0, ddof=1, bias=True, nan_policy="propagate"):
    """Number of observations, (min, max), mean, variance, skewness and kurtosis (cuarray
    version of `scipy.stats.describe`)."""
    src = _need(a, "describe")
    a, ax, omit = _prep(src, axis, nan_policy, "describe")
    if a.shape[ax] == 0:
        raise ValueError("The input must not be empty.")
    # SciPy's counts are integers and its (min, max) keep the input's dtype
    n = _count(a, ax, omit).astype(numpy.int64) if omit else a.shape[ax]
    src = src.ravel() if axis is None else src.reshape(a.shape)
    nan_aware = omit and src.dtype.kind in "fc"
    mm = ((cp.nanmin if nan_aware else cp.amin)(src, axis=ax),
          (cp.nanmax if nan_aware else cp.amax)(src, axis=ax))
    m = _mean(a, ax, omit)
    v = (cp.nanvar if omit else cp.var)(a, axis=ax, ddof=ddof)
    sk = skew(a, ax, bias, "omit" if omit else "propagate")
    ku = kurtosis(a, ax, True, bias, "omit" if omit else "propagate")
    return DescribeResult(n, mm, m, v, sk, ku)


def sem(a, axis=0, ddof=1, nan_policy="propagate", *, keepdims=False):
    """The standard error of the mean (cuarray version of `scipy.stats.sem`)."""
    a, axis, omit = _prep(a, axis, nan_policy, "sem")
    n = _count(a, axis, omit, keepdims)
    s = (cp.nanstd if omit else cp.std)(a, axis=axis, ddof=ddof, keepdims=keepdims)
    return s / cp.sqrt(cp.asarray(n, dtype=s.dtype) if omit else float(n))


def zscore(a, axis=0, ddof=0, nan_policy="propagate"):
    """The z score of each value against its own axis (cuarray version of
    `scipy.stats.zscore`)."""
    return zmap(a, a, axis, ddof, nan_policy)


def zmap(scores, compare, axis=0, ddof=0, nan_policy="propagate"):
    """The z scores of `scores` against the mean and deviation of `compare` (cuarray
    version of `scipy.stats.zmap`)."""
    c, ax, omit = _prep(compare, axis, nan_policy, "zmap")
    s = _need(scores, "zmap")
    if s.dtype.kind not in "fc":
        s = s.astype(numpy.float64)
    if axis is None:
        mean = _mean(c, ax, omit)
        std = (cp.nanstd if omit else cp.std)(c, axis=ax, ddof=ddof)
    else:
        mean = _mean(c, ax, omit, keepdims=True)
        std = (cp.nanstd if omit else cp.std)(c, axis=ax, ddof=ddof, keepdims=True)
    z = (s - mean) / std
    # a constant slice has no scale: SciPy gives NaN throughout it
    return cp.where(std == 0, cp.nan, z).astype(z.dtype, copy=False)


def gmean(a, axis=0, dtype=None, weights=None, *, nan_policy="propagate", keepdims=False):
    """The weighted geometric mean (cuarray version of `scipy.stats.gmean`)."""
    a, axis, omit = _prep(a, axis, nan_policy, "gmean")
    if dtype is not None:
        a = a.astype(dtype)
    with numpy.errstate(divide="ignore"):
        la = cp.log(a)
    if weights is None:
        return cp.exp(_mean(la, axis, omit, keepdims))
    w = _need(weights, "gmean")
    s = (cp.nansum if omit else cp.sum)
    return cp.exp(s(w * la, axis=axis, keepdims=keepdims) / s(
        cp.where(cp.isnan(la), 0, w) if omit else w, axis=axis, keepdims=keepdims))


def hmean(a, axis=0, dtype=None, *, weights=None, nan_policy="propagate", keepdims=False):
    """The weighted harmonic mean (cuarray version of `scipy.stats.hmean`)."""
    a, axis, omit = _prep(a, axis, nan_policy, "hmean")
    if dtype is not None:
        a = a.astype(dtype)
    w = cp.ones_like(a) if weights is None else _need(weights, "hmean")
    if omit:
        w = cp.where(cp.isnan(a), 0, w)
    s = cp.nansum if omit else cp.sum
    return s(w, axis=axis, keepdims=keepdims) / s(w / a, axis=axis, keepdims=keepdims)


def iqr(x, axis=None, rng=(25, 75), scale=1.0, nan_policy="propagate", interpolation="linear",
        keepdims=False):
    """The interquartile range (cuarray version of `scipy.stats.iqr`)."""
    if len(rng) != 2:
        raise TypeError("quantile range must be two element sequence")
    if not 0 <= rng[0] <= rng[1] <= 100:
        raise ValueError("range must be in [0, 100]")
    if isinstance(scale, str):
        if scale.lower() != "normal":
            raise ValueError(f"{scale} not a valid scale for `iqr`")
        scale = 1.3489795003921634   # 2 ndtri(0.75)
    x = _need(x, "iqr")
    if x.dtype.kind not in "fc":
        x = x.astype(numpy.float64)
    if nan_policy not in _POLICIES:
        raise ValueError("nan_policy must be one of {'propagate', 'raise', 'omit'}")
    if nan_policy == "raise" and bool(cp.isnan(x).any()):
        raise ValueError("The input contains nan values")
    pct = cp.nanpercentile if nan_policy == "omit" else cp.percentile
    q = pct(x, list(rng), axis=axis, method=interpolation, keepdims=keepdims)
    return (q[1] - q[0]) / scale


def trim_mean(a, proportiontocut, axis=0, *, nan_policy="propagate", keepdims=False):
    """The mean after cutting `proportiontocut` of the values from each end (cuarray
    version of `scipy.stats.trim_mean`)."""
    a, axis, omit = _prep(a, axis, nan_policy, "trim_mean")
    n = a.shape[axis]
    lo = int(proportiontocut * n)
    hi = n - lo
    if lo > hi:
        raise ValueError("Proportion too big.")
    s = cp.sort(a, axis=axis)
    idx = [slice(None)] * a.ndim
    idx[axis] = slice(lo, hi)
    return cp.mean(s[tuple(idx)], axis=axis, keepdims=keepdims)


def entropy(pk, qk=None, base=None, axis=0, *, nan_policy="propagate", keepdims=False):
    """Shannon entropy of pk, or the relative entropy of pk to qk (cuarray version of
    `scipy.stats.entropy`)."""
    from cuarray.scipy import special
    if base is not None and base <= 0:
        raise ValueError("`base` must be a positive number or `None`.")
    pk, axis, _ = _prep(pk, axis, nan_policy, "entropy")
    pk = pk / cp.sum(pk, axis=axis, keepdims=True)
    if qk is None:
        vec = special.entr(pk)
    else:
        qk, _, _ = _prep(qk, axis, nan_policy, "entropy")
        if qk.shape != pk.shape:
            raise ValueError("qk and pk must have same shape.")
        qk = qk / cp.sum(qk, axis=axis, keepdims=True)
        vec = special.rel_entr(pk, qk)
    s = cp.sum(vec, axis=axis, keepdims=keepdims)
    if base is not None:
        s = s / math.log(base)
    return s


def boxcox_llf(lmb, data, *, axis=0, keepdims=False, nan_policy="propagate"):
    """The log-likelihood of the Box-Cox transformation with parameter `lmb` (cuarray
    version of `scipy.stats.boxcox_llf`)."""
    data, axis, omit = _prep(data, axis, nan_policy, "boxcox_llf")
    n = _count(data, axis, omit, keepdims)
    logdata = cp.log(data)
    var = cp.nanvar if omit else cp.var
    if lmb == 0:
        logvar = cp.log(var(logdata, axis=axis, keepdims=keepdims))
    else:
        logvar = cp.log(var(cp.exp(lmb * logdata), axis=axis, keepdims=keepdims)) - \
            2 * math.log(abs(lmb))
    s = (cp.nansum if omit else cp.sum)(logdata, axis=axis, keepdims=keepdims)
    return (lmb - 1) * s - n / 2.0 * logvar
