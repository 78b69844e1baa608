"""Linear system simulation and responses for systems given as tuples (cuarray version of
`scipy.signal.dlsim`, `dimpulse`, `dstep`, `lsim`, `impulse`, `step`, `dfreqresp`,
`dbode`, `freqresp`, `bode`). The state recurrence x[n+1] = A x[n] + B u[n] runs as
the blocked parallel scan of `_iir_scan` with the state-space matrices themselves: each
block is simulated from a zero state, the entering states are scanned with A^L, and
A^m times each block's entering state is added to its states."""
import math

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k
from cuarray.scipy.signal._iir_scan import _COMMON, _plan
from cuarray.scipy.signal._state_space import abcd_normalize, tf2ss, zpk2ss

__all__ = ["dlsim", "dimpulse", "dstep", "dfreqresp", "dbode", "freqresp", "bode", "lsim",
           "impulse", "step", "cont2discrete"]

_SS = r"""
// Apow[m] = A^m (m < L) and Tm = A^L, one column j per thread.
extern "C" __global__ void ss_pow(const {T}* A, {T}* Apow, {T}* Tm, long long L) {
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < {P};
       j += (long long)gridDim.x * blockDim.x) {
    {T} v[{P}], w[{P}];
    for (int i = 0; i < {P}; ++i) v[i] = {T}(i == j ? 1 : 0);
    for (long long m = 0; m < L; ++m) {
      for (int i = 0; i < {P}; ++i) Apow[(m * {P} + i) * {P} + j] = v[i];
      for (int i = 0; i < {P}; ++i) {
        {T} acc = {T}(0);
        for (int k = 0; k < {P}; ++k) acc += A[i * {P} + k] * v[k];
        w[i] = acc;
      }
      for (int i = 0; i < {P}; ++i) v[i] = w[i];
    }
    for (int i = 0; i < {P}; ++i) Tm[i * {P} + j] = v[i];
  }
}

// States of each block from a zero entering state: X[n] before sample n's update.
extern "C" __global__ void ss_local(const {T}* A, const {T}* V, {T}* X, {T}* e, long long N,
                                    long long L, long long nb) {
  for (long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x; b < nb;
       b += (long long)gridDim.x * blockDim.x) {
    const long long lo = b * L, hi = lo + L < N ? lo + L : N;
    {T} x[{P}], w[{P}];
    for (int i = 0; i < {P}; ++i) x[i] = {T}(0);
    for (long long n = lo; n < hi; ++n) {
      for (int i = 0; i < {P}; ++i) X[n * {P} + i] = x[i];
      for (int i = 0; i < {P}; ++i) {
        {T} acc = V[n * {P} + i];
        for (int k = 0; k < {P}; ++k) acc += A[i * {P} + k] * x[k];
        w[i] = acc;
      }
      for (int i = 0; i < {P}; ++i) x[i] = w[i];
    }
    for (int i = 0; i < {P}; ++i) e[b * {P} + i] = x[i];
  }
}

extern "C" __global__ void ss_apply(const {T}* Apow, const {T}* e, {T}* X, long long N,
                                    long long L) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < N * {P};
       t += (long long)gridDim.x * blockDim.x) {
    const long long n = t / {P}, i = t % {P}, b = n / L, m = n % L;
    const {T}* eb = e + b * {P};
    const {T}* Am = Apow + (m * {P} + i) * {P};
    {T} acc = X[t];
    for (int j = 0; j < {P}; ++j) acc += Am[j] * eb[j];
    X[t] = acc;
  }
}
"""


def _unwrap(system, discrete):
    """System objects (lti, dlti) as the tuples the functions below take."""
    from cuarray.scipy.signal._ltisys import LinearTimeInvariant
    if isinstance(system, LinearTimeInvariant):
        if (system.dt is None) == discrete:
            kind = "discrete" if discrete else "continuous"
            raise AttributeError(f"this function takes {kind}-time systems")
        return system._system()
    return system


