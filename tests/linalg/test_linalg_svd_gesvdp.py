"""SVD through cuSOLVER's Xgesvdp (the default for matrices from 256 x 256 with vectors),
in its own file: a cuSOLVER failure that poisons the CUDA context stays in this process."""
import numpy
import pytest

import cuarray
from cuarray import linalg

pytestmark = pytest.mark.gpu

_rng = numpy.random.default_rng(1001)


def _host(shape, dtype):
    x = _rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * _rng.standard_normal(shape)
    return x.astype(dtype)


def _check(x, full):
    dtype = x.dtype
    tol = 2e-3 if dtype.char in "fF" else 1e-9
    k = min(x.shape[-2:])
    u, s, vh = (cuarray.asnumpy(t) for t in linalg.svd(cuarray.asarray(x), full_matrices=full))
    u_ref, s_ref, vh_ref = numpy.linalg.svd(x, full_matrices=full)
    assert u.shape == u_ref.shape and vh.shape == vh_ref.shape and u.dtype == u_ref.dtype
    scale = max(1.0, float(numpy.abs(s_ref).max()))
    numpy.testing.assert_allclose(s, s_ref, rtol=tol, atol=tol * scale)
    rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    numpy.testing.assert_allclose(rec, x, rtol=tol, atol=tol * scale)
    eye = numpy.eye(u.shape[-1])
    numpy.testing.assert_allclose(numpy.conj(numpy.swapaxes(u, -1, -2)) @ u,
                                  numpy.broadcast_to(eye, u.shape[:-2] + eye.shape), atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(300, 260), (260, 300), (2, 256, 270), (256, 256)])
def test_svd_default_takes_gesvdp(monkeypatch, dtype, shape):
    monkeypatch.delenv("CUARRAY_SVD_ALGO", raising=False)
    assert linalg._decompositions.svd_algorithm(numpy.dtype(dtype), min(shape[-2:]), True) == "gesvdp"
    x = _host(shape, dtype)
    for full in (True, False):
        _check(x, full)


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (40, 40), (3, 7, 6)])
def test_svd_gesvdp_small(monkeypatch, dtype, shape):
    monkeypatch.setenv("CUARRAY_SVD_ALGO", "gesvdp")
    x = _host(shape, dtype)
    for full in (True, False):
        _check(x, full)
    s = linalg.svd(cuarray.asarray(x), compute_uv=False)   # no vectors: Xgesvd
    numpy.testing.assert_allclose(cuarray.asnumpy(s), numpy.linalg.svd(x, compute_uv=False),
                                  rtol=2e-3 if x.dtype.char in "fF" else 1e-9, atol=1e-3)
