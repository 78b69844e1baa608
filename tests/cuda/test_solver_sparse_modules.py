"""cuarray.lapack, cuarray.cusolver and cuarray.cusparse against NumPy/SciPy."""
import numpy
import pytest

import cuarray
from cuarray import cusolver, cusparse, lapack

pytestmark = pytest.mark.gpu

DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def _rand(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _tol(dtype):
    return dict(rtol=1e-3, atol=1e-3) if numpy.dtype(dtype).char in "fF" else \
        dict(rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("nrhs", [None, 3])
def test_gesv_posv(dtype, order, nrhs):
    rng = numpy.random.default_rng(30)
    n = 6
    ha = _rand(rng, (n, n), dtype) + n * numpy.eye(n, dtype=dtype)
    hb = _rand(rng, (n,) if nrhs is None else (n, nrhs), dtype)
    a, b = cuarray.asarray(ha, order=order), cuarray.asarray(hb, order=order)
    assert lapack.gesv(a, b) is None
    numpy.testing.assert_allclose(b.get(), numpy.linalg.solve(ha, hb), **_tol(dtype))
    spd = ha @ ha.conj().T + n * numpy.eye(n, dtype=dtype)
    a, b = cuarray.asarray(spd, order=order), cuarray.asarray(hb, order=order)
    lapack.posv(a, b)
    numpy.testing.assert_allclose(b.get(), numpy.linalg.solve(spd, hb), **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_gels(dtype):
    rng = numpy.random.default_rng(31)
    ha, hb = _rand(rng, (9, 4), dtype), _rand(rng, (9, 2), dtype)
    x = lapack.gels(cuarray.asarray(ha), cuarray.asarray(hb))
    numpy.testing.assert_allclose(x.get(), numpy.linalg.lstsq(ha, hb, rcond=None)[0],
                                  **_tol(dtype))


def test_lapack_errors():
    a = cuarray.ones((3, 3))
    with pytest.raises(ValueError, match="square"):
        lapack.gesv(cuarray.ones((3, 2)), cuarray.ones(3))
    with pytest.raises(ValueError, match="b must have shape"):
        lapack.gesv(a, cuarray.ones(4))
    with pytest.raises(TypeError):
        lapack.posv(a, cuarray.ones(3, dtype=numpy.float32))
    with pytest.raises(TypeError):
        lapack.gesv(numpy.ones((3, 3)), numpy.ones(3))


@pytest.mark.parametrize("dtype", DTYPES)
def test_gesvdj_gesvda_syevj(dtype):
    rng = numpy.random.default_rng(32)
    ha = _rand(rng, (7, 5), dtype)
    a = cuarray.asarray(ha)
    tol = _tol(dtype)
    u, s, v = cusolver.gesvdj(a)
    assert u.shape == (7, 7) and v.shape == (5, 5)
    recon = (u[:, :5] * s) @ v.conj().T
    numpy.testing.assert_allclose(recon.get(), ha, **tol)
    numpy.testing.assert_allclose(cusolver.gesvdj(a, compute_uv=False).get(),
                                  numpy.linalg.svd(ha, compute_uv=False), **tol)
    stack = cuarray.asarray(_rand(rng, (3, 6, 4), dtype))
    u, s, v = cusolver.gesvda(stack)
    assert u.shape == (3, 6, 4) and v.shape == (3, 4, 4)
    numpy.testing.assert_allclose(((u * s[:, None, :]) @ v.conj().swapaxes(1, 2)).get(),
                                  stack.get(), **tol)
    h = _rand(rng, (4, 5, 5), dtype)
    h = h + h.conj().swapaxes(1, 2)
    w, vecs = cusolver.syevj(cuarray.asarray(h))
    numpy.testing.assert_allclose(w.get(), numpy.linalg.eigvalsh(h), **tol)
    numpy.testing.assert_allclose((vecs * w[:, None, :] @ vecs.conj().swapaxes(1, 2)).get(), h,
                                  **tol)
    numpy.testing.assert_allclose(cusolver.syevj(cuarray.asarray(h[0]), UPLO="U",
                                                 with_eigen_vector=False).get(),
                                  numpy.linalg.eigvalsh(h[0], UPLO="U"), **tol)
    assert cusolver.check_availability("gesvdj")
    with pytest.raises(ValueError):
        cusolver.check_availability("nope")


def test_gesvdj_matches_cupy():
    cupy = pytest.importorskip("cupy")
    import cupyx.cusolver
    rng = numpy.random.default_rng(33)
    ha = rng.standard_normal((6, 4))
    ours = cusolver.gesvdj(cuarray.asarray(ha), full_matrices=False)
    theirs = cupyx.cusolver.gesvdj(cupy.asarray(ha), full_matrices=False)
    for x, y in zip(ours, theirs):
        assert x.shape == y.shape
        numpy.testing.assert_allclose(numpy.abs(x.get()), numpy.abs(y.get()), rtol=1e-8,
                                      atol=1e-10)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128])
def test_csrlsvqr_csrlsvchol(dtype):
    scipy_sparse = pytest.importorskip("scipy.sparse")
    from cuarray.scipy import sparse
    rng = numpy.random.default_rng(34)
    n = 30
    m = scipy_sparse.random(n, n, density=0.2, random_state=numpy.random.RandomState(1))
    dense = m.toarray().astype(dtype) + n * numpy.eye(n, dtype=dtype)
    spd = dense @ dense.conj().T
    hb = _rand(rng, n, dtype)
    for mat, fn in ((dense, cusolver.csrlsvqr), (spd, cusolver.csrlsvchol)):
        A = sparse.csr_matrix(cuarray.asarray(mat))
        x = fn(A, cuarray.asarray(hb))
        numpy.testing.assert_allclose(x.get(), numpy.linalg.solve(mat, hb), **_tol(dtype))
    with pytest.raises(ValueError, match="square"):
        cusolver.csrlsvqr(sparse.csr_matrix(cuarray.ones((3, 4), dtype=dtype)),
                          cuarray.ones(3, dtype=dtype))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_spmv_spmm(dtype, fmt):
    pytest.importorskip("scipy.sparse")
    import scipy.sparse as ss
    from cuarray.scipy import sparse
    rng = numpy.random.default_rng(35)
    hs = ss.random(20, 15, density=0.3, random_state=numpy.random.RandomState(2), format=fmt)
    dense = hs.toarray().astype(dtype)
    A = (sparse.csr_matrix if fmt == "csr" else sparse.csc_matrix)(cuarray.asarray(dense))
    hx, hy = _rand(rng, 15, dtype), _rand(rng, 20, dtype)
    tol = _tol(dtype)
    numpy.testing.assert_allclose(cusparse.spmv(A, cuarray.asarray(hx)).get(), dense @ hx, **tol)
    y = cuarray.asarray(hy)
    r = cusparse.spmv(A, cuarray.asarray(hx), y=y, alpha=2, beta=-1)
    assert r is y
    numpy.testing.assert_allclose(y.get(), 2 * dense @ hx - hy, **tol)
    numpy.testing.assert_allclose(cusparse.spmv(A, cuarray.asarray(hy), transa=True).get(),
                                  dense.T @ hy, **tol)
    hb = _rand(rng, (15, 4), dtype)
    numpy.testing.assert_allclose(cusparse.spmm(A, cuarray.asarray(hb)).get(), dense @ hb, **tol)
    numpy.testing.assert_allclose(
        cusparse.spmm(A, cuarray.asarray(hb.T.copy()), transb=True, alpha=3).get(),
        3 * dense @ hb, **tol)
    with pytest.raises(ValueError, match="x must have shape"):
        cusparse.spmv(A, cuarray.ones(3, dtype=dtype))


def test_conversions_and_products():
    pytest.importorskip("scipy.sparse")
    from cuarray.scipy import sparse
    rng = numpy.random.default_rng(36)
    d = rng.standard_normal((6, 5))
    d[d < 0.3] = 0
    x = cuarray.asarray(d)
    csr = cusparse.dense2csr(x)
    csc = cusparse.dense2csc(x)
    numpy.testing.assert_array_equal(cusparse.csr2dense(csr).get(), d)
    numpy.testing.assert_array_equal(cusparse.csc2dense(csc).get(), d)
    numpy.testing.assert_array_equal(cusparse.csr2csc(csr).toarray().get(), d)
    numpy.testing.assert_array_equal(cusparse.csc2csr(csc).toarray().get(), d)
    coo = cusparse.csr2coo(csr, csr.data, csr.indices)
    numpy.testing.assert_array_equal(coo.toarray().get(), d)
    numpy.testing.assert_array_equal(cusparse.coo2csr(coo).toarray().get(), d)
    e = rng.standard_normal((6, 5))
    e[e < 0.5] = 0
    numpy.testing.assert_allclose(
        cusparse.csrgeam(csr, sparse.csr_matrix(cuarray.asarray(e)), 2, -1).toarray().get(),
        2 * d - e)
    numpy.testing.assert_allclose(cusparse.spgemm(csr, cusparse.dense2csr(x.T.copy()),
                                                  alpha=0.5).toarray().get(), 0.5 * d @ d.T)
    dt = cusparse.dense2csr(x.T.copy())
    sq = sparse.csr_matrix(cuarray.asarray(e @ e.T))
    numpy.testing.assert_allclose(cusparse.csrgemm2(csr, dt).toarray().get(), d @ d.T)
    numpy.testing.assert_allclose(
        cusparse.csrgemm2(csr, dt, sq, alpha=2, beta=-0.5).toarray().get(),
        2 * d @ d.T - 0.5 * sq.toarray().get())
    assert cusparse.check_availability("csrgemm2")
    with pytest.raises(ValueError, match="inner"):
        cusparse.csrgemm2(csr, csr)
    with pytest.raises(TypeError):
        cusparse.csrgemm2(csr, csc)
    perm = sparse.coo_matrix((cuarray.asarray([1.0, 2.0, 3.0]),
                              (cuarray.asarray([2, 0, 1]), cuarray.asarray([0, 1, 0]))),
                             shape=(3, 2))
    cusparse.coosort(perm)
    assert perm.row.get().tolist() == [0, 1, 2] and perm.data.get().tolist() == [2.0, 3.0, 1.0]
    with pytest.raises(TypeError):
        cusparse.csr2dense(x)
