"""Decompositions and solvers against numpy.linalg, on the GPU.

Stacks of 40 small matrices take the batched APIs; 40 x 40 ones take the loop over
cuSOLVER's 64-bit API.
"""
import warnings

import numpy
import pytest

import cuarray
from cuarray import linalg

pytestmark = pytest.mark.gpu

_rng = numpy.random.default_rng(0)
DTYPES = ["float32", "float64", "complex64", "complex128"]
SQUARE = [(4, 4), (1, 1), (3, 5, 5), (40, 3, 3), (2, 40, 40), (0, 3, 3), (3, 0, 0), (33, 33)]
LinAlgError = numpy.linalg.LinAlgError


def _host(shape, dtype):
    x = _rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * _rng.standard_normal(shape)
    return x.astype(dtype)


def _well_conditioned(shape, dtype):
    return (_host(shape, dtype) + 3 * numpy.eye(shape[-1])).astype(dtype)


def _hpd(shape, dtype):
    a = _host(shape, dtype)
    return (a @ numpy.conj(numpy.swapaxes(a, -1, -2)) + numpy.eye(shape[-1])).astype(dtype)


def _tol(dtype):
    return 2e-3 if numpy.dtype(dtype).char in "fF" else 1e-9


def _close(got, ref, dtype, check_dtype=True):
    got = cuarray.asnumpy(got) if isinstance(got, cuarray.ndarray) else numpy.asarray(got)
    ref = numpy.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    if check_dtype:
        assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    tol = _tol(dtype)
    numpy.testing.assert_allclose(got, ref, rtol=tol, atol=tol)


def _g(x):
    return cuarray.asarray(x)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SQUARE)
def test_solve_and_inv(dtype, shape):
    a = _well_conditioned(shape, dtype)
    for bshape in [shape[-1:], shape[:-1] + (2,), shape[-1:] + (3,)]:
        b = _host(bshape, dtype)
        try:
            ref = numpy.linalg.solve(a, b)
        except ValueError:
            continue
        _close(linalg.solve(_g(a), _g(b)), ref, dtype)
    _close(linalg.inv(_g(a)), numpy.linalg.inv(a), dtype)


def test_solve_inv_int_input_and_errors():
    a = numpy.array([[2, 1], [1, 3]])
    assert linalg.inv(_g(a)).dtype == numpy.float64
    _close(linalg.solve(_g(a), _g(numpy.array([1, 2]))), numpy.linalg.solve(a, [1, 2]), "float64")
    for singular in (numpy.ones((3, 3)), numpy.ones((40, 3, 3)), numpy.ones((2, 40, 40))):
        with pytest.raises(LinAlgError, match="Singular matrix"):
            linalg.inv(_g(singular))
        with pytest.raises(LinAlgError, match="Singular matrix"):
            linalg.solve(_g(singular), _g(numpy.ones(singular.shape[-1])))
    with pytest.raises(LinAlgError):
        linalg.inv(_g(numpy.ones((3, 4))))
    with pytest.raises(LinAlgError):
        linalg.inv(_g(numpy.ones(3)))
    with pytest.raises(ValueError):
        linalg.solve(_g(numpy.eye(3)), _g(numpy.ones(4)))
    with pytest.raises(TypeError):
        linalg.inv(_g(numpy.eye(2, dtype=numpy.float16)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SQUARE)
def test_cholesky(dtype, shape):
    h = _hpd(shape, dtype)
    _close(linalg.cholesky(_g(h)), numpy.linalg.cholesky(h), dtype)
    _close(linalg.cholesky(_g(h), upper=True), numpy.linalg.cholesky(h, upper=True), dtype)


def test_cholesky_not_positive_definite():
    for a in (-numpy.eye(3), -numpy.ones((40, 3, 3)), -numpy.ones((2, 40, 40))):
        with pytest.raises(LinAlgError, match="not positive definite"):
            linalg.cholesky(_g(a))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SQUARE)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(dtype, shape, uplo):
    h = _hpd(shape, dtype)
    w, v = linalg.eigh(_g(h), uplo)
    w_ref, v_ref = numpy.linalg.eigh(h, uplo)
    _close(w, w_ref, dtype)
    assert v.dtype == v_ref.dtype and v.shape == v_ref.shape
    v = cuarray.asnumpy(v)
    # eigenvectors up to a phase: A v = v diag(w), v unitary
    _close(h @ v, v * w_ref[..., None, :], dtype, check_dtype=False)
    _close(linalg.eigvalsh(_g(h), uplo), w_ref, dtype)
    # only the named triangle is read
    tri = numpy.tril(h) if uplo == "L" else numpy.triu(h)
    _close(linalg.eigvalsh(_g(tri), uplo), w_ref, dtype)


