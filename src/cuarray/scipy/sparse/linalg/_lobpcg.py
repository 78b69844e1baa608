"""LOBPCG, the locally optimal block preconditioned conjugate gradient eigensolver
(cuarray version of `scipy.sparse.linalg.lobpcg`).

The blocks (n x k) and their products with A and B stay on the GPU. Each iteration
reads the small Gram matrices of the search space [X, W, P] (at most 3k x 3k) and solves
their generalized eigenproblem on the host, as SciPy does with LAPACK.
"""
import warnings

import numpy

from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.linalg._products import dot


def _operator(A):
    """A function applying A to an (n, k) block, or None for A None."""
    if A is None:
        return None
    if callable(A) and not hasattr(A, "shape"):
        return A
    from cuarray.scipy.sparse.linalg._interface import aslinearoperator
    op = aslinearoperator(A)
    return op.matmat


def _host_gram(U, V):
    """U^H V as a host array (synchronises)."""
    return dot(U.conj().T, V).get()


def _b_orthonormalize(X, BX):
    """(X T, BX T, T) with (X T)^H B (X T) = I, T from the Cholesky factor of the Gram
    matrix; None when the block is numerically rank deficient."""
    from cuarray._core.transfer import asarray
    G = _host_gram(X, BX if BX is not None else X)
    G = (G + G.conj().T) / 2
    try:
        L = numpy.linalg.cholesky(G)
    except numpy.linalg.LinAlgError:
        return None
    Linv = asarray(numpy.linalg.inv(L).conj().T.astype(X.dtype))
    X = dot(X, Linv)
    BX = dot(BX, Linv) if BX is not None else None
    return X, BX, Linv


def _project(W, Y, BY):
    """W with its B-projection onto the constraint block Y removed."""
    from cuarray._core.transfer import asarray
    G = _host_gram(Y, BY)
    C = numpy.linalg.solve(G, _host_gram(BY, W))
    return W - dot(Y, asarray(C.astype(W.dtype)))


def lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True,
           verbosityLevel=0, retLambdaHistory=False, retResidualNormsHistory=False,
           restartControl=20):
    """The k largest (or smallest) eigenpairs of A x = lambda B x for Hermitian A and
    positive definite B, from the initial block X (n, k) (cuarray version of
    `scipy.sparse.linalg.lobpcg`). Returns (lambda, X) as cuarray arrays, plus the
    histories asked for (host lists). `verbosityLevel` and `restartControl` are accepted
    and unused; a search space that loses rank drops its P block for the step."""
    from cuarray._core.transfer import asarray
    if not isinstance(X, ndarray):
        raise not_device_error("lobpcg", X, "cuarray.scipy.sparse.linalg.", arg="X")
    if X.ndim == 1:
        X = X.reshape(-1, 1)
    n, k = X.shape
    if k > n:
        raise ValueError(f"The shape {X.shape} of the initial approximations is not "
                         "suitable: the number of vectors exceeds the size of the matrix")
    apply_A, apply_B, apply_M = _operator(A), _operator(B), _operator(M)
    dt = numpy.result_type(X.dtype, numpy.float32)
    X = X.astype(dt)
    maxiter = 20 if maxiter is None else maxiter
    tol = numpy.sqrt(1e-15) * n if tol is None else tol
    BY = None
    if Y is not None:
        BY = apply_B(Y) if apply_B else Y
        X = _project(X, Y, BY)
    BX = apply_B(X) if apply_B else None
    res = _b_orthonormalize(X, BX)
    if res is None:
        raise ValueError("the initial block X is linearly dependent")
    X, BX, _ = res
    AX = apply_A(X)
    w, V = numpy.linalg.eigh(_hermitian(_host_gram(X, AX)))
    order = numpy.argsort(w)[::-1] if largest else numpy.argsort(w)
    lam, V = w[order], V[:, order]
    Vd = asarray(V.astype(dt))
    X, AX = dot(X, Vd), dot(AX, Vd)
    BX = dot(BX, Vd) if BX is not None else None
    P = AP = BP = None
    lam_hist, res_hist = [lam.copy()], []
    norms = numpy.full(k, numpy.inf)
    for _ in range(maxiter):
        BXl = BX if BX is not None else X
        R = AX - BXl * asarray(lam.astype(dt))
        norms = _column_norms(R)
        res_hist.append(norms)
        active = norms > tol
        if not active.any():
            break
        idx = asarray(numpy.nonzero(active)[0])
        W = R[:, idx] if not active.all() else R
        if apply_M is not None:
            W = apply_M(W)
        if Y is not None:
            W = _project(W, Y, BY)
        BW = apply_B(W) if apply_B else None
        res = _b_orthonormalize(W, BW)
        if res is None:
            break
        W, BW, _ = res
        AW = apply_A(W)
        blocks = [(X, AX, BX), (W, AW, BW)]
        if P is not None:
            Pa = (P[:, idx], AP[:, idx], None if BP is None else BP[:, idx]) \
                if not active.all() else (P, AP, BP)
            res = _b_orthonormalize(Pa[0], Pa[2])
            if res is not None:
                Pn, BPn, T = res  # the same transform keeps AP consistent with P
                blocks.append((Pn, dot(Pa[1], T), BPn))
        step = _rayleigh_ritz(blocks, k, largest, dt)
        if step is None and len(blocks) == 3:
            step = _rayleigh_ritz(blocks[:2], k, largest, dt)
            blocks = blocks[:2]
        if step is None:
            break
        lam, C = step
        sizes = [b[0].shape[1] for b in blocks]
        cuts = numpy.cumsum([0] + sizes)
        parts = [asarray(numpy.ascontiguousarray(C[cuts[j]:cuts[j + 1]]).astype(dt))
                 for j in range(len(blocks))]
        P = sum(dot(b[0], c) for b, c in zip(blocks[1:], parts[1:]))
        AP = sum(dot(b[1], c) for b, c in zip(blocks[1:], parts[1:]))
        BP = (sum(dot(b[2], c) for b, c in zip(blocks[1:], parts[1:]))
              if BX is not None else None)
        X = dot(X, parts[0]) + P
        AX = dot(AX, parts[0]) + AP
        BX = dot(BX, parts[0]) + BP if BX is not None else None
        lam_hist.append(lam.copy())
    else:
        if maxiter:
            warnings.warn(f"Exited at iteration {maxiter} with accuracies \n{norms}\nnot "
                          f"reaching the requested tolerance {tol}.", UserWarning,
                          stacklevel=2)
    out = (asarray(lam.astype(numpy.dtype(dt).char.lower() if numpy.dtype(dt).kind == "c"
                              else dt)), X)
    if retLambdaHistory:
        out = out + (lam_hist,)
    if retResidualNormsHistory:
        out = out + (res_hist,)
    return out


def _hermitian(G):
    return (G + G.conj().T) / 2


def _column_norms(R):
    """Host float64 norms of R's columns."""
    from cuarray._core._ops import multiply, conjugate
    from cuarray._core._reductions import sum as _sum
    return numpy.sqrt(numpy.abs(_sum(multiply(conjugate(R), R), axis=0).get()))


def _rayleigh_ritz(blocks, k, largest, dt):
    """(k Ritz values, coefficients) of the search space `blocks`, or None when its Gram
    matrix is not positive definite."""
    S = [b[0] for b in blocks]
    AS = [b[1] for b in blocks]
    BS = [b[2] if b[2] is not None else b[0] for b in blocks]
    gA = numpy.block([[_host_gram(si, aj) for aj in AS] for si in S])
    gB = numpy.block([[_host_gram(si, bj) for bj in BS] for si in S])
    gA, gB = _hermitian(gA), _hermitian(gB)
    try:
        L = numpy.linalg.cholesky(gB)
    except numpy.linalg.LinAlgError:
        return None
    Li = numpy.linalg.inv(L)
    w, V = numpy.linalg.eigh(_hermitian(Li @ gA @ Li.conj().T))
    order = numpy.argsort(w)[::-1][:k] if largest else numpy.argsort(w)[:k]
    return w[order], Li.conj().T @ V[:, order]
