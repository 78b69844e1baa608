"""Linear filters with state as a blocked parallel scan (no sequential pass over a row).

A filter with P delays is a linear system: the state after a block is its zero-state
closing state plus T times its entering state (T: the P x P transition over L samples),
and its outputs are the zero-state outputs plus H_j[m] times each entering state
component. On C-contiguous rows (S signals of N samples):
1. a local kernel runs every block of L samples from a zero state (one thread per
   block), keeping the block's closing state: `tf_local` (an IIR filter in SciPy's
   transposed direct form II; its delays are SciPy's zi), `sos_local` (a cascade of
   second-order sections; the state is every section's two delays), or `iir_local` (the
   all-pole recurrence y[n] = v[n] - a1 y[n-1] - ..., state: the last p outputs);
2. the state entering each block is an affine scan of the closing states with T: blocks
   are grouped by G, `iir_carry` scans inside each group (starting from the row's initial
   state in group 0), `iir_top` scans the group totals with T^G (one thread per signal;
   T^G by repeated squaring), `iir_fix` carries each group's entering state through its
   blocks;
3. `iir_apply` adds each block's entering state through H, an elementwise pass.
The `*_impulse` kernels give H and T by running the filter from unit states.
"""
import math

import cuarray
from cuarray._core._kernel_helpers import render
from cuarray.scipy.signal import _kernels as _k

