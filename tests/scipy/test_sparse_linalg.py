"""cuarray.scipy.sparse.linalg against SciPy: cgs, bicgstab, gmres, minres, lsqr, lsmr,
eigsh, svds, norm, matrix_power, spsolve_triangular, factorized.

Tests taking `cp` run on the GPU and, without one, in the host emulation (conftest.py);
`gpu_cp` tests need cuBLAS/cuSPARSE/cuSOLVER and run on a GPU only.
"""
import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sspla


def _spd(n, seed):
    M = ssp.random(n, n, density=0.2, random_state=seed) + ssp.eye(n) * n
    return (M + M.T).tocsr()


def _nonsym(n, seed):
    return (ssp.random(n, n, density=0.3, random_state=seed) + ssp.eye(n) * 4).tocsr()


def _dev(h):
    from cuarray.scipy import sparse
    return sparse.csr_matrix(h)


def _get(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


def test_cgs(cp):
    from cuarray.scipy.sparse import linalg as spla
    h = _nonsym(25, 1)
    b = np.random.default_rng(2).standard_normal(25)
    x, info = spla.cgs(_dev(h), cp.asarray(b), rtol=1e-10)
    assert info == 0 and x.dtype == np.float64
    np.testing.assert_allclose(_get(x), np.linalg.solve(h.toarray(), b), rtol=1e-6, atol=1e-8)
    seen = []
    x, info = spla.cgs(_dev(h), cp.asarray(b), x0=cp.asarray(np.ones(25)), rtol=1e-10,
                       callback=lambda xk: seen.append(1), M=_dev(ssp.diags(1 / h.diagonal())))
    assert info == 0 and seen
    np.testing.assert_allclose(_get(x), np.linalg.solve(h.toarray(), b), rtol=1e-6, atol=1e-8)
    x, info = spla.cgs(_dev(h), cp.asarray(b), rtol=1e-14, maxiter=1)
    assert info == 1
    x, info = spla.cgs(_dev(h), cp.zeros(25))
    assert info == 0 and not _get(x).any()
    with pytest.raises(ValueError, match="atol"):
        spla.cgs(_dev(h), cp.asarray(b), atol=-1)


def test_minres(cp):
    from cuarray.scipy.sparse import linalg as spla
    h = _spd(30, 3)
    b = np.random.default_rng(4).standard_normal(30)
    x, info = spla.minres(_dev(h), cp.asarray(b), rtol=1e-10)
    xh, infoh = sspla.minres(h, b, rtol=1e-10)
    assert info == infoh == 0
    np.testing.assert_allclose(_get(x), xh, rtol=1e-6, atol=1e-8)
    x, info = spla.minres(_dev(h), cp.asarray(b), shift=0.5, rtol=1e-10)
    np.testing.assert_allclose(_get(x), np.linalg.solve(h.toarray() - 0.5 * np.eye(30), b),
                               rtol=1e-6, atol=1e-8)
    x, info = spla.minres(_dev(h), cp.asarray(b), maxiter=2, rtol=1e-14)
    assert info == 2
    with pytest.raises(ValueError, match="non-symmetric"):
        spla.minres(_dev(_nonsym(10, 5)), cp.asarray(np.ones(10)), check=True)


@pytest.mark.parametrize("damp", [0.0, 0.7])
def test_lsqr_lsmr(cp, damp):
    from cuarray.scipy.sparse import linalg as spla
    h = ssp.random(40, 15, density=0.3, random_state=6, format="csr") + ssp.eye(40, 15)
    b = np.random.default_rng(7).standard_normal(40)
    r = spla.lsqr(_dev(h.tocsr()), cp.asarray(b), damp=damp, atol=1e-12, btol=1e-12)
    rh = sspla.lsqr(h, b, damp=damp, atol=1e-12, btol=1e-12)
    assert len(r) == 10 and r[1] == rh[1]
    np.testing.assert_allclose(_get(r[0]), rh[0], rtol=1e-6, atol=1e-8)
    # arnorm = |A^T r| is rounding noise at convergence (~1e-11 here, next to norms ~10):
    # compare it with a tolerance relative to the largest statistic.
    np.testing.assert_allclose(r[3:9], rh[3:9], rtol=1e-5, atol=1e-9 * np.max(rh[3:9]))
    r = spla.lsmr(_dev(h.tocsr()), cp.asarray(b), damp=damp, atol=1e-12, btol=1e-12)
    rh = sspla.lsmr(h, b, damp=damp, atol=1e-12, btol=1e-12)
    assert len(r) == 8 and r[1] == rh[1] and r[2] == rh[2]
    np.testing.assert_allclose(_get(r[0]), rh[0], rtol=1e-6, atol=1e-8)
    # This run stops at itn == n, where the Krylov space is exhausted: the last beta
    # that normA sums is loss-of-orthogonality noise (a 1e-15 relative change of A
    # moves normA by ~1% in SciPy itself), so compare the other statistics here and
    # all of them on a run stopped before exhaustion.
    keep = [3, 4, 6, 7]
    np.testing.assert_allclose([r[i] for i in keep], [rh[i] for i in keep], rtol=1e-5,
                               atol=1e-9 * np.max(rh[3:]))
    r = spla.lsmr(_dev(h.tocsr()), cp.asarray(b), damp=damp, atol=1e-12, btol=1e-12,
                  maxiter=10)
    rh = sspla.lsmr(h, b, damp=damp, atol=1e-12, btol=1e-12, maxiter=10)
    assert r[1:3] == rh[1:3]
    np.testing.assert_allclose(_get(r[0]), rh[0], rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(r[3:], rh[3:], rtol=1e-8)
    r1 = spla.lsmr(_dev(h.tocsr()), cp.asarray(b), damp, 1e-12, 1e-12)  # SciPy's order
    r2 = spla.lsmr(_dev(h.tocsr()), cp.asarray(b), None, damp, 1e-12, 1e-12)  # CuPy's
    np.testing.assert_allclose(_get(r1[0]), _get(r2[0]))
    assert r1[2] == r2[2]
    x0 = np.full(15, 0.5)
    r = spla.lsqr(_dev(h.tocsr()), cp.asarray(b), x0=cp.asarray(x0), atol=1e-12, btol=1e-12)
    np.testing.assert_allclose(_get(r[0]), sspla.lsqr(h, b, x0=x0, atol=1e-12, btol=1e-12)[0],
                               rtol=1e-6, atol=1e-8)


def test_norm_and_matrix_power(cp):
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import linalg as spla
    h = ssp.random(6, 5, density=0.5, random_state=8, format="csr")
    h.data -= 0.5
    A = _dev(h)
    for ord in [None, "fro", np.inf, -np.inf, 1, -1]:
        assert float(_get(spla.norm(A, ord))) == pytest.approx(sspla.norm(h, ord))
    for ord in [None, 1, 2, 3, np.inf, -np.inf, 0]:
        for axis in (0, 1):
            got = _get(spla.norm(A, ord, axis=axis))
            # SciPy 1.18 gives a (1, n) np.matrix for a p-norm (p not 0/1/2/inf) of a
            # *_matrix; SciPy 1.17 and CuPy give 1-D, as cuarray does for every ord.
            want = np.asarray(sspla.norm(h, ord, axis=axis)).ravel()
            assert got.shape == (h.shape[1 - axis],)
            if ord == 0:
                # SciPy 1.17 counts in int64 on both axes; 1.18 gives the index dtype
                # (np.diff of indptr) on the compressed axis when no stored value is
                # zero, int64 otherwise. cuarray gives int64 counts throughout.
                assert got.dtype == np.int64 and want.dtype in (np.int64, h.indptr.dtype)
            else:
                assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(TypeError):
        spla.norm(cp.ones((2, 2)))
    with pytest.raises(ValueError):
        spla.norm(A, "nuc")
    s = ssp.random(5, 5, density=0.4, random_state=9, format="csr")
    for p in (0, 1, 3):
        got = spla.matrix_power(sparse.csr_matrix(s), p)
        np.testing.assert_allclose(got.toarray().get(), sspla.matrix_power(s, p).toarray(),
                                   rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError):
        spla.matrix_power(sparse.csr_matrix(s), -1)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_gmres(cp, dtype):
    from cuarray.scipy.sparse import linalg as spla
    h = _nonsym(40, 10).astype(dtype)
    b = np.random.default_rng(11).standard_normal(40).astype(dtype)
    x, info = spla.gmres(_dev(h), cp.asarray(b), rtol=1e-10, restart=10)
    assert info == 0 and x.dtype == dtype
    np.testing.assert_allclose(_get(x), np.linalg.solve(h.toarray(), b), rtol=1e-7, atol=1e-9)
    seen = []
    x, info = spla.gmres(_dev(h), cp.asarray(b), rtol=1e-10, callback=seen.append,
                         callback_type="x", M=_dev(ssp.diags(1 / h.diagonal())))
    assert info == 0 and seen and hasattr(seen[0], "get")
    x, info = spla.gmres(_dev(h), cp.asarray(b), rtol=1e-14, restart=2, maxiter=1)
    assert info > 0


@pytest.mark.parametrize("which", ["LM", "LA", "SA"])
def test_eigsh(cp, which):
    from cuarray.scipy.sparse import linalg as spla
    h = _spd(80, 12)
    h = h - ssp.eye(80) * 60
    w, v = spla.eigsh(_dev(h), k=4, which=which, tol=1e-10)
    wh = sspla.eigsh(h, k=4, which=which, return_eigenvectors=False)
    np.testing.assert_allclose(_get(w) if hasattr(w, "get") else w, np.sort(wh), rtol=1e-8)
    V = _get(v.T).T
    np.testing.assert_allclose(h @ V, V * np.asarray(w), atol=1e-6)
    with pytest.raises(ValueError):
        spla.eigsh(_dev(h), k=80)
    with pytest.raises(ValueError):
        spla.eigsh(_dev(h), which="LR")


def test_svds(cp):
    from cuarray.scipy.sparse import linalg as spla
    for shape in [(60, 30), (25, 50)]:
        h = ssp.random(*shape, density=0.3, random_state=13, format="csr")
        u, s, vt = spla.svds(_dev(h), k=3, tol=1e-12)
        sh = sspla.svds(h, k=3, return_singular_vectors=False)
        np.testing.assert_allclose(_get(s), np.sort(sh), rtol=1e-6)
        np.testing.assert_allclose(_get(u) * _get(s) @ _get(vt),
                                   _get(u) @ (_get(u).T @ h.toarray() @ _get(vt).T) @ _get(vt),
                                   atol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_spsolve_triangular(gpu_cp, dtype):
    cp = gpu_cp
    from cuarray.scipy.sparse import linalg as spla
    rng = np.random.default_rng(14)
    full = ssp.random(30, 30, density=0.3, random_state=15, format="csr") + ssp.eye(30) * 3
    b = rng.standard_normal((30, 2)).astype(dtype)
    for lower in (True, False):
        T = (ssp.tril(full) if lower else ssp.triu(full)).tocsr().astype(dtype)
        x = spla.spsolve_triangular(_dev(T), cp.asarray(b), lower=lower)
        xh = sspla.spsolve_triangular(T, b, lower=lower)
        assert x.dtype == xh.dtype
        np.testing.assert_allclose(_get(x), xh, rtol=1e-6, atol=1e-8)
        x1 = spla.spsolve_triangular(_dev(T), cp.asarray(b[:, 0]), lower=lower,
                                     unit_diagonal=True)
        np.testing.assert_allclose(_get(x1), sspla.spsolve_triangular(
            T, b[:, 0], lower=lower, unit_diagonal=True), rtol=1e-6, atol=1e-8)
    sing = ssp.csr_matrix(np.array([[1.0, 0], [1, 0]]))
    with pytest.raises(np.linalg.LinAlgError):
        spla.spsolve_triangular(_dev(sing), cp.ones(2))
    with pytest.raises(ValueError):
        spla.spsolve_triangular(_dev(T), cp.ones(3))


@pytest.mark.gpu
def test_factorized(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy.sparse import linalg as spla
    h = _nonsym(20, 16)
    solve = spla.factorized(_dev(h))
    for seed in (1, 2):
        b = np.random.default_rng(seed).standard_normal(20)
        np.testing.assert_allclose(_get(solve(cp.asarray(b))), np.linalg.solve(h.toarray(), b),
                                   rtol=1e-8)


@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg(cp, largest):
    from cuarray.scipy.sparse import linalg as spla
    h = _spd(60, 20)
    X0 = np.random.default_rng(21).standard_normal((60, 3))
    w, X = spla.lobpcg(_dev(h), cp.asarray(X0), largest=largest, tol=1e-9, maxiter=200)
    ref = np.linalg.eigvalsh(h.toarray())
    ref = ref[-3:] if largest else ref[:3]
    np.testing.assert_allclose(np.sort(_get(w)), np.sort(ref), rtol=1e-7)
    Xh = _get(X)
    np.testing.assert_allclose(h @ Xh, Xh * _get(w), atol=1e-6)
    Bh = ssp.diags(np.linspace(1, 2, 60)).tocsr()
    w, X = spla.lobpcg(_dev(h), cp.asarray(X0), B=_dev(Bh), largest=largest, tol=1e-9,
                       maxiter=300)
    import scipy.linalg
    ref = scipy.linalg.eigh(h.toarray(), Bh.toarray(), eigvals_only=True)
    ref = ref[-3:] if largest else ref[:3]
    np.testing.assert_allclose(np.sort(_get(w)), np.sort(ref), rtol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32])
def test_splu(gpu_cp, dtype):
    import warnings
    cp = gpu_cp
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import linalg as spla
    h = _nonsym(30, 22).astype(dtype).tocsc()
    lu = spla.splu(sparse.csc_matrix(h))
    assert lu.shape == (30, 30) and isinstance(lu, spla.SuperLU)
    b = np.random.default_rng(23).standard_normal((30, 2)).astype(dtype)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    for trans, M in (("N", h), ("T", h.T), ("H", h.conj().T)):
        x = lu.solve(cp.asarray(b), trans=trans)
        np.testing.assert_allclose(M.toarray() @ _get(x), b, rtol=tol, atol=tol)
    L, U = lu.L, lu.U
    assert L.format == U.format == "csc"
    n = 30
    Pr = np.zeros((n, n))
    Pr[_get(lu.perm_r), np.arange(n)] = 1
    Pc = np.zeros((n, n))
    Pc[np.arange(n), _get(lu.perm_c)] = 1
    np.testing.assert_allclose(Pr @ h.toarray() @ Pc, L.toarray().get() @ U.toarray().get(),
                               rtol=tol, atol=tol)
    assert lu.nnz == L.nnz + U.nnz
    with pytest.warns(sparse.SparseEfficiencyWarning):
        spla.splu(sparse.csr_matrix(h))
    with pytest.raises(RuntimeError, match="singular"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            spla.splu(sparse.csc_matrix(ssp.csc_matrix((3, 3))))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_bicgstab(cp, dtype):
    from cuarray.scipy.sparse import linalg as spla
    n = 30
    h = _nonsym(n, 21).astype(dtype)
    rng = np.random.default_rng(22)
    b = rng.standard_normal(n).astype(dtype)
    if np.dtype(dtype).kind == "c":
        b = b + 1j * rng.standard_normal(n)
    want = np.linalg.solve(h.toarray().astype(np.complex128), b)
    tol = 1e-4 if dtype == np.float32 else 1e-8
    rtol = 1e-5 if dtype == np.float32 else 1e-11
    x, info = spla.bicgstab(_dev(h), cp.asarray(b), rtol=rtol)
    assert info == 0 and x.dtype == dtype and x.shape == (n,)
    np.testing.assert_allclose(_get(x), want, rtol=tol, atol=tol)
    # x0, a preconditioner, a callback per iteration: as SciPy's
    Minv = ssp.diags(1 / h.diagonal()).tocsr()
    seen, seen_sp = [], []
    x0 = np.ones(n, dtype=dtype)
    x, info = spla.bicgstab(_dev(h), cp.asarray(b), x0=cp.asarray(x0), rtol=rtol,
                            M=_dev(Minv), callback=lambda xk: seen.append(_get(xk).copy()))
    xs, info_s = sspla.bicgstab(h, b, x0=x0, rtol=rtol, M=Minv, callback=seen_sp.append)
    assert info == info_s == 0 and abs(len(seen) - len(seen_sp)) <= 1 and seen
    np.testing.assert_allclose(_get(x), xs, rtol=tol, atol=tol)
    # a LinearOperator and a dense A give the same solve
    A_op = spla.aslinearoperator(_dev(h))
    x, info = spla.bicgstab(A_op, cp.asarray(b), rtol=rtol)
    assert info == 0
    np.testing.assert_allclose(_get(x), want, rtol=tol, atol=tol)
    x, info = spla.bicgstab(_dev(h), cp.asarray(b).reshape(n, 1), rtol=rtol)
    assert info == 0 and x.shape == (n,)
    np.testing.assert_allclose(_get(x), want, rtol=tol, atol=tol)
    # maxiter runs out: info is the iteration count, as SciPy's
    x, info = spla.bicgstab(_dev(h), cp.asarray(b), rtol=1e-30, maxiter=2)
    assert info == 2 == sspla.bicgstab(h, b, rtol=1e-30, maxiter=2)[1]
    # atol alone decides: a loose atol stops at once from the exact solution
    exact = want if np.dtype(dtype).kind == "c" else want.real
    x, info = spla.bicgstab(_dev(h), cp.asarray(b), x0=cp.asarray(exact.astype(dtype)),
                            rtol=0.0, atol=1e-2)
    assert info == 0
    x, info = spla.bicgstab(_dev(h), cp.zeros(n, dtype=dtype))
    assert info == 0 and not _get(x).any()


def test_bicgstab_breakdown_and_errors(cp):
    from cuarray.scipy.sparse import linalg as spla
    n = 6
    b = np.arange(1.0, n + 1)
    # A = 0: the first A p is zero, SciPy's breakdown code -11
    zero = ssp.csr_matrix((n, n))
    x, info = spla.bicgstab(_dev(zero), cp.asarray(b))
    assert info == sspla.bicgstab(zero, b)[1] == -11
    h = _nonsym(n, 3)
    with pytest.raises(ValueError, match="atol"):
        spla.bicgstab(_dev(h), cp.asarray(b), atol=-1.0)
    with pytest.raises(ValueError, match="square"):
        spla.bicgstab(cp.ones((n, n + 1)), cp.asarray(b))
    with pytest.raises(ValueError, match="shapes"):
        spla.bicgstab(_dev(h), cp.ones(n + 1))
    with pytest.raises(ValueError, match="shapes"):
        spla.bicgstab(_dev(h), cp.asarray(b), x0=cp.ones(n + 2))
    with pytest.raises(ValueError, match="preconditioner"):
        spla.bicgstab(_dev(h), cp.asarray(b), M=cp.eye(n + 1))
    with pytest.raises(TypeError):  # rtol and the rest are keyword-only, as SciPy's
        spla.bicgstab(_dev(h), cp.asarray(b), None, 1e-5)
    with pytest.raises(TypeError):
        sspla.bicgstab(h, b, None, 1e-5)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_bicgstab_dense(gpu_cp, dtype):
    cp = gpu_cp
    from cuarray.scipy.sparse import linalg as spla
    n = 24
    h = _nonsym(n, 31).toarray().astype(dtype)
    b = np.random.default_rng(32).standard_normal(n).astype(dtype)
    rtol = 1e-5 if dtype == np.complex64 else 1e-11
    tol = 1e-3 if dtype == np.complex64 else 1e-8
    x, info = spla.bicgstab(cp.asarray(h), cp.asarray(b), rtol=rtol,
                            M=cp.asarray(np.diag(1 / np.diag(h))))
    xs, info_s = sspla.bicgstab(h, b, rtol=rtol, M=np.diag(1 / np.diag(h)))
    assert info == info_s == 0 and x.dtype == dtype
    np.testing.assert_allclose(_get(x), xs, rtol=tol, atol=tol)
    np.testing.assert_allclose(_get(x), np.linalg.solve(h, b), rtol=tol, atol=tol)
