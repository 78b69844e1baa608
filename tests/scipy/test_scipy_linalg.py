"""cuarray.scipy.linalg against scipy.linalg: solvers and factorizations (GPU), structured
matrices and expm (GPU, and in the host emulation where cuBLAS/cuSOLVER are stood in for
by NumPy), argument checks and errors."""
import warnings

import numpy as np
import pytest
import scipy.linalg as sl

from cuarray.scipy.linalg._util import lapack_dtype

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]


def _rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _spd(n, dtype, seed=0):
    a = _rand((n, n), dtype, seed)
    return (a @ a.conj().T + n * np.eye(n)).astype(dtype)


def _tol(dtype):
    return dict(rtol=2e-3, atol=2e-3) if np.dtype(dtype).char in "fF" else dict(rtol=1e-9,
                                                                             atol=1e-9)


def test_lapack_dtype_rules():
    class A:
        def __init__(self, c):
            self.dtype = np.dtype(c)
    assert lapack_dtype(A("f")) == np.float32 and lapack_dtype(A("e")) == np.float32
    assert lapack_dtype(A("i")) == np.float64 and lapack_dtype(A("?")) == np.float64
    assert lapack_dtype(A("f"), A("d")) == np.float64
    assert lapack_dtype(A("F"), A("f")) == np.complex64
    assert lapack_dtype(A("F"), A("d")) == np.complex128


# ---- solvers (GPU) --------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("assume_a", [None, "gen", "sym", "her", "pos", "diagonal",
                                      "upper triangular", "lower triangular", "banded"])
@pytest.mark.parametrize("lower", [False, True])
def test_solve(gpu_cp, dtype, assume_a, lower):
    cp = gpu_cp
    from cuarray.scipy import linalg
    n = 12
    a = _spd(n, dtype) if assume_a in ("pos", "her", "sym") else _rand((n, n), dtype) + \
        4 * n * np.eye(n, dtype=dtype)
    if assume_a == "sym":
        a = (a + a.T) / 2 + _rand((n, n), dtype, 3) * np.triu(np.ones((n, n)), 1)
    b1, b2 = _rand(n, dtype, 1), _rand((n, 3), dtype, 2)
    for b in (b1, b2):
        for transposed in (False, True):
            if assume_a in ("sym", "her", "pos") and transposed and dtype in (np.complex64,
                                                                             np.complex128):
                continue  # SciPy refuses transposed complex solves for these structures
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    want = sl.solve(a, b, assume_a=assume_a, lower=lower, transposed=transposed)
                except NotImplementedError:  # some SciPy versions refuse transposed complex solves
                    continue
            got = linalg.solve(cp.asarray(a), cp.asarray(b), assume_a=assume_a, lower=lower,
                               transposed=transposed)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.get(), want, **_tol(dtype))


