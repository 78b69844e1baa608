"""Maximum length sequences (cuarray version of `scipy.signal.max_len_seq`).

The shift register is a linear recurrence over GF(2): with s_0..s_{n-1} the initial state,
s_{j+n} = s_j ^ (xor of s_{j+t} over the taps t), and the sequence is s_0, s_1, ... Each
thread makes one chunk of the sequence: it jumps to its chunk's state with the register's
transition matrix raised to chunk-sized powers (bit matrices made once per (nbits, taps)
on the host from those parameters alone), then steps the register through its chunk."""
import operator

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k

__all__ = ["max_len_seq"]

# SciPy's default taps per register length.
_MLS_TAPS = {2: [1], 3: [2], 4: [3], 5: [3], 6: [5], 7: [6], 8: [7, 6, 1],
             9: [5], 10: [7], 11: [9], 12: [11, 10, 4], 13: [12, 11, 8],
             14: [13, 12, 2], 15: [14], 16: [15, 13, 4], 17: [14],
             18: [11], 19: [18, 17, 14], 20: [17], 21: [19], 22: [21],
             23: [18], 24: [23, 22, 17], 25: [22], 26: [25, 24, 20],
             27: [26, 25, 22], 28: [25], 29: [27], 30: [29, 28, 7],
             31: [28], 32: [31, 30, 10]}

CHUNK = 512  # sequence values per thread

_SRC = r"""
// State bit r (word r / 64, bit r % 64) holds s_{i+r}. table: B matrices of n rows of W
// words, matrix b advancing the register by CHUNK * 2^b steps.
__device__ __forceinline__ void mls_apply(const unsigned long long* rows, long long n,
                                          unsigned long long* st) {
  unsigned long long nxt[{W}];
  for (int w = 0; w < {W}; ++w) nxt[w] = 0ULL;
  for (long long r = 0; r < n; ++r) {
    unsigned long long acc = 0ULL;
    for (int w = 0; w < {W}; ++w) acc ^= rows[r * {W} + w] & st[w];
    if (cuarray_popcount(acc) & 1) nxt[r >> 6] |= 1ULL << (r & 63);
  }
  for (int w = 0; w < {W}; ++w) st[w] = nxt[w];
}

extern "C" __global__ void mls(const unsigned long long* table, const unsigned long long* mask,
                               const unsigned long long* init, long long n, long long length,
                               long long chunk, long long nchunks, long long nbits_table,
                               signed char* out, signed char* state_out) {
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nchunks;
       k += (long long)gridDim.x * blockDim.x) {
    unsigned long long st[{W}];
    for (int w = 0; w < {W}; ++w) st[w] = init[w];
    for (long long b = 0; b < nbits_table; ++b)
      if ((k >> b) & 1) mls_apply(table + b * n * {W}, n, st);
    const long long start = k * chunk;
    const long long stop = start + chunk < length ? start + chunk : length;
    const long long top = n - 1;
    for (long long j = start; j < stop; ++j) {
      out[j] = (signed char)(st[0] & 1ULL);
      unsigned long long acc = 0ULL;
      for (int w = 0; w < {W}; ++w) acc ^= st[w] & mask[w];
      const unsigned long long fb = (unsigned long long)(cuarray_popcount(acc) & 1);
      for (int w = 0; w < {W}; ++w) {
        const unsigned long long carry = (w + 1 < {W}) ? (st[w + 1] & 1ULL) : 0ULL;
        st[w] = (st[w] >> 1) | (carry << 63);
      }
      st[top >> 6] |= fb << (top & 63);
    }
    if (k == nchunks - 1)
      for (long long r = 0; r < n; ++r)
        state_out[r] = (signed char)((st[r >> 6] >> (r & 63)) & 1ULL);
  }
}
"""

_tables = {}


def _matmul(a, b):
    """The bit matrix a @ b over GF(2), rows as Python ints (bit c of row r: entry (r, c))."""
    out = []
    for row in a:
        acc = 0
        while row:
            low = row & -row
            acc ^= b[low.bit_length() - 1]
            row ^= low
        out.append(acc)
    return out


def _table(nbits, mask, levels):
    """Rows of the transition matrix to the powers CHUNK * 2^b, b < levels, as uint64 words."""
    key = (nbits, mask, levels)
    t = _tables.get(key)
    if t is None:
        step = [1 << (r + 1) for r in range(nbits - 1)] + [mask]
        jump = [1 << r for r in range(nbits)]
        power, e = step, CHUNK
        while e:  # jump = step ** CHUNK by squaring
            if e & 1:
                jump = _matmul(jump, power)
            power = _matmul(power, power)
            e >>= 1
        mats = []
        for _ in range(levels):
            mats.append(jump)
            jump = _matmul(jump, jump)
        t = _tables[key] = _words([row for m in mats for row in m], nbits)
    return t


def _words(rows, nbits):
    W = (nbits + 63) // 64
    out = numpy.zeros((max(len(rows), 1), W), numpy.uint64)
    for i, row in enumerate(rows):
        for w in range(W):
            out[i, w] = (row >> (64 * w)) & 0xFFFFFFFFFFFFFFFF
    return out.ravel()


def max_len_seq(nbits, state=None, length=None, taps=None):
    """cuarray version of `scipy.signal.max_len_seq`. A device `state` is read on the host
    (nbits values)."""
    nbits = operator.index(nbits)
    if taps is None:
        if nbits not in _MLS_TAPS:
            raise ValueError(f"nbits must be between {min(_MLS_TAPS)} and {max(_MLS_TAPS)} "
                             "if taps is None")
        taps = list(_MLS_TAPS[nbits])
    else:
        taps = cuarray.asnumpy(taps) if isinstance(taps, ndarray) else taps
        taps = numpy.unique(numpy.array(taps, numpy.int64))[::-1]
        if numpy.any(taps < 0) or numpy.any(taps > nbits) or taps.size < 1:
            raise ValueError("taps must be non-empty with values between zero and nbits "
                             "(inclusive)")
        taps = [int(t) for t in taps]
    n_max = 2 ** nbits - 1
    if length is None:
        length = n_max
    else:
        length = int(length)
        if length < 0:
            raise ValueError("length must be greater than or equal to 0")
    if state is None:
        state = numpy.ones(nbits, numpy.int8)
    else:
        state = cuarray.asnumpy(state) if isinstance(state, ndarray) else state
        state = numpy.array(state, dtype=bool).astype(numpy.int8)
    if state.ndim != 1 or state.size != nbits:
        raise ValueError("state must be a 1-D array of size nbits")
    if not state.any():
        raise ValueError("state must not be all zeros")
    # tap t reads s_{j + t mod nbits}; tap 0 (or nbits) cancels the register's own bit
    mask = 1
    for t in taps:
        mask ^= 1 << (t % nbits)
    init = sum(int(v) << r for r, v in enumerate(state))
    nchunks = length // CHUNK + 1
    levels = max(nchunks - 1, 1).bit_length()
    W = (nbits + 63) // 64
    seq = cuarray.empty(length, numpy.int8)
    state_out = cuarray.empty(nbits, numpy.int8)
    args = (cuarray.asarray(_table(nbits, mask, levels)), cuarray.asarray(_words([mask], nbits)),
            cuarray.asarray(_words([init], nbits)), nbits, length, CHUNK, nchunks, levels,
            seq, state_out)
    _k.launch(_k.kernel(_SRC, "mls", W=W), nchunks, args)
    return seq, state_out
