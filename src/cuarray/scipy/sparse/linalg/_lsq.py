"""Iterative least squares (cuarray versions of `scipy.sparse.linalg.lsqr` and `lsmr`):
Golub-Kahan bidiagonalization with Paige and Saunders' (LSQR) and Fong and Saunders'
(LSMR) recurrences, returning SciPy's tuples.

The vectors stay on the GPU; each iteration reads two norms (and LSMR the norm of x) on
the host, where the scalar recurrences run.
"""
import numpy

from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse.linalg._interface import aslinearoperator



def _stop_code(istop, at_limit, test1, test2, test3, t1, rtol, atol, ctol):
    """lsqr's and lsmr's stopping rule (SciPy's istop codes): the last test that holds wins,
    so the order below is the codes' priority."""
    if at_limit:
        istop = 7
    if 1 + test3 <= 1:
        istop = 6
    if 1 + test2 <= 1:
        istop = 5
    if 1 + t1 <= 1:
        istop = 4
    if test3 <= ctol:
        istop = 3
    if test2 <= atol:
        istop = 2
    if test1 <= rtol:
        istop = 1
    return istop

def _norm(x):
    from cuarray.linalg import norm
    return float(norm(x))


def _sym_ortho(a, b):
    """(c, s, r) of the Givens rotation with [c s; -s c] [a; b] = [r; 0], stably."""
    if b == 0:
        return numpy.sign(a), 0.0, abs(a)
    if a == 0:
        return 0.0, numpy.sign(b), abs(b)
    if abs(b) > abs(a):
        tau = a / b
        s = numpy.sign(b) / numpy.sqrt(1 + tau * tau)
        return s * tau, s, b / s
    tau = b / a
    c = numpy.sign(a) / numpy.sqrt(1 + tau * tau)
    return c, c * tau, a / c


def _setup(A, b, x0, name):
    """(A, b, x, u, beta, bnorm): the operator, b as a vector, the start x, and
    u = b - A x with its norm."""
    A = aslinearoperator(A)
    if not isinstance(b, ndarray):
        raise not_device_error(name, b, "cuarray.scipy.sparse.linalg.", arg="b")
    m, n = A.shape
    if b.ndim > 1:
        b = b.reshape(-1)
    if b.shape != (m,):
        raise ValueError(f"b must have shape ({m},) to match A {A.shape}")
    dt = numpy.result_type(A.dtype if A.dtype is not None else b.dtype, b.dtype, numpy.float64)
    b = b.astype(dt, copy=False)
    bnorm = _norm(b)
    from cuarray._routines.creation import zeros
    if x0 is None:
        x = zeros(n, dtype=dt)
        u, beta = b, bnorm
    else:
        x = x0.reshape(-1).astype(dt, copy=True)
        u = b - A.matvec(x)
        beta = _norm(u)
    return A, b, x, u, beta, bnorm


def _start(A, u, beta, v0):
    """The Golub-Kahan bidiagonalization's start: (u / beta, v, alpha) with alpha v = A^H u,
    or v = `v0()` and alpha = 0 when beta is 0."""
    if beta > 0:
        u = u * (1.0 / beta)
        v = A.rmatvec(u)
        alpha = _norm(v)
    else:
        v = v0()
        alpha = 0.0
    if alpha > 0:
        v = v * (1.0 / alpha)
    return u, v, alpha