@pytest.mark.gpu
def test_solve_errors_and_tutorial(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy import linalg
    A = cp.random.random((1024, 1024), dtype=cp.float32)
    b = cp.random.random(1024, dtype=cp.float32)
    x = linalg.solve(A, b)
    assert x.dtype == np.float32 and x.shape == (1024,)
    # ||Ax - b|| / ||b|| grows with cond(A), heavy-tailed for random matrices (0.0115 once on
    # an H100). The normwise backward error does not: LU with partial pivoting and the float32
    # residual keep it below about n * eps (Wilkinson's gamma_n); NumPy's float32 LU gives
    # ~1e-8 here.
    n, eps = A.shape[0], np.finfo(A.dtype).eps
    r = float(cp.linalg.norm(A @ x - b))
    eta = r / (float(cp.linalg.norm(A)) * float(cp.linalg.norm(x)) + float(cp.linalg.norm(b)))
    assert eta < n * eps, eta
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        linalg.solve(cp.zeros((3, 3)), cp.ones(3))
    with pytest.raises(ValueError, match="square"):
        linalg.solve(cp.ones((2, 3)), cp.ones(2))
    with pytest.raises(ValueError, match="incompatible"):
        linalg.solve(cp.eye(2), cp.ones(3))
    with pytest.raises(ValueError, match="not a recognized"):
        linalg.solve(cp.eye(2), cp.ones(2), assume_a="foo")
    with pytest.raises(ValueError, match="infs or NaNs"):
        linalg.solve(cp.asarray(np.array([[1, np.nan], [0, 1.]])), cp.ones(2))
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        linalg.solve(-cp.eye(3), cp.ones(3), assume_a="pos")
    with pytest.raises(TypeError, match="cuarray.asarray"):
        linalg.solve(np.eye(2), cp.ones(2))
    xs = linalg.solve(cp.asarray(np.stack([np.eye(3) * 2, np.eye(3) * 4])), cp.ones((2, 3, 1)))
    np.testing.assert_allclose(xs.get()[..., 0], [[0.5] * 3, [0.25] * 3])


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS + [np.int64])
@pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("order", ["C", "F"])
def test_solve_triangular(gpu_cp, dtype, trans, lower, order):
    cp = gpu_cp
    from cuarray.scipy import linalg
    n = 9
    a = np.asarray(_rand((n, n), np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
                   * 3, order=order)
    a = (np.tril(a) if lower else np.triu(a)) + 8 * np.eye(n)
    a = np.asarray(a.astype(dtype), order=order)
    for b in (_rand(n, np.float64, 1), _rand((n, 4), np.float64, 2)):
        b = b.astype(dtype) if np.dtype(dtype).kind != "i" else (b * 10).astype(dtype)
        for unit in (False, True):
            want = sl.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit)
            ga = cp.asarray(a) if order == "C" else cp.asfortranarray(cp.asarray(a))
            got = linalg.solve_triangular(ga, cp.asarray(b), trans=trans, lower=lower,
                                          unit_diagonal=unit)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.get(), want, **_tol(want.dtype))
    with pytest.raises(ValueError, match="incompatible"):
        linalg.solve_triangular(cp.eye(2), cp.ones(3))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(6, 6), (5, 8), (8, 5)])
def test_lu_family(gpu_cp, dtype, shape):
    cp = gpu_cp
    from cuarray.scipy import linalg
    a = _rand(shape, dtype)
    ga = cp.asarray(a)
    P, L, U = linalg.lu(ga)
    Pw, Lw, Uw = sl.lu(a)
    for g, w in ((P, Pw), (L, Lw), (U, Uw)):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.get(), w, **_tol(dtype))
    p, L2, U2 = linalg.lu(ga, p_indices=True)
    assert p.dtype == np.int32
    np.testing.assert_array_equal(p.get(), sl.lu(a, p_indices=True)[0])
    PL, U3 = linalg.lu(ga, permute_l=True)
    np.testing.assert_allclose(PL.get(), sl.lu(a, permute_l=True)[0], **_tol(dtype))
    lu, piv = linalg.lu_factor(ga)
    luw, pivw = sl.lu_factor(a)
    assert lu.dtype == luw.dtype and piv.dtype == np.int32 and lu.flags.f_contiguous
    np.testing.assert_array_equal(piv.get(), pivw)
    np.testing.assert_allclose(lu.get(), luw, **_tol(dtype))
    if shape[0] == shape[1]:
        for trans in (0, 1, 2):
            for b in (_rand(shape[0], dtype, 1), _rand((shape[0], 2), dtype, 2)):
                got = linalg.lu_solve((lu, piv), cp.asarray(b), trans=trans)
                want = sl.lu_solve((luw, pivw), b, trans=trans)
                assert got.dtype == want.dtype and got.shape == want.shape
                np.testing.assert_allclose(got.get(), want, **_tol(dtype))


@pytest.mark.gpu
def test_lu_factor_singular_warns(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy import linalg
    with pytest.warns(linalg.LinAlgWarning, match="exactly zero"):
        linalg.lu_factor(cp.zeros((2, 2)))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_family(gpu_cp, dtype, lower):
    cp = gpu_cp
    from cuarray.scipy import linalg
    a = _spd(7, dtype)
    c, low = linalg.cho_factor(cp.asarray(a), lower=lower)
    cw, loww = sl.cho_factor(a, lower=lower)
    assert low == loww and c.dtype == cw.dtype and c.flags.f_contiguous
    tri = np.tril if lower else np.triu
    np.testing.assert_allclose(tri(c.get()), tri(cw), **_tol(dtype))
    for b in (_rand(7, dtype, 1), _rand((7, 3), dtype, 2)):
        got = linalg.cho_solve((c, low), cp.asarray(b))
        want = sl.cho_solve((cw, loww), b)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.get(), want, **_tol(dtype))
    with pytest.raises(np.linalg.LinAlgError, match="leading minor"):
        linalg.cho_factor(-cp.eye(3))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS + [np.int32])
