"""Pole placement by state feedback (cuarray version of `scipy.signal.place_poles`).

The matrices stay on the device: QR, SVD, eigen and linear solves are cuarray.linalg's,
and every branch of an update (a degenerate singular pair, a projection that vanishes) is
taken with `where` on device values, so one iteration of the YT or KNV0 update reads a
single pair of scalars on the host (the convergence test). The requested poles are read
on the host: their pattern (real, conjugate pairs, repetitions) shapes the algorithm."""
import math
import warnings

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.linalg import LinAlgError

__all__ = ["place_poles"]

_SQRT_EPS = math.sqrt(numpy.spacing(1.0))


class Bunch:
    """The result of place_poles: attributes gain_matrix, computed_poles, requested_poles,
    X, rtol, nb_iter (SciPy's Bunch)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __repr__(self):
        return "Bunch(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()) + ")"


def _dev(M):
    M = M if isinstance(M, ndarray) else cuarray.asarray(numpy.asarray(M))
    return M.astype(numpy.result_type(M.dtype, numpy.float64), copy=False)


def _order_host(poles):
    """Real poles ascending, then each pole of negative imaginary part (sorted) followed by
    its conjugate; ValueError when a conjugate is missing."""
    pairs = []
    for p in numpy.sort(poles[numpy.imag(poles) < 0]):
        if numpy.conj(p) in poles:
            pairs.extend((p, numpy.conj(p)))
    ordered = numpy.hstack((numpy.sort(poles[numpy.isreal(poles)]), pairs))
    if poles.shape[0] != ordered.shape[0]:
        raise ValueError("Complex poles must come with their conjugates")
    return ordered


def _order_device(p):
    """The same order for eigenvalues on the device (they come in exact conjugate pairs)."""
    if p.dtype.kind != "c":
        return cuarray.sort(p)
    real = p.imag == 0
    reals = cuarray.sort(p.real[cuarray.flatnonzero(real)]).astype(p.dtype)
    neg = cuarray.sort(p[cuarray.flatnonzero(p.imag < 0)])
    pairs = cuarray.stack([neg, cuarray.conj(neg)], axis=1).ravel()
    return cuarray.concatenate([reals, pairs])


def _valid_inputs(A, B, poles, method, rtol, maxiter):
    poles = cuarray.asnumpy(poles) if isinstance(poles, ndarray) else numpy.asarray(poles)
    if poles.ndim > 1:
        raise ValueError("Poles must be a 1D array like.")
    poles = _order_host(poles)
    if A.ndim > 2:
        raise ValueError("A must be a 2D array/matrix.")
    if B.ndim > 2:
        raise ValueError("B must be a 2D array/matrix")
    if A.shape[0] != A.shape[1]:
        raise ValueError("A must be square")
    if len(poles) > A.shape[0]:
        raise ValueError(f"maximum number of poles is {A.shape[0]} but you asked for "
                         f"{len(poles)}")
    if len(poles) < A.shape[0]:
        raise ValueError(f"number of poles is {len(poles)} but you should provide "
                         f"{A.shape[0]}")
    rank = int(cuarray.linalg.matrix_rank(B))
    for p in poles:
        if numpy.sum(p == poles) > rank:
            raise ValueError("at least one of the requested pole is repeated more than "
                             "rank(B) times")
    if method not in ("KNV0", "YT"):
        raise ValueError("The method keyword must be one of 'YT' or 'KNV0'")
    if method == "KNV0" and not numpy.all(numpy.isreal(poles)):
        raise ValueError("Complex poles are not supported by KNV0")
    if maxiter < 1:
        raise ValueError("maxiter must be at least equal to 1")
    # a negative rtol is allowed: it forces maxiter iterations
    if rtol > 1:
        raise ValueError("rtol can not be greater than 1")
    return poles, rank


def _all_zero(v):
    """numpy.allclose(v, 0) as a device boolean."""
    return cuarray.all(cuarray.abs(v) <= 1e-8)


def _unit(v, scale=1.0):
    return v * (scale / cuarray.linalg.norm(v))


def _last_columns(X, drop, k):
    """The last k columns of the complete Q of X without the columns in drop."""
    keep = [c for c in range(X.shape[1]) if c not in drop]
    Q = cuarray.linalg.qr(X[:, keep], mode="complete")[0]
    return Q[:, Q.shape[1] - k:]


def _knv0(ker, X, j):
    """Kautsky-Nichols-Van Dooren method 0: column j becomes the unit projection onto
    ker[j] of the direction orthogonal to the other columns (unchanged when that
    projection vanishes)."""
    q = _last_columns(X, (j,), 1)[:, 0]
    y = ker[j] @ (ker[j].T @ q)
    X[:, j] = cuarray.where(_all_zero(y), X[:, j], _unit(y))


def _yt_real(ker, Q, X, i, j):
    """Tits-Yang update of a pair of real poles (section 6.1 of their paper)."""
    n = X.shape[0]
    u = Q[:, 0:1]
    v = Q[:, 1:2]
    M = ker[i].T @ (u @ v.T - v @ u.T) @ ker[j]
    um, sm, vmt = cuarray.linalg.svd(M)
    x = cuarray.concatenate([X[:, i], X[:, j]])
    # a distinct top singular value: its pair of vectors; a double one: the top two pairs
    one = cuarray.concatenate([ker[i] @ um[:, :1], ker[j] @ vmt[:1, :].T])
    two = cuarray.concatenate([ker[i] @ um[:, :2], ker[j] @ vmt[:2, :].T])
    double = cuarray.abs(sm[0] - sm[1]) <= 1e-8 + 1e-5 * cuarray.abs(sm[1])
    t = cuarray.where(double, two @ (two.T @ x), one @ (one.T @ x))
    first = cuarray.where(double, two[:, 0], one[:, 0])
    new = cuarray.where(_all_zero(t), first, _unit(t, math.sqrt(2)))
    X[:, i] = new[:n]
    X[:, j] = new[n:]


def _yt_complex(ker, Q, X, i, j):
    """Tits-Yang update of a complex pole, columns i and j holding its real and imaginary
    parts (section 6.2)."""
    u = (Q[:, 0:1] + 1j * Q[:, 1:2]) * math.sqrt(2)
    K = ker[i]
    M = cuarray.conj(K.T) @ (u @ cuarray.conj(u).T - cuarray.conj(u) @ u.T) @ K
    # M is Hermitian: its eigenvectors by eigh, ordered by |eigenvalue|
    w, V = cuarray.linalg.eigh(M)
    order = cuarray.argsort(cuarray.abs(w), kind="stable")
    top = order[-1:]
    both = order[-2:][::-1]
    x = X[:, i] + 1j * X[:, j]
    one = K @ V[:, top]
    two = K @ V[:, both]
    aw = cuarray.abs(w[both])
    double = cuarray.abs(aw[0] - aw[1]) <= 1e-8 + 1e-5 * aw[1]
    t = cuarray.where(double, two @ (cuarray.conj(two).T @ x), one @ (cuarray.conj(one).T @ x))
    first = cuarray.where(double, two[:, 0], one[:, 0])
    new = cuarray.where(_all_zero(t), first, _unit(t))
    X[:, i] = new.real
    X[:, j] = new.imag


def _yt_order(poles):
    """The (i, j) update pairs of the YT algorithm (0-based): its steps 1 to 3, with the
    update order of real poles from the IEEE edition of the paper."""
    nr = int(numpy.sum(numpy.isreal(poles)))
    h = nr // 2
    comp = list(range(nr + 1, len(poles) + 1, 2))
    comp_pairs = [(c, c + 1) for c in comp]
    lone = int(h == 0 and bool(numpy.isreal(poles[0])))  # one real pole: KNV0 on it
    pairs = [(nr, 1)] if nr > 0 else []
    pairs += [(2 * r, 2 * r + 1) for r in range(1, h + nr % 2)]
    pairs += comp_pairs
    pairs += [(2 * r - 1, 2 * r) for r in range(1, h + 1)]
    pairs += [(1, 1)] * lone + comp_pairs
    for j in range(2, h + nr % 2):
        pairs += [(i, i + j) for i in range(1, h + 1)]
    pairs += [(1, 1)] * lone + comp_pairs
    for j in range(2, h + nr % 2):
        pairs += [(i, i + j if i + j <= nr else i + j - nr) for i in range(h + 1, nr + 1)]
    pairs += [(1, 1)] * lone + comp_pairs
    pairs += [(i, i + h) for i in range(1, h + 1)]
    pairs += [(1, 1)] * lone + comp_pairs
    return [(i - 1, j - 1) for i, j in pairs]


def _iterate(sweep, X, maxiter, rtol):
    """Repeat sweep(X) until |det X| changes by less than rtol (relatively), as YT's test."""
    stop, tries, cur = False, 0, 0.0
    while tries < maxiter and not stop:
        before = cuarray.abs(cuarray.linalg.det(X))
        sweep(X)
        after = cuarray.maximum(_SQRT_EPS, cuarray.abs(cuarray.linalg.det(X)))
        cur_d, after_h = (float(v) for v in
                          cuarray.stack([cuarray.abs((after - before) / after), after]).get())
        cur = cur_d
        stop = cur < rtol and after_h > _SQRT_EPS
        tries += 1
    return stop, cur, tries


