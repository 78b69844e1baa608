"""cuarray.scipy.signal.ShortTimeFFT and closest_STFT_dual_window against scipy.signal
(GPU; host emulation with NumPy stand-ins for the FFTs elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


def _pair(xp, win, hop, fs=1.0, **kw):
    from cuarray.scipy import signal as s
    return s.ShortTimeFFT(xp.asarray(win), hop, fs, **kw), ss.ShortTimeFFT(win, hop, fs, **kw)


def _close(xp, got, want, rtol=1e-10, atol=1e-12):
    g = xp.asnumpy(got)
    assert g.shape == want.shape
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    np.testing.assert_allclose(g, want, rtol=rtol, atol=atol)


WINDOWS = {
    "hann": ss.windows.hann(16, sym=False),                 # zero first sample
    "gauss": ss.windows.gaussian(21, std=4.0),
    "tukey0": np.concatenate([np.zeros(3), ss.windows.tukey(10, 0.5), np.zeros(2)]),
}


@pytest.mark.parametrize("name,hop", [("hann", 4), ("hann", 8), ("gauss", 5), ("tukey0", 3)])
@pytest.mark.parametrize("mode,kw", [("onesided", {}), ("twosided", {"phase_shift": None}),
                                     ("centered", {"mfft": 40, "phase_shift": 3}),
                                     ("onesided2X", {"scale_to": "psd"}),
                                     ("onesided2X", {"scale_to": "magnitude", "mfft": 33})])
def test_stft_istft(xp, name, hop, mode, kw):
    win = WINDOWS[name]
    g, w = _pair(xp, win, hop, fs=8.0, fft_mode=mode, **kw)
    rng = np.random.default_rng(hop)
    x = rng.standard_normal(57)
    Sg, Sw = g.stft(xp.asarray(x)), w.stft(x)
    _close(xp, Sg, Sw)
    for attr in ("k_min", "p_min", "lower_border_end", "f_pts", "m_num_mid", "delta_t",
                 "delta_f", "fac_magnitude", "fac_psd"):
        assert np.allclose(getattr(g, attr), getattr(w, attr)), attr
    assert g.invertible == w.invertible and g.scaling == w.scaling
    for fn in ("k_max", "p_max", "p_num", "upper_border_begin"):
        assert np.allclose(getattr(g, fn)(57), getattr(w, fn)(57)), fn
    if mode != "twosided":
        assert np.allclose(g.extent(57, "ft", True), w.extent(57, "ft", True))
    else:
        with pytest.raises(ValueError, match="fft_mode"):
            g.extent(57)
    _close(xp, g.f, w.f)
    _close(xp, g.t(57), w.t(57))
    _close(xp, g.dual_win, w.dual_win)
    xg = g.istft(Sg, k1=57)
    _close(xp, xg, w.istft(Sw, k1=57))
    np.testing.assert_allclose(xp.asnumpy(xg).real, x, atol=1e-9)
    _close(xp, g.istft(Sg, k1=40), w.istft(Sw, k1=40))


@pytest.mark.parametrize("padding", ["zeros", "edge", "even", "odd"])
def test_padding_ranges_offsets(xp, padding):
    g, w = _pair(xp, WINDOWS["gauss"], 6, fs=2.0)
    x = np.random.default_rng(1).standard_normal(50).astype(np.float32)
    kw = dict(p0=1, p1=6, k_offset=2, padding=padding)
    _close(xp, g.stft(xp.asarray(x), **kw), w.stft(x, **kw), rtol=1e-6, atol=1e-6)
    _close(xp, g.t(50, p0=1, p1=6, k_offset=2), w.t(50, p0=1, p1=6, k_offset=2))


def test_axes_detrend_spectrogram(xp):
    g, w = _pair(xp, WINDOWS["hann"], 5, fs=1.0, scale_to="psd")
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 40, 2))
    y = rng.standard_normal((3, 40, 2))
    for detr in (None, "linear", "constant"):
        _close(xp, g.stft_detrend(xp.asarray(x), detr, axis=1),
               w.stft_detrend(x, detr, axis=1))
    _close(xp, g.spectrogram(xp.asarray(x), axis=1), w.spectrogram(x, axis=1))
    _close(xp, g.spectrogram(xp.asarray(x), xp.asarray(y), detr="constant", axis=1),
           w.spectrogram(x, y, detr="constant", axis=1))
    S = w.stft(x, axis=1)
    _close(xp, g.istft(xp.asarray(S), k1=40, f_axis=1, t_axis=3),
           w.istft(S, k1=40, f_axis=1, t_axis=3))
    # a strided view, and a callable detrend, called per slice
    xs = x[:, ::2, 0]
    _close(xp, g.stft(xp.asarray(x)[:, ::2, 0]), w.stft(xs))
    g_c = g.stft_detrend(xp.asarray(x[0, :, 0]), lambda v: v - v.mean())
    w_c = w.stft_detrend(x[0, :, 0], lambda v: v - v.mean())
    _close(xp, g_c, w_c)


def test_complex_signal_and_window(xp):
    rng = np.random.default_rng(4)
    win = WINDOWS["gauss"] * np.exp(0.3j * np.arange(21))
    g, w = _pair(xp, win, 7, fft_mode="centered")
    x = rng.standard_normal(64) + 1j * rng.standard_normal(64)
    S = g.stft(xp.asarray(x))
    _close(xp, S, w.stft(x))
    _close(xp, g.istft(S, k1=64), w.istft(w.stft(x), k1=64))
    _close(xp, g.dual_win, w.dual_win)


def test_constructors(xp):
    from cuarray.scipy import signal as s
    g = s.ShortTimeFFT.from_window(("kaiser", 8.0), 10.0, 24, 16, scale_to="magnitude")
    w = ss.ShortTimeFFT.from_window(("kaiser", 8.0), 10.0, 24, 16, scale_to="magnitude")
    _close(xp, g.win, w.win)
    assert g.hop == w.hop == 8
    g = s.ShortTimeFFT.from_window("hann", 1.0, 16, 8, symmetric_win=True, mfft=32)
    w = ss.ShortTimeFFT.from_window("hann", 1.0, 16, 8, symmetric_win=True, mfft=32)
    _close(xp, g.win, w.win)
    d = WINDOWS["gauss"]
    g = s.ShortTimeFFT.from_dual(xp.asarray(d), 5, 1.0)
    w = ss.ShortTimeFFT.from_dual(d, 5, 1.0)
    _close(xp, g.win, w.win)
    _close(xp, g.dual_win, w.dual_win)
    for scale in (None, "unitary", "psd"):
        g = s.ShortTimeFFT.from_win_equals_dual(xp.asarray(d), 4, 1.0, scale_to=scale)
        w = ss.ShortTimeFFT.from_win_equals_dual(d, 4, 1.0, scale_to=scale)
        _close(xp, g.win, w.win)
        _close(xp, g.dual_win, w.dual_win)
        assert g.scaling == w.scaling


@pytest.mark.parametrize("hop,scaled", [(4, True), (4, False), (7, True)])
def test_closest_dual_window(xp, hop, scaled):
    from cuarray.scipy import signal as s
    win = WINDOWS["gauss"]
    desired = np.ones_like(win) * 0.2
    gd, ga = s.closest_STFT_dual_window(xp.asarray(win), hop, xp.asarray(desired),
                                        scaled=scaled)
    wd, wa = ss.closest_STFT_dual_window(win, hop, desired, scaled=scaled)
    _close(xp, gd, wd)
    np.testing.assert_allclose(complex(xp.asnumpy(ga)), complex(wa), rtol=1e-10)
    gd, _ = s.closest_STFT_dual_window(xp.asarray(win), hop)
    _close(xp, gd, ss.closest_STFT_dual_window(win, hop)[0])


def test_errors(xp):
    from cuarray.scipy import signal as s
    win = xp.asarray(WINDOWS["hann"])
    with pytest.raises(ValueError, match="1d"):
        s.ShortTimeFFT(xp.asarray(np.ones((2, 2))), 1, 1.0)
    with pytest.raises(ValueError, match="finite"):
        s.ShortTimeFFT(xp.asarray(np.array([1.0, np.nan])), 1, 1.0)
    with pytest.raises(ValueError, match="hop"):
        s.ShortTimeFFT(win, 0, 1.0)
    with pytest.raises(ValueError, match="fs"):
        s.ShortTimeFFT(win, 2, -1.0)
    with pytest.raises(ValueError, match="mfft"):
        s.ShortTimeFFT(win, 2, 1.0, mfft=4)
    with pytest.raises(ValueError, match="fft_mode"):
        s.ShortTimeFFT(win, 2, 1.0, fft_mode="both")
    with pytest.raises(ValueError, match="onesided2X"):
        s.ShortTimeFFT(win, 2, 1.0, fft_mode="onesided2X")
    with pytest.raises(ValueError, match="complex-valued windows"):
        s.ShortTimeFFT(win * (1 + 1j), 2, 1.0)
    with pytest.raises(ValueError, match="phase_shift"):
        s.ShortTimeFFT(win, 2, 1.0, phase_shift=16)
    with pytest.raises(ValueError, match="phase_shift"):
        s.ShortTimeFFT(win, 2, 1.0, phase_shift=1.5)
    with pytest.raises(ValueError, match="scaling"):
        s.ShortTimeFFT(win, 2, 1.0, scale_to="power")
    sft = s.ShortTimeFFT(win, 4, 1.0)
    with pytest.raises(ValueError, match="Complex-valued `x`"):
        sft.stft(xp.asarray(np.ones(32) * 1j))
    with pytest.raises(ValueError, match="padding"):
        sft.stft(xp.asarray(np.ones(32)), padding="wrap")
    with pytest.raises(ValueError, match="detr"):
        sft.stft_detrend(xp.asarray(np.ones(32)), 3)
    with pytest.raises(ValueError, match="ceil"):
        sft.stft(xp.asarray(np.ones(4)))
    with pytest.raises(ValueError, match="Invalid Parameter"):
        sft.stft(xp.asarray(np.ones(32)), p0=5, p1=2)
    S = sft.stft(xp.asarray(np.ones(32)))
    with pytest.raises(ValueError, match="may not be equal"):
        sft.istft(S, f_axis=0, t_axis=0)
    with pytest.raises(ValueError, match="f_pts"):
        sft.istft(S[:3])
    with pytest.raises(ValueError, match="is false"):
        sft.istft(S, k0=-100)
    with pytest.raises(ValueError, match="not invertible"):
        s.ShortTimeFFT(win, 17, 1.0).dual_win
    assert not s.ShortTimeFFT(win, 17, 1.0).invertible
    with pytest.raises(ValueError, match="between 1 and"):
        s.closest_STFT_dual_window(win, 0)
    with pytest.raises(ValueError, match="equal length"):
        s.closest_STFT_dual_window(win, 2, xp.asarray(np.ones(3)))
    with pytest.raises(ValueError, match="axes_seq"):
        sft.extent(32, axes_seq="xy")