def test_inv_det_norm_pinv(gpu_cp, dtype):
    cp = gpu_cp
    from cuarray.scipy import linalg
    a = (_rand((6, 6), np.float64) * 3).astype(dtype) + 5 * np.eye(6, dtype=dtype)
    ga = cp.asarray(a)
    for got, want in ((linalg.inv(ga), sl.inv(a)), (linalg.det(ga), sl.det(a)),
                      (linalg.norm(ga), sl.norm(a)), (linalg.norm(ga, 1), sl.norm(a, 1)),
                      (linalg.norm(ga, axis=0), sl.norm(a, axis=0)),
                      (linalg.norm(ga[0]), sl.norm(a[0])), (linalg.norm(ga, np.inf), sl.norm(a, np.inf)),
                      (linalg.pinv(ga), sl.pinv(a))):
        want = np.asarray(want)
        assert got.dtype == want.dtype and got.shape == want.shape
        # SciPy's det and lange norms compute in the input precision and return float64:
        # the tolerance follows the input's precision, not the result's dtype.
        np.testing.assert_allclose(got.get(), want, **_tol(np.result_type(a.dtype, np.float16)))
    r = np.asarray((_rand((5, 3), np.float64)).astype(dtype))
    B, rank = linalg.pinv(cp.asarray(r), return_rank=True)
    Bw, rankw = sl.pinv(r, return_rank=True)
    assert rank == rankw
    np.testing.assert_allclose(B.get(), Bw, **_tol(Bw.dtype))
    if np.dtype(dtype).kind != "i":
        ap = _spd(6, dtype)
        np.testing.assert_allclose(linalg.inv(cp.asarray(ap), assume_a="pos").get(),
                                   sl.inv(ap), **_tol(dtype))
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        linalg.inv(cp.zeros((3, 3)))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS)
def test_svd_qr(gpu_cp, dtype):
    cp = gpu_cp
    from cuarray.scipy import linalg
    for shape in ((6, 4), (4, 6)):
        a = _rand(shape, dtype)
        ga = cp.asarray(a)
        s = linalg.svd(ga, compute_uv=False)
        np.testing.assert_allclose(s.get(), sl.svd(a, compute_uv=False), **_tol(dtype))
        for full in (True, False):
            u, s, vh = linalg.svd(ga, full_matrices=full)
            uw, sw, vhw = sl.svd(a, full_matrices=full)
            assert u.shape == uw.shape and vh.shape == vhw.shape and u.dtype == uw.dtype
            k = min(shape)
            np.testing.assert_allclose(((u[:, :k] * s) @ vh[:k]).get(), a, **_tol(dtype))
        for mode in ("full", "economic"):
            q, r = linalg.qr(ga, mode=mode)
            qw, rw = sl.qr(a, mode=mode)
            assert q.shape == qw.shape and r.shape == rw.shape and q.dtype == qw.dtype
            np.testing.assert_allclose((q @ r).get(), a, **_tol(dtype))
            np.testing.assert_allclose(np.abs(r.get()), np.abs(rw), **_tol(dtype))
        (r,) = linalg.qr(ga, mode="r")
        (rw,) = sl.qr(a, mode="r")
        assert r.shape == rw.shape
        np.testing.assert_allclose(np.abs(r.get()), np.abs(rw), **_tol(dtype))
        (h, tau), r = linalg.qr(ga, mode="raw")
        (hw, tauw), rw = sl.qr(a, mode="raw")
        assert h.shape == hw.shape and tau.shape == tauw.shape and r.shape == rw.shape
        np.testing.assert_allclose(np.abs(r.get()), np.abs(rw), **_tol(dtype))
    q, r, p = linalg.qr(cp.eye(3), pivoting=True)   # values: test_scipy_linalg_qr_pivoting
    np.testing.assert_allclose((q @ r).get(), np.eye(3)[:, p.get()], atol=1e-12)
    with pytest.raises(ValueError, match="lapack_driver"):
        linalg.svd(cp.eye(3), lapack_driver="x")


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS)
def test_eigh(gpu_cp, dtype):
    cp = gpu_cp
    from cuarray.scipy import linalg
    a = _spd(8, dtype, 1) - 4 * np.eye(8, dtype=dtype)
    b = _spd(8, dtype, 2)
    ga, gb = cp.asarray(a), cp.asarray(b)
    for lower in (True, False):
        w, v = linalg.eigh(ga, lower=lower)
        ww = sl.eigh(a, lower=lower, eigvals_only=True)
        assert w.dtype == ww.dtype
        np.testing.assert_allclose(w.get(), ww, **_tol(dtype))
        np.testing.assert_allclose((ga @ v).get(), (v * w).get(), **_tol(dtype))
        for t in (1, 2, 3):
            w, v = linalg.eigh(ga, gb, lower=lower, type=t)
            ww = sl.eigh(a, b, lower=lower, type=t, eigvals_only=True)
            np.testing.assert_allclose(w.get(), ww, **_tol(dtype))
            if t == 1:
                np.testing.assert_allclose((ga @ v).get(), (gb @ v * w).get(), **_tol(dtype))
    np.testing.assert_allclose(linalg.eigh(ga, eigvals_only=True, subset_by_index=[2, 4]).get(),
                               sl.eigh(a, eigvals_only=True, subset_by_index=[2, 4]),
                               **_tol(dtype))
    w, v = linalg.eigh(ga, subset_by_value=[-1, 5])
    ww, vw = sl.eigh(a, subset_by_value=[-1, 5])
    assert v.shape == vw.shape
    np.testing.assert_allclose(w.get(), ww, **_tol(dtype))
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        linalg.eigh(ga, -gb)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS + [np.int64])
def test_expm(gpu_cp, dtype):
    cp = gpu_cp
    from cuarray.scipy import linalg
    for scale in (1e-3, 0.1, 1.0, 5.0, 40.0):
        a = (_rand((7, 7), np.complex128 if np.dtype(dtype).kind == "c" else np.float64) * scale)
        a = a.astype(dtype) if np.dtype(dtype).kind != "i" else (a * 0).astype(dtype) + np.eye(
            7, dtype=dtype)
        got, want = linalg.expm(cp.asarray(a)), sl.expm(a)
        assert got.dtype == want.dtype and got.shape == want.shape
        tol = dict(rtol=1e-3, atol=1e-3 * np.abs(want).max()) if np.dtype(dtype).char in "fF" \
            else dict(rtol=1e-8, atol=1e-10 * np.abs(want).max())
        np.testing.assert_allclose(got.get(), want, **tol)
    stack = _rand((3, 4, 4), np.float64)
    np.testing.assert_allclose(linalg.expm(cp.asarray(stack)).get(), sl.expm(stack), rtol=1e-8)
    assert linalg.expm(cp.zeros((0, 0))).shape == (0, 0)
    np.testing.assert_allclose(linalg.expm(cp.asarray([[2.0]])).get(), [[np.exp(2.0)]])


