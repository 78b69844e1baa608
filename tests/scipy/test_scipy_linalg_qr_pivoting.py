"""cuarray.scipy.linalg.qr(pivoting=True) against scipy.linalg.qr: on the GPU, and without
one with NumPy standing in for cuarray's array namespace (the algorithm is the code under
test)."""
import types

import numpy as np
import pytest
import scipy.linalg as sl


@pytest.fixture(params=["numpy", pytest.param("gpu", marks=pytest.mark.gpu)])
def qrp(request, monkeypatch):
    from cuarray.scipy.linalg import _qr_pivoting
    if request.param == "gpu":
        import cuarray
        from cuarray.scipy import linalg
        return lambda a, mode: linalg.qr(cuarray.asarray(a), mode=mode, pivoting=True), \
            lambda x: x.get()
    shim = types.ModuleType("numpy_shim")
    shim.__dict__.update({k: getattr(np, k) for k in dir(np) if not k.startswith("_")})
    monkeypatch.setattr(_qr_pivoting, "cp", shim)
    return lambda a, mode: _qr_pivoting.qr_pivoting(a.copy(), mode), np.asarray


@pytest.mark.parametrize("shape", [(6, 6), (8, 5), (5, 8), (1, 4), (4, 1)])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128])
def test_qr_pivoting(qrp, shape, dt):
    run, host = qrp
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dt)
    tol = 1e-4 if dt == np.float32 else 1e-10
    for mode in ("full", "economic"):
        q, r, p = run(a, mode)
        wq, wr, wp = sl.qr(a, mode=mode, pivoting=True)
        np.testing.assert_array_equal(host(p), wp)
        assert host(p).dtype == wp.dtype
        np.testing.assert_allclose(host(r), wr, rtol=tol, atol=tol)
        np.testing.assert_allclose(host(q), wq, rtol=tol, atol=tol)
    r, p = run(a, "r")
    wr, wp = sl.qr(a, mode="r", pivoting=True)
    np.testing.assert_allclose(host(r), wr, rtol=tol, atol=tol)
    np.testing.assert_array_equal(host(p), wp)
