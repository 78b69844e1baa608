"""Partial eigen- and singular value decompositions (cuarray versions of
`scipy.sparse.linalg.eigsh` and `svds`) by thick-restart Lanczos.

The Lanczos vectors live on the GPU as the rows of one array and are fully
reorthogonalized (two Gram-Schmidt passes, each a pair of matrix-vector products). The
small projected matrix (at most ncv x ncv) is solved on the host from the scalars each
step reads anyway, as ARPACK does.
"""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.linalg._products import dot
from cuarray.scipy.sparse.linalg._interface import LinearOperator, aslinearoperator


def _norm(x):
    from cuarray.linalg import norm
    return float(norm(x))


def _select(w, k, which):
    if which == "LM":
        order = numpy.argsort(-abs(w), kind="stable")
    elif which == "LA":
        order = numpy.argsort(-w, kind="stable")
    else:  # SA
        order = numpy.argsort(w, kind="stable")
    return order[:k]


class _Lanczos:
    """The state of a thick-restart Lanczos run on Hermitian A."""

    def __init__(self, A, n, ncv, dtype, v0):
        from cuarray._routines.creation import zeros
        self.A, self.n, self.ncv, self.dtype = A, n, ncv, dtype
        self.V = zeros((ncv, n), dtype=dtype)
        self.alpha = numpy.zeros(ncv)
        self.beta = numpy.zeros(ncv)
        self.arrow = numpy.zeros(0)
        self.V[0] = v0 * (1.0 / _norm(v0))
        self.u, self.beta_last = None, 0.0

    def _orthogonalize(self, w, j):
        Vj = self.V[:j + 1]
        h = dot(Vj.conj(), w)
        w = w - dot(h, Vj)
        h2 = dot(Vj.conj(), w)
        w = w - dot(h2, Vj)
        return w, (h + h2)[j]

    def extend(self, start):
        """Lanczos steps start .. ncv-1, leaving the residual in `u`."""
        for j in range(start, self.ncv):
            w = self.A.matvec(self.V[j])
            w, a = self._orthogonalize(w, j)
            self.alpha[j] = float(a.real)
            b = _norm(w)
            if j + 1 < self.ncv:
                if b <= numpy.finfo(numpy.float64).eps * max(1.0, abs(self.alpha[j])):
                    # An invariant subspace: continue from a fresh orthogonal direction.
                    w, _ = self._orthogonalize(_random(self.n, self.dtype, j + 1), j)
                    self.V[j + 1] = w * (1.0 / _norm(w))
                    self.beta[j] = 0.0
                else:
                    self.V[j + 1] = w * (1.0 / b)
                    self.beta[j] = b
            else:
                self.u, self.beta_last = w, b

    def projected(self, k):
        T = numpy.diag(self.alpha)
        for j in range(k, self.ncv - 1):
            T[j, j + 1] = T[j + 1, j] = self.beta[j]
        if k:
            T[:k, k] = T[k, :k] = self.arrow
        return T

    def restart(self, S, w, idx, k):
        from cuarray._core.transfer import asarray
        Y = asarray(numpy.ascontiguousarray(S[:, idx].T).astype(self.dtype))
        self.V[:k] = dot(Y, self.V)
        self.alpha[:k] = w[idx]
        self.arrow = self.beta_last * S[-1, idx]
        if self.beta_last > 0:
            self.V[k] = self.u * (1.0 / self.beta_last)
        else:
            u, _ = self._orthogonalize(_random(self.n, self.dtype, k), k - 1)
            self.V[k] = u * (1.0 / _norm(u))


def _random(n, dtype, seed):
    import cuarray.random as cr
    v = cr.RandomState(seed).standard_normal(n)
    return v.astype(dtype)


def eigsh(a, k=6, *, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True):
    """k eigenvalues (ascending) and eigenvectors of Hermitian `a` (cuarray version of
    `scipy.sparse.linalg.eigsh`); `which` is 'LM', 'LA' or 'SA', as in CuPy. Without
    convergence in `maxiter` restarts the current approximations are returned (CuPy's
    behaviour; SciPy raises ArpackNoConvergence)."""
    vals, Xt = _eigsh(a, k, which, v0, ncv, maxiter, tol)
    return (vals, Xt.T) if return_eigenvectors else vals