def test_eigh_uplo_error():
    with pytest.raises(ValueError):
        linalg.eigh(_g(numpy.eye(2)), "X")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (1, 1), (3, 5, 5), (2, 40, 40), (0, 3, 3)])
def test_eig(dtype, shape):
    a = _well_conditioned(shape, dtype)
    w, v = linalg.eig(_g(a))
    n = max(shape[-1], 1)
    w_ref = numpy.linalg.eigvals(a)
    srt = lambda x: numpy.sort_complex(numpy.asarray(x).reshape(-1, n))  # noqa: E731
    _close(srt(cuarray.asnumpy(w)), srt(w_ref), dtype, check_dtype=False)
    wv, vv = cuarray.asnumpy(w), cuarray.asnumpy(v)
    _close(a @ vv, vv * wv[..., None, :], dtype, check_dtype=False)
    _close(srt(cuarray.asnumpy(linalg.eigvals(_g(a)))), srt(w_ref), dtype, check_dtype=False)


def test_eig_real_results_as_numpy():
    s = _host((5, 5), "float64")
    sym = s + s.T                                  # real eigenvalues: real results
    w, v = linalg.eig(_g(sym))
    assert w.dtype == numpy.float64 and v.dtype == numpy.float64
    rot = numpy.array([[0.0, -1.0], [1.0, 0.0]])    # eigenvalues +-i: complex results
    w, v = linalg.eig(_g(rot))
    assert w.dtype == numpy.complex128 and v.dtype == numpy.complex128
    _close(numpy.sort_complex(cuarray.asnumpy(w)), numpy.sort_complex(numpy.linalg.eigvals(rot)),
           "float64")


SVD_SHAPES = [(5, 3), (3, 5), (4, 4), (2, 6, 4), (2, 4, 6), (50, 4, 3), (50, 3, 5), (40, 40),
              (3, 40, 33), (0, 3), (3, 0), (2, 0, 3), (70, 66), (66, 70)]


