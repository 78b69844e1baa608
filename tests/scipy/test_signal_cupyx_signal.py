"""cuarray.signal (CuPy's cuSignal additions) against NumPy/SciPy formulations of the same
definitions (GPU; host emulation with NumPy stand-ins elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


def _channelize_ref(x, h, C):
    taps = h.size // C
    npts = x.size // C
    y = np.zeros((npts, C), np.complex128)
    for p in range(npts):
        for c in range(C):
            for k in range(min(taps, p + 1)):
                hv, xv = h[k * C + c], x[(p - k) * C + C - 1 - c]
                y[p, c] += np.conj(hv) * np.conj(xv) if np.iscomplexobj(x) else hv * xv
    return np.conj(np.fft.fft(y, axis=1)).T


@pytest.mark.parametrize("dt", ["f4", "f8", "c8", "c16"])
def test_channelize_poly(xp, dt):
    from cuarray import signal
    rng = np.random.default_rng(0)
    x = rng.standard_normal(200)
    h = rng.standard_normal(24)
    if dt[0] == "c":
        x = x + 1j * rng.standard_normal(200)
        h = h + 1j * rng.standard_normal(24)
    x, h = x.astype(dt), h.astype(dt)
    for C in (4, 8):
        got = signal.channelize_poly(xp.asarray(x), xp.asarray(h), C)
        assert got.dtype == (np.complex64 if dt in ("f4", "c8") else np.complex128)
        tol = 1e-4 if dt in ("f4", "c8") else 1e-10
        np.testing.assert_allclose(xp.asnumpy(got), _channelize_ref(x, h, C), rtol=tol,
                                   atol=tol)


def test_radar(xp):
    from cuarray import signal
    rng = np.random.default_rng(1)
    x = rng.standard_normal((8, 64)) + 1j * rng.standard_normal((8, 64))
    t = rng.standard_normal(16) + 1j * rng.standard_normal(16)
    want = np.fft.ifft(np.fft.fft(x, 64) * np.fft.fft(t, 64).conj(), 64)
    np.testing.assert_allclose(xp.asnumpy(signal.pulse_compression(xp.asarray(x),
                                                                   xp.asarray(t))), want)
    w = ss.get_window("hamming", 16, False)
    tt = t * w
    tt = tt / np.linalg.norm(tt)
    want = np.fft.ifft(np.fft.fft(x, 128) * np.fft.fft(tt, 128).conj(), 128)
    got = signal.pulse_compression(xp.asarray(x), xp.asarray(t), normalize=True,
                                   window="hamming", nfft=128)
    np.testing.assert_allclose(xp.asnumpy(got), want, atol=1e-12)
    xr = x.real.copy()
    got = signal.pulse_compression(xp.asarray(xr), xp.asarray(t.real.copy()))
    assert got.dtype.kind == "f"
    want = np.fft.fft(x.T * ss.get_window("hann", 8, False), 8).T
    np.testing.assert_allclose(xp.asnumpy(signal.pulse_doppler(xp.asarray(x), window="hann")),
                               want, atol=1e-12)
    assert signal.cfar_alpha(1e-3, 16) == 16 * (1e-3 ** (-1 / 16) - 1)


def test_fir_and_shift(xp):
    from cuarray import signal
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 300))
    b = ss.firwin(21, 0.2)
    np.testing.assert_allclose(xp.asnumpy(signal.firfilter(xp.asarray(b), xp.asarray(x))),
                               ss.lfilter(b, [1.0], x), atol=1e-12)
    np.testing.assert_allclose(xp.asnumpy(signal.firfilter_zi(xp.asarray(b))),
                               ss.lfilter_zi(b, [1.0]), atol=1e-10)
    np.testing.assert_allclose(xp.asnumpy(signal.firfilter2(xp.asarray(b), xp.asarray(x))),
                               ss.filtfilt(b, [1.0], x), atol=1e-10)
    got = signal.freq_shift(xp.asarray(x[0]), 10.0, 1000.0)
    want = x[0] * np.exp(-2j * np.pi * 10.0 / 1000.0 * np.arange(300))
    np.testing.assert_allclose(xp.asnumpy(got), want, atol=1e-12)


def test_cepstra(xp):
    from cuarray import signal
    rng = np.random.default_rng(3)
    x = rng.standard_normal(64)
    want = np.fft.ifft(np.log(np.abs(np.fft.fft(x)))).real
    np.testing.assert_allclose(xp.asnumpy(signal.real_cepstrum(xp.asarray(x))), want,
                               atol=1e-12)
    # CuPy's definitions (forward centre int(0.5 (N + 1)), inverse centre 0.5 (N + 1))
    spec = np.fft.fft(x)
    unw = np.unwrap(np.angle(spec))
    i = np.arange(64)
    nd = np.round(unw[32] / np.pi)
    want = np.fft.ifft(np.log(np.abs(spec)) + 1j * (unw - np.pi * nd * i / 32)).real
    ceps, ndelay = signal.complex_cepstrum(xp.asarray(x))
    np.testing.assert_allclose(xp.asnumpy(ceps), want, atol=1e-10)
    np.testing.assert_array_equal(xp.asnumpy(ndelay), np.full(64, nd))
    ls = np.fft.fft(want)
    back = np.fft.ifft(np.exp(ls.real + 1j * (ls.imag + np.pi * nd * i / 32.5))).real
    np.testing.assert_allclose(xp.asnumpy(signal.inverse_complex_cepstrum(ceps, ndelay)),
                               back, atol=1e-10)
    m = signal.minimum_phase(xp.asarray(x))
    # a minimum-phase sequence keeps the magnitude spectrum
    np.testing.assert_allclose(np.abs(np.fft.fft(xp.asnumpy(m))), np.abs(np.fft.fft(x)),
                               rtol=1e-8, atol=1e-8)


def test_volterra(xp):
    from cuarray import signal
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, 60)
    k2 = rng.uniform(-1, 1, (5, 4))
    k3 = rng.uniform(-1, 1, (3, 4, 2))
    n2 = 60 - 5 + 1
    want2 = np.array([sum(a[i + 4 - x] * a[i + 3 - y] * k2[x, y] for x in range(5)
                          for y in range(4)) for i in range(n2)])
    np.testing.assert_allclose(xp.asnumpy(signal.convolve1d2o(xp.asarray(a), xp.asarray(k2))),
                               want2, atol=1e-12)
    n3 = 60 - 4 + 1
    want3 = np.array([sum(a[i + 2 - x] * a[i + 3 - y] * a[i + 1 - z] * k3[x, y, z]
                          for x in range(3) for y in range(4) for z in range(2))
                      for i in range(n3)])
    np.testing.assert_allclose(xp.asnumpy(signal.convolve1d3o(xp.asarray(a), xp.asarray(k3))),
                               want3, atol=1e-12)
    with pytest.raises(ValueError):
        signal.convolve1d2o(xp.asarray(a), xp.asarray(k2), mode="full")


def test_ca_cfar_and_mvdr(xp):
    from cuarray import signal
    rng = np.random.default_rng(5)
    x = rng.uniform(0, 1, 100).astype(np.float32)
    thr, det = signal.ca_cfar(xp.asarray(x), 2, 4, pfa=1e-2)
    g, r = 2, 4
    alpha = signal.cfar_alpha(1e-2, 2 * r)
    want = np.zeros(100, np.float32)
    for c in range(g + r, 100 - g - r):
        tot = x[c - g - r:c + g + r + 1].sum() - x[c - g:c + g + 1].sum()
        want[c] = alpha / (2 * r) * tot
    np.testing.assert_allclose(xp.asnumpy(thr), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(xp.asnumpy(det), x - xp.asnumpy(thr) > 0)
    im = rng.uniform(0, 1, (30, 40)).astype(np.float32)
    thr, det = signal.ca_cfar(xp.asarray(im), (1, 2), (3, 2))
    gx, gy, rx, ry = 1, 2, 3, 2
    N = 2 * rx * (2 * ry + 2 * gy + 1) + 2 * (2 * gx + 1) * ry
    alpha = signal.cfar_alpha(1e-3, N)
    want = np.zeros_like(im)
    for i in range(gx + rx, 30 - gx - rx):
        for j in range(gy + ry, 40 - gy - ry):
            o = im[i - gx - rx:i + gx + rx + 1, j - gy - ry:j + gy + ry + 1].sum()
            n = im[i - gx:i + gx + 1, j - gy:j + gy + 1].sum()
            want[i, j] = alpha / N * (o - n)
    np.testing.assert_allclose(xp.asnumpy(thr), want, rtol=1e-3, atol=1e-4)
    with pytest.raises(ValueError):
        signal.ca_cfar(xp.asarray(x[:10]), 2, 4)
    sens = rng.standard_normal((4, 200)) + 1j * rng.standard_normal((4, 200))
    sv = np.exp(1j * np.pi * np.arange(4) * 0.3).reshape(-1, 1)
    R = np.cov(sens)
    wb = np.linalg.inv(R) @ sv
    want = wb / (sv.conj().T @ wb)
    np.testing.assert_allclose(xp.asnumpy(signal.mvdr(xp.asarray(sens), xp.asarray(sv))),
                               want, rtol=1e-8)


CUPYX_SIGNAL = ["complex_cepstrum", "real_cepstrum", "inverse_complex_cepstrum",
                "minimum_phase", "convolve1d2o", "convolve1d3o", "channelize_poly",
                "firfilter", "firfilter2", "firfilter_zi", "freq_shift", "pulse_compression",
                "pulse_doppler", "cfar_alpha", "ca_cfar", "mvdr"]


def test_namespaces():
    import cuarray
    from cuarray import signal
    from cuarray.scipy import signal as s
    assert sorted(signal.__all__) == sorted(CUPYX_SIGNAL)
    assert cuarray.signal is signal and cuarray.scipy.signal is s
    for mod in (signal, s, s.windows):
        for name in getattr(mod, "__all__", [n for n in dir(mod) if not n.startswith("_")]):
            assert callable(getattr(mod, name)) or name == "windows", name
    # Every SciPy name cuarray lacks is listed in the package docstring.
    missing = [n for n in ss.__all__ if not hasattr(s, n)]
    doc = " ".join(s.__doc__.split())
    assert all(n in doc for n in missing), [n for n in missing if n not in doc]
