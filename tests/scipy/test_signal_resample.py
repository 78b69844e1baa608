"""cuarray.scipy.signal's rate changes and window-method FIR design against scipy.signal:
upfirdn with every extension mode (GPU and host emulation); firwin, resample,
resample_poly, decimate (GPU)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)

MODES = ["constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric",
         "antireflect", "line"]


@pytest.mark.parametrize("nx,nh,up,down", [(10, 3, 1, 1), (10, 3, 3, 1), (10, 3, 1, 3),
                                           (17, 8, 3, 2), (5, 11, 2, 3), (1, 4, 2, 2),
                                           (30, 7, 4, 7)])
def test_upfirdn_modes(cp, nx, nh, up, down):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(nx * 100 + nh)
    x = rng.standard_normal((2, nx))
    h = rng.standard_normal(nh)
    for mode in MODES:
        if nx == 1 and mode not in ("constant", "edge", "wrap", "symmetric"):
            continue  # SciPy's one-sample extensions of the other modes are not defined
        got = s.upfirdn(cp.asarray(h), cp.asarray(x), up, down, mode=mode, cval=1.5)
        want = ss.upfirdn(h, x, up, down, mode=mode, cval=1.5)
        np.testing.assert_allclose(cp.asnumpy(got), want, atol=1e-12, err_msg=mode)


@pytest.mark.parametrize("dt", ["f4", "f8", "c8", "c16", "i4"])
def test_upfirdn_dtypes_axes(cp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((4, 9, 3)) * 10).astype(dt)
    h = rng.standard_normal(6).astype("f4")
    for axis in (0, 1, 2):
        got = s.upfirdn(cp.asarray(h), cp.asarray(x), 3, 2, axis=axis)
        want = ss.upfirdn(h, x, 3, 2, axis=axis)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-5, atol=1e-4)
    with pytest.raises(ValueError):
        s.upfirdn(cp.asarray(h), cp.asarray(x), 0, 1)
    with pytest.raises(ValueError):
        s.upfirdn(cp.asarray(h), cp.asarray(x), mode="bad")


def test_firwin(xp):
    from cuarray.scipy import signal as s
    cases = [(31, 0.3, {}), (30, 0.3, {}), (31, [0.2, 0.5], {}),
             (31, [0.2, 0.5], {"pass_zero": False}), (33, 0.4, {"pass_zero": "highpass"}),
             (41, [0.1, 0.3, 0.6], {"window": "blackman"}), (21, 100.0, {"fs": 1000.0}),
             (51, 0.25, {"width": 0.05}), (31, [0.2, 0.5], {"scale": False})]
    for n, c, kw in cases:
        np.testing.assert_allclose(xp.asnumpy(s.firwin(n, c, **kw)), ss.firwin(n, c, **kw),
                                   rtol=1e-10, atol=1e-13, err_msg=str((n, c, kw)))
    for bad in [(30, 0.3, {"pass_zero": False}), (31, 1.2, {}), (31, [0.5, 0.2], {}),
                (31, [0.2, 0.5], {"pass_zero": "lowpass"})]:
        with pytest.raises(ValueError):
            ss.firwin(bad[0], bad[1], **bad[2])
        with pytest.raises(ValueError):
            s.firwin(bad[0], bad[1], **bad[2])
    assert s.kaiserord(65, 0.05) == ss.kaiserord(65, 0.05)
    assert s.kaiser_beta(30) == ss.kaiser_beta(30)


@pytest.mark.parametrize("dt", ["f4", "f8", "c16"])
def test_resample(xp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 40))
    if dt == "c16":
        x = x + 1j * rng.standard_normal(x.shape)
    x = x.astype(dt)
    tol = 1e-4 if dt == "f4" else 1e-10
    for num in (40, 60, 61, 25, 24):
        for kw in ({}, {"window": "hann"}, {"window": ("kaiser", 3.0)}):
            got = s.resample(xp.asarray(x), num, axis=1, **kw)
            want = ss.resample(x, num, axis=1, **kw)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol, atol=tol)
    got, t = s.resample(xp.asarray(x.T.copy()), 30, t=xp.arange(40.0))
    want, wt = ss.resample(x.T, 30, t=np.arange(40.0))
    np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol, atol=tol)
    np.testing.assert_allclose(xp.asnumpy(t), wt)


@pytest.mark.parametrize("dt", ["f4", "f8", "i4"])
def test_resample_poly(xp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((50, 2)) * 10).astype(dt)
    tol = 1e-4 if dt == "f4" else 1e-9
    for up, down in [(3, 2), (2, 3), (1, 4), (5, 1), (6, 4)]:
        for kw in ({}, {"padtype": "mean"}, {"padtype": "line"}, {"padtype": "median"},
                   {"padtype": "constant", "cval": 2.0}, {"window": "hamming"},
                   {"window": np.hamming(9)}):
            got = s.resample_poly(xp.asarray(x), up, down, **kw)
            want = ss.resample_poly(x, up, down, **kw)
            assert got.dtype == want.dtype and got.shape == want.shape, (up, down, kw)
            np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol,
                                       atol=tol * np.abs(want).max(), err_msg=str(kw))
    with pytest.raises(ValueError):
        s.resample_poly(xp.asarray(x), 0, 2)
    with pytest.raises(ValueError):
        s.resample_poly(xp.asarray(x), 1.5, 2)


def test_decimate_fir(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 400))
    for kw in ({"ftype": "fir"}, {"ftype": "fir", "n": 20}, {"ftype": "fir", "zero_phase": False}):
        np.testing.assert_allclose(xp.asnumpy(s.decimate(xp.asarray(x), 4, **kw)),
                                   ss.decimate(x, 4, **kw), rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError):
        s.decimate(xp.asarray(x), 4, ftype="bad")


def test_resample_poly_designs_each_filter_once(xp, monkeypatch):
    # The designed filter is kept per (window, rates, dtype, length, device, stream): a
    # repeat call reuses it, any change of those designs anew, and the results match SciPy.
    from cuarray.scipy.signal import _fir_design, _resample
    designed = []
    firwin = _fir_design.firwin

    def counting(*args, **kw):
        designed.append(kw.get("window"))
        return firwin(*args, **kw)
    monkeypatch.setattr(_fir_design, "firwin", counting)
    monkeypatch.setattr(_resample, "_filters", {})
    rng = np.random.default_rng(7)
    x = rng.standard_normal(60)
    calls = [(3, 2, {}), (3, 2, {}), (3, 2, {"padtype": "mean"}), (6, 4, {}),
             (3, 2, {"window": "hann"}), (2, 3, {}),
             (3, 2, {"window": np.hamming(9)})]   # given taps are not designed
    for up, down, kw in calls:
        got = _resample.resample_poly(xp.asarray(x), up, down, **kw)
        np.testing.assert_allclose(xp.asnumpy(got), ss.resample_poly(x, up, down, **kw),
                                   rtol=1e-9, atol=1e-9, err_msg=str((up, down, kw)))
    # (3, 2) thrice and (6, 4) share one design; hann and (2, 3) each get their own
    assert designed == [("kaiser", 5.0), "hann", ("kaiser", 5.0)]
    got = _resample.resample_poly(xp.asarray(x[:50]), 3, 2)   # another length
    np.testing.assert_allclose(xp.asnumpy(got), ss.resample_poly(x[:50], 3, 2), atol=1e-9)
    assert len(designed) == 4
    with xp.cuda.Stream() as s:                                # another stream
        got = _resample.resample_poly(xp.asarray(x), 3, 2)
        s.synchronize()
    assert len(designed) == 5
    monkeypatch.setattr(_resample, "_FILTERS_MAX", 2)           # the cache stays bounded
    for n in (40, 41, 42):
        _resample.resample_poly(xp.asarray(x[:n]), 3, 2)
    assert len(_resample._filters) <= 2
