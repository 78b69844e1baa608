"""Ranks, modes and correlations (cuarray versions of `scipy.stats.rankdata`, `mode`,
`pearsonr`, `spearmanr`, `linregress`).

Ties are found on the GPU from a stable sort: a run of equal values starts where a value
differs from its predecessor, and each position learns its run's first and last index by
a running maximum (minimum) of the run starts (ends).
"""
import numpy

import cuarray as cp
from cuarray.scipy.stats._stats import (
    LinregressResult, ModeResult, PearsonRResult, SignificanceResult, _need, _prep)

_METHODS = ("average", "min", "max", "dense", "ordinal")


def _runs(s):
    """For sorted rows s (last axis): (start, end) index of each position's run of ties,
    and the run-start flags."""
    n = s.shape[-1]
    first = cp.ones(s.shape[:-1] + (1,), dtype=bool)
    new = cp.concatenate([first, s[..., 1:] != s[..., :-1]], axis=-1)
    last = cp.concatenate([new[..., 1:], first], axis=-1)
    idx = cp.broadcast_to(cp.arange(n), s.shape)
    start = cp.maximum.accumulate(cp.where(new, idx, 0), axis=-1)
    end = cp.flip(cp.minimum.accumulate(cp.flip(cp.where(last, idx, n), axis=-1), axis=-1),
                  axis=-1)
    return start, end, new


def rankdata(a, method="average", *, axis=None, nan_policy="propagate"):
    """Ranks of the data, ties by `method` (cuarray version of `scipy.stats.rankdata`)."""
    if method not in _METHODS:
        raise ValueError(f'unknown method "{method}"')
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError("nan_policy must be one of {'propagate', 'raise', 'omit'}")
    a = _need(a, "rankdata")
    if axis is None:
        x = a.ravel()
        ax = 0
    else:
        x, ax = a, numpy.lib.array_utils.normalize_axis_index(axis, a.ndim)
    if nan_policy == "raise" and x.dtype.kind in "fc" and bool(cp.isnan(x).any()):
        raise ValueError("The input contains nan values")
    xl = cp.moveaxis(x, ax, -1)
    if xl.shape[-1] == 0:
        return cp.empty(x.shape, dtype=numpy.float64)
    order = cp.argsort(xl, axis=-1, kind="stable")
    s = cp.take_along_axis(xl, order, axis=-1)
    inv = cp.argsort(order, axis=-1, kind="stable")   # position of each value in s
    start, end, new = _runs(s)
    if method == "ordinal":
        r = cp.broadcast_to(cp.arange(1, xl.shape[-1] + 1), s.shape)
    elif method == "min":
        r = start + 1
    elif method == "max":
        r = end + 1
    elif method == "dense":
        r = cp.cumsum(new, axis=-1)
    else:
        r = (start + end) / 2.0 + 1
    ranks = cp.take_along_axis(r, inv, axis=-1)
    ranks = ranks.astype(numpy.float64 if method == "average" else numpy.int64)
    if xl.dtype.kind in "fc":
        if nan_policy != "omit":
            nan = cp.isnan(xl).any(axis=-1, keepdims=True)
            ranks = cp.where(nan, cp.nan, ranks.astype(numpy.float64))
        else:
            ranks = cp.where(cp.isnan(xl), cp.nan, ranks.astype(numpy.float64))
    return cp.moveaxis(ranks, -1, ax)


