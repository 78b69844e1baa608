"""cuarray.scipy.signal's spectral estimators against scipy.signal (GPU; on machines
without one, the host emulation with NumPy stand-ins for cuFFT and reductions)."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)

KW = [{}, {"nperseg": 100}, {"scaling": "spectrum", "nperseg": 128, "noverlap": 100},
      {"detrend": "linear", "nperseg": 64}, {"average": "median", "nperseg": 64},
      {"nfft": 300, "nperseg": 200}, {"return_onesided": False, "nperseg": 64},
      {"detrend": False, "window": "hamming", "nperseg": 50}, {"fs": 10.0, "nperseg": 32}]


@pytest.mark.parametrize("dt", ["f8", "f4"])
def test_welch_periodogram(xp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 1000)).astype(dt)
    tol = 1e-4 if dt == "f4" else 1e-8
    for kw in KW:
        f, p = s.welch(xp.asarray(x), **kw)
        wf, wp = ss.welch(x, **kw)
        assert p.dtype == wp.dtype, kw
        np.testing.assert_allclose(xp.asnumpy(f), wf)
        np.testing.assert_allclose(xp.asnumpy(p), wp, rtol=tol, atol=1e-12, err_msg=str(kw))
    for kw in [{}, {"scaling": "spectrum"}, {"window": "hann"}, {"nfft": 1200},
               {"nfft": 500}, {"detrend": "linear"}, {"return_onesided": False}]:
        f, p = s.periodogram(xp.asarray(x), **kw)
        wf, wp = ss.periodogram(x, **kw)
        assert p.dtype == wp.dtype, kw
        np.testing.assert_allclose(xp.asnumpy(p), wp, rtol=tol, atol=1e-12, err_msg=str(kw))
    f, p = s.welch(xp.asarray(x.T.copy()), axis=0, nperseg=64)
    np.testing.assert_allclose(xp.asnumpy(p), ss.welch(x.T, axis=0, nperseg=64)[1], rtol=tol,
                               atol=1e-12)


def test_csd_coherence_complex(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 1000))
    y = rng.standard_normal((3, 900))
    for kw in [{"nperseg": 64}, {"nperseg": 64, "average": "median"}]:
        np.testing.assert_allclose(xp.asnumpy(s.csd(xp.asarray(x), xp.asarray(y), **kw)[1]),
                                   ss.csd(x, y, **kw)[1], rtol=1e-8, atol=1e-14)
    np.testing.assert_allclose(
        xp.asnumpy(s.coherence(xp.asarray(x), xp.asarray(y[:, :1000]), nperseg=64)[1]),
        ss.coherence(x, y[:, :1000], nperseg=64)[1], rtol=1e-8, atol=1e-12)
    z = x + 1j * rng.standard_normal(x.shape)
    f, p = s.welch(xp.asarray(z), nperseg=64)
    wf, wp = ss.welch(z, nperseg=64)
    np.testing.assert_allclose(xp.asnumpy(f), wf)
    np.testing.assert_allclose(xp.asnumpy(p), wp, rtol=1e-8, atol=1e-14)


@pytest.mark.parametrize("mode", ["psd", "complex", "magnitude", "angle", "phase"])
def test_spectrogram(xp, mode):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 700))
    got = s.spectrogram(xp.asarray(x), nperseg=64, mode=mode)
    want = ss.spectrogram(x, nperseg=64, mode=mode)
    for u, v in zip(got, want):
        np.testing.assert_allclose(xp.asnumpy(u), v, rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("dt", ["f8", "f4", "c16"])
def test_stft_istft(xp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 1000))
    if dt == "c16":
        x = x + 1j * rng.standard_normal(x.shape)
    x = x.astype(dt)
    tol = 1e-4 if dt == "f4" else 1e-8
    for kw in [{}, {"nperseg": 100, "noverlap": 75}, {"boundary": None, "padded": False},
               {"boundary": "even"}, {"scaling": "psd"}, {"nfft": 300},
               {"return_onesided": False}]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = s.stft(xp.asarray(x), **kw)
            want = ss.stft(x, **kw)
        assert got[2].dtype == want[2].dtype
        for u, v in zip(got, want):
            np.testing.assert_allclose(xp.asnumpy(u), v, rtol=tol, atol=tol * 1e-2,
                                       err_msg=str(kw))
        ikw = {k: v for k, v in kw.items() if k in ("nperseg", "noverlap", "scaling", "nfft")}
        onesided = not (dt == "c16" or kw.get("return_onesided") is False)
        ikw["input_onesided"] = onesided
        ikw["boundary"] = kw.get("boundary", "zeros") is not None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t, xr = s.istft(got[2], **ikw)
            wt, wxr = ss.istft(want[2], **ikw)
        assert xr.dtype == wxr.dtype
        # Each sample is divided by its window overlap sum `norm`; without a boundary the
        # edge samples' norm is win[1]**2 ~ 2e-8, so the transforms' rounding (float32:
        # ~1e-7, cuFFT's differs from pocketfft's) grows there by 1/sqrt(norm) ~ 7e3.
        nfreq = got[2].shape[-2]
        nper = ikw.get("nperseg", 2 * (nfreq - 1) if onesided else nfreq)
        norm = _ola_norm(nper, ikw.get("noverlap"), got[2].shape[-1], ikw["boundary"])
        atol = tol * 1e-2 / np.sqrt(np.minimum(np.where(norm > 1e-10, norm, 1.0), 1.0))
        np.testing.assert_array_less(np.abs(xp.asnumpy(xr) - wxr),
                                     atol + tol * np.abs(wxr) + 1e-300, err_msg=str(kw))
        np.testing.assert_allclose(xp.asnumpy(t), wt)


@pytest.mark.parametrize("dt", ["f4", "f8", "f2", "i4"])
def test_stft_framing_kernel(xp, dt):
    # The one-kernel framing: every boundary, padding on and off, nfft > nperseg, axis 0,
    # named windows (cached between calls) and window arrays, both scalings.
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(18)
    x = (rng.standard_normal((3, 517)) * 20).astype(dt)
    tol = 1e-8 if dt in ("f8", "i4") else 2e-4
    cases = [{"boundary": b, "padded": p} for b in ("zeros", "even", "odd", "constant", None)
             for p in (True, False)]
    cases += [{"nperseg": 64, "noverlap": 48, "nfft": 100}, {"window": ("kaiser", 8.6)},
              {"window": "hamming", "scaling": "psd", "fs": 3.0},
              {"window": ss.get_window("hann", 32) * 2, "nperseg": 32},
              {"nperseg": 600}, {"detrend": False, "return_onesided": False, "nperseg": 16}]
    for kw in cases:
        for _ in range(2):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                win = kw.get("window")
                kwd = dict(kw, window=xp.asarray(win)) if isinstance(win, np.ndarray) else kw
                got = s.stft(xp.asarray(x), **kwd)
                want = ss.stft(x, **kw)
            assert got[2].dtype == want[2].dtype and got[2].shape == want[2].shape, kw
            scale = np.abs(want[2]).max()
            for u, v in zip(got, want):
                np.testing.assert_allclose(xp.asnumpy(u), v, rtol=tol, atol=tol * scale,
                                           err_msg=str(kw))
    got = s.stft(xp.asarray(x.T.copy()), axis=0, nperseg=40)
    want = ss.stft(x.T, axis=0, nperseg=40)
    assert got[2].shape == want[2].shape
    np.testing.assert_allclose(xp.asnumpy(got[2]), want[2], rtol=tol,
                               atol=tol * np.abs(want[2]).max())


def _ola_norm(nperseg, noverlap, nseg, boundary):
    """The overlap-added squared Hann window istft divides by (SciPy's default window)."""
    step = nperseg - (nperseg // 2 if noverlap is None else noverlap)
    w2 = ss.get_window("hann", nperseg) ** 2
    norm = np.zeros(nperseg + (nseg - 1) * step)
    for i in range(nseg):
        norm[i * step:i * step + nperseg] += w2
    return norm[nperseg // 2:-(nperseg // 2)] if boundary else norm


def test_cola_nola_and_errors(xp):
    from cuarray.scipy import signal as s
    for args in [("hann", 64, 32), ("hann", 64, 10), ("boxcar", 32, 0), (("tukey", 0.3), 50, 20)]:
        assert s.check_COLA(*args) == ss.check_COLA(*args)
        assert s.check_NOLA(*args) == ss.check_NOLA(*args)
    x = xp.asarray(np.random.default_rng(4).standard_normal(100))
    with pytest.raises(ValueError):
        s.welch(x, nperseg=32, noverlap=40)
    with pytest.raises(ValueError):
        s.welch(x, nperseg=32, nfft=16)
    with pytest.raises(ValueError):
        s.welch(x, scaling="bad")
    with pytest.raises(ValueError):
        s.welch(x, nperseg=32, average="bad")
    with pytest.raises(ValueError):
        s.stft(x, boundary="bad")
    with pytest.raises(ValueError):
        s.check_COLA("hann", 32, 40)
    with pytest.raises(ValueError):
        s.istft(x)
    with pytest.warns(UserWarning):
        s.welch(x, nperseg=256)
