"""The CUDA sources of the k-d tree (cuarray.scipy.spatial.KDTree).

The tree is implicit: node `v` of level `L` (heap numbering, children 2v+1 and 2v+2) owns
the positions `[(j n) >> L, ((j + 1) n) >> L)` of the permuted points, j = v - (2^L - 1),
so only its split dimension and value are stored. Every leaf sits at level `depth`.
Distances are kept as p-th powers (the largest coordinate difference for p = inf) until
the results are written.
"""

# p modes: the powered length of one coordinate difference, and how they combine
_POW = {
    "1": ("fabs(t)", "a + b"),
    "2": ("t * t", "a + b"),
    "inf": ("fabs(t)", "fmax(a, b)"),
    "p": ("pow(fabs(t), p)", "a + b"),
}


def pmode(p):
    if p == 1:
        return "1"
    if p == 2:
        return "2"
    if p == float("inf"):
        return "inf"
    return "p"


_COMMON = r"""
#define M ${M}
__device__ __forceinline__ double kd_len(double t, double p) { return ${LEN}; }
__device__ __forceinline__ double kd_add(double a, double b) { return ${ADD}; }

// Distance from q to point `i` of the permuted data, stopping once it reaches `bound`.
__device__ __forceinline__ double kd_dist(const double* pts, long long i, const double* q,
                                          double p, double bound) {
  double s = 0;
  for (int d = 0; d < M; ++d) {
    s = kd_add(s, kd_len(q[d] - pts[i * M + d], p));
    if (M > 4 && s > bound) break;
  }
  return s;
}
"""

# k nearest neighbours: one thread per query point, depth-first, nearer child first. The
# k best so far are a max-heap in `HD`/`HI` (a local array of KLOCAL entries, or the
# query's own output row when k > KLOCAL), seeded with k copies of (bound, n) so that the
# heap is always full and its root is the distance a candidate must beat.
QUERY = _COMMON + r"""
#define KLOCAL ${KLOCAL}

// Put (d, i) at the root of the max-heap HD/HI of its first n entries and sift it down.
__device__ __forceinline__ void kd_sift(double* HD, long long* HI, int n, double d,
                                        long long i) {
  int c = 0;
  while (true) {
    int l = 2 * c + 1;
    if (l >= n) break;
    if (l + 1 < n && HD[l + 1] > HD[l]) ++l;
    if (HD[l] <= d) break;
    HD[c] = HD[l]; HI[c] = HI[l]; c = l;
  }
  HD[c] = d; HI[c] = i;
}

extern "C" __global__ void kd_query(const double* pts, const long long* idx, const int* sdim,
    const double* sval, const double* x, const long long* order, long long nq, long long n,
    int depth, int k, double p, double ub, double epsfac, double* out_d, long long* out_i) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < nq;
       t += (long long)gridDim.x * blockDim.x) {
    const long long qi = order[t];
    double q[M];
    for (int d = 0; d < M; ++d) q[d] = x[qi * M + d];
#if KLOCAL > 0
    double HD[KLOCAL];
    long long HI[KLOCAL];
#else
    double* HD = out_d + qi * k;
    long long* HI = out_i + qi * k;
#endif
    for (int j = 0; j < k; ++j) { HD[j] = ub; HI[j] = n; }
    int snode[64], slev[64];
    double sb[64];
    int sp = 0, node = 0, lev = 0;
    double b = 0;
    while (true) {
      if (b * epsfac < HD[0]) {
        while (lev < depth) {
          const double diff = q[sdim[node]] - sval[node];
          const int right = diff >= 0;
          const double fb = fmax(b, kd_len(diff, p));
          if (fb * epsfac < HD[0]) {
            snode[sp] = 2 * node + 2 - right; slev[sp] = lev + 1; sb[sp] = fb; ++sp;
          }
          node = 2 * node + 1 + right; ++lev;
        }
        const long long j = node - ((1LL << depth) - 1);
        const long long lo = (j * n) >> depth, hi = ((j + 1) * n) >> depth;
        for (long long i = lo; i < hi; ++i) {
          const double dd = kd_dist(pts, i, q, p, HD[0]);
          if (dd < HD[0]) kd_sift(HD, HI, k, dd, idx[i]);   // replace the root
        }
      }
      if (sp == 0) break;
      --sp; node = snode[sp]; lev = slev[sp]; b = sb[sp];
    }
    // heap sort in place: ascending distances
    for (int end = k - 1; end > 0; --end) {
      const double vd = HD[end]; const long long vi = HI[end];
      HD[end] = HD[0]; HI[end] = HI[0];
      kd_sift(HD, HI, end, vd, vi);
    }
    for (int j = 0; j < k; ++j) {
      const double dd = HD[j];
      const long long ii = HI[j];
      out_d[qi * k + j] = ii == n ? cuarray_f64(0x7ff0000000000000ull) : ${ROOT};
      out_i[qi * k + j] = ii;
    }
  }
}
"""

