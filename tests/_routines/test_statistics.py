"""Order statistics, averages, correlations and histograms against NumPy; the quantile
positions built for the host by g++ and checked against NumPy for every method; every
kernel source compiled by NVRTC for sm_90."""
import ctypes
import warnings

import numpy
import pytest

import cuarray
from cuarray._core import _routines_sorting as sorting
from cuarray._routines import histograms as hg, statistics as st

from test_sorting import DTYPES, compile_op, host_library, nvrtc, special_values

REAL = [d for d in DTYPES if d.kind != "c"]
METHODS = list(st.METHODS)


def _np(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


# ---- CPU: the method table and the position arithmetic ------------------------------------------
def test_methods_are_numpys():
    impl = pytest.importorskip("numpy.lib._function_base_impl")
    assert set(st.METHODS) == set(impl._QuantileMethods)
    assert sorted(st.METHODS.values()) == list(range(13))


@pytest.fixture(scope="module")
def quantile_lib(tmp_path_factory):
    src = sorting.ORDER + st.QUANTILE + "".join(
        f'extern "C" void q_{T.replace(" ", "_")}(const {T}* s, long long n, const double* q, long long nq, int m, '
        f'double alpha, double t2, double* out) {{ for (long long k = 0; k < nq; ++k) {{ '
        f'const cuarray_qpos p = cuarray_quantile_pos(q[k], n, m, alpha, t2); '
        f'out[k] = cuarray_qvalue<double, double>(s[p.lo], s[p.hi], p, m); }} }}\n'
        for T in ("double", "long long"))
    return host_library(tmp_path_factory.mktemp("quantile"), src, "quantile")


def _host_quantiles(lib, s, q, mid):
    alpha, t2 = st._alpha_t2(mid)
    out = numpy.empty(len(q))
    fn = getattr(lib, "q_double" if s.dtype.kind == "f" else "q_long_long")
    fn(ctypes.c_void_p(s.ctypes.data), ctypes.c_longlong(len(s)), ctypes.c_void_p(q.ctypes.data),
       ctypes.c_longlong(len(q)), ctypes.c_int(mid), ctypes.c_double(alpha), ctypes.c_double(t2),
       ctypes.c_void_p(out.ctypes.data))
    return out


@pytest.mark.parametrize("method", METHODS)
def test_host_positions_match_numpy(quantile_lib, method):
    rng = numpy.random.default_rng(0)
    for n in list(range(1, 23)) + [100, 1001]:
        q = numpy.unique(numpy.concatenate([numpy.linspace(0, 1, 41), numpy.arange(n + 1) / n,
                                            (numpy.arange(n) + 0.5) / n, numpy.arange(n + 1) / (n - 1 or 1),
                                            rng.random(20)]))
        q = q[(q >= 0) & (q <= 1)]
        s = numpy.sort(rng.integers(-5, 6, n).astype(numpy.float64) * 1.5)
        for data in (s, numpy.sort(rng.integers(-100, 100, n))):
            r = _host_quantiles(quantile_lib, data, q, st.METHODS[method])
            e = _np(numpy.quantile, data, q, method=method)
            numpy.testing.assert_array_equal(r, e, err_msg=f"{method} n={n}")
        if n > 1:  # infinities make NumPy's lerp give NaN exactly where its indices meet them
            s2 = s.copy()
            s2[0], s2[-1] = -numpy.inf, numpy.inf
            numpy.testing.assert_array_equal(_host_quantiles(quantile_lib, s2, q, st.METHODS[method]),
                                             _np(numpy.quantile, s2, q, method=method))


def test_host_median_matches_numpy(quantile_lib):
    rng = numpy.random.default_rng(1)
    for n in range(1, 30):
        s = numpy.sort(rng.standard_normal(n))
        assert _host_quantiles(quantile_lib, s, numpy.array([0.5]), st._MEDIAN)[0] == numpy.median(s)


def test_unsigned_subtract_matches_numpy():
    impl = pytest.importorskip("numpy.lib._histograms_impl")
    for a, b in [(numpy.int8(100), numpy.int8(-100)), (5, 2), (2.5, 1), (numpy.float32(3), 1.5),
                 (numpy.int64(2**62), numpy.int64(-2**62)), (numpy.uint8(7), numpy.uint8(3))]:
        r, e = hg._unsigned_subtract(a, b), impl._unsigned_subtract(a, b)
        assert r == e and numpy.asarray(r).dtype == numpy.asarray(e).dtype


# ---- CPU: kernels compile ---------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_order_statistic_kernels_compile(dtype):
    outs = {dtype, numpy.dtype("f8")}
    if dtype.kind == "e":
        outs.add(numpy.dtype("f4"))
    for out in outs:
        nvrtc(st.qsorted_source(dtype, out), "qsorted")
        if dtype.kind != "c":
            nvrtc(st.qselect_source(dtype, out), "qselect")
    compile_op(st._wgather_op(dtype if dtype.kind != "c" else numpy.dtype("f8")))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_correlate_digitize_kernels_compile(dtype):
    for conj in (False, True):
        for rev in (False, True):
            if conj and dtype.kind != "c":
                continue
            compile_op(st._corr_op(dtype, conj, rev))
    if dtype.kind != "c":
        for side in (False, True):
            compile_op(hg._digitize_op(dtype, numpy.dtype("f8"), side))
            compile_op(hg._digitize_op(dtype, dtype, side))


@pytest.mark.parametrize("xdt", REAL, ids=str)
def test_histogram_kernels_compile(xdt):
    f4, f8, c8 = numpy.dtype("f4"), numpy.dtype("f8"), numpy.dtype("c8")  # noqa: F841
    edt = xdt if xdt.kind in "ef" else f8
    binfns = [hg.uniform_bin_source(edt, numpy.result_type(xdt, f8), numpy.result_type(xdt, f8), edt, f8),
              hg.uniform_bin_source(edt, xdt, xdt, edt, edt),
              hg.edges_bin_source(f8, numpy.result_type(xdt, f8)), hg.edges_bin_source(xdt, xdt), hg._BIN_DD]
    if xdt.kind in "biu":
        binfns.append(hg._BIN_COUNT)
    variants = [(None, 1, True, 8), (f4, 1, False, 1), (c8, 2, True, 2), (numpy.dtype("i8"), 1, True, 1),
                (None, 1, False, 1)]
    for k, binfn in enumerate(binfns):
        for wdt, nacc, shared, ncopy in variants[k % 2::2] if k else variants:
            nvrtc(hg.hist_source(binfn, xdt, wdt, nacc, shared, ncopy), "hist")


# ---- GPU: order statistics ------------------------------------------------------------------------
def _close(r, e, rtol=1e-6, atol=0):
    assert isinstance(r, cuarray.ndarray)
    assert r.shape == numpy.shape(e) and r.dtype == numpy.asarray(e).dtype, (r.shape, numpy.shape(e), r.dtype,
                                                                            numpy.asarray(e).dtype)
    numpy.testing.assert_allclose(r.get(), e, rtol=rtol, atol=atol, equal_nan=True)


def _data(dtype, shape, rng, nan=True):
    n = int(numpy.prod(shape))
    x = special_values(dtype, max(n, 1), rng)[:n]
    if numpy.dtype(dtype).kind == "f":
        x[numpy.isinf(x)] = 1.5
        if not nan:
            x[numpy.isnan(x)] = 0.25
    return x.reshape(shape)


@pytest.mark.gpu
@pytest.mark.parametrize("shape,axis", [((7,), None), ((40,), 0), ((5, 37), 1), ((5, 37), 0), ((3, 4, 5), (0, 2)),
                                       ((3, 4, 5), None), ((2, 2500), -1), ((0,), None), ((1,), None)])
@pytest.mark.parametrize("dtype", REAL, ids=str)
def test_median(dtype, shape, axis):
    rng = numpy.random.default_rng(2)
    x = _data(dtype, shape, rng)
    g = cuarray.asarray(x)
    rtol = 1e-3 if dtype.char == "e" else 1e-6
    for kd in (False, True):
        _close(st.median(g, axis=axis, keepdims=kd), _np(numpy.median, x, axis=axis, keepdims=kd), rtol)
        _close(st.nanmedian(g, axis=axis, keepdims=kd), _np(numpy.nanmedian, x, axis=axis, keepdims=kd), rtol)


@pytest.mark.gpu
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["i1", "u2", "i8", "e", "f4", "f8", "?"])
def test_quantile_methods(method, dtype):
    rng = numpy.random.default_rng(3)
    x = _data(dtype, (5, 37), rng)
    g = cuarray.asarray(x)
    rtol = 5e-3 if dtype == "e" else 1e-6  # float16: one ulp near 0.2 is 2.4e-4 absolute
    for q in (0.0, 0.3, 1, [0.1, 0.5, 1.0], numpy.array([[0.25], [0.75]])):
        for fn, nfn in ((st.quantile, numpy.quantile), (st.nanquantile, numpy.nanquantile)):
            try:
                e = _np(nfn, x, q, axis=1, method=method)
            except TypeError as exc:  # NumPy refuses to interpolate booleans
                with pytest.raises(TypeError):
                    fn(g, q, axis=1, method=method)
                assert "boolean" in str(exc)
                continue
            _close(fn(g, q, axis=1, method=method), e, rtol)
        pq = numpy.multiply(q, 100) if not isinstance(q, (int, float)) else q * 100
        for fn, nfn in ((st.percentile, numpy.percentile), (st.nanpercentile, numpy.nanpercentile)):
            try:
                e = _np(nfn, x, pq, axis=0, method=method, keepdims=True)
            except TypeError:
                continue
            _close(fn(g, pq, axis=0, method=method, keepdims=True), e, rtol)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["f4", "f8", "i4", "u1", "e"])
