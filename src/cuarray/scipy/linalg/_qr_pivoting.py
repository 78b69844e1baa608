"""QR with column pivoting (cuarray version of `scipy.linalg.qr(..., pivoting=True)`).

cuSOLVER has no geqp3, so this is LAPACK's algorithm written with cuarray's array
operations: at step j the remaining column of largest norm is swapped into place (one
index read by the host per step), a Householder reflector H = I - tau v v^H with v[0] = 1
and beta = -sign(alpha) |x| (LAPACK's larfg convention, so that R's signs match SciPy's)
zeroes it below the diagonal and updates the trailing matrix. Q is formed by applying the
reflectors to the identity in reverse order. Column norms are recomputed exactly each
step (LAPACK downdates them), so pivots agree where no two norms tie to rounding.
"""
import numpy

import cuarray as cp


def qr_pivoting(a, mode):
    """(Q, R, P) / (R, P) / ((H, tau), R, P) for a 2-D array already in LAPACK's dtype."""
    m, n = a.shape
    k = min(m, n)
    A = a.copy()
    perm = numpy.arange(n)
    vs, taus = [], []
    for j in range(k):
        sub = A[j:, j:]
        norms = cp.sum(cp.abs(sub) ** 2, axis=0)
        p = j + int(cp.argmax(norms))
        if p != j:
            A[:, [j, p]] = A[:, [p, j]]
            perm[[j, p]] = perm[[p, j]]
        x = A[j:, j]
        alpha = x[0]
        normx = cp.sqrt(cp.sum(cp.abs(x) ** 2))
        re = alpha.real if A.dtype.kind == "c" else alpha
        beta = -cp.where(re >= 0, 1.0, -1.0) * normx
        # LAPACK's larfg leaves x alone (tau = 0) when nothing lies below its first entry
        below = cp.sum(cp.abs(x[1:]) ** 2) if x.shape[0] > 1 else cp.zeros((), A.real.dtype)
        zero = below == 0
        if A.dtype.kind == "c":
            zero = zero & (alpha.imag == 0)
        safe_beta = cp.where(zero, 1.0, beta)
        v = x / cp.where(zero, 1.0, alpha - safe_beta)
        v[0] = 1
        tau = cp.where(zero, 0.0, (safe_beta - alpha) / safe_beta)
        if A.dtype.kind == "c":
            tau = tau.astype(A.dtype)
        # H^H applied from the left: A -= conj(tau) v (v^H A)
        w = v.conj() @ A[j:, j:]
        A[j:, j:] -= (tau.conj() * v)[:, None] * w[None, :]
        A[j, j] = cp.where(zero, alpha, safe_beta)
        A[j + 1:, j] = 0
        vs.append(v)
        taus.append(tau)
    piv = cp.asarray(perm.astype(numpy.int32))
    if mode == "r":
        return cp.triu(A), piv
    if mode == "raw":
        h = A.copy()
        for j, v in enumerate(vs):
            h[j + 1:, j] = v[1:]
        tau = cp.stack(taus) if taus else cp.empty(0, dtype=A.dtype)
        return (h, tau), cp.triu(A[:k, :]), piv
    cols = m if mode == "full" else k
    Q = cp.eye(m, cols, dtype=A.dtype)
    for j in range(k - 1, -1, -1):
        v, tau = vs[j], taus[j]
        w = v.conj() @ Q[j:, :]
        Q[j:, :] -= (tau * v)[:, None] * w[None, :]
    R = cp.triu(A) if mode == "full" else cp.triu(A[:k, :])
    return Q, R, piv