def mode(a, axis=0, nan_policy="propagate", keepdims=False):
    """The most common value along `axis` (the smallest of equals) and its count
    (cuarray version of `scipy.stats.mode`)."""
    a = _need(a, "mode")
    if nan_policy not in ("propagate", "raise", "omit"):
        raise ValueError("nan_policy must be one of {'propagate', 'raise', 'omit'}")
    whole = (1,) * a.ndim if axis is None else None
    if axis is None:
        a, axis = a.ravel(), 0
    axis = numpy.lib.array_utils.normalize_axis_index(axis, max(a.ndim, 1))
    if a.ndim == 0:
        a = a.reshape(1)
    if nan_policy == "raise" and a.dtype.kind in "fc" and bool(cp.isnan(a).any()):
        raise ValueError("The input contains nan values")
    al = cp.moveaxis(a, axis, -1)
    if al.shape[-1] == 0:
        shape = al.shape[:-1]
        return ModeResult(cp.full(shape, cp.nan), cp.zeros(shape, dtype=numpy.int64))
    s = cp.sort(al, axis=-1)
    start, end, _ = _runs(s)
    count = end - start + 1
    if a.dtype.kind in "fc" and nan_policy == "omit":
        count = cp.where(cp.isnan(s), 0, count)
    best = cp.argmax(count, axis=-1)[..., None]
    m = cp.take_along_axis(s, best, axis=-1)[..., 0]
    c = cp.take_along_axis(count, best, axis=-1)[..., 0]
    if keepdims:
        if whole is not None:   # axis=None keeps every dimension, as SciPy
            m, c = m.reshape(whole), c.reshape(whole)
        else:
            m, c = cp.expand_dims(m, axis), cp.expand_dims(c, axis)
    return ModeResult(m, c)


def _pair(x, y, axis, name):
    x, y = _need(x, name), _need(y, name)
    if x.dtype.kind not in "fc":
        x = x.astype(numpy.float64)
    if y.dtype.kind not in "fc":
        y = y.astype(numpy.float64)
    if axis is None:
        x, y, axis = x.ravel(), y.ravel(), 0
    if x.shape[axis] != y.shape[axis]:
        raise ValueError("`x` and `y` must have the same length along `axis`.")
    if x.shape[axis] < 2:
        raise ValueError("`x` and `y` must have length at least 2.")
    return x, y, axis


def _alternative(alternative):
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError("alternative must be 'less', 'greater' or 'two-sided'")


def pearsonr(x, y, *, alternative="two-sided", method=None, axis=0):
    """Pearson's correlation coefficient and the p-value of no correlation (cuarray version
    of `scipy.stats.pearsonr`; `method` must be None, the exact beta distribution)."""
    from cuarray.scipy import special
    _alternative(alternative)
    if method is not None:
        raise ValueError("cuarray.scipy.stats.pearsonr supports method=None only")
    x, y, axis = _pair(x, y, axis, "pearsonr")
    n = x.shape[axis]
    xm = x - cp.mean(x, axis=axis, keepdims=True)
    ym = y - cp.mean(y, axis=axis, keepdims=True)
    r = cp.sum(xm * ym, axis=axis) / cp.sqrt(cp.sum(xm * xm, axis=axis) *
                                             cp.sum(ym * ym, axis=axis))
    r = cp.clip(r, -1.0, 1.0)
    if n == 2:   # SciPy: r is exactly +-1 (NaN for a constant input), p is 1
        r = cp.sign(r)
        return PearsonRResult(r, cp.where(cp.isnan(r), cp.nan, 1.0))
    ab = n / 2.0 - 1
    if alternative == "two-sided":
        p = 2 * special.btdtr(ab, ab, 0.5 * (1 - cp.abs(r)))
    elif alternative == "less":
        p = special.btdtr(ab, ab, 0.5 * (1 + r))
    else:
        p = special.btdtr(ab, ab, 0.5 * (1 - r))
    return PearsonRResult(r, cp.clip(p, 0, 1))


def _t_pvalue(t, df, alternative):
    from cuarray.scipy import special
    if alternative == "two-sided":
        return 2 * special.stdtr(df, -cp.abs(t))
    if alternative == "less":
        return special.stdtr(df, t)
    return special.stdtr(df, -t)


