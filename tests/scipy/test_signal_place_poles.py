"""cuarray.scipy.signal.place_poles against scipy.signal (GPU; host emulation with NumPy
stand-ins for the dense factorizations elsewhere)."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss

import emulation
import signal_standins


@pytest.fixture(params=emulation.BACKENDS)
def xp(request, monkeypatch):
    cp = emulation.backend(request, monkeypatch)
    if request.param == "emu":
        signal_standins.standins(monkeypatch)
        import cuarray.linalg
        for name in ("qr", "svd", "det", "matrix_rank"):
            monkeypatch.setattr(cuarray.linalg, name,
                                signal_standins._wrap(getattr(np.linalg, name)))
    return cp


A4 = np.array([[1.380, -0.2077, 6.715, -5.676], [-0.5814, -4.290, 0, 0.6750],
               [1.067, 4.273, -6.654, 5.893], [0.0480, 4.273, 1.343, -2.104]])
B4 = np.array([[0, 5.679], [1.136, 1.136], [0, 0], [-3.146, 0]])


def _sorted(v):
    v = np.asarray(v, dtype=complex)
    return v[np.lexsort((np.round(v.imag, 6), np.round(v.real, 6)))]


def _check(xp, got, want, poles_tol=1e-6):
    np.testing.assert_allclose(xp.asnumpy(got.requested_poles), want.requested_poles)
    np.testing.assert_allclose(xp.asnumpy(got.computed_poles), want.computed_poles,
                               rtol=poles_tol, atol=poles_tol)
    np.testing.assert_allclose(xp.asnumpy(got.computed_poles), want.requested_poles,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(xp.asnumpy(got.gain_matrix), want.gain_matrix,
                               rtol=1e-5, atol=1e-6)
    assert xp.asnumpy(got.gain_matrix).dtype == want.gain_matrix.dtype
    # the iteration count may move by one where |det X|'s change rounds across rtol
    assert abs(got.nb_iter - want.nb_iter) <= 1 or (np.isnan(got.nb_iter)
                                                     and np.isnan(want.nb_iter))


@pytest.mark.parametrize("poles", [[-0.2, -0.5, -5.0566, -8.6659],
                                   [-1, -1 + 1j, -1 - 1j, -3],
                                   [-0.5 + 1j, -0.5 - 1j, -2 + 3j, -2 - 3j],
                                   [-1.5, -2.5, -1.5, -4.5]])
def test_yt(xp, poles):
    from cuarray.scipy import signal as s
    got = s.place_poles(xp.asarray(A4), xp.asarray(B4), poles)
    want = ss.place_poles(A4, B4, poles)
    _check(xp, got, want)


def test_knv0(xp):
    from cuarray.scipy import signal as s
    poles = [-0.2, -0.5, -5.0566, -8.6659]
    got = s.place_poles(xp.asarray(A4), xp.asarray(B4), poles, method="KNV0")
    want = ss.place_poles(A4, B4, poles, method="KNV0")
    _check(xp, got, want)


def test_single_input_and_full_rank(xp):
    from cuarray.scipy import signal as s
    A = np.array([[0, 1, 0], [0, 0, 1], [-6, -11, -6.0]])
    B = np.array([[0], [0], [1.0]])
    poles = [-2, -3, -4]
    _check(xp, s.place_poles(xp.asarray(A), xp.asarray(B), poles), ss.place_poles(A, B, poles))
    Bf = np.eye(3) + 0.1
    poles = [-1, -2 + 1j, -2 - 1j]
    got = s.place_poles(xp.asarray(A), xp.asarray(Bf), poles)
    want = ss.place_poles(A, Bf, poles)
    _check(xp, got, want)
    np.testing.assert_array_equal(xp.asnumpy(got.X), want.X)


def test_larger_random(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(3)
    A = rng.standard_normal((6, 6))
    B = rng.standard_normal((6, 3))
    poles = [-1, -2, -3, -4, -1 + 2j, -1 - 2j]
    got = s.place_poles(xp.asarray(A), xp.asarray(B), poles)
    want = ss.place_poles(A, B, poles)
    np.testing.assert_allclose(_sorted(xp.asnumpy(got.computed_poles)),
                               _sorted(want.requested_poles), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(xp.asnumpy(got.gain_matrix), want.gain_matrix, rtol=1e-5,
                               atol=1e-6)


def test_maxiter_warning(xp):
    from cuarray.scipy import signal as s
    poles = [-0.2, -0.5, -5.0566, -8.6659]
    with pytest.warns(UserWarning, match="Convergence was not reached"):
        got = s.place_poles(xp.asarray(A4), xp.asarray(B4), poles, rtol=1e-12, maxiter=1)
    assert got.nb_iter == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = s.place_poles(xp.asarray(A4), xp.asarray(B4), poles, rtol=-1, maxiter=2)
    assert got.nb_iter == 2


@pytest.mark.parametrize("kwargs,poles,match", [
    ({}, [[-1, -2], [-3, -4]], "1D"),
    ({}, [-1, -2, -3, -4, -5], "maximum number of poles"),
    ({}, [-1, -2, -3], "number of poles is 3"),
    ({}, [-1, -1, -1, -2], "repeated more than"),
    ({}, [-1, -2, -3 + 1j, -3 + 2j], "conjugates"),
    ({"method": "foo"}, [-1, -2, -3, -4], "method"),
    ({"method": "KNV0"}, [-1, -2, -3 + 1j, -3 - 1j], "KNV0"),
    ({"maxiter": 0}, [-1, -2, -3, -4], "maxiter"),
    ({"rtol": 2}, [-1, -2, -3, -4], "rtol"),
])
def test_errors(xp, kwargs, poles, match):
    from cuarray.scipy import signal as s
    with pytest.raises(ValueError, match=match):
        s.place_poles(xp.asarray(A4), xp.asarray(B4), poles, **kwargs)
    with pytest.raises(ValueError, match=match):
        ss.place_poles(A4, B4, poles, **kwargs)


def test_shape_errors(xp):
    from cuarray.scipy import signal as s
    with pytest.raises(ValueError, match="A must be square"):
        s.place_poles(xp.asarray(np.ones((4, 3))), xp.asarray(B4), [-1, -2, -3, -4])
    with pytest.raises(ValueError, match="A must be a 2D"):
        s.place_poles(xp.asarray(np.ones((2, 4, 4))), xp.asarray(B4), [-1, -2, -3, -4])