def place_poles(A, B, poles, method="YT", rtol=1e-3, maxiter=30):
    """cuarray version of `scipy.signal.place_poles`. The result's X and gain_matrix are
    device arrays (requested_poles too); rtol and nb_iter are host numbers. Synchronises once per iteration."""
    A = _dev(A)
    B = _dev(B)
    poles, rank = _valid_inputs(A, B, poles, method, rtol, maxiter)
    n = B.shape[0]
    cur_rtol, nb_iter = 0, 0
    u, z = cuarray.linalg.qr(B, mode="complete")
    u0 = u[:, :rank]
    u1 = u[:, rank:]
    z = z[:rank, :]
    if n == rank:
        # X = I: the gain solves B K = D - A with D real and block diagonal with the poles
        # (a 2x2 block [[a, -b], [b, a]] per pair a +- bi)
        D = numpy.zeros(A.shape)
        idx = 0
        while idx < poles.shape[0]:
            p = poles[idx]
            D[idx, idx] = p.real
            if not numpy.isreal(p):
                D[idx, idx + 1] = -p.imag
                D[idx + 1, idx + 1] = p.real
                D[idx + 1, idx] = p.imag
                idx += 1
            idx += 1
        gain = cuarray.linalg.lstsq(B, cuarray.asarray(D) - A, rcond=-1)[0]
        X = cuarray.eye(n)
        cur_rtol = nb_iter = numpy.nan
    else:
        ker, cols = [], []
        eye = cuarray.eye(n)
        j = 0
        while j < n:
            # the kernel of u1.T (A - p I): the last `rank` columns of its transpose's Q
            space = (u1.T @ (A - poles[j] * eye)).T
            kj = cuarray.linalg.qr(space, mode="complete")[0][:, space.shape[1]:]
            # the sum of the kernel's basis is never zero on a whole row (see SciPy)
            xj = _unit(kj.sum(axis=1))
            if numpy.isreal(poles[j]):
                ker.append(kj.real if kj.dtype.kind == "c" else kj)
                cols.append(xj.real if xj.dtype.kind == "c" else xj)
                j += 1
            else:
                ker += [kj, kj]
                cols += [xj.real, xj.imag]
                j += 2
        X = cuarray.ascontiguousarray(cuarray.stack(cols, axis=1))
        if rank > 1:
            if method == "YT":
                order = _yt_order(poles)

                def sweep(X):
                    for i, k in order:
                        if i == k:
                            _knv0(ker, X, i)
                            continue
                        Q = _last_columns(X, (i, k), 2)
                        (_yt_real if numpy.isreal(poles[i]) else _yt_complex)(ker, Q, X, i, k)
            else:
                def sweep(X):
                    for k in range(n):
                        _knv0(ker, X, k)
            stop, cur_rtol, nb_iter = _iterate(sweep, X, maxiter, rtol)
            if not stop and rtol > 0:
                warnings.warn("Convergence was not reached after maxiter iterations.\n"
                              f"You asked for a tolerance of {rtol}, we got {cur_rtol}.",
                              stacklevel=2)
        # columns (re, im) of a complex pair become its two complex eigenvectors
        X = X.astype(numpy.complex128)
        idx = 0
        while idx < poles.shape[0] - 1:
            if not numpy.isreal(poles[idx]):
                re, im = X[:, idx].copy(), X[:, idx + 1].copy()
                X[:, idx] = re - 1j * im
                X[:, idx + 1] = re + 1j * im
                idx += 1
            idx += 1
        P = cuarray.asarray(numpy.diag(poles).astype(numpy.complex128))
        try:
            m = cuarray.linalg.solve(X.T, P @ X.T).T
            gain = cuarray.linalg.solve(z, u0.T @ (m - A))
        except LinAlgError as e:
            raise ValueError("The poles you've chosen can't be placed. Check the "
                             "controllability matrix and try another set of poles") from e
    gain = -gain
    gain = gain.real if gain.dtype.kind == "c" else gain
    gain = cuarray.ascontiguousarray(gain)
    computed = _order_device(cuarray.linalg.eigvals(A - B @ gain))
    return Bunch(gain_matrix=gain, computed_poles=computed,
                 requested_poles=cuarray.asarray(poles), X=X,
                 rtol=cur_rtol, nb_iter=nb_iter)