def test_full_reductions_by_radix_select(monkeypatch, dtype):
    monkeypatch.setattr(st, "SELECT_MIN", 100)
    rng = numpy.random.default_rng(4)
    x = _data(dtype, (3000,), rng, nan=False)
    g = cuarray.asarray(x)
    rtol = 5e-3 if dtype == "e" else 1e-6  # float16: one ulp near 0.2 is 2.4e-4 absolute
    for method in METHODS:
        _close(st.percentile(g, [0, 10, 50, 99.9, 100], method=method),
               _np(numpy.percentile, x, [0, 10, 50, 99.9, 100], method=method), rtol)
        _close(st.quantile(g, 0.37, method=method), _np(numpy.quantile, x, 0.37, method=method), rtol)
    _close(st.median(g), numpy.median(x), rtol)
    _close(st.median(g[::2]), numpy.median(x[::2]), rtol)
    if dtype in ("f4", "f8", "e"):
        x[[5, 17]] = numpy.nan
        g = cuarray.asarray(x)
        _close(st.median(g), _np(numpy.median, x), rtol)
        _close(st.nanmedian(g), numpy.nanmedian(x), rtol)
        _close(st.nanpercentile(g, [5, 95], method="hazen"), numpy.nanpercentile(x, [5, 95], method="hazen"), rtol)
        _close(st.nanquantile(cuarray.asarray(numpy.full(500, numpy.nan, dtype)), 0.5), numpy.array(numpy.nan, dtype))