@pytest.mark.parametrize("algo", [None, "gesvdj", "gesvd"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SVD_SHAPES)
def test_svd(monkeypatch, algo, dtype, shape):
    if algo is None:
        monkeypatch.delenv("CUARRAY_SVD_ALGO", raising=False)
    else:
        monkeypatch.setenv("CUARRAY_SVD_ALGO", algo)
    x = _host(shape, dtype)
    k = min(shape[-2:])
    for full in (True, False):
        u, s, vh = linalg.svd(_g(x), full_matrices=full)
        u_ref, s_ref, vh_ref = numpy.linalg.svd(x, full_matrices=full)
        assert u.shape == u_ref.shape and vh.shape == vh_ref.shape and u.dtype == u_ref.dtype
        _close(s, s_ref, dtype)
        u, vh = cuarray.asnumpy(u), cuarray.asnumpy(vh)
        _close((u[..., :, :k] * cuarray.asnumpy(s)[..., None, :]) @ vh[..., :k, :], x, dtype,
               check_dtype=False)
        eye_u = numpy.broadcast_to(numpy.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2)
        _close(numpy.conj(numpy.swapaxes(u, -1, -2)) @ u, eye_u, dtype, check_dtype=False)
        eye_v = numpy.broadcast_to(numpy.eye(vh.shape[-2]), vh.shape[:-2] + (vh.shape[-2],) * 2)
        _close(vh @ numpy.conj(numpy.swapaxes(vh, -1, -2)), eye_v, dtype, check_dtype=False)
    _close(linalg.svd(_g(x), compute_uv=False), numpy.linalg.svd(x, compute_uv=False), dtype)


@pytest.mark.parametrize("algo", ["gesvdj", "gesvd"])
def test_svd_rank_deficient(monkeypatch, algo):
    monkeypatch.setenv("CUARRAY_SVD_ALGO", algo)
    x = _host((60, 3), "float64") @ _host((3, 50), "float64")
    _close(linalg.svd(_g(x), compute_uv=False), numpy.linalg.svd(x, compute_uv=False), "float64")


@pytest.mark.parametrize("dtype", DTYPES)
def test_svd_hermitian(dtype):
    h = _host((3, 4, 4), dtype)
    h = h + numpy.conj(numpy.swapaxes(h, -1, -2))
    u, s, vh = linalg.svd(_g(h), hermitian=True)
    _close(s, numpy.linalg.svd(h, hermitian=True).S, dtype)
    _close((cuarray.asnumpy(u) * cuarray.asnumpy(s)[..., None, :]) @ cuarray.asnumpy(vh), h, dtype,
           check_dtype=False)
    _close(linalg.svd(_g(h), compute_uv=False, hermitian=True), numpy.linalg.svd(h, compute_uv=False),
           dtype)
    _close(linalg.svdvals(_g(h)), numpy.linalg.svdvals(h), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 4), (2, 4, 6), (0, 3), (3, 0)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r", "raw"])
def test_qr(dtype, shape, mode):
    x = _host(shape, dtype)
    got, ref = linalg.qr(_g(x), mode), numpy.linalg.qr(x, mode)
    if mode == "r":
        _close(got, ref, dtype)
    else:
        _close(got[0], ref[0], dtype)
        _close(got[1], ref[1], dtype)


def test_qr_deprecated_modes():
    x = _host((5, 3), "float64")
    with pytest.warns(DeprecationWarning):
        q, r = linalg.qr(_g(x), "full")
    _close(q, numpy.linalg.qr(x).Q, "float64")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _close(linalg.qr(_g(x), "economic"), numpy.linalg.qr(x, "economic"), "float64")
    with pytest.raises(ValueError):
        linalg.qr(_g(x), "nope")
    with pytest.raises(LinAlgError):
        linalg.qr(_g(numpy.ones(3)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 6), (0, 3)])
def test_pinv(dtype, shape):
    x = _host(shape, dtype)
    _close(linalg.pinv(_g(x)), numpy.linalg.pinv(x), dtype)
    _close(linalg.pinv(_g(x), rtol=1e-3), numpy.linalg.pinv(x, rtol=1e-3), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, bshape", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3,)),
                                           ((4, 4), (4, 2)), ((3, 0), (3,))])
def test_lstsq(dtype, shape, bshape):
    x, b = _host(shape, dtype), _host(bshape, dtype)
    got, ref = linalg.lstsq(_g(x), _g(b)), numpy.linalg.lstsq(x, b)
    _close(got[0], ref[0], dtype)
    _close(got[1], ref[1], dtype)
    assert got[2] == ref[2]
    _close(got[3], ref[3], dtype)


def test_lstsq_errors():
    with pytest.raises(LinAlgError):
        linalg.lstsq(_g(numpy.ones((3, 2))), _g(numpy.ones(4)))
    with pytest.raises(LinAlgError):
        linalg.lstsq(_g(numpy.ones((2, 3, 2))), _g(numpy.ones(3)))


def test_tensorsolve_tensorinv():
    a = _host((6, 4, 2, 3, 4), "float64") + numpy.eye(24).reshape(6, 4, 2, 3, 4) * 5
    b = _host((6, 4), "float64")
    _close(linalg.tensorsolve(_g(a), _g(b)), numpy.linalg.tensorsolve(a, b), "float64")
    at = numpy.moveaxis(a, 4, 0).copy()               # axes=(0,) moves it back last
    _close(linalg.tensorsolve(_g(at), _g(b), axes=(0,)),
           numpy.linalg.tensorsolve(at, b, axes=(0,)), "float64")
    a = _host((4, 6, 8, 3), "float64")
    _close(linalg.tensorinv(_g(a), ind=2), numpy.linalg.tensorinv(a, ind=2), "float64")
    with pytest.raises(ValueError):
        linalg.tensorinv(_g(a), ind=0)
    with pytest.raises(LinAlgError):
        linalg.tensorinv(_g(_host((4, 5), "float64")), ind=1)
