"""cuarray.scipy.signal's peak finding and waveforms against scipy.signal (GPU; host
emulation with NumPy stand-ins elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


PEAK_KW = [{}, {"height": 0.5}, {"height": (None, 1.0)}, {"threshold": 0.2},
           {"threshold": (0.1, 1.0)}, {"distance": 5}, {"distance": 20.5}, {"prominence": 1},
           {"prominence": (0.5, 2)}, {"width": 2}, {"width": (1, 3), "rel_height": 0.8},
           {"prominence": 1, "wlen": 11}, {"plateau_size": 2}, {"plateau_size": (1, 1)},
           {"height": 0, "distance": 3, "prominence": 0.5, "width": 1}]


def _close(got, want, **kw):
    np.testing.assert_allclose(got, want, **kw)


def test_find_peaks_conditions(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(0)
    x = rng.standard_normal(3000)
    x[100:105] = 5
    x[200:203] = 4
    x[203] = 4.5
    x[-3:] = 9
    xi = np.round(x * 3)
    for data in (x, xi):
        for kw in PEAK_KW:
            if data is xi and "distance" in kw:
                continue  # ties: SciPy's greedy order depends on its sort's tie order
            p, props = s.find_peaks(xp.asarray(data), **kw)
            wp, wprops = ss.find_peaks(data, **kw)
            np.testing.assert_array_equal(xp.asnumpy(p), wp, err_msg=str(kw))
            assert set(props) == set(wprops), kw
            for k in wprops:
                _close(xp.asnumpy(props[k]), wprops[k], err_msg=f"{kw} {k}")
    p = ss.find_peaks(x)[0]
    got = s.peak_prominences(xp.asarray(x), xp.asarray(p), wlen=7)
    for a, b in zip(got, ss.peak_prominences(x, p, wlen=7)):
        _close(xp.asnumpy(a), b)
    got = s.peak_widths(xp.asarray(x), xp.asarray(p), rel_height=1)
    for a, b in zip(got, ss.peak_widths(x, p, rel_height=1)):
        _close(xp.asnumpy(a), b)
    y = rng.standard_normal((20, 30))
    for f in ["argrelmax", "argrelmin"]:
        for kw in [{}, {"axis": 1}, {"order": 3}, {"mode": "wrap"}]:
            for a, b in zip(getattr(s, f)(xp.asarray(y), **kw), getattr(ss, f)(y, **kw)):
                np.testing.assert_array_equal(xp.asnumpy(a), b)


def test_waveforms(xp):
    from cuarray.scipy import signal as s
    t = np.linspace(-3, 10, 301)
    for w in (0, 0.3, 1, 1.5):
        _close(xp.asnumpy(s.sawtooth(xp.asarray(t), w)), ss.sawtooth(t, w), atol=1e-12)
        _close(xp.asnumpy(s.square(xp.asarray(t), w)), ss.square(t, w), atol=1e-12)
    t32 = t.astype("f4")
    _close(xp.asnumpy(s.sawtooth(xp.asarray(t32), 0.5)), ss.sawtooth(t32, 0.5), atol=1e-5)
    # SciPy 1.18 keeps float32 (t, width and a Python float promote, the Python width weak);
    # 1.17 always gave float64. cuarray follows 1.18.
    for f in (s.sawtooth, s.square):
        assert f(xp.asarray(t32)).dtype == np.float32
        assert f(xp.asarray(t32), np.float64(0.5)).dtype == np.float64
        assert f(xp.asarray(t32), xp.asarray(np.full(301, 0.5, "f4"))).dtype == np.float32
        assert f(xp.asarray(np.arange(5, dtype="i4"))).dtype == np.float64
    _close(xp.asnumpy(s.square(xp.asarray(t32), 0.3)), ss.square(t32, 0.3))
    tt = np.linspace(0, 2, 500)
    for m in ["linear", "quadratic", "logarithmic", "hyperbolic"]:
        for vz in (True, False):
            _close(xp.asnumpy(s.chirp(xp.asarray(tt), 6, 2, 1, m, 30, vz)),
                   ss.chirp(tt, 6, 2, 1, m, 30, vz), atol=1e-9)
    _close(xp.asnumpy(s.chirp(xp.asarray(tt), 6, 2, 1, complex=True)),
           ss.chirp(tt, 6, 2, 1, complex=True), atol=1e-9)
    tg = np.linspace(-1e-3, 1e-3, 101)
    for kw in [{}, {"retquad": True}, {"retenv": True}, {"retquad": True, "retenv": True}]:
        a = s.gausspulse(xp.asarray(tg), **kw)
        b = ss.gausspulse(tg, **kw)
        if not isinstance(b, tuple):
            a, b = (a,), (b,)
        for u, v in zip(a, b):
            _close(xp.asnumpy(u), v, atol=1e-12)
    assert s.gausspulse("cutoff") == ss.gausspulse("cutoff")
    _close(xp.asnumpy(s.sweep_poly(xp.asarray(tt), [1, -2, 3])), ss.sweep_poly(tt, [1, -2, 3]),
           atol=1e-9)
    for args in [((5,),), ((4, 5), "mid"), ((4, 5), (1, 2)), (7, 3)]:
        np.testing.assert_array_equal(xp.asnumpy(s.unit_impulse(*args)),
                                      ss.unit_impulse(*args))


def test_peak_errors(xp):
    from cuarray.scipy import signal as s
    x = xp.asarray(np.random.default_rng(1).standard_normal(50))
    with pytest.raises(ValueError, match="distance"):
        s.find_peaks(x, distance=0.5)
    with pytest.raises(ValueError, match="1-D"):
        s.find_peaks(xp.zeros((3, 3)))
    with pytest.raises(ValueError, match="wlen"):
        s.find_peaks(x, prominence=1, wlen=1)
    with pytest.raises(ValueError, match="rel_height"):
        s.find_peaks(x, width=1, rel_height=-1)
    with pytest.raises(ValueError, match="Order"):
        s.argrelmax(x, order=0)
    with pytest.raises(ValueError, match="method"):
        s.chirp(x, 1, 1, 2, method="bad")
    with pytest.raises(ValueError):
        s.gausspulse(x, fc=-1)


def test_find_peaks_float32_and_large(xp):
    from cuarray.scipy import signal as s
    x = np.random.default_rng(2).standard_normal(200_000).astype(np.float32)
    p, props = s.find_peaks(xp.asarray(x), height=0.5, distance=4, prominence=0.3)
    wp, wprops = ss.find_peaks(x, height=0.5, distance=4, prominence=0.3)
    np.testing.assert_array_equal(xp.asnumpy(p), wp)
    for k in wprops:
        np.testing.assert_allclose(xp.asnumpy(props[k]), wprops[k])


def test_wavelets(xp):
    """SciPy 1.15 removed its wavelets; the references are their published formulas."""
    from cuarray.scipy import signal as s
    M, sw, w = 100, 4.0, 2.0
    x = (np.arange(M) - (M - 1) / 2) / sw
    want = np.exp(1j * w * x) * np.exp(-0.5 * x ** 2) * np.pi ** -0.25 * np.sqrt(1 / sw)
    np.testing.assert_allclose(xp.asnumpy(s.morlet2(M, sw, w)), want, atol=1e-14)
    x = np.linspace(-2 * np.pi, 2 * np.pi, 64)
    want = (np.exp(5j * x) - np.exp(-12.5)) * np.exp(-0.5 * x ** 2) * np.pi ** -0.25
    np.testing.assert_allclose(xp.asnumpy(s.morlet(64)), want, atol=1e-14)
    v = np.arange(50) - 24.5
    want = 2 / (np.sqrt(9.0) * np.pi ** 0.25) * (1 - v ** 2 / 9) * np.exp(-v ** 2 / 18)
    np.testing.assert_allclose(xp.asnumpy(s.ricker(50, 3.0)), want, atol=1e-14)
    h = np.array([0.5, 0.25, -0.125, 2.0])
    np.testing.assert_allclose(xp.asnumpy(s.qmf(h)), h[::-1] * [1, -1, 1, -1])
    sig = np.cos(2 * np.pi * 7 * np.linspace(0, 1, 200))
    got = s.cwt(xp.asarray(sig), s.ricker, [1, 2, 5])
    for row, width in zip(xp.asnumpy(got), [1, 2, 5]):
        wv = xp.asnumpy(s.ricker(min(10 * width, 200), width))[::-1]
        np.testing.assert_allclose(row, np.convolve(sig, wv, mode="same"), atol=1e-12)


def test_peak_widths_flat_step(xp):
    """SciPy 1.18 skips the interpolation where the crossing step is flat (1.17 divided by
    zero); a negative prominence puts the width height above the peak's plateau."""
    from cuarray.scipy import signal as s
    x = xp.asarray(np.array([0.0, 1.0, 1.0, 0.0]))
    data = (xp.asarray(np.array([-1.0])), xp.asarray(np.array([0])), xp.asarray(np.array([3])))
    w, wh, lip, rip = (xp.asnumpy(v) for v in s.peak_widths(x, xp.asarray(np.array([1])),
                                                          prominence_data=data))
    np.testing.assert_array_equal(wh, [1.5])
    np.testing.assert_array_equal(lip, [1.0])   # x[2] == x[1]: no interpolation
    np.testing.assert_array_equal(rip, [1.5])   # 1 - (1.5 - 1) / (0 - 1)
    np.testing.assert_array_equal(w, [0.5])