@pytest.mark.gpu
@pytest.mark.slow
def test_median_large():
    rng = numpy.random.default_rng(5)
    x = rng.standard_normal(1 << 22).astype(numpy.float32)
    g = cuarray.asarray(x)
    _close(st.median(g), numpy.median(x))
    _close(st.percentile(g, [1, 25, 50, 75, 99]), numpy.percentile(x, [1, 25, 50, 75, 99]))
    _close(st.median(g.reshape(64, -1), axis=1), numpy.median(x.reshape(64, -1), axis=1))


@pytest.mark.gpu
def test_quantile_weights_out_and_errors():
    rng = numpy.random.default_rng(6)
    x = _data("f8", (4, 30), rng, nan=False)
    w = rng.integers(0, 4, (4, 30)).astype(numpy.float64)
    w[:, 0] = 1
    g, gw = cuarray.asarray(x), cuarray.asarray(w)
    for q in (0.0, 0.5, [0.2, 1.0]):
        _close(st.quantile(g, q, axis=1, method="inverted_cdf", weights=gw),
               numpy.quantile(x, q, axis=1, method="inverted_cdf", weights=w))
        _close(st.percentile(g, numpy.multiply(q, 100), axis=0, method="inverted_cdf", weights=gw),
               numpy.percentile(x, numpy.multiply(q, 100), axis=0, method="inverted_cdf", weights=w))
    w1 = w[0]
    _close(st.quantile(g, 0.4, axis=1, method="inverted_cdf", weights=cuarray.asarray(w1)),
           numpy.quantile(x, 0.4, axis=1, method="inverted_cdf", weights=w1))
    out = cuarray.zeros((2, 4))
    r = st.quantile(g, [0.1, 0.9], axis=1, out=out)
    assert r is out
    numpy.testing.assert_allclose(out.get(), numpy.quantile(x, [0.1, 0.9], axis=1))
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        st.quantile(g, 1.5)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        st.percentile(g, [-1, 50])
    with pytest.raises(ValueError, match="is not a valid method"):
        st.quantile(g, 0.5, method="foo")
    with pytest.raises(ValueError, match="q must be a scalar or 1d"):
        st.quantile(g, [[[0.5]]])
    with pytest.raises(TypeError, match="a must be an array of real numbers"):
        st.quantile(cuarray.zeros(3, numpy.complex64), 0.5)
    with pytest.raises(ValueError, match="Only method 'inverted_cdf' supports weights"):
        st.quantile(g, 0.5, weights=gw)
    with pytest.raises(ValueError, match="Weights must be non-negative"):
        st.quantile(g, 0.5, method="inverted_cdf", weights=-gw)
    with pytest.raises(TypeError, match="Axis must be specified"):
        st.quantile(g, 0.5, method="inverted_cdf", weights=cuarray.asarray(w1))
    with pytest.raises(IndexError):
        st.quantile(cuarray.zeros(0), 0.5)