def _eigsh(a, k, which, v0, ncv, maxiter, tol):
    """(eigenvalues, eigenvectors as the rows of a k x n array)."""
    A = a if isinstance(a, LinearOperator) else aslinearoperator(a)
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix (shape: {A.shape})")
    n = A.shape[0]
    if k <= 0:
        raise ValueError(f"k must be greater than 0 (actual: {k})")
    if k >= n:
        raise ValueError(f"k must be smaller than n (actual: {k})")
    if which not in ("LM", "LA", "SA"):
        raise ValueError(f"which must be 'LM','LA'or'SA' (actual: {which})")
    ncv = min(max(2 * k, k + 32), n - 1) if ncv is None else int(ncv)
    if not k < ncv < n:
        raise ValueError(f"ncv must be k<ncv<n (k: {k}, ncv: {ncv}, n: {n})")
    maxiter = 10 * n if maxiter is None else maxiter
    dt = numpy.dtype(A.dtype if A.dtype is not None else numpy.float64)
    if dt.kind not in "fc":
        dt = numpy.dtype(numpy.float64)
    if tol == 0:
        tol = numpy.finfo(dt).eps
    if v0 is None:
        v0 = _random(n, dt, 0)
    elif not isinstance(v0, ndarray):
        raise TypeError("v0 must be a cuarray array")
    run = _Lanczos(A, n, ncv, dt, v0.reshape(-1).astype(dt))
    run.extend(0)
    kk = 0
    for _ in range(maxiter):
        w, S = numpy.linalg.eigh(run.projected(kk))
        idx = _select(w, k, which)
        resid = run.beta_last * abs(S[-1, idx])
        if numpy.all(resid <= tol * numpy.maximum(abs(w[idx]), numpy.finfo(dt).tiny)):
            break
        run.restart(S, w, idx, k)
        kk = k
        run.extend(k)
    order = idx[numpy.argsort(w[idx], kind="stable")]
    from cuarray._core.transfer import asarray
    Y = asarray(numpy.ascontiguousarray(S[:, order].T).astype(dt))
    return w[order], dot(Y, run.V)


def svds(A, k=6, ncv=None, tol=0, which="LM", maxiter=None, return_singular_vectors=True):
    """k largest singular values (ascending) and vectors of A (cuarray version of
    `scipy.sparse.linalg.svds`), from `eigsh` of A^H A (or A A^H when A is wide).
    `return_singular_vectors` may be True, False, 'u' or 'vh'."""
    A = aslinearoperator(A)
    m, n = A.shape
    if which != "LM":
        raise ValueError("which must be 'LM'")
    if k <= 0 or k >= min(m, n):
        raise ValueError(f"k must be between 1 and min(A.shape) - 1, got {k}")
    tall = m >= n
    dt = numpy.dtype(A.dtype if A.dtype is not None else numpy.float64)
    if dt.kind not in "fc":
        dt = numpy.dtype(numpy.float64)
    if tall:
        G = LinearOperator((n, n), matvec=lambda x: A.rmatvec(A.matvec(x)), dtype=dt)
    else:
        G = LinearOperator((m, m), matvec=lambda x: A.matvec(A.rmatvec(x)), dtype=dt)
    gn = G.shape[0]
    if ncv is None:
        ncv = min(max(2 * k, k + 32), gn - 1)
    w, Xt = _eigsh(G, k, "LA", None, ncv, maxiter, tol)
    s = numpy.sqrt(numpy.maximum(w, 0.0))
    from cuarray._core.transfer import asarray
    from cuarray._routines.joining import stack
    rdt = numpy.dtype(dt.char.lower()) if dt.kind == "c" else dt
    sv = asarray(s.astype(rdt))
    if not return_singular_vectors:
        return sv
    inv = numpy.where(s > 0, 1.0 / numpy.where(s > 0, s, 1.0), 0.0)
    # The other side's vectors: A v_i / s_i (or A^H u_i / s_i), one product each.
    f = A.matvec if tall else A.rmatvec
    other = stack([f(Xt[i]) * float(inv[i]) for i in range(k)], axis=1)
    own = stack([Xt[i] for i in range(k)], axis=1)
    u, v = (other, own) if tall else (own, other)
    want = return_singular_vectors
    return (u if want in (True, "u") else None, sv,
            stack([v[:, i].conj() for i in range(k)]) if want in (True, "vh") else None)