def spearmanr(a, b=None, axis=0, nan_policy="propagate", alternative="two-sided"):
    """Spearman's rank correlation and its p-value (cuarray version of
    `scipy.stats.spearmanr`): for two 1-D samples, or the columns (rows with axis=1) of
    a 2-D array."""
    _alternative(alternative)
    if nan_policy not in ("propagate", "raise"):
        raise ValueError("cuarray.scipy.stats.spearmanr supports nan_policy 'propagate' "
                         "and 'raise'")
    a = _need(a, "spearmanr")
    if b is not None:
        b = _need(b, "spearmanr")
        if a.ndim == 1 and b.ndim == 1:
            a = cp.stack([a, b], axis=1)
            axis = 0
        else:
            a = cp.concatenate([a, b], axis=1 if (axis in (0, None)) else 0)
    if axis is None:
        a, axis = a.ravel()[:, None], 0
    if a.ndim == 1:
        raise ValueError("spearmanr needs at least two variables")
    if nan_policy == "raise" and a.dtype.kind in "fc" and bool(cp.isnan(a).any()):
        raise ValueError("The input contains nan values")
    ranks = rankdata(a, axis=axis)
    obs = ranks if axis == 0 else ranks.T
    n = obs.shape[0]
    m = obs - cp.mean(obs, axis=0, keepdims=True)
    cov = m.T @ m
    d = cp.sqrt(cp.diagonal(cov))
    rs = cp.clip(cov / d[:, None] / d[None, :], -1, 1)
    df = n - 2
    with numpy.errstate(divide="ignore", invalid="ignore"):
        t = rs * cp.sqrt((df / ((rs + 1.0) * (1.0 - rs))).clip(0))
    p = _t_pvalue(t, df, alternative)
    if rs.shape == (2, 2):
        return SignificanceResult(rs[1, 0], p[1, 0])
    return SignificanceResult(rs, p)


def linregress(x, y, alternative="two-sided", *, axis=0, nan_policy="propagate",
               keepdims=False):
    """Least-squares regression line of two samples (cuarray version of
    `scipy.stats.linregress`). Checks that x is not constant (synchronises)."""
    _alternative(alternative)
    x, y, axis = _pair(x, y, axis, "linregress")
    if nan_policy == "raise" and bool(cp.isnan(x).any() | cp.isnan(y).any()):
        raise ValueError("The input contains nan values")
    n = x.shape[axis]
    xmean = cp.mean(x, axis=axis, keepdims=True)
    ymean = cp.mean(y, axis=axis, keepdims=True)
    xm, ym = x - xmean, y - ymean
    ssxm = cp.mean(xm * xm, axis=axis)
    ssym = cp.mean(ym * ym, axis=axis)
    ssxym = cp.mean(xm * ym, axis=axis)
    if bool((ssxm == 0).any()):
        raise ValueError("Cannot calculate a linear regression if all x values are "
                         "identical")
    xmean, ymean = cp.squeeze(xmean, axis), cp.squeeze(ymean, axis)
    denom = cp.sqrt(ssxm * ssym)
    r = cp.where(denom == 0, 0.0, ssxym / cp.where(denom == 0, 1.0, denom))
    r = cp.clip(r, -1.0, 1.0)
    slope = ssxym / ssxm
    intercept = ymean - slope * xmean
    if n == 2:
        p = cp.where(ssym == 0, 1.0, 0.0) + 0 * r
        slope_se = cp.zeros_like(r)
        intercept_se = cp.zeros_like(r)
    else:
        df = n - 2
        tiny = 1.0e-20
        t = r * cp.sqrt(df / ((1.0 - r + tiny) * (1.0 + r + tiny)))
        p = _t_pvalue(t, df, alternative)
        slope_se = cp.sqrt((1 - r ** 2) * ssym / ssxm / df)
        intercept_se = slope_se * cp.sqrt(ssxm + xmean ** 2)
    out = (slope, intercept, r, p, slope_se, intercept_se)
    if keepdims:
        out = tuple(cp.expand_dims(v, axis) for v in out)
    return LinregressResult(*out)