# The leaf each query point falls into (descending by the splits): query points sorted
# by it walk the tree in step with their warp's neighbours.
LEAF = _COMMON + r"""
extern "C" __global__ void kd_leaf(const int* sdim, const double* sval, const double* x,
                                   long long nq, int depth, long long* leaf) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < nq;
       t += (long long)gridDim.x * blockDim.x) {
    int node = 0;
    for (int lev = 0; lev < depth; ++lev)
      node = 2 * node + 1 + (x[t * M + sdim[node]] - sval[node] >= 0);
    leaf[t] = node;
  }
}
"""

# Points within r of each query: the count (fill = 0) or the indices written from
# `start[t]` (fill = 1); the same traversal both times so the counts match the writes.
BALL = _COMMON + r"""
extern "C" __global__ void kd_ball(const double* pts, const long long* idx, const int* sdim,
    const double* sval, const double* x, const double* rp, long long nq, long long n,
    int depth, double p, double epsfac, int fill, long long* count, const long long* start,
    long long* out) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < nq;
       t += (long long)gridDim.x * blockDim.x) {
    double q[M];
    for (int d = 0; d < M; ++d) q[d] = x[t * M + d];
    const double r = rp[t];
    long long c = 0, base = fill ? start[t] : 0;
    int snode[64], slev[64];
    double sb[64];
    int sp = 0, node = 0, lev = 0;
    double b = 0;
    if (n > 0) while (true) {
      if (b * epsfac <= r) {
        while (lev < depth) {
          const double diff = q[sdim[node]] - sval[node];
          const int right = diff >= 0;
          const double fb = fmax(b, kd_len(diff, p));
          if (fb * epsfac <= r) {
            snode[sp] = 2 * node + 2 - right; slev[sp] = lev + 1; sb[sp] = fb; ++sp;
          }
          node = 2 * node + 1 + right; ++lev;
        }
        const long long j = node - ((1LL << depth) - 1);
        const long long lo = (j * n) >> depth, hi = ((j + 1) * n) >> depth;
        for (long long i = lo; i < hi; ++i) {
          if (kd_dist(pts, i, q, p, r) <= r) {
            if (fill) out[base + c] = t * n + idx[i];
            ++c;
          }
        }
      }
      if (sp == 0) break;
      --sp; node = snode[sp]; lev = slev[sp]; b = sb[sp];
    }
    if (!fill) count[t] = c;
  }
}
"""

ROOT = {"1": "dd", "2": "sqrt(dd)", "inf": "dd", "p": "pow(dd, 1.0 / p)"}

