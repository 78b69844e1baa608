"""cuarray.scipy.signal.firwin_2d against scipy.signal (GPU; host emulation elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


@pytest.mark.parametrize("hsize,window,fc,fs", [
    ((5, 5), ("hamming", "hamming"), 0.5, 2), ((7, 4), (("kaiser", 5.0), "hann"), 0.4, 2),
    ((9, 9), ("hann", ("kaiser", 3.0)), 0.3, 2), ((6, 11), ("boxcar", "blackman"), 40, 200),
])
def test_separable(xp, hsize, window, fc, fs):
    from cuarray.scipy import signal as s
    got = s.firwin_2d(hsize, window, fc=fc, fs=fs)
    want = ss.firwin_2d(hsize, window, fc=fc, fs=fs)
    assert got.shape == want.shape and xp.asnumpy(got).dtype == want.dtype
    np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("hsize,window,fc", [((5, 5), "hamming", 0.5), ((8, 13), "hann", 0.2),
                                             ((11, 11), ("kaiser", 4.0), 0.7)])
def test_circular(xp, hsize, window, fc):
    from cuarray.scipy import signal as s
    got = s.firwin_2d(hsize, window, fc=fc, circular=True)
    want = ss.firwin_2d(hsize, window, fc=fc, circular=True)
    assert got.shape == want.shape
    np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-10, atol=1e-14)


def test_errors():
    from cuarray.scipy import signal as s
    with pytest.raises(ValueError, match="hsize"):
        s.firwin_2d((5,), ("hann", "hann"), fc=0.5)
    with pytest.raises(ValueError, match="fc"):
        s.firwin_2d((5, 5), "hann", circular=True)
    with pytest.raises(ValueError, match="window"):
        s.firwin_2d((5, 5), ("hann",), fc=0.5)
