"""cuarray.scipy.signal.gammatone against scipy.signal (GPU; host emulation elsewhere)."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


@pytest.mark.parametrize("freq,fs,order,numtaps", [
    (440, 16000, None, None), (1000, 44100, 2, 64), (100.5, 2000, 24, 31), (0.3, None, 1, 15),
])
def test_fir(xp, freq, fs, order, numtaps):
    from cuarray.scipy import signal as s
    b, a = s.gammatone(freq, "fir", order=order, numtaps=numtaps, fs=fs)
    wb, wa = ss.gammatone(freq, "fir", order=order, numtaps=numtaps, fs=fs)
    assert xp.asnumpy(b).dtype == wb.dtype and xp.asnumpy(a).dtype == wa.dtype
    np.testing.assert_allclose(xp.asnumpy(b), wb, rtol=1e-10, atol=1e-14 * np.abs(wb).max())
    np.testing.assert_array_equal(xp.asnumpy(a), wa)


@pytest.mark.parametrize("freq,fs", [(440, 16000), (1000, 44100), (0.25, None), (7000, 16000)])
def test_iir(xp, freq, fs):
    from cuarray.scipy import signal as s
    b, a = s.gammatone(freq, "IIR", fs=fs)
    wb, wa = ss.gammatone(freq, "IIR", fs=fs)
    assert b.shape == (5,) and a.shape == (9,)
    np.testing.assert_allclose(xp.asnumpy(b), wb, rtol=1e-12)
    np.testing.assert_allclose(xp.asnumpy(a), wa, rtol=1e-12)


def test_errors_and_warnings():
    from cuarray.scipy import signal as s
    with pytest.raises(ValueError, match="Nyquist"):
        s.gammatone(1000, "fir", fs=2000)
    with pytest.raises(ValueError, match="Nyquist"):
        s.gammatone(0, "iir", fs=2000)
    with pytest.raises(ValueError, match="ftype"):
        s.gammatone(100, "fft", fs=2000)
    with pytest.raises(ValueError, match="order"):
        s.gammatone(100, "fir", order=25, fs=2000)
    with pytest.raises(ValueError, match="order"):
        s.gammatone(100, "fir", order=0, fs=2000)
    with pytest.raises(TypeError):
        s.gammatone(100, "fir", numtaps=10.5, fs=2000)
    with pytest.raises(ValueError, match="single scalar"):
        s.gammatone(100, "fir", fs=[2000, 3000])


def test_iir_warnings(xp):
    from cuarray.scipy import signal as s
    with pytest.warns(UserWarning, match="order is not used"):
        s.gammatone(100, "iir", order=4, fs=2000)
    with pytest.warns(UserWarning, match="numtaps is not used"):
        s.gammatone(100, "iir", numtaps=4, fs=2000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s.gammatone(100, "iir", fs=2000)