# ---- GPU: averages and correlations -------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["i4", "f4", "f8", "c16", "?"])
def test_average(dtype):
    rng = numpy.random.default_rng(7)
    a = _data(dtype, (4, 6), rng, nan=False)
    w = rng.random((4, 6))
    g, gw = cuarray.asarray(a), cuarray.asarray(w)
    for axis in (None, 0, 1, (0, 1)):
        for kd in (False, True):
            for ret in (False, True):
                _eqs(st.average(g, axis=axis, returned=ret, keepdims=kd),
                     numpy.average(a, axis=axis, returned=ret, keepdims=kd))
                _eqs(st.average(g, axis=axis, weights=gw, returned=ret, keepdims=kd),
                     numpy.average(a, axis=axis, weights=w, returned=ret, keepdims=kd))
    _eqs(st.average(g, axis=1, weights=cuarray.asarray(w[0])), numpy.average(a, axis=1, weights=w[0]))
    with pytest.raises(ZeroDivisionError):
        st.average(g, weights=cuarray.zeros((4, 6)))
    with pytest.raises(TypeError, match="Axis must be specified"):
        st.average(g, weights=cuarray.asarray(w[0]))
    with pytest.raises(ValueError, match="Shape of weights must be consistent"):
        st.average(g, axis=0, weights=cuarray.asarray(w[0]))


