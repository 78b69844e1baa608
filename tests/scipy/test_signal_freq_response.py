"""cuarray.scipy.signal's frequency responses (and spectral odds and ends) against
scipy.signal (GPU; host emulation with NumPy stand-ins elsewhere)."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


FREQZ_KW = [{}, {"worN": 100}, {"worN": 64, "whole": True},
            {"worN": 65, "include_nyquist": True}, {"worN": np.linspace(0, 0.5, 7), "fs": 1.0},
            {"fs": 100.0}]


def _close(got, want, **kw):
    np.testing.assert_allclose(np.asarray(got), want, **kw)


def test_freqz(xp):
    from cuarray.scipy import signal as s
    b, a = ss.butter(4, 0.3)
    fir = ss.firwin(11, 0.3)
    for kw in FREQZ_KW:
        kw2 = {k: (xp.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        for bb, aa in [(b, a), (fir, 1), (fir, 2.0)]:
            w, h = s.freqz(xp.asarray(bb), aa if np.isscalar(aa) else xp.asarray(aa), **kw2)
            ww, wh = ss.freqz(bb, aa, **kw)
            _close(xp.asnumpy(w), ww)
            _close(xp.asnumpy(h), wh, atol=1e-10, err_msg=str(kw))
    sos = ss.butter(6, 0.2, output="sos")
    _close(xp.asnumpy(s.sosfreqz(xp.asarray(sos), worN=77)[1]), ss.sosfreqz(sos, worN=77)[1],
           atol=1e-10)
    z, p, k = ss.butter(4, 0.3, output="zpk")
    got = s.freqz_zpk(xp.asarray(z), xp.asarray(p), k, worN=50, whole=True)[1]
    _close(xp.asnumpy(got), ss.freqz_zpk(z, p, k, worN=50, whole=True)[1], atol=1e-10)


def test_group_delay_and_analog(xp):
    from cuarray.scipy import signal as s
    b, a = ss.butter(4, 0.3)
    for num, den in [(b, a), (ss.firwin(11, 0.3), [1.0])]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = s.group_delay((xp.asarray(num), xp.asarray(np.asarray(den))), w=40)[1]
            want = ss.group_delay((num, den), w=40)[1]
        _close(xp.asnumpy(got), want, atol=1e-8)
    grid = np.logspace(-1, 1, 30)
    ba, aa = ss.butter(3, 2.0, analog=True)
    got = s.freqs(xp.asarray(ba), xp.asarray(aa), worN=xp.asarray(grid))[1]
    _close(xp.asnumpy(got), ss.freqs(ba, aa, worN=grid)[1], atol=1e-10)
    z, p, k = ss.butter(3, 2.0, analog=True, output="zpk")
    got = s.freqs_zpk(xp.asarray(z), xp.asarray(p), k, worN=xp.asarray(grid))[1]
    _close(xp.asnumpy(got), ss.freqs_zpk(z, p, k, worN=grid)[1], atol=1e-10)
    w, h = s.freqs_zpk(xp.asarray(z), xp.asarray(p), k, worN=30)
    ww, wh = ss.freqs_zpk(z, p, k, worN=30)
    _close(xp.asnumpy(w), ww)
    _close(xp.asnumpy(h), wh, atol=1e-10)


@pytest.mark.parametrize("normalize", [False, True, "amplitude"])
@pytest.mark.parametrize("floating_mean", [False, True])
def test_lombscargle(xp, normalize, floating_mean):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(5)
    x = np.sort(rng.uniform(0, 10, 80))
    y = np.sin(2.3 * x) + 0.3 * rng.standard_normal(80) + 1.0
    f = np.linspace(0.1, 5, 40)
    wts = rng.uniform(0.5, 1.5, 80)
    for kw in ({}, {"weights": wts}):
        got = s.lombscargle(xp.asarray(x), xp.asarray(y), xp.asarray(f), normalize=normalize,
                            floating_mean=floating_mean,
                            **{k: xp.asarray(v) for k, v in kw.items()})
        want = ss.lombscargle(x, y, f, normalize=normalize, floating_mean=floating_mean, **kw)
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError):
        s.lombscargle(xp.asarray(x), xp.asarray(y[:5]), xp.asarray(f))
    with pytest.raises(ValueError):
        s.lombscargle(xp.asarray(x), xp.asarray(y), xp.asarray(f), normalize="bad")


def test_vectorstrength(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(6)
    ev = np.sort(rng.uniform(0, 20, 50))
    for per in (1.5, np.array([0.7, 1.5, 3.0])):
        got = s.vectorstrength(xp.asarray(ev), xp.asarray(np.asarray(per)))
        want = ss.vectorstrength(ev, per)
        for a, b in zip(got, want):
            np.testing.assert_allclose(xp.asnumpy(a), b, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError):
        s.vectorstrength(xp.asarray(ev), xp.asarray(np.array([1.0, -1.0])))


def test_czt_zoom_fft(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 50)) + 1j * rng.standard_normal((3, 50))
    for kw in ({}, {"m": 70}, {"m": 30, "w": np.exp(-0.05j), "a": 0.9 * np.exp(0.3j)}):
        np.testing.assert_allclose(xp.asnumpy(s.czt(xp.asarray(x), **kw)), ss.czt(x, **kw),
                                   rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(xp.asnumpy(s.czt(xp.asarray(x.T.copy()), axis=0)),
                               ss.czt(x.T, axis=0), rtol=1e-8, atol=1e-9)
    for kw in ({"fn": [0.2, 0.5]}, {"fn": 0.3, "m": 64}, {"fn": [10, 40], "fs": 100,
                                                            "endpoint": True}):
        np.testing.assert_allclose(xp.asnumpy(s.zoom_fft(xp.asarray(x), **kw)),
                                   ss.zoom_fft(x, **kw), rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(xp.asnumpy(s.czt_points(20, 0.99 * np.exp(-0.1j), 0.8)),
                               ss.czt_points(20, 0.99 * np.exp(-0.1j), 0.8), rtol=1e-12)
    with pytest.raises(ValueError):
        s.CZT(0)
