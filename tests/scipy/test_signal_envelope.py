"""cuarray.scipy.signal.envelope against scipy.signal (GPU; host emulation with NumPy
stand-ins for the FFTs elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


def _close(xp, got, want, rtol):
    g = xp.asnumpy(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype,
                                                               want.dtype)
    np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol * max(np.abs(want).max(), 1))


@pytest.mark.parametrize("n", [1, 2, 31, 64])
@pytest.mark.parametrize("bp_in", [(1, None), (None, None), (-3, 5), (2, 9), (-7, -1)])
@pytest.mark.parametrize("residual", ["lowpass", "all", None])
def test_real(xp, n, bp_in, residual):
    rng = np.random.default_rng(n)
    z = rng.standard_normal(n)
    try:
        want = ss.envelope(z, bp_in, residual=residual)
    except ValueError:
        from cuarray.scipy import signal as s
        with pytest.raises(ValueError):
            s.envelope(xp.asarray(z), bp_in, residual=residual)
        return
    from cuarray.scipy import signal as s
    _close(xp, s.envelope(xp.asarray(z), bp_in, residual=residual), want, 1e-10)


@pytest.mark.parametrize("n_out", [None, 20, 48, 101])
def test_n_out_squared_axis_dtypes(xp, n_out):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(3)
    z = rng.standard_normal((3, 50, 2))
    for dt, rtol in ((np.float64, 1e-10), (np.float32, 2e-5)):
        zz = z.astype(dt)
        got = s.envelope(xp.asarray(zz), (2, 12), n_out=n_out, squared=True, axis=1)
        _close(xp, got, ss.envelope(zz, (2, 12), n_out=n_out, squared=True, axis=1), rtol)
    got = s.envelope(xp.asarray(z)[::2, ::3, 1], (1, 6), n_out=n_out)
    _close(xp, got, ss.envelope(z[::2, ::3, 1], (1, 6), n_out=n_out), 1e-10)
    zc = z + 1j * rng.standard_normal(z.shape)
    for bp in ((-4, 6), (1, 10), (-10, -2)):
        got = s.envelope(xp.asarray(zc), bp, n_out=n_out, axis=-2)
        _close(xp, got, ss.envelope(zc, bp, n_out=n_out, axis=-2), 1e-10)


def test_errors(xp):
    from cuarray.scipy import signal as s
    z = xp.asarray(np.ones(16))
    with pytest.raises(ValueError, match="axis"):
        s.envelope(z, axis=1)
    with pytest.raises(ValueError, match="not > 0"):
        s.envelope(xp.asarray(np.ones((2, 0))))
    with pytest.raises(ValueError, match="2-tuple"):
        s.envelope(z, (1.5, None))
    with pytest.raises(ValueError, match="n_out"):
        s.envelope(z, n_out=0)
    with pytest.raises(ValueError, match="residual"):
        s.envelope(z, residual="high")
    with pytest.raises(ValueError, match="does not hold"):
        s.envelope(z, (5, 3))
    with pytest.raises(TypeError, match="does not accept numpy.ndarray; move it to the GPU"):
        s.envelope(np.ones(16))