def _eqs(r, e, rtol=1e-6):
    if isinstance(e, tuple):
        for x, y in zip(r, e):
            _eqs(x, y, rtol)
        return
    numpy.testing.assert_allclose(cuarray.asnumpy(r), e, rtol=rtol)
    assert cuarray.asnumpy(r).dtype == numpy.asarray(e).dtype


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["i8", "f4", "f8", "c8"])
def test_cov_corrcoef(dtype):
    rng = numpy.random.default_rng(8)
    a, y = (rng.standard_normal(s) * 5 + (1j * rng.standard_normal(s) if "c" in dtype else 0) for s in [(4, 9), (2, 9)])
    a, y = a.astype(dtype), y.astype(dtype)
    g, gy = cuarray.asarray(a), cuarray.asarray(y)
    rtol = 1e-4 if dtype in ("f4", "c8") else 1e-9
    fw, aw = rng.integers(1, 4, 9), rng.random(9)
    for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 3}, {"dtype": numpy.float32}):
        _eqs(st.cov(g, **kw), numpy.cov(a, **kw), 1e-5 if "dtype" in kw else rtol)
    _eqs(st.cov(g, gy), numpy.cov(a, y), rtol)
    _eqs(st.cov(g[0]), numpy.cov(a[0]), rtol)
    _eqs(st.cov(g, fweights=cuarray.asarray(fw)), numpy.cov(a, fweights=fw), rtol)
    _eqs(st.cov(g, aweights=cuarray.asarray(aw), ddof=2), numpy.cov(a, aweights=aw, ddof=2), rtol)
    _eqs(st.cov(g, fweights=cuarray.asarray(fw), aweights=cuarray.asarray(aw)), numpy.cov(a, fweights=fw, aweights=aw), rtol)
    _eqs(st.corrcoef(g), numpy.corrcoef(a), rtol)
    _eqs(st.corrcoef(g, gy), numpy.corrcoef(a, y), rtol)
    yt = y[:, :4].T.copy()  # rowvar=False: columns are variables, rows observations
    _eqs(st.corrcoef(g, cuarray.asarray(yt), rowvar=False), numpy.corrcoef(a, yt, rowvar=False), rtol)
    _eqs(st.corrcoef(g[0]), numpy.corrcoef(a[0]), rtol)
    with pytest.raises(ValueError, match="m has more than 2 dimensions"):
        st.cov(cuarray.zeros((2, 2, 2)))
    with pytest.raises(TypeError, match="fweights must be integer"):
        st.cov(g, fweights=cuarray.asarray(aw))
    with pytest.raises(ValueError, match="aweights cannot be negative"):
        st.cov(g, aweights=cuarray.asarray(-aw))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["?", "i1", "u4", "i8", "e", "f4", "f8", "c8", "c16"])
def test_correlate_convolve(dtype):
    rng = numpy.random.default_rng(9)
    rtol = 1e-2 if dtype == "e" else 1e-5
    for na, nv in [(1, 1), (5, 3), (3, 5), (4, 6), (6, 4), (7, 7), (300, 40), (40, 301)]:
        a = (rng.standard_normal(na) * 20 + 1j * rng.standard_normal(na)).astype(dtype) if "c" in dtype else \
            (rng.standard_normal(na) * 20).astype(dtype)
        v = (rng.standard_normal(nv) * 20 + 1j * rng.standard_normal(nv)).astype(dtype) if "c" in dtype else \
            (rng.standard_normal(nv) * 20).astype(dtype)
        ga, gv = cuarray.asarray(a), cuarray.asarray(v)
        for mode in ("full", "same", "valid"):
            # NumPy sums float32 products in float32, cuarray in float64: allow its rounding
            e = numpy.correlate(a, v, mode)
            atol = 1e-5 * float(numpy.abs(a).max() * numpy.abs(v).max() * min(na, nv)) if dtype in "f4c8e" else 0
            _close(st.correlate(ga, gv, mode), e, rtol, atol)
            _close(st.convolve(ga, gv, mode), numpy.convolve(a, v, mode), rtol, atol)
    _close(st.convolve(cuarray.asarray(numpy.array(3, dtype)), cuarray.asarray(numpy.array(4, dtype))),
           numpy.convolve(numpy.array(3, dtype), numpy.array(4, dtype)), rtol)


