"""The CUDA sources of the 2-D Delaunay triangulation (cuarray.scipy.spatial.Delaunay).

`BUILD` is Bowyer-Watson insertion run by one GPU thread: triangles are (V, N) triples
(N[k] is the neighbour opposite V[k]); the hull is closed by "ghost" triangles (u, v, G)
whose third vertex G = n stands for the point at infinity, so every triangle has three
neighbours and a point outside the hull is inserted exactly as one inside: its cavity is
every triangle whose circumcircle holds it, a ghost triangle's "circle" being the open
half-plane beyond its hull edge. Points arrive in Morton order, and each walk to the
triangle holding the next point starts from the last triangle made, so walks and
cavities stay short and their memory stays in cache. The topology is inherently
sequential here (one cavity after another); everything around it (normalising, ordering,
compaction, neighbours, transforms, point location) is parallel.
"""

BUILD = r"""
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

extern "C" __global__ void dt_build(const double* P, const long long* order, long long n64,
    int* V, int* N, int* mark, int* smap, int* emap, int* cav, int* bnd,
    unsigned char* used, long long* info) {
  if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
  const int n = (int)n64, G = n;
  // the first triangle: two distinct points and the first point off their line
  const int i0 = (int)order[0];
  int i1 = -1, i2 = -1, k1 = -1, k2 = -1;
  for (int k = 1; k < n && i1 < 0; ++k) {
    const int q = (int)order[k];
    if (P[2 * q] != P[2 * i0] || P[2 * q + 1] != P[2 * i0 + 1]) { i1 = q; k1 = k; }
  }
  for (int k = 1; k < n && i1 >= 0 && i2 < 0; ++k) {
    const int q = (int)order[k];
    if (orient(P, i0, i1, q) != 0) { i2 = q; k2 = k; }
  }
  if (i2 < 0) { info[0] = -1; return; }   // every point on one line
  int a = i0, b = i1, c = i2;
  if (orient(P, a, b, c) < 0) { b = i2; c = i1; }
  const int init[12] = {a, b, c, b, a, G, c, b, G, a, c, G};
  for (int k = 0; k < 12; ++k) V[k] = init[k];
  for (int s = 0; s < 4; ++s)       // neighbours: the triangle holding each edge reversed
    for (int k = 0; k < 3; ++k) {
      const int u = V[3 * s + (k + 1) % 3], w = V[3 * s + (k + 2) % 3];
      for (int t = 0; t < 4; ++t)
        for (int j = 0; j < 3; ++j)
          if (t != s && V[3 * t + (j + 1) % 3] == w && V[3 * t + (j + 2) % 3] == u)
            N[3 * s + k] = t;
    }
  used[i0] = used[i1] = used[i2] = 1;
  int cnt = 4, last = 0, rot = 0;
  for (int k = 1; k < n; ++k) {
    if (k == k1 || k == k2) continue;
    const int p = (int)order[k];
    // walk towards p until a triangle holds it (or a ghost: p is beyond the hull)
    int t = last;
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
      if (++steps > 4LL * cnt + 64) { info[0] = -2; return; }
    }
    if (V[3 * t + 2] != G) {
      bool dup = false;
      for (int j = 0; j < 3; ++j) {
        const int v = V[3 * t + j];
        dup |= P[2 * v] == P[2 * p] && P[2 * v + 1] == P[2 * p + 1];
      }
      if (dup) continue;     // a repeated point joins no triangle (SciPy's coplanar)
    }
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
