"""The CUDA sources of the 2-D Delaunay triangulation (cuarray.scipy.spatial.Delaunay).

Triangles are (V, N) triples (N[k] is the neighbour opposite V[k]); the hull is closed by
"ghost" triangles (u, v, G) whose third vertex G = n stands for the point at infinity, so
every triangle has three neighbours and a point outside the hull is inserted exactly as
one inside (Bowyer-Watson): its cavity is every triangle whose circumcircle holds it, a
ghost triangle's "circle" being the open half-plane beyond its hull edge.

`BUILD` inserts points one by one in one GPU thread (walks start from the last triangle
made, so with Morton-ordered points they stay short). `PARALLEL` inserts many points per
round, one thread each, where their cavities and surroundings do not touch. The
triangulation starts with `BUILD` on a spread sample and grows in `PARALLEL` rounds;
`BUILD` alone takes small sets, degenerate input (an exact zero of a predicate during
the rounds) and any rest whose cavities are all too large.
"""

COMMON = r"""
__device__ __forceinline__ double orient(const double* P, int a, int b, int c) {
  return (P[2 * b] - P[2 * a]) * (P[2 * c + 1] - P[2 * a + 1])
       - (P[2 * b + 1] - P[2 * a + 1]) * (P[2 * c] - P[2 * a]);
}

__device__ __forceinline__ double incircle(const double* P, int a, int b, int c, int d) {
  const double dx = P[2 * d], dy = P[2 * d + 1];
  const double adx = P[2 * a] - dx, ady = P[2 * a + 1] - dy;
  const double bdx = P[2 * b] - dx, bdy = P[2 * b + 1] - dy;
  const double cdx = P[2 * c] - dx, cdy = P[2 * c + 1] - dy;
  return (adx * adx + ady * ady) * (bdx * cdy - cdx * bdy)
       + (bdx * bdx + bdy * bdy) * (cdx * ady - adx * cdy)
       + (cdx * cdx + cdy * cdy) * (adx * bdy - bdx * ady);
}

// Does point p lie in the circumcircle of triangle t (for a ghost: beyond its hull edge,
// or on the edge's line strictly between its ends)?
__device__ bool conflict(const double* P, const int* V, int t, int p, int G) {
  const int a = V[3 * t], b = V[3 * t + 1], c = V[3 * t + 2];
  if (c == G) {
    const double o = orient(P, a, b, p);
    if (o != 0) return o > 0;
    const double ex = P[2 * b] - P[2 * a], ey = P[2 * b + 1] - P[2 * a + 1];
    const double s = (P[2 * p] - P[2 * a]) * ex + (P[2 * p + 1] - P[2 * a + 1]) * ey;
    return s > 0 && s < ex * ex + ey * ey;
  }
  return incircle(P, a, b, c, p) > 0;
}

__device__ void set_opp(const int* V, int* N, int t, int w, int val) {
  for (int k = 0; k < 3; ++k) if (V[3 * t + k] == w) { N[3 * t + k] = val; return; }
}

// A walk's first triangle: a ghost hands over to the real triangle across its hull edge.
__device__ __forceinline__ int real_start(const int* V, const int* N, int t, int G) {
  return V[3 * t + 2] == G ? N[3 * t + 2] : t;
}

// Walks from t towards p until a triangle holds it (or a ghost: p is beyond the hull);
// each step tries the edges from rot % 3 on (rot advances per step); -1 after `limit`
// steps.
__device__ __forceinline__ int walk(const double* P, const int* V, const int* N, int t, int p, int G,
                                    long long limit, int& rot) {
  long long steps = 0;
  while (V[3 * t + 2] != G) {
    int nt = -1;
    const int r0 = rot++ % 3;
    for (int e = 0; e < 3 && nt < 0; ++e) {
      const int i = (r0 + e) % 3;
      if (orient(P, V[3 * t + (i + 1) % 3], V[3 * t + (i + 2) % 3], p) < 0) nt = N[3 * t + i];
    }
    if (nt < 0) break;
    t = nt;
    if (++steps > limit) return -1;
  }
  return t;
}

// Is p a repeat of a vertex of t, where its walk ended (a ghost: never)?
__device__ bool repeated(const double* P, const int* V, int t, int p, int G) {
  if (V[3 * t + 2] == G) return false;
  bool dup = false;
  for (int j = 0; j < 3; ++j) {
    const int v = V[3 * t + j];
    dup |= P[2 * v] == P[2 * p] && P[2 * v + 1] == P[2 * p + 1];
  }
  return dup;
}

"""