def _as_ss(system):
    system = _unwrap(system, True)
    if not isinstance(system, tuple) or len(system) not in (3, 4, 5):
        raise ValueError("cuarray.scipy.signal.dlsim takes a system tuple (num, den, dt), "
                         "(zeros, poles, gain, dt) or (A, B, C, D, dt)")
    dt = float(system[-1])
    if len(system) == 3:
        A, B, C, D = tf2ss(*system[:2])
    elif len(system) == 4:
        A, B, C, D = zpk2ss(*system[:3])
    else:
        A, B, C, D = abcd_normalize(*system[:4])
    return [cuarray.atleast_2d(M).astype(numpy.float64) for M in (A, B, C, D)], dt


def _states(A, V, x0):
    """x[0] = x0, x[n+1] = A x[n] + V[n] for n < N - 1: all N states (N, P)."""
    N, P = V.shape
    L, nb, G, ng = _plan(N, P)
    names = ("ss_pow", "ss_local", "ss_apply")
    kern = {n: _k.kernel(_SS, n, T="double", P=P) for n in names}
    common = {n: _k.kernel(_COMMON, n, T="double", P=P)
              for n in ("iir_carry", "iir_top", "iir_fix")}
    A = cuarray.ascontiguousarray(A)
    Apow = cuarray.empty((L, P, P))
    Tm = cuarray.empty((P, P))
    _k.launch(kern["ss_pow"], P, (A, Apow, Tm, L))
    X = cuarray.empty((N, P))
    e = cuarray.empty((1, nb, P))
    _k.launch(kern["ss_local"], nb, (A, cuarray.ascontiguousarray(V), X, e, N, L, nb))
    s0 = cuarray.ascontiguousarray(x0.reshape(1, P))
    if nb > 1:
        E = cuarray.empty((1, ng, P))
        _k.launch(common["iir_carry"], ng, (Tm, e, E, s0, nb, G, ng, ng))
        if ng > 1:
            _k.launch(common["iir_top"], 1, (Tm, E, G, ng, 1))
            _k.launch(common["iir_fix"], ng, (Tm, e, E, nb, G, ng, ng))
    else:
        e[0, 0, :] = s0[0]
    _k.launch(kern["ss_apply"], N * P, (Apow, e, X, N, L))
    return X


def dlsim(system, u, t=None, x0=None):
    """cuarray version of `scipy.signal.dlsim` for tuple systems (dlti objects are not
    available); returns xout too for (A, B, C, D, dt) systems, as SciPy does."""
    system = _unwrap(system, True)
    (A, B, C, D), dt = _as_ss(system)
    u = u if isinstance(u, ndarray) else cuarray.asarray(numpy.asarray(u, dtype=float))
    u = cuarray.atleast_1d(u).astype(numpy.float64)
    if u.ndim == 1:
        u = u.reshape(-1, 1)
    if t is None:
        n_out = u.shape[0]
        stop = (n_out - 1) * dt
    else:
        th = numpy.asarray(cuarray.asnumpy(t) if isinstance(t, ndarray) else t, dtype=float)
        stop = float(th[-1])
        n_out = int(math.floor(stop / dt)) + 1
    tout = cuarray.linspace(0.0, stop, n_out)
    if t is not None:
        tt = cuarray.asarray(th)
        u = cuarray.stack([cuarray.interp(tout, tt, u[:, k]) for k in range(u.shape[1])],
                          axis=1)
    P = A.shape[0]
    x0 = cuarray.zeros(P) if x0 is None else \
        cuarray.asarray(numpy.asarray(x0, dtype=float)).reshape(P)
    if P:
        xout = _states(A, u[:n_out] @ B.T, x0)
        yout = xout @ C.T + u[:n_out] @ D.T
    else:
        xout = cuarray.zeros((n_out, 0))
        yout = u[:n_out] @ D.T
    if len(system) == 5:
        return tout, yout, xout
    return tout, yout


def _inputs(system):
    (A, B, C, D), dt = _as_ss(system)
    return D.shape[1], dt