@pytest.mark.gpu
def test_correlate_errors_and_promotion():
    a, v = numpy.array([1, 2, 3], numpy.uint8), numpy.array([0.5, 1.5], numpy.float32)
    _close(st.convolve(cuarray.asarray(a), cuarray.asarray(v)), numpy.convolve(a, v))
    with pytest.raises(ValueError, match="cannot be empty"):
        st.convolve(cuarray.zeros(0), cuarray.zeros(1))
    with pytest.raises(ValueError, match="v cannot be empty"):
        st.convolve(cuarray.zeros(1), cuarray.zeros(0))
    with pytest.raises(ValueError, match="first array argument cannot be empty"):
        st.correlate(cuarray.zeros(0), cuarray.zeros(1))
    with pytest.raises(ValueError, match="Use one of 'valid', 'same', or 'full'"):
        st.convolve(cuarray.zeros(2), cuarray.zeros(2), mode="foo")
    with pytest.raises(ValueError, match="object too deep"):
        st.correlate(cuarray.zeros((2, 2)), cuarray.zeros(2))


# ---- GPU: histograms ----------------------------------------------------------------------------
def _hist_eq(r, e):
    assert len(r) == len(e)
    for x, y in zip(r, e):
        if isinstance(y, list):
            for p, q in zip(x, y):
                _hist_eq((p,), (q,))
            continue
        assert x.dtype == y.dtype and x.shape == y.shape, (x.dtype, y.dtype, x.shape, y.shape)
        numpy.testing.assert_allclose(x.get(), y, rtol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["u1", "i2", "i8", "e", "f4", "f8", "?"])
def test_histogram(dtype):
    rng = numpy.random.default_rng(10)
    x = (rng.standard_normal(2000) * 4).astype(dtype) if dtype not in ("u1", "?") else \
        rng.integers(0, 50, 2000).astype(dtype)
    g = cuarray.asarray(x)
    w = rng.random(2000)
    for bins in (10, 1, 7, 256, 20000, [-3, -1, 0, 0, 2.5, 4], "auto", "sturges", "fd"):
        for rng_ in (None, (-2, 3), (0, 0), (2, 3.5)):
            gb = cuarray.asarray(numpy.array(bins)) if isinstance(bins, list) else bins
            try:
                e = _np(numpy.histogram, x, bins, range=rng_)
            except ValueError as exc:  # e.g. too many float16 bins for the range
                with pytest.raises(ValueError, match=str(exc)[:20]):
                    _np(hg.histogram, g, gb, range=rng_)
                continue
            _hist_eq(_np(hg.histogram, g, gb, range=rng_), e)
            if not isinstance(bins, str):
                _hist_eq(_np(hg.histogram, g, gb, range=rng_, weights=cuarray.asarray(w), density=True),
                         _np(numpy.histogram, x, bins, range=rng_, weights=w, density=True))
    _hist_eq((hg.histogram_bin_edges(g, "doane"),), (_np(numpy.histogram_bin_edges, x, "doane"),))


@pytest.mark.gpu
def test_histogram_weights_dtypes_and_errors():
    rng = numpy.random.default_rng(11)
    x = rng.standard_normal(500).astype(numpy.float32)
    g = cuarray.asarray(x)
    for w in (rng.integers(0, 5, 500), rng.random(500).astype(numpy.float32), (rng.random(500) + 1j).astype("c8"),
              rng.random(500) + 2j):
        _hist_eq(hg.histogram(g, 6, weights=cuarray.asarray(w)), numpy.histogram(x, 6, weights=w))
    for bins in ("scott", "rice", "sqrt", "stone"):
        _hist_eq(_np(hg.histogram, g, bins), _np(numpy.histogram, x, bins))
    with pytest.raises(ValueError, match="must be positive, when an integer"):
        hg.histogram(g, 0)
    with pytest.raises(TypeError, match="must be an integer, a string, or an array"):
        hg.histogram(g, 2.5)
    with pytest.raises(ValueError, match="is not a valid estimator"):
        hg.histogram(g, "foo")
    with pytest.raises(ValueError, match="max must be larger than min"):
        hg.histogram(g, 5, range=(1, 0))
    with pytest.raises(ValueError, match="must increase monotonically"):
        hg.histogram(g, cuarray.asarray(numpy.array([0.0, 2, 1])))
    with pytest.raises(ValueError, match="weights should have the same shape"):
        hg.histogram(g, 5, weights=cuarray.zeros(3))
    xn = x.copy()
    xn[0] = numpy.nan
    with pytest.raises(ValueError, match="autodetected range of"):
        hg.histogram(cuarray.asarray(xn), 5)
    _hist_eq(hg.histogram(cuarray.asarray(xn), 5, range=(-1, 1)), numpy.histogram(xn, 5, range=(-1, 1)))


