"""cuarray.scipy.stats against scipy.stats: on the GPU, and without one with NumPy standing
in for cuarray's array namespace (the formulas, axis/keepdims/nan_policy handling and
tie logic are the code under test; the device reductions are tested elsewhere)."""
import contextlib
import types

import numpy as np
import pytest
import scipy.special as ss
import scipy.stats as st


@pytest.fixture(params=["numpy", pytest.param("gpu", marks=pytest.mark.gpu)])
def xp(request, monkeypatch):
    """(array namespace the functions run on, to-host function)."""
    from cuarray.scipy.stats import _ranks, _stats
    if request.param == "gpu":
        import cuarray
        return cuarray, lambda a: a.get() if hasattr(a, "get") else np.asarray(a)
    shim = types.ModuleType("numpy_shim")
    shim.__dict__.update({k: getattr(np, k) for k in dir(np) if not k.startswith("_")})
    for mod in (_stats, _ranks):
        monkeypatch.setattr(mod, "cp", shim)
    import cuarray.scipy.special as csp
    for name in ("btdtr", "stdtr", "entr", "rel_entr"):
        monkeypatch.setattr(csp, name, getattr(ss, name) if name != "btdtr" else ss.betainc)
    return shim, np.asarray


def _data(rng, shape=(9, 6), nan=False, ties=False):
    x = rng.standard_normal(shape) * 3 + 1
    if ties:
        x = np.round(x)
    if nan:
        x.flat[rng.choice(x.size, 4, replace=False)] = np.nan
    return x


def _cmp(got, want, host, rtol=1e-10):
    np.testing.assert_allclose(host(got), np.asarray(want), rtol=rtol, atol=1e-12,
                               equal_nan=True)


@pytest.mark.parametrize("name", ["skew", "kurtosis", "sem", "gmean", "hmean", "moment",
                                  "zscore", "iqr", "trim_mean", "entropy"])
def test_descriptive(xp, name):
    ns, host = xp
    from cuarray.scipy import stats
    rng = np.random.default_rng(len(name))
    for policy in ("propagate", "omit"):
        h = _data(rng, nan=policy == "omit")
        if name in ("gmean", "hmean", "entropy"):
            h = np.abs(h) + 0.1
        for axis in (0, 1, -1, None):
            kw = {}
            if name in ("skew", "kurtosis"):
                kw = dict(bias=False)
            if name == "moment":
                kw = dict(order=3)
            if name == "trim_mean":
                kw = dict(proportiontocut=0.2)
                if policy == "omit":
                    continue
            if name == "zscore" and axis is None:
                continue
            if name == "entropy" and (axis is None or policy == "omit"):
                continue
            args = (h,) if "proportiontocut" not in kw else (h, kw.pop("proportiontocut"))
            want = getattr(st, name)(*args, axis=axis, nan_policy=policy, **kw)
            got = getattr(stats, name)(ns.asarray(args[0]), *args[1:], axis=axis,
                                       nan_policy=policy, **kw)
            _cmp(got, want, host)
    with pytest.raises(ValueError, match="nan"):
        getattr(stats, "skew")(ns.asarray(_data(rng, nan=True)), nan_policy="raise")
    with pytest.raises(ValueError, match="nan_policy"):
        getattr(stats, "skew")(ns.asarray(_data(rng)), nan_policy="bogus")


def test_keepdims_and_describe(xp):
    ns, host = xp
    from cuarray.scipy import stats
    h = _data(np.random.default_rng(3))
    for name in ("skew", "kurtosis", "sem", "gmean", "trim_mean"):
        args = (np.abs(h),) + ((0.1,) if name == "trim_mean" else ())
        want = getattr(st, name)(*args, axis=1, keepdims=True)
        got = getattr(stats, name)(ns.asarray(args[0]), *args[1:], axis=1, keepdims=True)
        assert host(got).shape == want.shape
        _cmp(got, want, host)
    d, w = stats.describe(ns.asarray(h), axis=0), st.describe(h, axis=0)
    assert d.nobs == w.nobs
    for g, e in zip((d.mean, d.variance, d.skewness, d.kurtosis, *d.minmax),
                    (w.mean, w.variance, w.skewness, w.kurtosis, *w.minmax)):
        _cmp(g, e, host)
    _cmp(stats.zmap(ns.asarray(h[:3]), ns.asarray(h)), st.zmap(h[:3], h), host)
    _cmp(stats.boxcox_llf(0.5, ns.asarray(np.abs(h))), st.boxcox_llf(0.5, np.abs(h)), host)
    _cmp(stats.boxcox_llf(0.0, ns.asarray(np.abs(h))), st.boxcox_llf(0.0, np.abs(h)), host)
    q = np.abs(h) + 1
    _cmp(stats.entropy(ns.asarray(np.abs(h)), ns.asarray(q), base=2),
         st.entropy(np.abs(h), q, base=2), host)
    with pytest.raises(ValueError, match="Proportion too big"):
        stats.trim_mean(ns.asarray(h), 0.6)


@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata(xp, method):
    ns, host = xp
    from cuarray.scipy import stats
    h = _data(np.random.default_rng(8), ties=True)
    for axis in (None, 0, 1):
        _cmp(stats.rankdata(ns.asarray(h), method=method, axis=axis),
             st.rankdata(h, method=method, axis=axis), host)
    hn = _data(np.random.default_rng(9), nan=True)
    _cmp(stats.rankdata(ns.asarray(hn), method=method, axis=1),
         st.rankdata(hn, method=method, axis=1), host)
    with pytest.raises(ValueError, match="unknown method"):
        stats.rankdata(ns.asarray(h), method="bogus")