BUILD = COMMON + r"""
// Inserts order[0..m) one at a time. With init set, the first triangle is made from them;
// otherwise the triangulation of info[0] triangles is extended (mark must be zero).
extern "C" __global__ void dt_build(const double* P, const long long* order, long long m64,
    long long n64, int init, int* V, int* N, int* mark, int* smap, int* emap, int* cav,
    int* bnd, unsigned char* used, long long* info) {
  if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
  const int m = (int)m64, n = (int)n64, G = n;
  int k1 = -1, k2 = -1, cnt = (int)info[0];
  if (init) {
    // the first triangle: two distinct points and the first point off their line
    const int i0 = (int)order[0];
    int i1 = -1, i2 = -1;
    for (int k = 1; k < m && i1 < 0; ++k) {
      const int q = (int)order[k];
      if (P[2 * q] != P[2 * i0] || P[2 * q + 1] != P[2 * i0 + 1]) { i1 = q; k1 = k; }
    }
    for (int k = 1; k < m && i1 >= 0 && i2 < 0; ++k) {
      const int q = (int)order[k];
      if (orient(P, i0, i1, q) != 0) { i2 = q; k2 = k; }
    }
    if (i2 < 0) { info[0] = -1; return; }   // every point on one line
    int a = i0, b = i1, c = i2;
    if (orient(P, a, b, c) < 0) { b = i2; c = i1; }
    const int init3[12] = {a, b, c, b, a, G, c, b, G, a, c, G};
    for (int k = 0; k < 12; ++k) V[k] = init3[k];
    for (int s = 0; s < 4; ++s)       // neighbours: the triangle holding each edge reversed
      for (int k = 0; k < 3; ++k) {
        const int u = V[3 * s + (k + 1) % 3], w = V[3 * s + (k + 2) % 3];
        for (int t = 0; t < 4; ++t)
          for (int j = 0; j < 3; ++j)
            if (t != s && V[3 * t + (j + 1) % 3] == w && V[3 * t + (j + 2) % 3] == u)
              N[3 * s + k] = t;
      }
    used[i0] = used[i1] = used[i2] = 1;
    cnt = 4;
  }
  int last = real_start(V, N, 0, G), rot = 0;
  for (int k = init ? 1 : 0; k < m; ++k) {
    if (k == k1 || k == k2) continue;
    const int p = (int)order[k];
    const int t = walk(P, V, N, last, p, G, 4LL * cnt + 64, rot);
    if (t < 0) { info[0] = -2; return; }
    if (repeated(P, V, t, p, G)) { used[p] = 2; continue; }   // a repeated point joins no triangle
    used[p] = 1;
    // the cavity: triangles in conflict with p, found from t across shared edges
    const int stamp = k + 1;
    mark[t] = stamp;
    cav[0] = t;
    int nc = 1, nb = 0;
    for (int ci = 0; ci < nc; ++ci) {
      const int cc = cav[ci];
      for (int i = 0; i < 3; ++i) {
        const int o = N[3 * cc + i];
        if (mark[o] == stamp) continue;
        if (conflict(P, V, o, p, G)) { mark[o] = stamp; cav[nc++] = o; }
        else {
          bnd[3 * nb] = V[3 * cc + (i + 1) % 3];
          bnd[3 * nb + 1] = V[3 * cc + (i + 2) % 3];
          bnd[3 * nb + 2] = o;
          ++nb;
        }
      }
    }
    // one new triangle (a, b, p) per boundary edge, in the cavity's slots first
    for (int j = 0; j < nb; ++j) {
      const int ea = bnd[3 * j], eb = bnd[3 * j + 1], o = bnd[3 * j + 2];
      const int s = j < nc ? cav[j] : cnt++;
      int* v = V + 3 * s;
      int* m = N + 3 * s;
      // rotated so that G comes last; m[] opposite p is o, the rest is linked below
      if (ea == G) { v[0] = eb; v[1] = p; v[2] = G; m[1] = o; }
      else if (eb == G) { v[0] = p; v[1] = ea; v[2] = G; m[0] = o; }
      else { v[0] = ea; v[1] = eb; v[2] = p; m[2] = o; }
      // o's edge (eb, ea) now faces s
      for (int q = 0; q < 3; ++q) {
        const int w = V[3 * o + q];
        if (w != ea && w != eb) N[3 * o + q] = s;
      }
      smap[ea] = s;
      emap[eb] = s;
      if (v[2] != G) last = s;
    }
    for (int j = 0; j < nb; ++j) {
      const int ea = bnd[3 * j], eb = bnd[3 * j + 1];
      const int s = smap[ea];
      set_opp(V, N, s, ea, smap[eb]);    // edge (eb, p)
      set_opp(V, N, s, eb, emap[ea]);    // edge (p, ea)
    }
  }
  info[0] = cnt;
}
"""

