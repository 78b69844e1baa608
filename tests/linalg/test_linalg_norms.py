"""norm, cond, det, slogdet, matrix_rank against numpy.linalg, on the GPU."""
import numpy
import pytest

import cuarray
from cuarray import linalg

pytestmark = pytest.mark.gpu

_rng = numpy.random.default_rng(0)
DTYPES = ["float32", "float64", "complex64", "complex128"]


def _host(shape, dtype):
    x = _rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * _rng.standard_normal(shape)
    return x.astype(dtype)


def _close(got, ref, dtype, check_dtype=True):
    got = cuarray.asnumpy(got)
    ref = numpy.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    if check_dtype:
        assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    tol = 2e-3 if numpy.dtype(dtype).char in "fF" else 1e-9
    numpy.testing.assert_allclose(got, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (1, 1), (3, 5, 5), (40, 3, 3), (2, 40, 40), (0, 3, 3),
                                   (3, 0, 0)])
def test_det_slogdet(dtype, shape):
    a = _host(shape, dtype)
    _close(linalg.det(cuarray.asarray(a)), numpy.linalg.det(a), dtype)
    sign, logdet = linalg.slogdet(cuarray.asarray(a))
    ref = numpy.linalg.slogdet(a)
    _close(sign, ref.sign, dtype)
    _close(logdet, ref.logabsdet, dtype)


def test_det_singular_and_ints():
    s = numpy.ones((2, 3, 3))
    _close(linalg.det(cuarray.asarray(s)), numpy.linalg.det(s), "float64")
    sign, logdet = linalg.slogdet(cuarray.asarray(s))
    assert (cuarray.asnumpy(sign) == 0).all() and numpy.isneginf(cuarray.asnumpy(logdet)).all()
    i = numpy.array([[2, 1], [1, 3]])
    d = linalg.det(cuarray.asarray(i))
    assert d.dtype == numpy.float64
    _close(d, 5.0, "float64")
    with pytest.raises(numpy.linalg.LinAlgError):
        linalg.det(cuarray.ones((2, 3)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 6)])
@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, numpy.inf, -numpy.inf])
def test_matrix_norms(dtype, shape, ord):
    x = _host(shape, dtype)
    for axis in [(-2, -1), (-1, -2)]:
        for keepdims in (False, True):
            _close(linalg.norm(cuarray.asarray(x), ord, axis=axis, keepdims=keepdims),
                   numpy.linalg.norm(x, ord, axis=axis, keepdims=keepdims), dtype)
    _close(linalg.matrix_norm(cuarray.asarray(x), ord="fro" if ord is None else ord),
           numpy.linalg.matrix_norm(x, ord="fro" if ord is None else ord), dtype)


@pytest.mark.parametrize("dtype", DTYPES + ["int64"])
@pytest.mark.parametrize("ord", [None, 0, 1, 2, 3.5, numpy.inf, -numpy.inf, -1])
def test_vector_norms(dtype, ord):
    x = (_host((3, 7), "float64") * 5).astype(dtype) if dtype == "int64" else _host((3, 7), dtype)
    for axis in (0, 1, -1):
        _close(linalg.norm(cuarray.asarray(x), ord, axis=axis),
               numpy.linalg.norm(x, ord, axis=axis), dtype)
    _close(linalg.vector_norm(cuarray.asarray(x), ord=2 if ord is None else ord, axis=(0, 1),
                              keepdims=True),
           numpy.linalg.vector_norm(x, ord=2 if ord is None else ord, axis=(0, 1), keepdims=True),
           dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_norm_default_and_errors(dtype):
    for shape in [(7,), (4, 5), (2, 3, 4)]:
        x = _host(shape, dtype)
        _close(linalg.norm(cuarray.asarray(x)), numpy.linalg.norm(x), dtype)
        _close(linalg.norm(cuarray.asarray(x), keepdims=True), numpy.linalg.norm(x, keepdims=True),
               dtype)
    m = _host((4, 5), dtype)
    _close(linalg.norm(cuarray.asarray(m), "fro"), numpy.linalg.norm(m, "fro"), dtype)
    with pytest.raises(ValueError):
        linalg.norm(cuarray.asarray(m), "bad")
    with pytest.raises(ValueError):
        linalg.norm(cuarray.asarray(m[0]), "fro", axis=0)
    with pytest.raises(ValueError):
        linalg.norm(cuarray.asarray(m), axis=(0, 0))
    with pytest.raises(ValueError):
        linalg.norm(cuarray.asarray(_host((2, 3, 4), dtype)), axis=(0, 1, 2))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("p", [None, 1, -1, 2, -2, "fro", "nuc", numpy.inf, -numpy.inf])
def test_cond(dtype, p):
    m = _host((3, 4, 4), dtype)
    _close(linalg.cond(cuarray.asarray(m), p), numpy.linalg.cond(m, p), dtype, check_dtype=False)


def test_cond_singular_is_inf():
    c = cuarray.asnumpy(linalg.cond(cuarray.asarray(numpy.ones((3, 3))), 1))
    assert numpy.isinf(c)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_rank(dtype):
    low = (_host((2, 6, 2), dtype) @ _host((2, 2, 5), dtype)).astype(dtype)
    _close(linalg.matrix_rank(cuarray.asarray(low)), numpy.linalg.matrix_rank(low), dtype,
           check_dtype=False)
    full = _host((5, 5), dtype)
    _close(linalg.matrix_rank(cuarray.asarray(full)), numpy.linalg.matrix_rank(full), dtype,
           check_dtype=False)
    _close(linalg.matrix_rank(cuarray.asarray(full), tol=100.0), 0, dtype, check_dtype=False)
    _close(linalg.matrix_rank(cuarray.asarray(full), rtol=0.99), 1, dtype, check_dtype=False)
    h = full + numpy.conj(full.T)
    _close(linalg.matrix_rank(cuarray.asarray(h), hermitian=True),
           numpy.linalg.matrix_rank(h, hermitian=True), dtype, check_dtype=False)
    _close(linalg.matrix_rank(cuarray.asarray(numpy.zeros(3, dtype))), 0, dtype, check_dtype=False)
    _close(linalg.matrix_rank(cuarray.asarray(numpy.ones(3, dtype))), 1, dtype, check_dtype=False)