_COMMON = r"""
// r = c + A q for a P x P row-major A (c == nullptr: r = A q).
__device__ __forceinline__ void iir_affine(const {T}* A, const {T}* q, const {T}* c, {T}* r) {
  for (int i = 0; i < {P}; ++i) {
    {T} acc = c ? c[i] : {T}(0);
    for (int j = 0; j < {P}; ++j) acc += A[i * {P} + j] * q[j];
    r[i] = acc;
  }
}

// W = A B for P x P row-major matrices.
__device__ __forceinline__ void iir_matmul(const {T}* A, const {T}* B, {T}* W) {
  for (int i = 0; i < {P}; ++i)
    for (int j = 0; j < {P}; ++j) {
      {T} acc = {T}(0);
      for (int k = 0; k < {P}; ++k) acc += A[i * {P} + k] * B[k * {P} + j];
      W[i * {P} + j] = acc;
    }
}

// y[m] = -sum_k a[k] y[m-k] from the state y[-1-j] = 1 (one j per thread).
extern "C" __global__ void iir_impulse(const {T}* a, {T}* H, long long L) {
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < {P};
       j += (long long)gridDim.x * blockDim.x) {
    {T} h[{P}];   // h[k] = y[m-1-k]
    for (int k = 0; k < {P}; ++k) h[k] = {T}(k == j ? 1 : 0);
    for (long long m = 0; m < L; ++m) {
      {T} y = {T}(0);
      for (int k = 0; k < {P}; ++k) y -= a[k + 1] * h[k];
      for (int k = {P} - 1; k > 0; --k) h[k] = h[k - 1];
      h[0] = y;
      H[j * L + m] = y;
    }
  }
}

extern "C" __global__ void iir_local(const {T}* a, {T}* y, {T}* e, long long N, long long L,
                                     long long nb, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / nb, b = t % nb;
    {T}* row = y + s * N;
    const long long lo = b * L, hi = lo + L < N ? lo + L : N;
    {T} h[{P}];
    for (int k = 0; k < {P}; ++k) h[k] = {T}(0);
    {T} ak[{P}];
    for (int k = 0; k < {P}; ++k) ak[k] = a[k + 1];
    for (long long n = lo; n < hi; ++n) {
      {T} v = row[n];
      // Oldest terms first: the newest output enters last, one multiply-add on the
      // sample-to-sample dependency chain instead of P.
      for (int k = {P} - 1; k >= 0; --k) v -= ak[k] * h[k];
      for (int k = {P} - 1; k > 0; --k) h[k] = h[k - 1];
      h[0] = v;
      row[n] = v;
    }
    for (int k = 0; k < {P}; ++k) e[t * {P} + k] = h[k];
  }
}

// q <- e + T q over the blocks of a group; each block's slot gets the state entering it
// (from a zero state at the group's start, or s0 before the row's first block); the
// group's closing state goes to E. T is the P x P transition over L samples, row-major.
extern "C" __global__ void iir_carry(const {T}* Tm, {T}* e, {T}* E, const {T}* s0,
                                     long long nb, long long G, long long ng,
                                     long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / ng, g = t % ng;
    const long long b0 = g * G, b1 = b0 + G < nb ? b0 + G : nb;
    {T} q[{P}], r[{P}];
    for (int i = 0; i < {P}; ++i) q[i] = (g == 0 && s0 != 0) ? s0[s * {P} + i] : {T}(0);
    for (long long b = b0; b < b1; ++b) {
      {T}* eb = e + (s * nb + b) * {P};
      iir_affine(Tm, q, eb, r);
      for (int i = 0; i < {P}; ++i) { eb[i] = q[i]; q[i] = r[i]; }
    }
    for (int i = 0; i < {P}; ++i) E[t * {P} + i] = q[i];
  }
}

// Per signal: the state entering each group, scanning group totals with T^G.
extern "C" __global__ void iir_top(const {T}* Tm, {T}* E, long long G, long long ng,
                                   long long S) {
  for (long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x; s < S;
       s += (long long)gridDim.x * blockDim.x) {
    {T} M[{P} * {P}], R[{P} * {P}], W[{P} * {P}];
    for (int i = 0; i < {P}; ++i)
      for (int j = 0; j < {P}; ++j) {
        M[i * {P} + j] = Tm[i * {P} + j];
        R[i * {P} + j] = {T}(i == j ? 1 : 0);
      }
    for (long long g = G; g > 0; g >>= 1) {   // R = T^G
      if (g & 1) {
        iir_matmul(R, M, W);
        for (int i = 0; i < {P} * {P}; ++i) R[i] = W[i];
      }
      if (g > 1) {
        iir_matmul(M, M, W);
        for (int i = 0; i < {P} * {P}; ++i) M[i] = W[i];
      }
    }
    {T} q[{P}], r[{P}];
    for (int i = 0; i < {P}; ++i) q[i] = {T}(0);
    for (long long g = 0; g < ng; ++g) {
      {T}* Eg = E + (s * ng + g) * {P};
      iir_affine(R, q, Eg, r);
      for (int i = 0; i < {P}; ++i) { Eg[i] = q[i]; q[i] = r[i]; }
    }
  }
}

// Adds the state entering each group, carried through T, to the states of its blocks.
extern "C" __global__ void iir_fix(const {T}* Tm, {T}* e, const {T}* E, long long nb,
                                   long long G, long long ng, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / ng, g = t % ng;
    const long long b0 = g * G, b1 = b0 + G < nb ? b0 + G : nb;
    {T} q[{P}], r[{P}];
    for (int i = 0; i < {P}; ++i) q[i] = E[t * {P} + i];
    for (long long b = b0; b < b1; ++b) {
      {T}* eb = e + (s * nb + b) * {P};
      for (int i = 0; i < {P}; ++i) eb[i] += q[i];
      iir_affine(Tm, q, nullptr, r);
      for (int i = 0; i < {P}; ++i) q[i] = r[i];
    }
  }
}

extern "C" __global__ void iir_apply(const {T}* H, const {T}* e, {T}* y, long long N,
                                     long long L, long long nb, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / N, n = t % N, b = n / L, m = n % L;
    const {T}* eb = e + (s * nb + b) * {P};
    {T} acc = y[t];
    for (int j = 0; j < {P}; ++j) acc += H[j * L + m] * eb[j];
    y[t] = acc;
  }
}

// A cascade of second-order sections c (6 per section, transposed direct form II,
// a0 = 1): one sample x through it, its P = 2 * sections delays z the state.
__device__ __forceinline__ sig_t sos_step(const sig_t* c, sig_t* z, sig_t x) {
  for (int q = 0; q < {P} / 2; ++q) {
    const sig_t y = c[q * 6] * x + z[2 * q];
    z[2 * q] = c[q * 6 + 1] * x - c[q * 6 + 4] * y + z[2 * q + 1];
    z[2 * q + 1] = c[q * 6 + 2] * x - c[q * 6 + 5] * y;
    x = y;
  }
  return x;
}

// A transfer function b/a (length P + 1, a0 = 1) in transposed direct form II, SciPy's
// lfilter structure: its P delays are the state (SciPy's zi), one local pass does the
// whole filter.
__device__ __forceinline__ sig_t tf_step(const sig_t* b, const sig_t* a, sig_t* z, sig_t v) {
  const sig_t out = b[0] * v + z[0];
  for (int i = 0; i < {P} - 1; ++i) z[i] = b[i + 1] * v - a[i + 1] * out + z[i + 1];
  z[{P} - 1] = b[{P}] * v - a[{P}] * out;
  return out;
}
// zf = last + Tl @ entering for each row (the last block's local end state plus its
// entering state carried over the block's Llast samples).
extern "C" __global__ void state_final(const {T}* last, const {T}* e, const {T}* Tl, {T}* zf,
                                       long long nb, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / {P}, i = t % {P};
    const {T}* ent = e + (s * nb + nb - 1) * {P};
    {T} acc = last[t];
    for (int j = 0; j < {P}; ++j) acc += Tl[i * {P} + j] * ent[j];
    zf[t] = acc;
  }
}
"""