@pytest.mark.gpu
def test_histogram2d_histogramdd():
    rng = numpy.random.default_rng(12)
    xs, ys, zs = rng.standard_normal(400), rng.standard_normal(400), rng.integers(0, 4, 400)
    w = rng.random(400)
    gx, gy, gz = cuarray.asarray(xs), cuarray.asarray(ys), cuarray.asarray(zs)
    for bins in (5, (3, 4), [numpy.array([-2, 0, 0.5, 3]), 4]):
        gb = bins if not isinstance(bins, list) else [cuarray.asarray(bins[0]), bins[1]]
        _hist_eq(hg.histogram2d(gx, gy, gb), numpy.histogram2d(xs, ys, bins))
        _hist_eq(hg.histogram2d(gx, gy, gb, density=True, weights=cuarray.asarray(w)),
                 numpy.histogram2d(xs, ys, bins, density=True, weights=w))
    _hist_eq(hg.histogram2d(gx, gy, 4, range=[(-1, 1), (0, 2)]), numpy.histogram2d(xs, ys, 4, range=[(-1, 1), (0, 2)]))
    sample = numpy.stack([xs, ys, zs], 1)
    _hist_eq(hg.histogramdd(cuarray.asarray(sample), bins=(2, 3, 4)), numpy.histogramdd(sample, bins=(2, 3, 4)))
    _hist_eq(hg.histogramdd([gx, gy, gz], bins=3, weights=cuarray.asarray(w), density=True),
             numpy.histogramdd([xs, ys, zs], bins=3, weights=w, density=True))
    with pytest.raises(ValueError, match="dimension of bins must be equal"):
        hg.histogramdd(cuarray.asarray(sample), bins=(2, 3))
    with pytest.raises(ValueError, match="x and y must have the same length"):
        hg.histogram2d(gx, gy[:3])


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["u1", "i4", "i8", "?"])
def test_bincount(dtype):
    rng = numpy.random.default_rng(13)
    x = rng.integers(0, 2 if dtype == "?" else 70, 3000).astype(dtype)
    w = rng.random(3000)
    g = cuarray.asarray(x)
    for mn in (0, 5, 200):
        _close(hg.bincount(g, minlength=mn), numpy.bincount(x, minlength=mn))
        _close(hg.bincount(g, weights=cuarray.asarray(w), minlength=mn), numpy.bincount(x, weights=w, minlength=mn))
    big = rng.integers(0, 100000, 5000)
    _close(hg.bincount(cuarray.asarray(big)), numpy.bincount(big))
    _close(hg.bincount(cuarray.asarray(big[:0])), numpy.bincount(big[:0]))
    with pytest.raises(ValueError, match="negative"):
        hg.bincount(cuarray.asarray(numpy.array([1, -1])))
    with pytest.raises(TypeError, match="according to the rule 'safe'"):
        hg.bincount(cuarray.zeros(3))
    with pytest.raises(ValueError, match="object too deep"):
        hg.bincount(cuarray.zeros((2, 2), numpy.int64))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["i4", "f4", "f8"])
def test_digitize(dtype):
    rng = numpy.random.default_rng(14)
    x = (rng.standard_normal((6, 7)) * 3).astype(dtype)
    x.flat[0], x.flat[1] = 1, 0
    if dtype != "i4":
        x.flat[2] = numpy.nan
    for bins in (numpy.array([-1.0, 0, 1, 1, 2.5]), numpy.array([3, 1, 0, -2]), numpy.array([0.5]), numpy.array([])):
        for right in (False, True):
            _close(hg.digitize(cuarray.asarray(x), cuarray.asarray(bins), right),
                   numpy.digitize(x, bins, right))
    with pytest.raises(TypeError, match="x may not be complex"):
        hg.digitize(cuarray.zeros(2, numpy.complex64), cuarray.zeros(2))
