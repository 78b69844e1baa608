"""More Krylov solvers for square systems (cuarray versions of `scipy.sparse.linalg.cgs`,
`bicgstab`, `gmres` and `minres`), with SciPy's arguments and return values (x, info).

Vectors stay on the GPU; the scalars that steer each iteration (inner products, norms)
are read on the host, a synchronisation each, as in SciPy's and CuPy's solvers. GMRES
keeps its small Hessenberg matrix and Givens rotations on the host.
"""
import numpy

from cuarray.scipy.sparse.linalg._iterative import _make_system, _norm, axpy


def _inner(x, y):
    """x^H y as a Python number (synchronises)."""
    from cuarray.linalg._products import vdot
    v = complex(vdot(x, y)) if x.dtype.kind == "c" else float(vdot(x, y))
    return v


def _setup(A, M, x0, b, rtol, atol, maxiter, name):
    """(A, M, x, b, norm of b, absolute tolerance, maxiter) of cgs, bicgstab and gmres:
    SciPy's checks of `atol` and its default of 10 n iterations."""
    A, M, x, b = _make_system(A, M, x0, b, name)
    if atol is None:
        atol = 0.0
    if isinstance(atol, str) or atol < 0:
        raise ValueError(f"'scipy.sparse.linalg.{name}' called with invalid `atol`={atol}; "
                         "if set, `atol` must be a real, non-negative number.")
    bnrm2 = float(_norm(b))
    maxiter = b.shape[0] * 10 if maxiter is None else maxiter
    return A, M, x, b, bnrm2, max(float(atol), float(rtol) * bnrm2), maxiter


def _residual(A, x, x0, b):
    """The starting residual b - A x (b itself when no x0 was given: x is 0)."""
    return b - A.matvec(x) if x0 is not None else b.copy()


def _rho(rtilde, r, atol, rhotol):
    """(info, rho) at the top of a cgs/bicgstab iteration: info 0 when r has converged,
    -10 when rho = rtilde^H r breaks down, else None and rho."""
    if float(_norm(r)) < atol:
        return 0, None
    rho = _inner(rtilde, r)
    if abs(rho) < rhotol:
        return -10, None
    return None, rho