# Parallel insertion rounds. Every remaining point walks to the triangle holding it
# (dt_walk) and each triangle keeps its smallest point; those points find their cavities
# and claim them and the triangles around them (dt_claim stage 0); a point that keeps its
# claims (stage 1) is inserted (dt_insert). No winner's cavity meets or touches another's
# (each rewrites only its own cavity and the facing edges around it), so the insertions
# commute and the result is the
# Delaunay triangulation, as sequential insertion gives, for points in general position
# (an exact zero of a predicate sets err, and the caller redoes the set with dt_build).
# The smallest candidate always wins, so every round inserts a point unless all cavities
# are too large (CMAX): then the rest goes to dt_build.
PARALLEL = COMMON + r"""
#define CMAX ${CMAX}
#define BMAX (CMAX + 2)
#define NONE 0x7fffffff

// conflict() that also reports an exact zero of its predicate in `deg`: the parallel
// rounds are exact only for points in general position, so such input is redone by
// dt_build.
__device__ bool conflict_d(const double* P, const int* V, int t, int p, int G, int& deg) {
  const int a = V[3 * t], b = V[3 * t + 1], c = V[3 * t + 2];
  const double d = c == G ? orient(P, a, b, p) : incircle(P, a, b, c, p);
  if (d == 0) deg = 1;
  return conflict(P, V, t, p, G);
}

// The cavity of p from t: its triangles in cav, the boundary edges (a, b, outside) in bnd.
// False when it exceeds CMAX triangles.
__device__ bool cavity(const double* P, const int* V, const int* N, int t, int p, int G,
                       int* cav, int* bnd, int& nc, int& nb, int& deg) {
  cav[0] = t; nc = 1; nb = 0;
  for (int ci = 0; ci < nc; ++ci) {
    const int cc = cav[ci];
    for (int i = 0; i < 3; ++i) {
      const int o = N[3 * cc + i];
      bool seen = false;
      for (int q = 0; q < nc && !seen; ++q) seen = cav[q] == o;
      if (seen) continue;
      if (conflict_d(P, V, o, p, G, deg)) {
        if (nc == CMAX) return false;
        cav[nc++] = o;
      } else {
        if (nb == BMAX) return false;
        bnd[3 * nb] = V[3 * cc + (i + 1) % 3];
        bnd[3 * nb + 1] = V[3 * cc + (i + 2) % 3];
        bnd[3 * nb + 2] = o;
        ++nb;
      }
    }
  }
  return true;
}

extern "C" __global__ void dt_walk(const double* P, const int* rem, long long nr,
    const int* V, const int* N, int* loc, int* owner, unsigned char* used, long long n,
    long long cnt, int* err) {
  const int G = (int)n;
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < nr;
       r += (long long)gridDim.x * blockDim.x) {
    const int p = rem[r];
    // A point on an edge line is no degeneracy for the rounds (the cavity tests decide),
    // and a repeated point is caught where its walk ends.
    int rot = p;
    const int t = walk(P, V, N, real_start(V, N, loc[p], G), p, G, 4 * cnt + 64, rot);
    if (t < 0) { err[0] = 1; continue; }
    if (repeated(P, V, t, p, G)) { used[p] = 2; continue; }
    loc[p] = t;
    atomicMin(owner + t, p);
  }
}

// stage 0: claim the cavity (claim) and the triangles around it (near); stage 1: p wins
// when no smaller point claimed its cavity in either way and no smaller point's cavity
// holds a triangle around p's. Two winners' cavities then neither meet nor touch; they may
// share a triangle around both, whose different edges each rewrites.
extern "C" __global__ void dt_claim(const double* P, const int* rem, long long nr,
    const int* V, const int* N, const int* loc, const int* owner, const unsigned char* used,
    long long n, int stage, int* claim, int* near, unsigned char* win, int* err) {
  const int G = (int)n;
  int cav[CMAX], bnd[3 * BMAX];
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < nr;
       r += (long long)gridDim.x * blockDim.x) {
    const int p = rem[r];
    if (stage == 0) win[p] = 0;
    if (used[p] || owner[loc[p]] != p) continue;
    if (stage == 1 && !win[p]) continue;
    int nc, nb, deg = 0;
    const bool ok = cavity(P, V, N, loc[p], p, G, cav, bnd, nc, nb, deg);
    if (deg) err[0] = 1;
    if (!ok) continue;
    bool mine = true;
    for (int j = 0; j < nc; ++j) {
      if (stage == 0) atomicMin(claim + cav[j], p);
      else mine &= claim[cav[j]] == p && near[cav[j]] >= p;
    }
    for (int j = 0; j < nb; ++j) {
      if (stage == 0) atomicMin(near + bnd[3 * j + 2], p);
      else mine &= claim[bnd[3 * j + 2]] > p;
    }
    win[p] = stage == 0 ? 1 : (mine ? 2 : 0);
  }
}

extern "C" __global__ void dt_insert(const double* P, const int* rem, long long nr, int* V,
    int* N, int* loc, unsigned char* used, const unsigned char* win, long long n, int* cnt) {
  const int G = (int)n;
  int cav[CMAX], bnd[3 * BMAX], slot[BMAX];
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < nr;
       r += (long long)gridDim.x * blockDim.x) {
    const int p = rem[r];
    if (win[p] != 2) continue;
    int nc, nb, deg = 0;
    cavity(P, V, N, loc[p], p, G, cav, bnd, nc, nb, deg);
    const int extra = atomicAdd(cnt, nb - nc);
    for (int j = 0; j < nb; ++j) slot[j] = j < nc ? cav[j] : extra + (j - nc);
    for (int j = 0; j < nb; ++j) {
      const int ea = bnd[3 * j], eb = bnd[3 * j + 1], o = bnd[3 * j + 2], s = slot[j];
      int* v = V + 3 * s;
      int* m = N + 3 * s;
      if (ea == G) { v[0] = eb; v[1] = p; v[2] = G; m[1] = o; }
      else if (eb == G) { v[0] = p; v[1] = ea; v[2] = G; m[0] = o; }
      else { v[0] = ea; v[1] = eb; v[2] = p; m[2] = o; }
      for (int q = 0; q < 3; ++q) {
        const int w = V[3 * o + q];
        if (w != ea && w != eb) N[3 * o + q] = s;
      }
    }
    for (int j = 0; j < nb; ++j) {
      const int ea = bnd[3 * j], eb = bnd[3 * j + 1];
      for (int q = 0; q < nb; ++q) {
        if (bnd[3 * q] == eb) set_opp(V, N, slot[j], ea, slot[q]);       // edge (eb, p)
        if (bnd[3 * q + 1] == ea) set_opp(V, N, slot[j], eb, slot[q]);   // edge (p, ea)
      }
    }
    used[p] = 1;
    loc[p] = slot[0];
  }
}
"""