def _responses(system, x0, t, n, make_u):
    nin, dt = _inputs(system)
    if n is None:
        n = 100
    if t is None:
        t = cuarray.linspace(0, n * dt, n, endpoint=False)
    t = t if isinstance(t, ndarray) else cuarray.asarray(numpy.asarray(t, dtype=float))
    outs = []
    for i in range(nin):
        u = make_u(t.shape[0], nin, i)
        r = dlsim(system, u, t=t, x0=x0)
        outs.append(r[1])
        tout = r[0]
    return tout, tuple(outs)


def dimpulse(system, x0=None, t=None, n=None):
    """cuarray version of `scipy.signal.dimpulse` for tuple systems."""
    def u(N, nin, i):
        v = cuarray.zeros((N, nin))
        v[0, i] = 1.0
        return v
    return _responses(system, x0, t, n, u)


def dstep(system, x0=None, t=None, n=None):
    """cuarray version of `scipy.signal.dstep` for tuple systems."""
    def u(N, nin, i):
        v = cuarray.zeros((N, nin))
        v[:, i] = 1.0
        return v
    return _responses(system, x0, t, n, u)


def _tf_of(system, discrete):
    """(kind, data) of a system tuple: ('tf', (num, den)) or ('zpk', (z, p, k))."""
    system = _unwrap(system, discrete)
    from cuarray.scipy.signal._state_space import ss2tf
    from cuarray.scipy.signal._tf_transforms import normalize
    parts = system[:-1] if discrete else system
    if len(parts) == 2:
        return "tf", normalize(*parts)
    if len(parts) == 3:
        return "zpk", parts
    if len(parts) == 4:
        num, den = ss2tf(*parts)
        return "tf", normalize(num.ravel(), den)
    raise ValueError("system must be a tuple (num, den), (zeros, poles, gain) or "
                     "(A, B, C, D)" + (" followed by dt" if discrete else ""))


def dfreqresp(system, w=None, n=10000, whole=False):
    """cuarray version of `scipy.signal.dfreqresp` for system tuples."""
    from cuarray.scipy.signal._freq_response import freqz, freqz_zpk
    kind, data = _tf_of(system, True)
    worN = n if w is None else w
    if kind == "zpk":
        return freqz_zpk(*data, worN=worN, whole=whole)
    num, den = data
    d = num.size - den.size
    if d > 0:
        den = cuarray.concatenate((cuarray.zeros(d, den.dtype), den))
    elif d < 0:
        num = cuarray.concatenate((cuarray.zeros(-d, num.dtype), num))
    return freqz(num, den, worN=worN, whole=whole)


def freqresp(system, w=None, n=10000):
    """cuarray version of `scipy.signal.freqresp` for system tuples."""
    from cuarray.scipy.signal._freq_response import freqs, freqs_zpk
    kind, data = _tf_of(system, False)
    worN = n if w is None else w
    if kind == "zpk":
        return freqs_zpk(*data, worN=worN)
    return freqs(*data, worN=worN)


def _mag_phase(y):
    return (20.0 * cuarray.log10(cuarray.abs(y)),
            cuarray.rad2deg(cuarray.unwrap(cuarray.angle(y))))


def dbode(system, w=None, n=100):
    """cuarray version of `scipy.signal.dbode` for system tuples."""
    system = _unwrap(system, True)
    w, y = dfreqresp(system, w=w, n=n)
    return (w / float(system[-1]),) + _mag_phase(y)


def bode(system, w=None, n=100):
    """cuarray version of `scipy.signal.bode` for system tuples."""
    w, y = freqresp(system, w=w, n=n)
    return (w,) + _mag_phase(y)


def _as_ss_cont(system):
    system = _unwrap(system, False)
    if not isinstance(system, tuple) or len(system) not in (2, 3, 4):
        raise ValueError("system must be a tuple (num, den), (zeros, poles, gain) or "
                         "(A, B, C, D)")
    if len(system) == 2:
        A, B, C, D = tf2ss(*system)
    elif len(system) == 3:
        A, B, C, D = zpk2ss(*system)
    else:
        A, B, C, D = abcd_normalize(*system)
    return [cuarray.atleast_2d(M).astype(numpy.float64) for M in (A, B, C, D)]