def cgs(A, b, x0=None, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None, *,
        tol=None):
    """Conjugate Gradient Squared for A x = b (cuarray version of
    `scipy.sparse.linalg.cgs`): info 0 on convergence, the iteration count when
    `maxiter` ran out, -10/-11 on a breakdown (SciPy's codes)."""
    if tol is not None:
        rtol = tol
    A, M, x, b, bnrm2, atol, maxiter = _setup(A, M, x0, b, rtol, atol, maxiter, "cgs")
    if bnrm2 == 0:
        return b, 0
    rhotol = numpy.finfo(x.dtype).eps ** 2
    r = _residual(A, x, x0, b)
    rtilde = r.copy()
    rho_prev = p = q = u = None
    for iteration in range(maxiter):
        info, rho_cur = _rho(rtilde, r, atol, rhotol)
        if info is not None:
            return x, info
        if iteration > 0:
            beta = rho_cur / rho_prev
            u = r + beta * q
            p = u + beta * (q + beta * p)
        else:
            p, u = r.copy(), r.copy()
        vhat = A.matvec(M.matvec(p))
        rv = _inner(rtilde, vhat)
        if rv == 0:
            return x, -11
        alpha = rho_cur / rv
        q = u - alpha * vhat
        uhat = M.matvec(u + q)
        x += alpha * uhat
        r -= alpha * A.matvec(uhat)
        rho_prev = rho_cur
        if callback is not None:
            callback(x)
    return x, maxiter


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """BIConjugate Gradient STABilized iteration for A x = b (cuarray version of
    `scipy.sparse.linalg.bicgstab`): info 0 on convergence, the iteration count when
    `maxiter` ran out, -10 (rho) or -11 (omega) on a breakdown (SciPy's codes)."""
    A, M, x, b, bnrm2, atol, maxiter = _setup(A, M, x0, b, rtol, atol, maxiter, "bicgstab")
    if bnrm2 == 0:
        return b, 0
    # SciPy's breakdown thresholds (eps squared, from the original Fortran).
    rhotol = omegatol = numpy.finfo(x.dtype).eps ** 2
    r = _residual(A, x, x0, b)
    rtilde = r.copy()
    rho_prev = omega = alpha = p = v = None
    for iteration in range(maxiter):
        info, rho = _rho(rtilde, r, atol, rhotol)
        if info is not None:
            return x, info
        if iteration > 0:
            if abs(omega) < omegatol:
                return x, -11
            beta = (rho / rho_prev) * (alpha / omega)
            p = r + beta * (p - omega * v)
        else:
            p = r.copy()
        phat = M.matvec(p)
        v = A.matvec(phat)
        rv = _inner(rtilde, v)
        if rv == 0:
            return x, -11
        alpha = rho / rv
        axpy(-alpha, v, r)  # r is now s, the half-step residual
        if float(_norm(r)) < atol:
            axpy(alpha, phat, x)
            return x, 0
        shat = M.matvec(r)
        t = A.matvec(shat)
        tt = _inner(t, t)
        # t = 0 (SciPy divides by it and goes on with nan): omega 0 is its breakdown, -11
        omega = _inner(t, r) / tt if tt != 0 else 0.0
        axpy(alpha, phat, x)
        axpy(omega, shat, x)
        axpy(-omega, t, r)
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def gmres(A, b, x0=None, rtol=1e-5, atol=0.0, restart=None, maxiter=None, M=None,
          callback=None, callback_type=None, *, tol=None):
    """Restarted GMRES for A x = b (cuarray version of `scipy.sparse.linalg.gmres`), with
    M as a right preconditioner. `maxiter` counts restart cycles; `callback_type` 'x'
    calls callback(x) after each cycle, 'pr_norm' (the default) and 'legacy'
    callback(residual norm / norm(b)) after each inner step.
    """
    from cuarray._core.transfer import asarray
    from cuarray._routines.creation import empty
    from cuarray.linalg._products import dot
    if tol is not None:
        rtol = tol
    if callback_type is None:
        callback_type = "pr_norm"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    A, M, x, b, bnrm2, atol, maxiter = _setup(A, M, x0, b, rtol, atol, maxiter, "gmres")
    if bnrm2 == 0:
        return b, 0
    n = b.shape[0]
    restart = min(20 if restart is None else int(restart), n)
    V = empty((restart + 1, n), dtype=x.dtype)
    cdt = numpy.complex128 if x.dtype.kind == "c" else numpy.float64
    for cycle in range(maxiter):
        r = b - A.matvec(x)
        beta = float(_norm(r))
        if beta <= atol:
            return x, 0
        V[0] = r / beta
        H = numpy.zeros((restart + 1, restart), dtype=cdt)
        cs, sn = numpy.zeros(restart, dtype=cdt), numpy.zeros(restart, dtype=cdt)
        g = numpy.zeros(restart + 1, dtype=cdt)
        g[0] = beta
        k = 0
        resid = beta
        for j in range(restart):
            w = A.matvec(M.matvec(V[j]))
            Vj = V[:j + 1]
            # Classical Gram-Schmidt twice: two matrix-vector products per pass.
            h = dot(Vj.conj(), w)
            w = w - dot(h, Vj)
            h2 = dot(Vj.conj(), w)
            w = w - dot(h2, Vj)
            hcol = (h + h2).get().astype(cdt)
            hn = float(_norm(w))
            H[:j + 1, j] = hcol
            H[j + 1, j] = hn
            for i in range(j):
                t = cs[i] * H[i, j] + sn[i] * H[i + 1, j]
                H[i + 1, j] = -numpy.conj(sn[i]) * H[i, j] + numpy.conj(cs[i]) * H[i + 1, j]
                H[i, j] = t
            a, c = H[j, j], H[j + 1, j]
            d = numpy.hypot(abs(a), abs(c))
            cs[j], sn[j] = (1.0, 0.0) if d == 0 else (a / d, c / d)
            cs[j], sn[j] = numpy.conj(cs[j]), numpy.conj(sn[j])
            H[j, j] = cs[j] * a + sn[j] * c
            H[j + 1, j] = 0
            g[j + 1] = -numpy.conj(sn[j]) * g[j]
            g[j] = cs[j] * g[j]
            k = j + 1
            resid = abs(g[j + 1])
            if callback is not None and callback_type != "x":
                callback(resid / bnrm2)
            if resid <= atol or hn == 0:
                break
            V[j + 1] = w / hn
        y = _back_substitute(H[:k, :k], g[:k])
        y = y if x.dtype.kind == "c" else y.real
        upd = dot(asarray(y.astype(x.dtype)), V[:k])
        x += M.matvec(upd)
        if callback is not None and callback_type == "x":
            callback(x)
        if resid <= atol:
            if float(_norm(b - A.matvec(x))) <= atol:
                return x, 0
    return x, maxiter