# ---- structured matrices (GPU and emulated) --------------------------------------------------

def test_structured_matrices(cp):
    from cuarray.scipy import linalg
    c = np.array([1.0, 2, 3, 4])
    r = np.array([9.0, 8, 7])
    z = np.array([1 + 1j, 2, 3 - 2j])
    for got, want in ((linalg.toeplitz(cp.asarray(c)), sl.toeplitz(c)),
                      (linalg.toeplitz(cp.asarray(c), cp.asarray(r)), sl.toeplitz(c, r)),
                      (linalg.toeplitz(cp.asarray(z)), sl.toeplitz(z)),
                      (linalg.hankel(cp.asarray(c)), sl.hankel(c)),
                      (linalg.hankel(cp.asarray(c), cp.asarray(r)), sl.hankel(c, r)),
                      (linalg.circulant(cp.asarray(c)), sl.circulant(c)),
                      (linalg.circulant(cp.asarray(np.arange(5))), sl.circulant(np.arange(5)))):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want)
    batch = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(linalg.circulant(cp.asarray(batch)).get(),
                                  np.stack([sl.circulant(b) for b in batch]))
    np.testing.assert_array_equal(linalg.toeplitz(cp.asarray(batch)).get(),
                                  np.stack([sl.toeplitz(b) for b in batch]))
    np.testing.assert_array_equal(linalg.toeplitz(cp.asarray(3.0)).get(), [[3.0]])