def lsim(system, U, T, X0=None, interp=True):
    """cuarray version of `scipy.signal.lsim` for system tuples: the exact discretisation
    (cuarray.scipy.linalg.expm) followed by the parallel-scan simulation."""
    from cuarray.scipy.linalg import expm
    A, B, C, D = _as_ss_cont(system)
    T = cuarray.atleast_1d(T if isinstance(T, ndarray) else
                           cuarray.asarray(numpy.asarray(T, dtype=float))).astype(float)
    if T.ndim != 1:
        raise ValueError("T must be a rank-1 array.")
    ns, ni = A.shape[0], B.shape[1]
    n = T.size
    Th = cuarray.asnumpy(T[:2]) if n > 1 else cuarray.asnumpy(T[:1])
    x0 = cuarray.zeros(ns) if X0 is None else \
        cuarray.asarray(numpy.asarray(cuarray.asnumpy(X0) if isinstance(X0, ndarray) else X0,
                                      dtype=float)).reshape(ns)
    if Th[0] > 0:
        x0 = x0 @ expm(A.T * float(Th[0]))
    elif Th[0] < 0:
        raise ValueError("Initial time must be nonnegative")
    if U is not None and not isinstance(U, ndarray):
        U = numpy.asarray(U, dtype=float)
        U = None if (U.ndim == 0 and U == 0) else cuarray.asarray(U)
    no_input = U is None or not bool(cuarray.any(U != 0))
    if n == 1:
        y = x0.reshape(1, -1) @ C.T
        if not no_input:
            y = y + cuarray.atleast_2d(U).reshape(1, -1) @ D.T
        return T, cuarray.squeeze(y), cuarray.squeeze(x0)
    dt = float(Th[1] - Th[0])
    if not bool(cuarray.all(cuarray.abs(cuarray.diff(T) - dt) <= 1e-8 + 1e-5 * abs(dt))):
        raise ValueError("Time steps are not equally spaced.")
    if no_input:
        Ad = expm(A.T * dt)
        V = cuarray.zeros((n, ns))
    else:
        U = cuarray.atleast_1d(U).astype(float)
        if U.ndim == 1:
            U = U.reshape(-1, 1)
        if U.shape[0] != n:
            raise ValueError("U must have the same number of rows as elements in T.")
        if U.shape[1] != ni:
            raise ValueError("System does not define that many inputs.")
        if not interp:
            M = cuarray.zeros((ns + ni, ns + ni))
            M[:ns, :ns] = A * dt
            M[:ns, ns:] = B * dt
            E = expm(M.T)
            Ad, Bd = E[:ns, :ns], E[ns:, :ns]
            V = U @ Bd
        else:
            M = cuarray.zeros((ns + 2 * ni, ns + 2 * ni))
            M[:ns, :ns] = A * dt
            M[:ns, ns:ns + ni] = B * dt
            M[ns:ns + ni, ns + ni:] = cuarray.eye(ni)
            E = expm(M.T)
            Ad = E[:ns, :ns]
            Bd1 = E[ns + ni:, :ns]
            Bd0 = E[ns:ns + ni, :ns] - Bd1
            V = U @ Bd0
            V[:-1] += U[1:] @ Bd1
    # x[i] = x[i-1] @ Ad + V[i-1]: the column form x' = Ad^T x + v
    xout = _states(cuarray.ascontiguousarray(Ad.T), V, x0) if ns else cuarray.zeros((n, 0))
    y = xout @ C.T
    if not no_input:
        y = y + U @ D.T
    return T, cuarray.squeeze(y), cuarray.squeeze(xout)


def _response_times(A, n):
    r = float(cuarray.min(cuarray.abs(cuarray.real(cuarray.linalg.eigvals(A)))))
    return cuarray.linspace(0.0, 7.0 / (r if r != 0.0 else 1.0), n)


def impulse(system, X0=None, T=None, N=None):
    """cuarray version of `scipy.signal.impulse` for system tuples."""
    A, B, C, D = _as_ss_cont(system)
    X = cuarray.squeeze(B) if X0 is None else cuarray.squeeze(B + cuarray.asarray(
        numpy.asarray(X0, dtype=float)))
    T = _response_times(A, 100 if N is None else N) if T is None else \
        cuarray.asarray(numpy.asarray(T, dtype=float))
    _, h, _ = lsim((A, B, C, D), 0.0, T, X, interp=False)
    return T, h