def test_mode(xp):
    ns, host = xp
    from cuarray.scipy import stats
    h = np.random.default_rng(4).integers(0, 4, (7, 12)).astype(float)
    for axis in (0, 1, None):
        for keepdims in (False, True):
            g, w = stats.mode(ns.asarray(h), axis=axis, keepdims=keepdims), \
                st.mode(h, axis=axis, keepdims=keepdims)
            _cmp(g.mode, w.mode, host)
            _cmp(g.count, w.count, host)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_correlations(xp, alternative):
    ns, host = xp
    from cuarray.scipy import stats
    rng = np.random.default_rng(12)
    x = rng.standard_normal(40)
    y = 0.4 * x + rng.standard_normal(40)
    g, w = stats.pearsonr(ns.asarray(x), ns.asarray(y), alternative=alternative), \
        st.pearsonr(x, y, alternative=alternative)
    _cmp(g[0], w.statistic, host)
    _cmp(g[1], w.pvalue, host, rtol=1e-8)
    xr = np.round(x * 2)
    g, w = stats.spearmanr(ns.asarray(xr), ns.asarray(y), alternative=alternative), \
        st.spearmanr(xr, y, alternative=alternative)
    _cmp(g[0], w.statistic, host)
    _cmp(g[1], w.pvalue, host, rtol=1e-8)
    g, w = stats.linregress(ns.asarray(x), ns.asarray(y), alternative=alternative), \
        st.linregress(x, y, alternative=alternative)
    for a, b in zip((*g, g.intercept_stderr), (w.slope, w.intercept, w.rvalue, w.pvalue,
                                               w.stderr, w.intercept_stderr)):
        _cmp(a, b, host, rtol=1e-8)
    m = rng.standard_normal((30, 4))
    g, w = stats.spearmanr(ns.asarray(m)), st.spearmanr(m)
    _cmp(g[0], w.statistic, host)
    _cmp(g[1], w.pvalue, host, rtol=1e-8)
    with pytest.raises(ValueError, match="identical"):
        stats.linregress(ns.asarray(np.ones(5)), ns.asarray(y[:5]))
    with pytest.raises(ValueError, match="length"):
        stats.pearsonr(ns.asarray(x), ns.asarray(y[:5]))


def test_small_samples_and_result_types(xp):
    """SciPy's answers at the smallest sample sizes, and the types of its results."""
    ns, host = xp
    from cuarray.scipy import stats
    rng = np.random.default_rng(21)
    x, y = rng.standard_normal(7), rng.standard_normal(7)
    # linregress: a 5-tuple (unpacks to five names) with intercept_stderr an attribute
    g, w = stats.linregress(ns.asarray(x), ns.asarray(y)), st.linregress(x, y)
    assert len(g) == len(w) == 5
    slope, intercept, r, p, se = g
    for a, b in zip((slope, intercept, r, p, se, g.intercept_stderr),
                    (w.slope, w.intercept, w.rvalue, w.pvalue, w.stderr, w.intercept_stderr)):
        _cmp(a, b, host, rtol=1e-8)
    assert "intercept_stderr=" in repr(g)
    # pearsonr of two points: r is +-1 and p is 1 (NaN for a constant input)
    for alternative in ("two-sided", "less", "greater"):
        for a, b in (([1.0, 2.0], [3.0, 1.0]), ([0.5, 2.0], [1.0, 1.5]), ([1.0, 1.0], [3.0, 1.0])):
            with np.errstate(all="ignore"):
                with pytest.warns() if a[0] == a[1] else contextlib.nullcontext():
                    want = st.pearsonr(a, b, alternative=alternative)
                got = stats.pearsonr(ns.asarray(np.array(a)), ns.asarray(np.array(b)),
                                     alternative=alternative)
            _cmp(got[0], want.statistic, host)
            _cmp(got[1], want.pvalue, host)
    # unbiased skew and kurtosis of 1 to 4 samples: the bias-corrected value where SciPy
    # can correct, the biased one (or NaN) elsewhere
    for n in (1, 2, 3, 4):
        h = rng.standard_normal((3, n))
        with np.errstate(all="ignore"):
            for name in ("skew", "kurtosis"):
                _cmp(getattr(stats, name)(ns.asarray(h), axis=1, bias=False),
                     getattr(st, name)(h, axis=1, bias=False), host)
            d, w = stats.describe(ns.asarray(h), axis=-1, bias=False), \
                st.describe(h, axis=-1, bias=False)
        _cmp(d.skewness, w.skewness, host)
        _cmp(d.kurtosis, w.kurtosis, host)
    # describe: (min, max) keep an integer input's dtype; nan_policy='omit' counts are
    # integers
    k = rng.integers(-9, 9, (4, 5))
    d, w = stats.describe(ns.asarray(k), axis=1), st.describe(k, axis=1)
    for g, e in zip(d.minmax, w.minmax):
        assert host(g).dtype == e.dtype
        np.testing.assert_array_equal(host(g), e)
    hn = _data(rng, (6, 3), nan=True)
    d, w = stats.describe(ns.asarray(hn), axis=0, nan_policy="omit"), \
        st.describe(hn, axis=0, nan_policy="omit")
    assert host(d.nobs).dtype == np.asarray(w.nobs).dtype
    np.testing.assert_array_equal(host(d.nobs), w.nobs)
    for g, e in zip(d.minmax, w.minmax):
        _cmp(g, np.ma.getdata(e), host)
