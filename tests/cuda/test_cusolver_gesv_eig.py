"""cuarray.cusolver's gesv, gels (CuPy's cupyx.cusolver names) and csreigvsi against NumPy;
argument checks and the low-level cusolverSp names on the CPU."""
import numpy
import pytest

import cuarray
from cuarray import cusolver
from cuarray.cuda import cusolver as lowlevel

DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def _rand(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _tol(dtype):
    return dict(rtol=2e-3, atol=2e-3) if numpy.dtype(dtype).char in "fF" else \
        dict(rtol=1e-9, atol=1e-9)


# ---- CPU ---------------------------------------------------------------------------------
def test_check_availability_knows_cupys_names():
    for name in ("gesvdj", "gesvdjBatched", "gesvda", "potrfBatched", "potrsBatched", "syevj",
                 "gesv", "gels", "csrlsvqr", "csreigvsi"):
        assert cusolver.check_availability(name) is True
    assert cusolver.check_availability("geev") in (True, False)   # by cuSOLVER's version
    with pytest.raises(ValueError, match="unknown"):
        cusolver.check_availability("getrs")


def test_low_level_sparse_names():
    from nvmath.bindings import cusolverSp
    assert lowlevel.spCreate is cusolverSp.create
    assert lowlevel.spDestroy is cusolverSp.destroy
    assert lowlevel.spSetStream is cusolverSp.set_stream
    for t in "sdcz":
        assert getattr(lowlevel, t + "csreigvsi") is getattr(cusolverSp, t + "csreigvsi")
        assert getattr(lowlevel, t + "csrlsvqr") is getattr(cusolverSp, t + "csrlsvqr")
    from nvmath.bindings import cusolverDn
    assert lowlevel.dgetrf is cusolverDn.dgetrf
    with pytest.raises(AttributeError):
        lowlevel.spNothing


def test_dense_argument_errors(emulated):
    a = emulated.ones((3, 3))
    with pytest.raises(ValueError, match="ndim"):
        cusolver.gesv(emulated.ones(3), emulated.ones(3))
    with pytest.raises(ValueError, match="ndim"):
        cusolver.gesv(a, emulated.ones((3, 1, 1)))
    with pytest.raises(ValueError, match="shape"):
        cusolver.gesv(a, emulated.ones(4))
    with pytest.raises(ValueError, match="dtype"):
        cusolver.gesv(a, emulated.ones(3, dtype=numpy.float32))
    with pytest.raises(ValueError, match="dtype"):
        cusolver.gesv(emulated.ones((3, 3), dtype=numpy.int32), emulated.ones(3, numpy.int32))
    with pytest.raises(ValueError, match="square"):
        cusolver.gesv(emulated.ones((3, 2)), emulated.ones(3))
    with pytest.raises(ValueError, match="greater"):
        cusolver.gels(emulated.ones((2, 3)), emulated.ones(2))
    with pytest.raises(ValueError):
        cusolver.gels(numpy.ones((3, 2)), emulated.ones(3))


# ---- GPU ---------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nrhs", [None, 3])
def test_gesv(dtype, nrhs):
    rng = numpy.random.default_rng(151)
    n = 24
    ha = _rand(rng, (n, n), dtype) + n * numpy.eye(n, dtype=dtype)
    hb = _rand(rng, (n,) if nrhs is None else (n, nrhs), dtype)
    a, b = cuarray.asarray(ha), cuarray.asarray(hb)
    x = cusolver.gesv(a, b)
    assert x.shape == hb.shape and x.dtype == dtype
    numpy.testing.assert_allclose(x.get(), numpy.linalg.solve(ha, hb), **_tol(dtype))
    numpy.testing.assert_array_equal(a.get(), ha)      # the operands are left as they were
    numpy.testing.assert_array_equal(b.get(), hb)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, nrhs", [((30, 12), None), ((12, 12), 2), ((40, 5), 4)])
def test_gels(dtype, shape, nrhs):
    rng = numpy.random.default_rng(152)
    ha = _rand(rng, shape, dtype)
    hb = _rand(rng, (shape[0],) if nrhs is None else (shape[0], nrhs), dtype)
    x = cusolver.gels(cuarray.asarray(ha), cuarray.asarray(hb))
    want = numpy.linalg.lstsq(ha, hb, rcond=None)[0]
    assert x.shape == want.shape
    numpy.testing.assert_allclose(x.get(), want, **_tol(dtype))


def _csr(dense):
    from cuarray.scipy import sparse
    return sparse.csr_matrix(cuarray.asarray(dense))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_csreigvsi_finds_the_eigenpair_nearest_the_shift(dtype):
    rng = numpy.random.default_rng(153)
    n = 40
    # a sparse symmetric (Hermitian) matrix with well separated eigenvalues 1..n
    q, _ = numpy.linalg.qr(_rand(rng, (n, n), dtype))
    dense = (q * numpy.arange(1, n + 1)) @ q.conj().T
    dense[numpy.abs(dense) < 0.02] = 0      # sparsify; keeps it Hermitian
    dense = ((dense + dense.conj().T) / 2).astype(dtype)
    w, v = numpy.linalg.eigh(dense.astype(numpy.complex128 if dense.dtype.kind == "c"
                                          else numpy.float64))
    for mu0 in (0.0, 17.3, 41.0):
        k = int(numpy.argmin(numpy.abs(w - mu0)))
        mu, x = cusolver.csreigvsi(_csr(dense), mu0=mu0)
        assert mu.shape == () and mu.dtype == dtype and x.shape == (n,) and x.dtype == dtype
        numpy.testing.assert_allclose(complex(mu.get()), w[k], **_tol(dtype))
        hx = x.get().astype(numpy.complex128)
        hx /= numpy.linalg.norm(hx)
        # x is the eigenvector of w[k] up to a unit scalar
        assert abs(abs(numpy.vdot(v[:, k], hx)) - 1) < (1e-3 if dtype in (numpy.float32,
                                                                          numpy.complex64)
                                                        else 1e-8)


@pytest.mark.gpu
def test_csreigvsi_general_matrix_and_x0():
    rng = numpy.random.default_rng(154)
    n = 30
    dense = numpy.diag(numpy.arange(1.0, n + 1)) + numpy.triu(rng.standard_normal((n, n)), 1) * 0.1
    x0 = cuarray.asarray(rng.standard_normal(n))
    mu, x = cusolver.csreigvsi(_csr(dense), mu0=10.2, x0=x0, maxiter=500)
    assert abs(float(mu.get()) - 10.0) < 1e-8      # upper triangular: eigenvalues on the diagonal
    hx = x.get()
    numpy.testing.assert_allclose(dense @ hx, 10.0 * hx, atol=1e-8 * numpy.abs(hx).max())


def test_sparse_argument_errors(emulated):
    from cuarray.scipy import sparse
    a = numpy.eye(4)

    def csr(x):
        return sparse.csr_matrix(emulated.asarray(x))
    with pytest.raises(ValueError, match="square"):
        cusolver.csreigvsi(csr(numpy.ones((3, 4))))
    with pytest.raises(ValueError, match="CSR"):
        cusolver.csreigvsi(sparse.csc_matrix(emulated.asarray(a)))
    with pytest.raises(ValueError, match="csr_matrix"):
        cusolver.csreigvsi(emulated.asarray(a))
    with pytest.raises(ValueError, match="CSR"):
        cusolver.csrlsvqr(sparse.csc_matrix(emulated.asarray(a)), emulated.ones(4))
    with pytest.raises(ValueError, match="x0"):
        cusolver.csreigvsi(csr(a), x0=emulated.ones(3))
    with pytest.raises(ValueError, match="maxiter"):
        cusolver.csreigvsi(csr(a), maxiter=0)
    with pytest.raises(ValueError, match="tol"):
        cusolver.csreigvsi(csr(a), tol=-1.0)
    with pytest.raises(TypeError, match="real mu0"):
        cusolver.csreigvsi(csr(a), mu0=1 + 2j)
    with pytest.raises(TypeError, match="float32"):
        cusolver.csreigvsi(csr(a.astype(numpy.int64)))
    with pytest.raises(ValueError, match="empty"):
        cusolver.csreigvsi(csr(numpy.zeros((0, 0))))
