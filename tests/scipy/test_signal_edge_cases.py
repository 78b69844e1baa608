"""Small and degenerate inputs of cuarray.scipy.signal against scipy.signal: the same
values, or the same exception type (GPU; host emulation with NumPy stand-ins elsewhere)."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)

CASES = [
    ("find_peaks", lambda m, x: m.find_peaks(x(np.zeros(0)))[0]),
    ("find_peaks1", lambda m, x: m.find_peaks(x(np.ones(1)))[0]),
    ("find_peaks2", lambda m, x: m.find_peaks(x(np.array([0., 1.])), distance=2)[0]),
    ("lfilter_empty", lambda m, x: m.lfilter([1.0, 0.5], [1.0, -0.3], x(np.zeros(0)))),
    ("hilbert1", lambda m, x: m.hilbert(x(np.ones(1)))),
    ("medfilt1", lambda m, x: m.medfilt(x(np.arange(5.0)), 5)),
    ("upfirdn1", lambda m, x: m.upfirdn(x(np.ones(1)), x(np.ones(1)), 2, 3)),
    ("detrend1", lambda m, x: m.detrend(x(np.ones(1)))),
    ("correlate_same", lambda m, x: m.correlate(x(np.arange(5.0)), x(np.arange(7.0)), "same")),
    ("resample1", lambda m, x: m.resample(x(np.arange(4.0)), 1)),
    ("savgol1", lambda m, x: m.savgol_filter(x(np.arange(5.0)), 5, 2)),
]
@pytest.mark.parametrize("name,f", CASES)
def test_small_inputs(xp, name, f):
    from cuarray.scipy import signal as s
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = f(ss, lambda a: a)
        except Exception as e:
            with pytest.raises(type(e)):
                f(s, xp.asarray)
            return
        got = f(s, xp.asarray)
    np.testing.assert_allclose(xp.asnumpy(got), want, atol=1e-12)
    assert xp.asnumpy(got).shape == np.asarray(want).shape


def test_sosfilt_empty(xp):
    """SciPy 1.17 fails to reshape an empty input here; cuarray returns it filtered."""
    from cuarray.scipy import signal as s
    got = s.sosfilt(ss.butter(2, 0.3, output="sos"), xp.zeros((2, 0)))
    assert got.shape == (2, 0)