def _plan(N, p):
    """(L, blocks per row, G, groups per row): blocks of L >= p samples; about as many
    groups per row as blocks per group."""
    L = max(p, 256 if N >= (1 << 16) else 64)
    nb = -(-N // L)
    G = max(1, math.isqrt(nb - 1) + 1) if nb > 1 else 1
    ng = -(-nb // G)
    return L, nb, G, ng


def _scan(kern, Tm, H, e, y, s0, S, N, L, nb, G, ng):
    """Steps 2 and 3: carry the states between blocks and add their responses to y."""
    if nb > 1:
        E = cuarray.empty((S, ng, e.shape[2]), y.dtype)
        _k.launch(kern["iir_carry"], S * ng, (Tm, e, E, s0, nb, G, ng, S * ng))
        if ng > 1:
            _k.launch(kern["iir_top"], S, (Tm, E, G, ng, S))
            _k.launch(kern["iir_fix"], S * ng, (Tm, e, E, nb, G, ng, S * ng))
    elif s0 is not None:
        e[:, 0, :] = s0
    else:
        return
    _k.launch(kern["iir_apply"], S * N, (H, e, y, N, L, nb, S * N))


def _system(kind, coeffs, names, copy, copies):
    """The `<kind>_impulse` and `<kind>_local` kernels of a system whose state is its P
    delays, run one sample at a time by `<kind>_step(<coefficients>, z, x)`: `coeffs` the
    coefficient parameters named `names`; the local kernel first copies them to registers
    by `copy`, as `copies`.

    The impulse kernel has one thread per unit state j: the output for L samples (H) and
    the state after Llast and L samples (column j of Tl and Tm)."""
    step = kind + "_step("
    return render("""
extern "C" __global__ void ${KIND}_impulse(${COEFFS}, {T}* H, {T}* Tm, {T}* Tl, long long L,
                                        long long Llast) {
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < {P};
       j += (long long)gridDim.x * blockDim.x) {
    {T} z[{P}];
    for (int k = 0; k < {P}; ++k) z[k] = {T}(k == j ? 1 : 0);
    for (long long m = 0; m < L; ++m) {
      H[j * L + m] = ${STEPNAMES}, z, {T}(0));
      if (m == Llast - 1) for (int i = 0; i < {P}; ++i) Tl[i * {P} + j] = z[i];
      if (m == L - 1) for (int i = 0; i < {P}; ++i) Tm[i * {P} + j] = z[i];
    }
  }
}

extern "C" __global__ void ${KIND}_local(${COEFFS}, const {T}* x, {T}* y, {T}* e, long long N,
                                      long long L, long long nb, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / nb, b = t % nb;
    const long long lo = b * L, hi = lo + L < N ? lo + L : N;
    ${COPY}
    {T} z[{P}];
    for (int k = 0; k < {P}; ++k) z[k] = {T}(0);
    for (long long n = lo; n < hi; ++n) y[s * N + n] = ${STEPCOPIES}, z, x[s * N + n]);
    for (int k = 0; k < {P}; ++k) e[t * {P} + k] = z[k];
  }
}
""", KIND=kind, COEFFS=coeffs, STEPNAMES=step + names, STEPCOPIES=step + copies, COPY=copy)


_COMMON += _system("sos", "const {T}* sos", "sos",
                   "{T} c[{P} * 3];\n    for (int k = 0; k < {P} * 3; ++k) c[k] = sos[k];",
                   "c")
# (bg, ag: b is the local kernel's block index)
_COMMON += _system("tf", "const {T}* bg, const {T}* ag", "bg, ag",
                   "{T} bc[{P} + 1], ac[{P} + 1];\n"
                   "    for (int k = 0; k <= {P}; ++k) { bc[k] = bg[k]; ac[k] = ag[k]; }",
                   "bc, ac")

_NAMES = ("iir_impulse", "iir_local", "iir_carry", "iir_top", "iir_fix", "iir_apply",
          "sos_impulse", "sos_local", "tf_impulse", "tf_local", "state_final")

# Largest state for which the whole filter runs as one state-space scan (the kernels keep
# P x P matrices in registers and local memory); longer numerators take the FIR-then-
# recurrence path.
MAX_STATE = 32


def recurrence(a, y):
    """Solve the all-pole recurrence of `a` (device, a[0] == 1, length p + 1, y's dtype) in
    place on the C-contiguous rows `y` of shape (S, N)."""
    p = a.size - 1
    S, N = y.shape
    if p == 0 or y.size == 0:
        return y
    ct = _k.ctype(y.dtype)
    L, nb, G, ng = _plan(N, p)
    kern = {n: _k.kernel(_COMMON, n, T=ct, P=p) for n in _NAMES}
    H = cuarray.empty((p, L), y.dtype)
    _k.launch(kern["iir_impulse"], p, (a, H, L))
    # The state is the last p outputs: T[i][j] = H[j][L - 1 - i].
    Tm = cuarray.ascontiguousarray(H[:, ::-1][:, :p].T)
    e = cuarray.empty((S, nb, p), y.dtype)
    _k.launch(kern["iir_local"], S * nb, (a, y, e, N, L, nb, S * nb))
    _scan(kern, Tm, H, e, y, None, S, N, L, nb, G, ng)
    return y


def _state_scan(kind, coeffs, x, zi, P):
    """Filter rows x (S, N) by a linear system with P delays: `kind` 'sos' (coeffs: the
    normalised sections) or 'tf' (coeffs: normalised b, a of length P + 1). zi (S, P) or
    None. Returns y and, when zi is given, the final states (S, P)."""
    S, N = x.shape
    y = cuarray.empty((S, N), x.dtype)
    if N == 0:
        return y, (None if zi is None else zi.copy())
    ct = _k.ctype(x.dtype)
    L, nb, G, ng = _plan(N, P)
    kern = {n: _k.kernel(_COMMON, n, T=ct, P=P) for n in _NAMES}
    H = cuarray.empty((P, L), x.dtype)
    Tm = cuarray.empty((P, P), x.dtype)
    Tl = cuarray.empty((P, P), x.dtype)
    e = cuarray.empty((S, nb, P), x.dtype)
    coeffs = tuple(cuarray.ascontiguousarray(c) for c in coeffs)
    _k.launch(kern[kind + "_impulse"], P, coeffs + (H, Tm, Tl, L, N - (nb - 1) * L))
    _k.launch(kern[kind + "_local"], S * nb, coeffs + (x, y, e, N, L, nb, S * nb))
    last = e[:, -1, :].copy() if zi is not None else None
    s0 = None if zi is None else cuarray.ascontiguousarray(zi.astype(x.dtype))
    _scan(kern, Tm, H, e, y, s0, S, N, L, nb, G, ng)
    if zi is None:
        return y, None
    zf = cuarray.empty((S, P), x.dtype)
    _k.launch(kern["state_final"], S * P, (last, e, Tl, zf, nb, S * P))
    return y, zf


def sos_cascade(sos, x, zi):
    """Rows x (S, N) through the sections `sos` (n x 6, a0 = 1, x's dtype) as one scan;
    zi (S, 2n) or None. Returns y and the final states (S, 2n) or None."""
    return _state_scan("sos", (sos,), x, zi, 2 * sos.shape[0])


def tf_filter(b, a, x, zi):
    """Rows x (S, N) through b/a (equal lengths K, a0 = 1, x's dtype) in transposed
    direct form II as one scan; zi (S, K - 1) or None."""
    return _state_scan("tf", (b, a), x, zi, b.size - 1)