def step(system, X0=None, T=None, N=None):
    """cuarray version of `scipy.signal.step` for system tuples."""
    A, B, C, D = _as_ss_cont(system)
    T = _response_times(A, 100 if N is None else N) if T is None else \
        cuarray.asarray(numpy.asarray(T, dtype=float))
    vals = lsim((A, B, C, D), cuarray.ones(T.shape), T, X0=X0, interp=False)
    return vals[0], vals[1]


def cont2discrete(system, dt, method="zoh", alpha=None):
    """cuarray version of `scipy.signal.cont2discrete` for system tuples (matrix
    exponentials and solves with cuarray.scipy.linalg / cuarray.linalg)."""
    from cuarray.scipy.linalg import expm
    from cuarray.scipy.signal._ltisys import LinearTimeInvariant
    if isinstance(system, LinearTimeInvariant):
        return system.to_discrete(dt, method=method, alpha=alpha)
    from cuarray.scipy.signal._state_space import ss2tf, ss2zpk
    if len(system) == 2:
        d = cont2discrete(tuple(tf2ss(*system)), dt, method=method, alpha=alpha)
        return tuple(ss2tf(*d[:4])) + (dt,)
    if len(system) == 3:
        d = cont2discrete(tuple(zpk2ss(*system)), dt, method=method, alpha=alpha)
        return tuple(ss2zpk(*d[:4])) + (dt,)
    if len(system) != 4:
        raise ValueError("First argument must either be a tuple of 2 (tf), 3 (zpk), or 4 "
                         "(ss) arrays.")
    a, b, c, d = (cuarray.atleast_2d(M if isinstance(M, ndarray) else
                                     cuarray.asarray(numpy.asarray(M, dtype=float)))
                  .astype(numpy.float64) for M in system)
    n, m = a.shape[0], b.shape[1]
    if method in ("bilinear", "tustin"):
        method, alpha = "gbt", 0.5
    elif method in ("euler", "forward_diff"):
        method, alpha = "gbt", 0.0
    elif method == "backward_diff":
        method, alpha = "gbt", 1.0
    elif method == "gbt":
        if alpha is None:
            raise ValueError("Alpha parameter must be specified for the generalized bilinear "
                             "transform (gbt) method")
        if alpha < 0 or alpha > 1:
            raise ValueError("Alpha parameter must be within the interval [0,1] for the gbt "
                             "method")
    if method == "gbt":
        ima = cuarray.eye(n) - alpha * dt * a
        ad = cuarray.linalg.solve(ima, cuarray.eye(n) + (1.0 - alpha) * dt * a)
        bd = cuarray.linalg.solve(ima, dt * b)
        cd = cuarray.linalg.solve(ima.T, c.T).T
        dd = d + alpha * (c @ bd)
    elif method == "zoh":
        em = cuarray.zeros((n + m, n + m))
        em[:n, :n] = a
        em[:n, n:] = b
        ms = expm(dt * em)[:n, :]
        ad, bd, cd, dd = ms[:, :n], ms[:, n:], c, d
    elif method == "foh":
        em = cuarray.zeros((n + 2 * m, n + 2 * m))
        em[:n, :n] = a * dt
        em[:n, n:n + m] = b * dt
        em[n:n + m, n + m:] = cuarray.eye(m)
        ms = expm(em)
        ms11, ms12, ms13 = ms[:n, :n], ms[:n, n:n + m], ms[:n, n + m:]
        ad, bd, cd, dd = ms11, ms12 - ms13 + ms11 @ ms13, c, d + c @ ms13
    elif method == "impulse":
        if not bool(cuarray.all(cuarray.abs(d) <= 1e-8)):
            raise ValueError("Impulse method is only applicable to strictly proper systems")
        ad = expm(a * dt)
        bd = ad @ b * dt
        cd, dd = c, c @ b * dt
    else:
        raise ValueError(f"Unknown transformation method '{method}'")
    return ad, bd, cd, dd, dt