def _step(A, u, v, alpha):
    """One bidiagonalization step: beta u = A v - alpha u, then alpha v = A^H u - beta v
    (each normalised where its norm is positive); (u, v, alpha, beta)."""
    u = A.matvec(v) - alpha * u
    beta = _norm(u)
    if beta > 0:
        u = u * (1.0 / beta)
        v = A.rmatvec(u) - beta * v
        alpha = _norm(v)
        if alpha > 0:
            v = v * (1.0 / alpha)
    return u, v, alpha, beta


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None, show=False,
         calc_var=False, x0=None):
    """Least squares min ||A x - b||^2 + damp^2 ||x||^2 (cuarray version of
    `scipy.sparse.linalg.lsqr`): (x, istop, itn, r1norm, r2norm, anorm, acond, arnorm,
    xnorm, var). `show` prints nothing."""
    from cuarray._routines.creation import zeros
    A, b, x, u, beta, bnorm = _setup(A, b, x0, "lsqr")
    m, n = A.shape
    iter_lim = 2 * n if iter_lim is None else iter_lim
    var = zeros(n, dtype=numpy.float64)
    itn = istop = 0
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    anorm = acond = ddnorm = res2 = xnorm = xxnorm = z = 0.0
    dampsq = damp ** 2
    cs2, sn2 = -1.0, 0.0
    eps = numpy.finfo(numpy.float64).eps
    u, v, alfa = _start(A, u, beta, x.copy)
    w = v.copy()
    rhobar, phibar = alfa, beta
    rnorm = r1norm = r2norm = beta
    arnorm = alfa * beta
    if arnorm == 0:
        return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var
    while itn < iter_lim:
        itn += 1
        last = alfa
        u, v, alfa, beta = _step(A, u, v, alfa)
        if beta > 0:
            anorm = numpy.sqrt(anorm ** 2 + last ** 2 + beta ** 2 + dampsq)
        if damp > 0:
            rhobar1 = numpy.sqrt(rhobar ** 2 + dampsq)
            cs1, sn1 = rhobar / rhobar1, damp / rhobar1
            psi = sn1 * phibar
            phibar = cs1 * phibar
        else:
            rhobar1, psi = rhobar, 0.0
        cs, sn, rho = _sym_ortho(rhobar1, beta)
        theta = sn * alfa
        rhobar = -cs * alfa
        phi = cs * phibar
        phibar = sn * phibar
        tau = sn * phi
        dk = w * (1.0 / rho)
        x = x + (phi / rho) * w
        w = v + (-theta / rho) * w
        ddnorm += _norm(dk) ** 2
        if calc_var:
            var = var + abs(dk) ** 2
        delta = sn2 * rho
        gambar = -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / gambar
        xnorm = numpy.sqrt(xxnorm + zbar ** 2)
        gamma = numpy.sqrt(gambar ** 2 + theta ** 2)
        cs2, sn2 = gambar / gamma, theta / gamma
        z = rhs / gamma
        xxnorm += z ** 2
        acond = anorm * numpy.sqrt(ddnorm)
        res2 += psi ** 2
        rnorm = numpy.sqrt(phibar ** 2 + res2)
        arnorm = alfa * abs(tau)
        r1sq = rnorm ** 2 - dampsq * xxnorm
        r1norm = numpy.sqrt(abs(r1sq)) * (-1 if r1sq < 0 else 1)
        r2norm = rnorm
        test1 = rnorm / bnorm
        test2 = arnorm / (anorm * rnorm + eps)
        test3 = 1.0 / (acond + eps)
        t1 = test1 / (1 + anorm * xnorm / bnorm)
        rtol = btol + atol * anorm * xnorm / bnorm
        istop = _stop_code(istop, itn >= iter_lim, test1, test2, test3, t1, rtol, atol, ctol)
        if istop != 0:
            break
    return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var


