"""cuarray.scipy.signal.find_peaks_cwt against scipy.signal (GPU; host emulation with
NumPy stand-ins elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


def _signal(n, seed, noise):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    x = np.zeros(n)
    for c, w, a in zip(rng.uniform(0.1, 0.9, 6) * n, rng.uniform(3, 12, 6),
                       rng.uniform(1, 4, 6)):
        x += a * np.exp(-0.5 * ((t - c) / w) ** 2)
    return x + noise * rng.standard_normal(n)


@pytest.mark.parametrize("n,seed,noise", [(200, 0, 0.0), (400, 1, 0.05), (500, 2, 0.3)])
@pytest.mark.parametrize("kw", [{}, {"min_snr": 2}, {"gap_thresh": 1, "min_length": 3},
                                {"window_size": 31, "noise_perc": 30}])
def test_matches_scipy(xp, n, seed, noise, kw):
    from cuarray.scipy import signal as s
    x = _signal(n, seed, noise)
    widths = np.arange(2, 16)
    got = s.find_peaks_cwt(xp.asarray(x), widths, **kw)
    want = ss.find_peaks_cwt(x, widths, **kw)
    np.testing.assert_array_equal(xp.asnumpy(got), want)
    assert xp.asnumpy(got).dtype == want.dtype


def test_scalar_width_max_distances_and_wavelet(xp):
    from cuarray.scipy import signal as s
    x = _signal(300, 5, 0.1)
    np.testing.assert_array_equal(xp.asnumpy(s.find_peaks_cwt(xp.asarray(x), 6)),
                                  ss.find_peaks_cwt(x, 6))
    widths = np.arange(1, 10)
    md = widths / 2.0
    np.testing.assert_array_equal(
        xp.asnumpy(s.find_peaks_cwt(xp.asarray(x), widths, max_distances=md)),
        ss.find_peaks_cwt(x, widths, max_distances=md))

    def box(points, width):
        return np.ones(int(points)) / max(int(points), 1)

    np.testing.assert_array_equal(
        xp.asnumpy(s.find_peaks_cwt(xp.asarray(x), widths, wavelet=box)),
        ss.find_peaks_cwt(x, widths, wavelet=box))


def test_no_peaks_and_errors(xp):
    from cuarray.scipy import signal as s
    ramp = np.linspace(0, 1, 50)  # edge effects of the 'same' convolution make two peaks
    np.testing.assert_array_equal(
        xp.asnumpy(s.find_peaks_cwt(xp.asarray(ramp), np.arange(1, 4))),
        ss.find_peaks_cwt(ramp, np.arange(1, 4)))
    got = s.find_peaks_cwt(xp.asarray(np.zeros(50)), np.arange(1, 4))
    want = ss.find_peaks_cwt(np.zeros(50), np.arange(1, 4))
    assert got.shape == want.shape == (0,) and xp.asnumpy(got).dtype == want.dtype
    with pytest.raises(ValueError, match="Max_distances"):
        s.find_peaks_cwt(xp.asarray(np.ones(20)), np.arange(1, 5), max_distances=[1.0])
    with pytest.raises(TypeError, match="does not accept numpy.ndarray; move it to the GPU"):
        s.find_peaks_cwt(np.ones(20), [1, 2])