# The build, one level at a time (`_kdtree.KDTree._build`). The permutation `perm`
# (unsigned, P) lists the points by position; `rank` holds, per dimension, each point's
# dense rank among that dimension's distinct values, so that one radix sort of
# (node << B) | rank[dim of node][point] orders every node's range by its split coordinate
# at once, ties keeping their previous order.
BUILD = r"""
#define M ${M}
typedef ${K} K;
typedef ${P} P;   // point indices: perm and ranks
#define KD_INF cuarray_f64(0x7ff0000000000000ull)

// The node of level `lev` owning position `pos` (the inverse of the node ranges).
__device__ __forceinline__ long long kd_seg(long long pos, long long nseg, long long n) {
  return ((pos + 1) * nseg + n - 1) / n - 1;
}

// Bounds of the level's nodes by groups of G lanes (G a power of two <= 32): group `g`
// covers part g % C of node g / C. A block steps through the groups as one, so every lane
// of a warp reaches the shuffles.
extern "C" __global__ void kd_bounds(const double* data, const P* perm, long long n,
    int lev, int G, long long C, long long ngroups, double* lo, double* hi) {
  const long long total = ngroups * G;
  for (long long base = (long long)blockIdx.x * blockDim.x; base < total;
       base += (long long)gridDim.x * blockDim.x) {
    const long long g = (base + threadIdx.x) / G;
    const int lane = threadIdx.x % G;
    double mn[M], mx[M];
    for (int d = 0; d < M; ++d) { mn[d] = KD_INF; mx[d] = -KD_INF; }
    if (g < ngroups) {
      const long long seg = g / C, part = g % C;
      const long long s0 = (seg * n) >> lev, len = (((seg + 1) * n) >> lev) - s0;
      const long long a = s0 + len * part / C, b = s0 + len * (part + 1) / C;
      for (long long p = a + lane; p < b; p += G) {
        const double* x = data + (long long)perm[p] * M;
        for (int d = 0; d < M; ++d) { mn[d] = fmin(mn[d], x[d]); mx[d] = fmax(mx[d], x[d]); }
      }
    }
    for (int off = G >> 1; off > 0; off >>= 1)
      for (int d = 0; d < M; ++d) {
        mn[d] = fmin(mn[d], __shfl_xor_sync(0xffffffffu, mn[d], off));
        mx[d] = fmax(mx[d], __shfl_xor_sync(0xffffffffu, mx[d], off));
      }
    if (g < ngroups && lane == 0)
      for (int d = 0; d < M; ++d) { lo[g * M + d] = mn[d]; hi[g * M + d] = mx[d]; }
  }
}

// One warp per node: the C parts' bounds combined, the split dimension the first of
// largest spread (as argmax).
extern "C" __global__ void kd_split(const double* lo, const double* hi, long long nseg,
                                    long long C, int* dim) {
  const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; w < nseg;
       w += warps) {
    const int lane = threadIdx.x & 31;
    double mn[M], mx[M];
    for (int d = 0; d < M; ++d) { mn[d] = KD_INF; mx[d] = -KD_INF; }
    for (long long c = lane; c < C; c += 32)
      for (int d = 0; d < M; ++d) {
        mn[d] = fmin(mn[d], lo[(w * C + c) * M + d]);
        mx[d] = fmax(mx[d], hi[(w * C + c) * M + d]);
      }
    for (int off = 16; off > 0; off >>= 1)
      for (int d = 0; d < M; ++d) {
        mn[d] = fmin(mn[d], __shfl_xor_sync(0xffffffffu, mn[d], off));
        mx[d] = fmax(mx[d], __shfl_xor_sync(0xffffffffu, mx[d], off));
      }
    if (lane == 0) {
      int best = 0;
      double bs = mx[0] - mn[0];
      for (int d = 1; d < M; ++d)
        if (mx[d] - mn[d] > bs) { bs = mx[d] - mn[d]; best = d; }
      dim[w] = best;
    }
  }
}

// The sort key of every position: its node above the rank of its point's coordinate
// along the node's split dimension.
extern "C" __global__ void kd_keys(const P* perm, const P* rank,
    const int* dim, long long n, int lev, int B, K* key) {
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < n;
       p += (long long)gridDim.x * blockDim.x) {
    const long long seg = kd_seg(p, 1LL << lev, n);
    key[p] = ((K)seg << B) | (K)rank[(long long)dim[seg] * n + perm[p]];
  }
}

// The split values: the coordinate of the first point of each node's right half. A right
// half can be empty (leafsize 1, n not a power of two): then the largest of the left
// half's, so that the queries' bound |q - split| never exceeds a true distance.
extern "C" __global__ void kd_sval(const double* data, const P* perm,
    const int* dim, long long n, int lev, double* sval) {
  const long long nseg = 1LL << lev;
  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < nseg;
       j += (long long)gridDim.x * blockDim.x) {
    const long long hi = ((j + 1) * n) >> lev;
    long long mid = ((2 * j + 1) * n) >> (lev + 1);
    if (mid >= hi) mid = hi - 1;
    sval[j] = data[(long long)perm[mid] * M + dim[j]];
  }
}
"""
