"""cuarray.scipy.signal's Savitzky-Golay filter and B-spline functions against
scipy.signal (GPU; host emulation with NumPy stand-ins elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


def _close(got, want, **kw):
    np.testing.assert_allclose(got, want, **kw)


COEFF_ARGS = [(5, 2), (7, 3, 1), (8, 2), (11, 4, 2, 0.5), (9, 3, 0, 1.0, 2),
              (9, 3, 0, 1.0, None, "dot"), (5, 2, 3)]


def test_savgol(xp):
    from cuarray.scipy import signal as s
    for args in COEFF_ARGS:
        _close(xp.asnumpy(s.savgol_coeffs(*args)), ss.savgol_coeffs(*args), rtol=1e-9,
               atol=1e-11, err_msg=str(args))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 50))
    for mode in ["mirror", "constant", "nearest", "wrap", "interp"]:
        for W, p, d in [(5, 2, 0), (7, 3, 1), (8, 2, 0), (6, 3, 2)]:
            for axis in (-1, 0):
                if axis == 0 and mode == "interp" and W > 4:
                    continue
                kw = dict(deriv=d, axis=axis, mode=mode, cval=0.5)
                got = s.savgol_filter(xp.asarray(x), W, p, **kw)
                want = ss.savgol_filter(x, W, p, **kw)
                _close(xp.asnumpy(got), want, rtol=1e-8, atol=1e-10, err_msg=str((W, p, kw)))
    got = s.savgol_filter(xp.asarray(x.astype("f4")), 7, 2)
    assert got.dtype == np.float32
    _close(xp.asnumpy(got), ss.savgol_filter(x.astype("f4"), 7, 2), rtol=1e-4, atol=1e-5)


def test_savgol_errors(xp):
    from cuarray.scipy import signal as s
    x = xp.asarray(np.zeros(10))
    with pytest.raises(ValueError, match="polyorder"):
        s.savgol_coeffs(5, 5)
    with pytest.raises(ValueError, match="pos"):
        s.savgol_coeffs(5, 2, pos=5)
    with pytest.raises(ValueError, match="use"):
        s.savgol_coeffs(5, 2, use="bad")
    with pytest.raises(ValueError, match="mode"):
        s.savgol_filter(x, 5, 2, mode="bad")
    with pytest.raises(ValueError, match="interp"):
        s.savgol_filter(x, 11, 2)


def test_splines(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(0)
    x = rng.standard_normal(60)
    for f, kw in [("cspline1d", {}), ("cspline1d", {"lamb": 0.5}), ("qspline1d", {})]:
        _close(xp.asnumpy(getattr(s, f)(xp.asarray(x), **kw)), getattr(ss, f)(x, **kw),
               rtol=1e-8, atol=1e-9, err_msg=f)
    nx = np.linspace(-10, 80, 333)
    cj = ss.cspline1d(x)
    got = s.cspline1d_eval(xp.asarray(cj), xp.asarray(nx), dx=0.9, x0=1)
    _close(xp.asnumpy(got), ss.cspline1d_eval(cj, nx, dx=0.9, x0=1), rtol=1e-9, atol=1e-10)
    cj = ss.qspline1d(x)
    got = s.qspline1d_eval(xp.asarray(cj), xp.asarray(nx))
    _close(xp.asnumpy(got), ss.qspline1d_eval(cj, nx), rtol=1e-9, atol=1e-10)
    _close(xp.asnumpy(s.gauss_spline(xp.asarray(nx), 3)), ss.gauss_spline(nx, 3))
    X = rng.standard_normal((3, 60))
    for dt in ["f8", "f4"]:
        Xd = X.astype(dt)
        got = s.symiirorder1(xp.asarray(Xd), 0.5, 0.3)
        want = ss.symiirorder1(Xd, 0.5, 0.3)
        assert got.dtype == want.dtype
        tol = 1e-5 if dt == "f4" else 1e-10
        _close(xp.asnumpy(got), want, rtol=tol, atol=tol / 10)
        got = s.symiirorder2(xp.asarray(Xd), 0.5, 0.7)
        want = ss.symiirorder2(Xd, 0.5, 0.7)
        assert got.dtype == want.dtype
        # SciPy truncates its boundary sums, cuarray sums the whole signal.
        tol = 2e-3 if dt == "f4" else 2e-5
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol, atol=tol)
    im = rng.standard_normal((20, 24))
    # cspline2d with lamb > 1/144 (symiirorder2 along both axes) is left out: SciPy's
    # truncated boundary sums differ from the full sums here by up to 3e-3.
    for f, kw in [("cspline2d", {}), ("qspline2d", {}), ("spline_filter", {"lmbda": 0.0}),
                  ("cspline2d", {"precision": 1e-9})]:
        got = getattr(s, f)(xp.asarray(im), **kw)
        np.testing.assert_allclose(xp.asnumpy(got), getattr(ss, f)(im, **kw), rtol=1e-5,
                                   atol=1e-5, err_msg=f)