def lsmr(A, b, *args, x0=None, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None,
         show=False):
    """Least squares by LSMR (cuarray version of `scipy.sparse.linalg.lsmr`): (x, istop,
    itn, normr, normar, normA, condA, normx). Positional arguments after b follow CuPy's
    order (x0, damp, atol, btol, conlim, maxiter), or SciPy's (damp, atol, btol, conlim,
    maxiter, show) when the first is a number. `show` prints nothing."""
    from cuarray._routines.creation import zeros
    if args:
        scipy_order = not isinstance(args[0], ndarray) and args[0] is not None and \
            numpy.ndim(args[0]) == 0
        names = (("damp", "atol", "btol", "conlim", "maxiter", "show") if scipy_order else
                 ("x0", "damp", "atol", "btol", "conlim", "maxiter"))
        if len(args) > len(names):
            raise TypeError(f"lsmr() takes at most {len(names) + 2} positional arguments")
        given = dict(zip(names, args))
        x0, damp = given.get("x0", x0), given.get("damp", damp)
        atol, btol = given.get("atol", atol), given.get("btol", btol)
        conlim, maxiter = given.get("conlim", conlim), given.get("maxiter", maxiter)
    A, b, x, u, beta, normb = _setup(A, b, x0, "lsmr")
    m, n = A.shape
    maxiter = min(m, n) if maxiter is None else maxiter
    u, v, alpha = _start(A, u, beta, lambda: zeros(n, dtype=x.dtype))
    itn = istop = 0
    zetabar, alphabar = alpha * beta, alpha
    rho = rhobar = cbar = 1.0
    sbar = 0.0
    h = v.copy()
    hbar = zeros(n, dtype=x.dtype)
    betadd, betad, rhodold, tautildeold, thetatilde, zeta, d = beta, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0
    normA2 = alpha * alpha
    maxrbar, minrbar = 0.0, 1e100
    normA, condA, normx = numpy.sqrt(normA2), 1.0, 0.0
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    normr, normar = beta, alpha * beta
    if normar == 0:
        return x, istop, itn, normr, normar, normA, condA, normx
    if normb == 0:
        return x * 0, istop, itn, normr, normar, normA, condA, normx
    while itn < maxiter:
        itn += 1
        u, v, alpha, beta = _step(A, u, v, alpha)
        chat, shat, alphahat = _sym_ortho(alphabar, damp)
        rhoold = rho
        c, s, rho = _sym_ortho(alphahat, beta)
        thetanew = s * alpha
        alphabar = c * alpha
        rhobarold, zetaold = rhobar, zeta
        thetabar = sbar * rho
        rhotemp = cbar * rho
        cbar, sbar, rhobar = _sym_ortho(cbar * rho, thetanew)
        zeta = cbar * zetabar
        zetabar = -sbar * zetabar
        hbar = h + hbar * (-(thetabar * rho / (rhoold * rhobarold)))
        x = x + (zeta / (rho * rhobar)) * hbar
        h = v + h * (-(thetanew / rho))
        betaacute = chat * betadd
        betacheck = -shat * betadd
        betahat = c * betaacute
        betadd = -s * betaacute
        thetatildeold = thetatilde
        ctildeold, stildeold, rhotildeold = _sym_ortho(rhodold, thetabar)
        thetatilde = stildeold * rhobar
        rhodold = ctildeold * rhobar
        betad = -stildeold * betad + ctildeold * betahat
        tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold
        taud = (zeta - thetatilde * tautildeold) / rhodold
        d += betacheck * betacheck
        normr = numpy.sqrt(d + (betad - taud) ** 2 + betadd * betadd)
        normA2 += beta * beta
        normA = numpy.sqrt(normA2)
        normA2 += alpha * alpha
        maxrbar = max(maxrbar, rhobarold)
        if itn > 1:
            minrbar = min(minrbar, rhobarold)
        condA = max(maxrbar, rhotemp) / min(minrbar, rhotemp)
        normar = abs(zetabar)
        normx = _norm(x)
        test1 = normr / normb
        test2 = normar / (normA * normr) if normA * normr != 0 else numpy.inf
        test3 = 1.0 / condA
        t1 = test1 / (1 + normA * normx / normb)
        rtol = btol + atol * normA * normx / normb
        istop = _stop_code(istop, itn >= maxiter, test1, test2, test3, t1, rtol, atol, ctol)
        if istop > 0:
            break
    return x, istop, itn, normr, normar, normA, condA, normx
