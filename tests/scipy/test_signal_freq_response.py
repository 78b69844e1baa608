"""cuarray.scipy.signal's frequency responses (and spectral odds and ends) against
scipy.signal (GPU; host emulation with NumPy stand-ins elsewhere)."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)

def test_frequency_responses(xp):
    from cuarray.scipy import signal as s
    b, a = ss.butter(4, 0.3)
    for kw in [{}, {"worN": 100}, {"worN": 64, "whole": True}, {"worN": 65, "include_nyquist": True}, {"worN": np.linspace(0, 0.5, 7), "fs": 1.0}, {"fs": 100.0}]:
        kw2 = {k: (xp.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        for bb, aa in [(b, a), (ss.firwin(11, 0.3), 1), (ss.firwin(11, 0.3), 2.0)]:
            w, h = s.freqz(xp.asarray(bb), aa if np.isscalar(aa) else xp.asarray(aa), **kw2)
            ww, wh = ss.freqz(bb, aa, **kw)
            np.testing.assert_allclose(xp.asnumpy(w), ww); np.testing.assert_allclose(xp.asnumpy(h), wh, atol=1e-10, err_msg=str(kw))
    sos = ss.butter(6, 0.2, output="sos")
    w, h = s.sosfreqz(xp.asarray(sos), worN=77); ww, wh = ss.sosfreqz(sos, worN=77)
    np.testing.assert_allclose(xp.asnumpy(h), wh, atol=1e-10)
    z, p, k = ss.butter(4, 0.3, output="zpk")
    w, h = s.freqz_zpk(xp.asarray(z), xp.asarray(p), k, worN=50, whole=True); ww, wh = ss.freqz_zpk(z, p, k, worN=50, whole=True)
    np.testing.assert_allclose(xp.asnumpy(h), wh, atol=1e-10)
    for sysm in [(b, a), (ss.firwin(11, 0.3), [1.0])]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            w, g = s.group_delay((xp.asarray(sysm[0]), xp.asarray(np.asarray(sysm[1]))), w=40); ww, wg = ss.group_delay(sysm, w=40)
        np.testing.assert_allclose(xp.asnumpy(g), wg, atol=1e-8)
    ba, aa = ss.butter(3, 2.0, analog=True)
    w, h = s.freqs(xp.asarray(ba), xp.asarray(aa), worN=xp.asarray(np.logspace(-1, 1, 30))); ww, wh = ss.freqs(ba, aa, worN=np.logspace(-1, 1, 30))
    np.testing.assert_allclose(xp.asnumpy(h), wh, atol=1e-10)
    z, p, k = ss.butter(3, 2.0, analog=True, output="zpk")
    w, h = s.freqs_zpk(xp.asarray(z), xp.asarray(p), k, worN=xp.asarray(np.logspace(-1, 1, 30))); ww, wh = ss.freqs_zpk(z, p, k, worN=np.logspace(-1, 1, 30))
    np.testing.assert_allclose(xp.asnumpy(h), wh, atol=1e-10)
    w, h = s.freqs_zpk(xp.asarray(z), xp.asarray(p), k, worN=30); ww, wh = ss.freqs_zpk(z, p, k, worN=30)
    np.testing.assert_allclose(xp.asnumpy(w), ww); np.testing.assert_allclose(xp.asnumpy(h), wh, atol=1e-10)