def test_block_diag(cp):
    from cuarray.scipy import linalg
    a = np.array([[1, 2], [3, 4]])
    b = np.array([[5.5, 6, 7]])
    got = linalg.block_diag(cp.asarray(a), cp.asarray(b), 7, cp.asarray([8, 9]))
    want = sl.block_diag(a, b, 7, [8, 9])
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.get(), want)
    assert linalg.block_diag().shape == sl.block_diag().shape
    e = linalg.block_diag(cp.asarray(a), cp.zeros((0, 2)), cp.asarray(a))
    np.testing.assert_array_equal(e.get(), sl.block_diag(a, np.zeros((0, 2)), a))
    with pytest.raises(ValueError, match="greater than 2"):
        linalg.block_diag(cp.zeros((2, 2, 2)))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        linalg.block_diag(np.ones((2, 2)))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        linalg.block_diag([1, 2])


@pytest.mark.gpu
def test_kron(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy import linalg
    a, b = np.arange(4.).reshape(2, 2), np.arange(6.).reshape(2, 3)
    np.testing.assert_array_equal(linalg.kron(cp.asarray(a), cp.asarray(b)).get(),
                                  np.kron(a, b))


def _emulated():
    from cuarray._runtime import driver
    return type(driver._drv()).__name__ == "FakeDriver"


def test_expm_pade_emulated(cp, monkeypatch):
    """The degree choice, scaling and squaring of expm, with NumPy standing in for cuBLAS
    and cuSOLVER under the host emulation (the GPU variant is test_expm)."""
    if not _emulated():
        pytest.skip("runs under the host emulation only")
    import cuarray.linalg
    from cuarray.linalg import _products
    from cuarray.scipy import linalg
    monkeypatch.setattr(_products, "matmul",
                        lambda x, y, **k: cp.asarray(np.matmul(x.get(), y.get())))
    monkeypatch.setattr(cuarray.linalg, "solve",
                        lambda x, y: cp.asarray(np.linalg.solve(x.get(), y.get())))
    for scale in (1e-4, 0.05, 0.5, 1.5, 4.0, 60.0):
        for dtype in (np.float64, np.complex128, np.float32):
            a = (_rand((6, 6), dtype) * scale).astype(dtype)
            got, want = linalg.expm(cp.asarray(a)), sl.expm(a)
            assert got.dtype == want.dtype
            rtol = 1e-3 if dtype == np.float32 else 1e-9
            np.testing.assert_allclose(got.get(), want, rtol=rtol,
                                       atol=rtol * np.abs(want).max())


def test_lu_permutation_kernels(cp):
    """P and p from LAPACK's 1-based sequential row swaps."""
    from cuarray.scipy.linalg._solve import _perm_matrix, _permutation
    for ipiv, m in (([3, 3, 3], 3), ([2, 2], 4), ([1], 1), ([4, 2, 4, 4], 5)):
        perm, inv = _permutation(cp.asarray(np.array(ipiv, dtype=np.int64)), m)
        p = list(range(m))
        for i, s in enumerate(ipiv):
            p[i], p[s - 1] = p[s - 1], p[i]
        assert perm.get().tolist() == p
        assert inv.get().tolist() == np.argsort(p).tolist()
        P = _perm_matrix(perm, m, np.dtype(np.float32)).get()
        assert P.dtype == np.float32
        np.testing.assert_array_equal(P[np.array(p), np.arange(m)], np.ones(m))
        assert P.sum() == m
