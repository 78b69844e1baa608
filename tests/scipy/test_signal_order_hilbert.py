"""cuarray.scipy.signal's rank filters, sepfir2d (GPU and host emulation), and wiener,
hilbert, hilbert2, detrend (GPU) against scipy.signal."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


@pytest.mark.parametrize("dt", ["f8", "f4", "i4", "u1", "i8", "u2"])
def test_medfilt(cp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(0)
    for shape, ks in [((20,), 3), ((20,), 5), ((9, 11), 3), ((9, 11), (5, 3)),
                      ((5, 6, 7), 3), ((1,), 1)]:
        x = (rng.standard_normal(shape) * 20).astype(dt)
        got = s.medfilt(cp.asarray(x), ks)
        want = ss.medfilt(x, ks)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(cp.asnumpy(got), want)
        if len(shape) == 2:
            np.testing.assert_array_equal(cp.asnumpy(s.medfilt2d(cp.asarray(x), ks)),
                                          ss.medfilt2d(x, ks))


def test_order_filter_and_errors(cp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((7, 8)) * 20).astype("f8")
    dom = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    for r in range(6):
        got = s.order_filter(cp.asarray(x), cp.asarray(dom), r)
        np.testing.assert_array_equal(cp.asnumpy(got), ss.order_filter(x, dom, r))
    xs = cp.asarray(x)[::2, ::-1]
    np.testing.assert_array_equal(cp.asnumpy(s.medfilt(xs, 3)), ss.medfilt(x[::2, ::-1], 3))
    with pytest.raises(ValueError, match="odd"):
        s.order_filter(cp.asarray(x), np.ones((2, 3)), 0)
    with pytest.raises(ValueError, match="odd"):
        s.medfilt(cp.asarray(x), 4)
    with pytest.raises(ValueError, match="not supported"):
        s.medfilt(cp.asarray(x.astype("c16")))
    with pytest.warns(UserWarning, match="exceeds"):
        s.medfilt(cp.asarray(x[:2]), 3)


def test_sepfir2d(cp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(2)
    x = rng.standard_normal((7, 9))
    hr, hc = rng.standard_normal(5), rng.standard_normal(3)
    got = s.sepfir2d(cp.asarray(x), cp.asarray(hr), cp.asarray(hc))
    np.testing.assert_allclose(cp.asnumpy(got), ss.sepfir2d(x, hr, hc), atol=1e-12)
    x32 = x.astype("f4")
    got = s.sepfir2d(cp.asarray(x32), cp.asarray(hr.astype("f4")), cp.asarray(hc.astype("f4")))
    assert got.dtype == np.float32
    np.testing.assert_allclose(cp.asnumpy(got), ss.sepfir2d(x32, hr.astype("f4"),
                                                             hc.astype("f4")), atol=1e-5)
    with pytest.raises(ValueError, match="odd"):
        s.sepfir2d(cp.asarray(x), cp.asarray(hr[:4]), cp.asarray(hc))
    with pytest.raises(TypeError):
        s.sepfir2d(cp.asarray(x32), cp.asarray(hr), cp.asarray(hc))


def test_wiener(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(3)
    x = rng.standard_normal((30, 40))
    for kw in ({}, {"mysize": 5}, {"mysize": (3, 7), "noise": 0.5}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ss.wiener(x, **kw)
        np.testing.assert_allclose(xp.asnumpy(s.wiener(xp.asarray(x), **kw)), want,
                                   rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("dt", ["f4", "f8", "i4"])
def test_hilbert(xp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((6, 33)) * 10).astype(dt)
    tol = 1e-4 if dt == "f4" else 1e-10
    for kw in ({}, {"N": 40}, {"N": 21}, {"axis": 0}, {"axis": 0, "N": 7}):
        got = s.hilbert(xp.asarray(x), **kw)
        want = ss.hilbert(x, **kw)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol, atol=tol * 10)
    for kw in ({}, {"N": 8}, {"N": (5, 40)}, {"axes": (1, 0)}):
        got = s.hilbert2(xp.asarray(x), **kw)
        want = ss.hilbert2(x, **kw)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol, atol=tol * 10)
    with pytest.raises(ValueError, match="real"):
        s.hilbert(xp.asarray(x.astype("c8")))
    with pytest.raises(ValueError, match="positive"):
        s.hilbert(xp.asarray(x), N=0)


@pytest.mark.parametrize("dt", ["f4", "f8", "c16", "i4"])
def test_detrend(xp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 50)) * 10 + np.arange(50) * 0.3
    if dt == "c16":
        x = x + 1j * rng.standard_normal(x.shape)
    x = x.astype(dt)
    tol = 1e-4 if dt == "f4" else 1e-9
    for kw in ({}, {"type": "constant"}, {"axis": 0}, {"bp": [10, 30]}, {"bp": 49},
               {"type": "c", "axis": 0}):
        got = s.detrend(xp.asarray(x), **kw)
        want = ss.detrend(x, **kw)
        assert got.dtype == want.dtype, kw
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol, atol=tol * 10)
    with pytest.raises(ValueError, match="Trend type"):
        s.detrend(xp.asarray(x), type="bad")
    with pytest.raises(ValueError, match="Breakpoints"):
        s.detrend(xp.asarray(x), bp=60)
