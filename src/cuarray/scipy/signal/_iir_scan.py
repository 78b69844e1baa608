"""The linear recurrence of an IIR filter as a blocked parallel scan.

For rows v (S signals of N samples, C-contiguous) and a = [1, a1..ap] this computes
    y[n] = v[n] - a1 y[n-1] - ... - ap y[n-p]      (y before the row = 0)
without a sequential pass over the row:
1. `iir_local`: every block of L samples is solved from a zero state (one thread per
   block); the block's closing state (its last p outputs) is kept;
2. the true state entering each block is an affine scan of those closing states with the
   constant p x p matrix T (zero-input response over L samples): blocks are grouped by G,
   `iir_carry` scans inside each group, `iir_top` scans the group totals with T^G (one
   thread per signal; T^G by repeated squaring), `iir_fix` adds each group's entering
   state back through its blocks;
3. `iir_apply` adds each block's entering state through the zero-input responses
   H[j][m] (state e_j after m samples), an elementwise pass.
"""
import math

import cuarray
from cuarray.scipy.signal import _kernels as _k

_COMMON = r"""
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
// (from a zero state at the group's start); the group's closing state goes to E.
extern "C" __global__ void iir_carry(const {T}* H, {T}* e, {T}* E, long long L, long long nb,
                                     long long G, long long ng, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / ng, g = t % ng;
    const long long b0 = g * G, b1 = b0 + G < nb ? b0 + G : nb;
    {T} q[{P}], r[{P}];
    for (int i = 0; i < {P}; ++i) q[i] = {T}(0);
    for (long long b = b0; b < b1; ++b) {
      {T}* eb = e + (s * nb + b) * {P};
      for (int i = 0; i < {P}; ++i) {
        {T} acc = eb[i];
        for (int j = 0; j < {P}; ++j) acc += H[j * L + L - 1 - i] * q[j];
        r[i] = acc;
      }
      for (int i = 0; i < {P}; ++i) { eb[i] = q[i]; q[i] = r[i]; }
    }
    for (int i = 0; i < {P}; ++i) E[t * {P} + i] = q[i];
  }
}

// Per signal: the state entering each group, scanning group totals with T^G.
extern "C" __global__ void iir_top(const {T}* H, {T}* E, long long L, long long G,
                                   long long ng, long long S) {
  for (long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x; s < S;
       s += (long long)gridDim.x * blockDim.x) {
    {T} M[{P} * {P}], R[{P} * {P}], W[{P} * {P}];
    for (int i = 0; i < {P}; ++i)
      for (int j = 0; j < {P}; ++j) {
        M[i * {P} + j] = H[j * L + L - 1 - i];
        R[i * {P} + j] = {T}(i == j ? 1 : 0);
      }
    for (long long g = G; g > 0; g >>= 1) {   // R = T^G
      if (g & 1) {
        for (int i = 0; i < {P}; ++i)
          for (int j = 0; j < {P}; ++j) {
            {T} acc = {T}(0);
            for (int k = 0; k < {P}; ++k) acc += R[i * {P} + k] * M[k * {P} + j];
            W[i * {P} + j] = acc;
          }
        for (int i = 0; i < {P} * {P}; ++i) R[i] = W[i];
      }
      if (g > 1) {
        for (int i = 0; i < {P}; ++i)
          for (int j = 0; j < {P}; ++j) {
            {T} acc = {T}(0);
            for (int k = 0; k < {P}; ++k) acc += M[i * {P} + k] * M[k * {P} + j];
            W[i * {P} + j] = acc;
          }
        for (int i = 0; i < {P} * {P}; ++i) M[i] = W[i];
      }
    }
    {T} q[{P}], r[{P}];
    for (int i = 0; i < {P}; ++i) q[i] = {T}(0);
    for (long long g = 0; g < ng; ++g) {
      {T}* Eg = E + (s * ng + g) * {P};
      for (int i = 0; i < {P}; ++i) {
        {T} acc = Eg[i];
        for (int j = 0; j < {P}; ++j) acc += R[i * {P} + j] * q[j];
        r[i] = acc;
      }
      for (int i = 0; i < {P}; ++i) { Eg[i] = q[i]; q[i] = r[i]; }
    }
  }
}

// Adds the state entering each group, carried through T, to the states of its blocks.
extern "C" __global__ void iir_fix(const {T}* H, {T}* e, const {T}* E, long long L,
                                   long long nb, long long G, long long ng, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / ng, g = t % ng;
    const long long b0 = g * G, b1 = b0 + G < nb ? b0 + G : nb;
    {T} q[{P}], r[{P}];
    for (int i = 0; i < {P}; ++i) q[i] = E[t * {P} + i];
    for (long long b = b0; b < b1; ++b) {
      {T}* eb = e + (s * nb + b) * {P};
      for (int i = 0; i < {P}; ++i) eb[i] += q[i];
      for (int i = 0; i < {P}; ++i) {
        {T} acc = {T}(0);
        for (int j = 0; j < {P}; ++j) acc += H[j * L + L - 1 - i] * q[j];
        r[i] = acc;
      }
      for (int i = 0; i < {P}; ++i) q[i] = r[i];
    }
  }
}

extern "C" __global__ void iir_apply(const {T}* H, const {T}* e, {T}* y, long long N,
                                     long long L, long long nb, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / N, n = t % N, b = n / L, m = n % L;
    if (b == 0) continue;
    const {T}* eb = e + (s * nb + b) * {P};
    {T} acc = y[t];
    for (int j = 0; j < {P}; ++j) acc += H[j * L + m] * eb[j];
    y[t] = acc;
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


def recurrence(a, y):
    """Solve the all-pole recurrence of `a` (device, a[0] == 1, length p + 1, y's dtype) in
    place on the C-contiguous rows `y` of shape (S, N)."""
    p = a.size - 1
    S, N = y.shape
    if p == 0 or y.size == 0:
        return y
    ct = _k.ctype(y.dtype)
    L, nb, G, ng = _plan(N, p)
    kern = {n: _k.kernel(_COMMON, n, T=ct, P=p) for n in
            ("iir_impulse", "iir_local", "iir_carry", "iir_top", "iir_fix", "iir_apply")}
    H = cuarray.empty((p, L), y.dtype)
    _k.launch(kern["iir_impulse"], p, (a, H, L))
    e = cuarray.empty((S, nb, p), y.dtype)
    _k.launch(kern["iir_local"], S * nb, (a, y, e, N, L, nb, S * nb))
    if nb > 1:
        E = cuarray.empty((S, ng, p), y.dtype)
        _k.launch(kern["iir_carry"], S * ng, (H, e, E, L, nb, G, ng, S * ng))
        if ng > 1:
            _k.launch(kern["iir_top"], S, (H, E, L, G, ng, S))
            _k.launch(kern["iir_fix"], S * ng, (H, e, E, L, nb, G, ng, S * ng))
        _k.launch(kern["iir_apply"], S * N, (H, e, y, N, L, nb, S * N))
    return y