# Which triangle holds each query point: a walk from `start` that steps across the edge of
# the most negative barycentric coordinate; leaving through the hull means outside (-1).
# A walk that has not ended after every triangle's worth of steps scans them all.
LOCATE = r"""
__device__ __forceinline__ void bary(const double* T, long long t, double x, double y,
                                     double* c) {
  const double* m = T + t * 6;
  const double dx = x - m[4], dy = y - m[5];
  c[0] = m[0] * dx + m[1] * dy;
  c[1] = m[2] * dx + m[3] * dy;
  c[2] = 1 - c[0] - c[1];
}

extern "C" __global__ void dt_locate(const double* T, const int* N, const long long* start,
    const double* X, long long nq, long long ns, double eps, int* out) {
  for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < nq;
       q += (long long)gridDim.x * blockDim.x) {
    const double x = X[2 * q], y = X[2 * q + 1];
    long long t = start[q];
    int res = -1;
    double c[3];
    long long steps = 0;
    bool done = ns == 0;
    while (!done) {
      bary(T, t, x, y, c);
      int j = 0;
      if (c[1] < c[j]) j = 1;
      if (c[2] < c[j]) j = 2;
      if (c[j] >= -eps) { res = (int)t; break; }
      const int nt = N[3 * t + j];
      if (nt < 0) break;
      t = nt;
      if (++steps > ns) {
        for (long long s = 0; s < ns; ++s) {
          bary(T, s, x, y, c);
          if (c[0] >= -eps && c[1] >= -eps && c[2] >= -eps) { res = (int)s; break; }
        }
        done = true;
      }
    }
    out[q] = res;
  }
}
"""