def _back_substitute(R, g):
    """y with R y = g for the small upper triangular R (host, k <= restart)."""
    k = R.shape[0]
    y = numpy.zeros(k, dtype=R.dtype)
    for i in range(k - 1, -1, -1):
        s = g[i] - R[i, i + 1:] @ y[i + 1:]
        y[i] = s / R[i, i] if R[i, i] != 0 else 0
    return y


def minres(A, b, x0=None, shift=0.0, tol=None, maxiter=None, M=None, callback=None,
           check=False, *, rtol=1e-5, show=False):
    """MINRES for Hermitian A (cuarray version of `scipy.sparse.linalg.minres`), solving
    (A - shift I) x = b; M must be Hermitian positive definite. Positional arguments
    follow CuPy's order (`tol` is CuPy's name for SciPy's `rtol`); `show` prints
    nothing."""
    if tol is not None:
        rtol = tol
    A, M, x, b = _make_system(A, M, x0, b, "minres")
    n = b.shape[0]
    maxiter = 5 * n if maxiter is None else maxiter
    eps = numpy.finfo(x.dtype).eps
    r1 = _residual(A, x, x0, b)
    y = M.matvec(r1)
    beta1 = _inner(r1, y).real
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    if beta1 == 0:
        return x, 0
    if float(_norm(b)) == 0:
        return b.copy(), 0
    beta1 = numpy.sqrt(beta1)
    if check:
        w = A.matvec(y)
        r2 = A.matvec(w)
        s, t = _inner(w, w), _inner(y, r2)
        if abs(s - t) > (abs(s) + eps) * eps ** (1.0 / 3.0):
            raise ValueError("non-symmetric matrix")
    oldb, beta, dbar, epsln, phibar = 0.0, beta1, 0.0, 0.0, beta1
    rhs1, rhs2, tnorm2, gmax, gmin = beta1, 0.0, 0.0, 0.0, numpy.finfo(numpy.float64).max
    cs, sn = -1.0, 0.0
    from cuarray._routines.creation import zeros
    w = zeros(n, dtype=x.dtype)
    w2 = zeros(n, dtype=x.dtype)
    r2 = r1
    istop, itn = 0, 0
    while itn < maxiter:
        itn += 1
        v = y * (1.0 / beta)
        y = A.matvec(v)
        if shift:
            y = y - shift * v
        if itn >= 2:
            y = y - (beta / oldb) * r1
        alfa = _inner(v, y).real
        y = y - (alfa / beta) * r2
        r1, r2 = r2, y
        y = M.matvec(r2)
        oldb = beta
        beta = _inner(r2, y).real
        if beta < 0:
            raise ValueError("non-symmetric matrix")
        beta = numpy.sqrt(beta)
        tnorm2 += alfa ** 2 + oldb ** 2 + beta ** 2
        if itn == 1 and beta / beta1 <= 10 * eps:
            istop = -1
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        root = numpy.hypot(gbar, dbar)
        gamma = max(numpy.hypot(gbar, beta), eps)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) * (1.0 / gamma)
        x = x + phi * w
        gmax, gmin = max(gmax, gamma), min(gmin, gamma)
        z = rhs1 / gamma
        rhs1 = rhs2 - delta * z
        rhs2 = -epsln * z
        Anorm = numpy.sqrt(tnorm2)
        ynorm = float(_norm(x))
        epsx = Anorm * ynorm * eps
        rnorm = phibar
        test1 = numpy.inf if ynorm == 0 or Anorm == 0 else rnorm / (Anorm * ynorm)
        test2 = numpy.inf if Anorm == 0 else root / Anorm
        Acond = gmax / gmin
        if istop == 0:
            if 1 + test2 <= 1:
                istop = 2
            if 1 + test1 <= 1:
                istop = 1
            if itn >= maxiter:
                istop = 6
            if Acond >= 0.1 / eps:
                istop = 4
            if epsx >= beta1:
                istop = 3
            if test2 <= rtol:
                istop = 2
            if test1 <= rtol:
                istop = 1
        if callback is not None:
            callback(x)
        if istop != 0:
            break
    return x, (maxiter if istop == 6 else 0)
