"""The CUDA kernels of `cuarray.scipy.interpolate`: interval search fused with evaluation.

Every evaluation kernel is a grid-stride loop over points: a binary search for the point's
interval in the breakpoints (or knots, or grid axes), then the interpolant's formula for
each of the point's `nc` values (the trailing axes of the data, flattened). Breakpoints
and points are float64; data are float64, complex128 (or, for the index-selecting kernels,
any dtype). The banded solver factors once on one thread (partial pivoting) and solves
every right-hand side on its own thread.

Interval rules, as SciPy's:
- piecewise polynomials and B-splines: the rightmost interval i in [0, m-1] with
  x[i] <= v (the last interval is closed); beyond either end the end interval when
  extrapolating, else NaN; NaN points give NaN; descending breakpoints search -x.
- interp1d: NumPy's `searchsorted` (NaN sorts last) on the breakpoints or the midpoints.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import kernel, launch, render

_f64 = numpy.dtype(numpy.float64)
BLOCK = 256

PRELUDE = r"""
#include <cuarray/core.cuh>
#define CI_NAN cuarray_f64(0x7ff8000000000000ULL)
typedef long long ll;

// Rightmost i in [0, m-1] with s*x[i] <= s*v (s = +-1: ascending or descending x of m + 1
// values); below x[0] or above x[m]: 0 or m-1 when extrapolating, else -1; NaN: -1.
__device__ __forceinline__ ll ci_interval(const double* __restrict__ x, ll m, double v,
                                          double s, int extrap) {
  const double w = s * v;
  if (w != w) return -1;
  if (w < s * x[0]) return extrap ? 0 : -1;
  if (w > s * x[m]) return extrap ? m - 1 : -1;
  ll lo = 0, hi = m;
  while (hi - lo > 1) {
    const ll mid = (lo + hi) >> 1;
    if (s * x[mid] <= w) lo = mid; else hi = mid;
  }
  return lo;
}

// NumPy's searchsorted of v in the ascending a[0..n-1] (NaN sorts last): side left counts
// the a[i] < v, side right the a[i] <= v.
__device__ __forceinline__ ll ci_searchsorted(const double* __restrict__ a, ll n, double v,
                                              int right) {
  ll lo = 0, hi = n;
  const bool vnan = v != v;
  while (lo < hi) {
    const ll mid = (lo + hi) >> 1;
    const double e = a[mid];
    const bool before = right ? (vnan || e <= v) : (vnan ? e == e : e < v);
    if (before) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// The periodic image of v in [a, b) (Python's float modulo).
__device__ __forceinline__ double ci_wrap(double v, double a, double b) {
  const double p = b - a;
  double r = fmod(v - a, p);
  if (r != 0 && ((r < 0) != (p < 0))) r += p;
  return a + r;
}

// B-spline basis of degree k (KMAX at most; the 1-D kernels pass their constant degree for
// both) at v in [t[l], t[l+1]), differentiated nu times: h[0..k] are the values of
// B_{l-k} .. B_l (Cox-de Boor, then the derivative recursion).
template <int KMAX>
__device__ __forceinline__ void ci_basis(const double* __restrict__ t, ll l, double v, int nu,
                                         int k, double* h) {
  double hh[KMAX + 1];
  h[0] = 1;
  for (int j = 1; j <= k; ++j) {
    for (int q = 0; q < j; ++q) hh[q] = h[q];
    h[0] = 0;
    for (int q = 1; q <= j; ++q) {
      const double xb = t[l + q], xa = t[l + q - j];
      if (xb == xa) { h[q] = 0; continue; }
      if (j <= k - nu) {
        const double w = hh[q - 1] / (xb - xa);
        h[q - 1] += w * (xb - v);
        h[q] = w * (v - xa);
      } else {
        const double w = j * hh[q - 1] / (xb - xa);
        h[q - 1] -= w;
        h[q] = w;
      }
    }
  }
}

// The tensor-product sum of the N-d kernels, out[col] for every col < nc: over the index
// vectors a with a[d] < ks[d] + extra, c[(base + sum a[d] cs[d]) * nc + col] times the
// product of f[d][a[d]]. skip_zero leaves out the terms of weight 0 (the N-d piecewise
// polynomial's rule: an inf or NaN coefficient under a zero factor then adds nothing).
template <typename T, int D, int W>
__device__ __forceinline__ void ci_tensor_sum(const double (&f)[D][W], const int* __restrict__ ks,
                                              int extra, const ll* __restrict__ cs, ll base,
                                              const T* __restrict__ c, T* __restrict__ out,
                                              ll nc, bool skip_zero) {
  for (ll col = 0; col < nc; ++col) {
    T acc = T(0);
    int a[D];
    for (int d = 0; d < D; ++d) a[d] = 0;
    while (true) {
      double w = 1; ll off = base;
      for (int d = 0; d < D; ++d) { w *= f[d][a[d]]; off += a[d] * cs[d]; }
      if (!skip_zero || w != 0) acc += c[off * nc + col] * w;
      int d = D - 1;
      while (d >= 0 && ++a[d] >= ks[d] + extra) { a[d] = 0; --d; }
      if (d < 0) break;
    }
    out[col] = acc;
  }
}
"""

_PPOLY = r"""
// Piecewise polynomial of order K (c: K x m x nc, highest power first), derivative nu.
extern "C" __global__ void ci_ppoly(const double* __restrict__ xb, const ${T}* __restrict__ c,
    const double* __restrict__ xv, ${T}* __restrict__ out, ll n, ll m, ll nc, int nu, int mode) {
  const double s = xb[m] >= xb[0] ? 1.0 : -1.0;
  double fall[${K}];
  for (int q = 0; q < ${K}; ++q) {   // falling factorial p (p-1) ... (p-nu+1), p = K-1-q
    double f = 1; for (int j = 0; j < nu; ++j) f *= (double)(${K} - 1 - q - j);
    fall[q] = f;
  }
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    double v = xv[i];
    if (mode == 2) v = ci_wrap(v, xb[0], xb[m]);
    const ll j = ci_interval(xb, m, v, s, mode == 1);
    if (j < 0) { for (ll col = 0; col < nc; ++col) out[i * nc + col] = ${T}(CI_NAN); continue; }
    const double d = v - xb[j];
    for (ll col = 0; col < nc; ++col) {
      ${T} r = ${T}(0);
      const ${T}* cp = c + j * nc + col;
#pragma unroll
      for (int q = 0; q < ${K}; ++q)
        if (q < ${K} - nu) r = r * d + cp[(ll)q * m * nc] * fall[q];
      out[i * nc + col] = r;
    }
  }
}
"""

_BERNSTEIN = r"""
// Piecewise Bernstein polynomial of degree K-1 (c: K x m x nc) at the points, no derivative
// (derivatives are taken on the coefficients first).
extern "C" __global__ void ci_bpoly(const double* __restrict__ xb, const ${T}* __restrict__ c,
    const double* __restrict__ xv, ${T}* __restrict__ out, ll n, ll m, ll nc, int mode) {
  const double s = xb[m] >= xb[0] ? 1.0 : -1.0;
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    double v = xv[i];
    if (mode == 2) v = ci_wrap(v, xb[0], xb[m]);
    const ll j = ci_interval(xb, m, v, s, mode == 1);
    if (j < 0) { for (ll col = 0; col < nc; ++col) out[i * nc + col] = ${T}(CI_NAN); continue; }
    const double t = (v - xb[j]) / (xb[j + 1] - xb[j]), u = 1 - t;
    for (ll col = 0; col < nc; ++col) {
      ${T} b[${K}];
      for (int q = 0; q < ${K}; ++q) b[q] = c[((ll)q * m + j) * nc + col];
      for (int r = 1; r < ${K}; ++r)          // de Casteljau
        for (int q = 0; q < ${K} - r; ++q) b[q] = b[q] * u + b[q + 1] * t;
      out[i * nc + col] = b[0];
    }
  }
}
"""

_LINEAR = r"""
// interp1d(kind='linear'): SciPy's slope formula on the interval searchsorted gives; with
// npinterp, numpy.interp's rule instead (the rightmost x[j] <= v; exact hits return y[j];
// a NaN from one end is retried from the other), which SciPy uses for 1-D float64 data.
extern "C" __global__ void ci_linear(const double* __restrict__ x, const ${T}* __restrict__ y,
    const double* __restrict__ xv, ${T}* __restrict__ out, const ${T}* __restrict__ below,
    const ${T}* __restrict__ above, ll n, ll nx, ll nc, int extrap, int npinterp) {
  const double x0 = x[0], x1 = x[nx - 1];
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    const double v = xv[i];
    if (!extrap && (v < x0 || v > x1)) {
      const ${T}* f = v < x0 ? below : above;
      for (ll col = 0; col < nc; ++col) out[i * nc + col] = f[col];
      continue;
    }
    if (npinterp) {
      ll j = ci_searchsorted(x, nx, v, 1) - 1;
      j = j < 0 ? 0 : j;
      if (v != v) { for (ll col = 0; col < nc; ++col) out[i * nc + col] = ${T}(CI_NAN); continue; }
      if (j >= nx - 1 || v == x[j]) {
        const ll r = j >= nx - 1 ? nx - 1 : j;
        for (ll col = 0; col < nc; ++col) out[i * nc + col] = y[r * nc + col];
        continue;
      }
      for (ll col = 0; col < nc; ++col) {
        const ${T} ya = y[j * nc + col], yb = y[(j + 1) * nc + col];
        const ${T} slope = (yb - ya) / (x[j + 1] - x[j]);
        ${T} r = slope * (v - x[j]) + ya;
        if (r != r) {
          r = slope * (v - x[j + 1]) + yb;
          if (r != r && ya == yb) r = ya;
        }
        out[i * nc + col] = r;
      }
      continue;
    }
    ll hi = ci_searchsorted(x, nx, v, 0);
    hi = hi < 1 ? 1 : (hi > nx - 1 ? nx - 1 : hi);
    const double xl = x[hi - 1], dx = x[hi] - xl, t = v - xl;
    for (ll col = 0; col < nc; ++col) {
      const ${T} yl = y[(hi - 1) * nc + col];
      out[i * nc + col] = (y[hi * nc + col] - yl) / dx * t + yl;
    }
  }
}
"""

_SELECT = r"""
// interp1d's nearest/previous/next: row = clip(searchsorted(a, v, side), lo, hi) + off.
extern "C" __global__ void ci_select(const double* __restrict__ x, const double* __restrict__ a,
    const ${T}* __restrict__ y, const double* __restrict__ xv, ${T}* __restrict__ out,
    const ${T}* __restrict__ below, const ${T}* __restrict__ above, ll n, ll nx, ll na, ll nc,
    int right, ll lo, ll hi, ll off, int extrap) {
  const double x0 = x[0], x1 = x[nx - 1];
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    const double v = xv[i];
    const ${T}* src;
    if (!extrap && v < x0) src = below;
    else if (!extrap && v > x1) src = above;
    else {
      ll r = ci_searchsorted(a, na, v, right);
      r = (r < lo ? lo : (r > hi ? hi : r)) + off;
      src = y + r * nc;
    }
    for (ll col = 0; col < nc; ++col) out[i * nc + col] = src[col];
  }
}
"""

_BSPLINE = r"""
extern "C" __global__ void ci_bspline(const double* __restrict__ t, const ${T}* __restrict__ c,
    const double* __restrict__ xv, ${T}* __restrict__ out, ll n, ll nb, ll nc, int nu, int mode) {
  // nb: number of coefficients; the base interval is [t[K], t[nb]].
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    double v = xv[i];
    if (mode == 2) v = ci_wrap(v, t[${K}], t[nb]);
    const ll j = ci_interval(t + ${K}, nb - ${K}, v, 1.0, mode == 1);
    if (j < 0) { for (ll col = 0; col < nc; ++col) out[i * nc + col] = ${T}(CI_NAN); continue; }
    const ll l = j + ${K};
    double h[${K} + 1];
    ci_basis<${K}>(t, l, v, nu, ${K}, h);
    for (ll col = 0; col < nc; ++col) {
      ${T} r = ${T}(0);
      for (int a = 0; a <= ${K}; ++a) r += c[(l - ${K} + a) * nc + col] * h[a];
      out[i * nc + col] = r;
    }
  }
}

// Rows of a banded matrix (LAPACK-like storage, row-major: A(r, col) at
// ab[r * W + col - r + KL]) from the basis at the points xv (derivative nus[i]) placed in
// rows rows[i]; entries outside the band set *bad.
extern "C" __global__ void ci_colloc(const double* __restrict__ t, const double* __restrict__ xv,
    const int* __restrict__ nus, const ll* __restrict__ rows, double* __restrict__ ab,
    int* __restrict__ bad, ll n, ll nb, ll W, ll KL, ll roff) {
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    const double v = xv[i];
    const ll j = ci_interval(t + ${K}, nb - ${K}, v, 1.0, 1);
    if (j < 0) { *bad = 1; continue; }
    const ll l = j + ${K}, r = rows[i];
    double h[${K} + 1];
    ci_basis<${K}>(t, l, v, nus[i], ${K}, h);
    for (int a = 0; a <= ${K}; ++a) {
      const ll col = l - ${K} + a - roff, o = col - r + KL;
      if (col < 0 || col >= nb) continue;
      if (o < 0 || o >= W) { if (h[a] != 0) *bad = 1; continue; }
      ab[r * W + o] = h[a];
    }
  }
}

// design_matrix: the K + 1 basis values (derivative nus[i], or 0 when nus is null) of
// each point and their columns (CSR data).
extern "C" __global__ void ci_design(const double* __restrict__ t, const double* __restrict__ xv,
    const int* __restrict__ nus, double* __restrict__ data, ll* __restrict__ cols, ll n, ll nb) {
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    const double v = xv[i];
    const ll j = ci_interval(t + ${K}, nb - ${K}, v, 1.0, 1);
    const ll l = (j < 0 ? 0 : j) + ${K};
    double h[${K} + 1];
    ci_basis<${K}>(t, l, v, nus ? nus[i] : 0, ${K}, h);
    for (int a = 0; a <= ${K}; ++a) { data[i * (${K} + 1) + a] = h[a]; cols[i * (${K} + 1) + a] = l - ${K} + a; }
  }
}

// The normal equations of a weighted least-squares fit, A^T W A (band of half-width K,
// same storage, KL = K) and A^T W y (nc columns), accumulated with atomics.
extern "C" __global__ void ci_normal_eq(const double* __restrict__ t, const double* __restrict__ xv,
    const double* __restrict__ w, const double* __restrict__ y, double* __restrict__ ab,
    double* __restrict__ rhs, ll n, ll nb, ll nc, ll W) {
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    const double v = xv[i];
    const ll j = ci_interval(t + ${K}, nb - ${K}, v, 1.0, 1);
    if (j < 0) continue;
    const ll l = j + ${K};
    double h[${K} + 1];
    ci_basis<${K}>(t, l, v, 0, ${K}, h);
    const double wi = w[i] * w[i];
    for (int a = 0; a <= ${K}; ++a) {
      const ll r = l - ${K} + a;
      for (int b = 0; b <= ${K}; ++b) {
        const ll col = l - ${K} + b;
        atomicAdd(ab + r * W + col - r + ${K}, wi * h[a] * h[b]);
      }
      for (ll q = 0; q < nc; ++q) atomicAdd(rhs + r * nc + q, wi * h[a] * y[i * nc + q]);
    }
  }
}
"""

_BAND = r"""
// LU with partial pivoting of a band matrix (n rows, KL below, KU above, storage as
// ci_colloc's with W = 2 KL + KU + 1): one thread; *info = 1 + the first zero pivot.
extern "C" __global__ void ci_band_factor(double* __restrict__ ab, ll* __restrict__ piv,
                                          int* __restrict__ info, ll n, ll KL, ll KU) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const ll W = 2 * KL + KU + 1;
  #define A(r, col) ab[(r) * W + (col) - (r) + KL]
  for (ll p = 0; p < n; ++p) {
    const ll rlast = p + KL < n - 1 ? p + KL : n - 1;
    const ll clast = p + KL + KU < n - 1 ? p + KL + KU : n - 1;
    ll best = p; double bv = fabs(A(p, p));
    for (ll r = p + 1; r <= rlast; ++r) if (fabs(A(r, p)) > bv) { bv = fabs(A(r, p)); best = r; }
    piv[p] = best;
    if (bv == 0) { if (*info == 0) *info = (int)(p + 1); continue; }
    if (best != p)
      for (ll col = p; col <= clast; ++col) { const double tmp = A(p, col); A(p, col) = A(best, col); A(best, col) = tmp; }
    const double inv = 1.0 / A(p, p);
    for (ll r = p + 1; r <= rlast; ++r) {
      const double f = A(r, p) * inv;
      A(r, p) = f;
      if (f != 0) for (ll col = p + 1; col <= clast; ++col) A(r, col) -= f * A(p, col);
    }
  }
  #undef A
}

// Solve with ci_band_factor's factors: one thread per right-hand side column of b (n x nc).
extern "C" __global__ void ci_band_solve(const double* __restrict__ ab, const ll* __restrict__ piv,
                                         ${T}* __restrict__ b, ll n, ll nc, ll KL, ll KU) {
  const ll W = 2 * KL + KU + 1;
  #define A(r, col) ab[(r) * W + (col) - (r) + KL]
  for (ll q = (ll)blockIdx.x * blockDim.x + threadIdx.x; q < nc; q += (ll)blockDim.x * gridDim.x) {
    for (ll p = 0; p < n; ++p) {
      const ll s = piv[p];
      if (s != p) { const ${T} tmp = b[p * nc + q]; b[p * nc + q] = b[s * nc + q]; b[s * nc + q] = tmp; }
      const ${T} bp = b[p * nc + q];
      const ll rlast = p + KL < n - 1 ? p + KL : n - 1;
      for (ll r = p + 1; r <= rlast; ++r) b[r * nc + q] -= A(r, p) * bp;
    }
    for (ll p = n - 1; p >= 0; --p) {
      ${T} acc = b[p * nc + q];
      const ll clast = p + KL + KU < n - 1 ? p + KL + KU : n - 1;
      for (ll col = p + 1; col <= clast; ++col) acc -= A(p, col) * b[col * nc + q];
      b[p * nc + q] = acc / A(p, p);
    }
  }
  #undef A
}
"""

_GRID = r"""
// RegularGridInterpolator, linear and nearest, on D axes (g: the axes' points one after
// another, starting at goff[d], sizes gn[d]); values: prod(gn) x nc, C order.
extern "C" __global__ void ci_grid(const double* __restrict__ g, const ll* __restrict__ goff,
    const ll* __restrict__ gn, const ${T}* __restrict__ vals, const double* __restrict__ xi,
    ${T}* __restrict__ out, const ${T}* __restrict__ fill, ll n, ll nc, int nearest,
    int use_fill) {
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    ll idx[${D}]; double y[${D}]; bool outside = false, isnan_ = false;
    for (int d = 0; d < ${D}; ++d) {
      const double* a = g + goff[d];
      const ll m = gn[d];
      const double v = xi[i * ${D} + d];
      if (v != v) { isnan_ = true; idx[d] = 0; y[d] = 0; continue; }
      if (v < a[0] || v > a[m - 1]) outside = true;
      ll j = m > 1 ? ci_interval(a, m - 1, v, 1.0, 1) : 0;
      idx[d] = j;
      y[d] = m > 1 ? (v - a[j]) / (a[j + 1] - a[j]) : 0;
    }
    if (isnan_) { for (ll col = 0; col < nc; ++col) out[i * nc + col] = ${T}(CI_NAN); continue; }
    if (outside && use_fill) { for (ll col = 0; col < nc; ++col) out[i * nc + col] = fill[col]; continue; }
    if (nearest) {
      ll flat = 0;
      for (int d = 0; d < ${D}; ++d) flat = flat * gn[d] + (y[d] <= 0.5 ? idx[d] : idx[d] + 1);
      for (ll col = 0; col < nc; ++col) out[i * nc + col] = vals[flat * nc + col];
      continue;
    }
    for (ll col = 0; col < nc; ++col) {
      ${T} acc = ${T}(0);
      for (int corner = 0; corner < (1 << ${D}); ++corner) {
        ll flat = 0; double w = 1;
        for (int d = 0; d < ${D}; ++d) {
          const int up = (corner >> (${D} - 1 - d)) & 1;
          const ll e = idx[d] + up;
          flat = flat * gn[d] + (e < gn[d] ? e : gn[d] - 1);
          w *= up ? y[d] : 1 - y[d];
        }
        acc += vals[flat * nc + col] * w;
      }
      out[i * nc + col] = acc;
    }
  }
}
"""

_NDBSPLINE = r"""
// Tensor-product B-spline on D axes: knots of axis d at t + toff[d] (nt[d] of them),
// degree ks[d], derivative nus[d]; c: C order, axis d of stride cs[d] (elements of nc).
extern "C" __global__ void ci_ndbspline(const double* __restrict__ t, const ll* __restrict__ toff,
    const ll* __restrict__ nt, const int* __restrict__ ks, const int* __restrict__ nus,
    const ll* __restrict__ cs, const ${T}* __restrict__ c, const double* __restrict__ xi,
    ${T}* __restrict__ out, ll n, ll nc, int extrap) {
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    double h[${D}][${KMAX} + 1];
    ll base = 0; bool bad = false;
    for (int d = 0; d < ${D}; ++d) {
      const double* td = t + toff[d];
      const int k = ks[d];
      const ll nb = nt[d] - k - 1;
      const double v = xi[i * ${D} + d];
      const ll j = ci_interval(td + k, nb - k, v, 1.0, extrap);
      if (j < 0) { bad = true; break; }
      const ll l = j + k;
      if (nus[d] > k) { for (int a = 0; a <= k; ++a) h[d][a] = 0; }
      else ci_basis<${KMAX}>(td, l, v, nus[d], k, h[d]);
      base += (l - k) * cs[d];
    }
    if (bad) { for (ll col = 0; col < nc; ++col) out[i * nc + col] = ${T}(CI_NAN); continue; }
    ci_tensor_sum(h, ks, 1, cs, base, c, out + i * nc, nc, false);
  }
}
"""

_NDPPOLY = r"""
// Tensor-product piecewise polynomial: axis d has breakpoints x + xoff[d] (m[d] + 1 of
// them) and order ks[d] (KMAX at most); c: C order (k_0..k_D-1, m_0..m_D-1, nc) with
// element strides cs[d] (order axes) and ms[d] (interval axes); derivatives nus[d].
extern "C" __global__ void ci_ndppoly(const double* __restrict__ x, const ll* __restrict__ xoff,
    const ll* __restrict__ m, const int* __restrict__ ks, const int* __restrict__ nus,
    const ll* __restrict__ cs, const ll* __restrict__ ms, const ${T}* __restrict__ c,
    const double* __restrict__ xi, ${T}* __restrict__ out, ll n, ll nc, int extrap) {
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (ll)blockDim.x * gridDim.x) {
    double pw[${D}][${KMAX}];   // pw[d][q]: the factor of order row q (power k-1-q, nu times differentiated)
    ll base = 0; bool bad = false;
    for (int d = 0; d < ${D}; ++d) {
      const double* xd = x + xoff[d];
      const double v = xi[i * ${D} + d];
      const ll j = ci_interval(xd, m[d], v, 1.0, extrap);
      if (j < 0) { bad = true; break; }
      base += j * ms[d];
      const double s = v - xd[j];
      const int k = ks[d], nu = nus[d];
      for (int q = 0; q < k; ++q) {
        const int p = k - 1 - q;
        if (p < nu) { pw[d][q] = 0; continue; }
        double f = 1;
        for (int e = 0; e < nu; ++e) f *= (double)(p - e);
        for (int e = 0; e < p - nu; ++e) f *= s;
        pw[d][q] = f;
      }
    }
    if (bad) { for (ll col = 0; col < nc; ++col) out[i * nc + col] = ${T}(CI_NAN); continue; }
    ci_tensor_sum(pw, ks, 0, cs, base, c, out + i * nc, nc, true);
  }
}
"""

_FPCHEC = r"""
// FITPACK's knot check for least-squares fits (one thread): *code = 0 when the knots t
// (n of them) and the sorted data x (m) satisfy its conditions, else the first failed.
extern "C" __global__ void ci_fpchec(const double* __restrict__ x, const double* __restrict__ t,
                                     int* __restrict__ code, ll m, ll n, ll k) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const ll nk1 = n - k - 1;
  *code = 0;
  if (nk1 < k + 1 || nk1 > m) { *code = 1; return; }
  for (ll j = 0; j < k; ++j) {
    if (t[j] > t[j + 1]) { *code = 2; return; }
    if (t[n - 1 - j] < t[n - 2 - j]) { *code = 2; return; }
  }
  for (ll j = k; j < nk1; ++j) if (t[j] >= t[j + 1]) { *code = 3; return; }
  if (x[0] < t[k] || x[m - 1] > t[nk1]) { *code = 4; return; }
  // Schoenberg-Whitney: a distinct data point strictly inside each (t[j], t[j+k+1]); the
  // first and last B-splines take x[0] and x[m-1].
  ll i = 0;
  for (ll j = 1; j < nk1 - 1; ++j) {
    do { ++i; if (i >= m - 1) { *code = 5; return; } } while (x[i] <= t[j]);
    if (x[i] >= t[j + k + 1]) { *code = 5; return; }
  }
}
"""

_ROOTS = r"""
// Companion matrices (D x D, row-major) of p_i(s) - y for every interval and column of a
// power-basis c (D + 1 rows): leading zeros are dropped, and the unused diagonal gets the
// sentinel BIG, an exact (decoupled) eigenvalue. deg: the degree left, -1 for p_i == y.
extern "C" __global__ void ci_companion(const double* __restrict__ c, double* __restrict__ a,
    int* __restrict__ deg, double y, ll m, ll nc) {
  const ll total = m * nc;
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (ll)blockDim.x * gridDim.x) {
    double q[${D} + 1];
    for (int r = 0; r <= ${D}; ++r) q[r] = c[(ll)r * total + i];
    q[${D}] -= y;
    int lead = 0;
    while (lead <= ${D} && q[lead] == 0) ++lead;
    const int d = ${D} - lead;
    deg[i] = lead > ${D} ? -1 : d;
    double* A = a + i * ${D} * ${D};
    for (int r = 0; r < ${D} * ${D}; ++r) A[r] = 0;
    // (d is -1 for an all-zero piece: no row below 0 may be written)
    for (int r = d < 0 ? 0 : d; r < ${D}; ++r) A[r * ${D} + r] = 1e300;
    if (d <= 0) continue;
    for (int j = 0; j < d; ++j) A[j] = -q[lead + 1 + j] / q[lead];   // first row
    for (int r = 1; r < d; ++r) A[r * ${D} + r - 1] = 1;
  }
}

// Per interval and column, SciPy's candidates in order: a sign change across the left
// breakpoint (discontinuity), x_i then NaN for p_i == y, the real roots inside the interval
// (the whole half-line at an extrapolated end), ascending. out: (m x nc) x (D + 3) values,
// ok: the same shape, which are present.
extern "C" __global__ void ci_roots_pick(const double* __restrict__ x, const double* __restrict__ c,
    const double* __restrict__ wr, const double* __restrict__ wi, const int* __restrict__ deg,
    double* __restrict__ out, bool* __restrict__ ok, double y, ll m, ll nc, int discont,
    int extrap) {
  const ll total = m * nc;
  const double sgn = x[m] >= x[0] ? 1.0 : -1.0;
  for (ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (ll)blockDim.x * gridDim.x) {
    const ll iv = i / nc;
    double* o = out + i * (${D} + 3);
    bool* f = ok + i * (${D} + 3);
    for (int r = 0; r < ${D} + 3; ++r) f[r] = false;
    if (discont && iv > 0) {
      const double h = x[iv] - x[iv - 1];
      double va = 0;
      for (int r = 0; r <= ${D}; ++r) va = va * h + c[(ll)r * total + i - nc];
      const double vb = c[(ll)${D} * total + i];
      va -= y;
      const double vbb = vb - y;
      if ((va < 0 && vbb > 0) || (va > 0 && vbb < 0)) { o[0] = x[iv]; f[0] = true; }
    }
    if (deg[i] < 0) { o[1] = x[iv]; f[1] = true; o[2] = CI_NAN; f[2] = true; continue; }
    const double h = x[iv + 1] - x[iv];
    int cnt = 0;
    double r[${D}];
    for (int e = 0; e < ${D}; ++e) {
      const double re = wr[i * ${D} + e], im = wi[i * ${D} + e];
      if (im != 0 || re == 1e300) continue;
      const double t = sgn * re, hh = sgn * h;
      const bool lo_ok = t >= 0 || (extrap && iv == 0);
      const bool hi_ok = t <= hh || (extrap && iv == m - 1);
      if (!(lo_ok && hi_ok)) continue;
      r[cnt++] = x[iv] + re;
    }
    for (int a = 1; a < cnt; ++a)            // insertion sort, ascending
      for (int b = a; b > 0 && r[b] < r[b - 1]; --b) { const double tmp = r[b]; r[b] = r[b - 1]; r[b - 1] = tmp; }
    for (int e = 0; e < cnt; ++e) { o[3 + e] = r[e]; f[3 + e] = true; }
  }
}
"""

_KROGH = r"""
// Krogh's divided differences with repeated nodes (derivatives): one thread per column of
// y (n x nc); c: (n + 1) x nc, vk: n x nc scratch; *bad = 1 when a node repeats apart.
extern "C" __global__ void ci_krogh_coef(const double* __restrict__ xi, const ${T}* __restrict__ y,
    ${T}* __restrict__ c, ${T}* __restrict__ vk, int* __restrict__ bad, ll n, ll nc) {
  for (ll q = (ll)blockIdx.x * blockDim.x + threadIdx.x; q < nc; q += (ll)blockDim.x * gridDim.x) {
    c[q] = y[q];
    for (ll k = 1; k < n; ++k) {
      ll s = 0;
      while (s <= k && xi[k - s] == xi[k]) ++s;
      --s;
      double fact = 1; for (ll j = 2; j <= s; ++j) fact *= (double)j;
      vk[q] = y[k * nc + q] / fact;
      for (ll i = 0; i < k - s; ++i) {
        if (xi[i] == xi[k]) { *bad = 1; }
        if (s == 0) vk[(i + 1) * nc + q] = (c[i * nc + q] - vk[i * nc + q]) / (xi[i] - xi[k]);
        else vk[(i + 1) * nc + q] = (vk[(i + 1) * nc + q] - vk[i * nc + q]) / (xi[i] - xi[k]);
      }
      c[k * nc + q] = vk[(k - s) * nc + q];
    }
    c[n * nc + q] = ${T}(0);
  }
}

// The Newton form and its derivatives 0 .. nder-1 at each point (n <= N nodes):
// out is nder x m x nc.
extern "C" __global__ void ci_krogh_eval(const double* __restrict__ xi, const ${T}* __restrict__ c,
    const double* __restrict__ x, ${T}* __restrict__ out, ll n, ll m, ll nc, ll nder) {
  for (ll p = (ll)blockIdx.x * blockDim.x + threadIdx.x; p < m; p += (ll)blockDim.x * gridDim.x) {
    double w[${N}], pi[${N}];
    const double v = x[p];
    for (ll q = 0; q < nc; ++q) {
      ${T} cn[${N} + 1];
      pi[0] = 1;
      ${T} val = c[q];
      for (ll k = 1; k < n; ++k) {
        w[k - 1] = v - xi[k - 1];
        pi[k] = w[k - 1] * pi[k - 1];
        val += c[k * nc + q] * pi[k];
      }
      for (ll k = 0; k <= n; ++k) cn[k] = c[k * nc + q];
      cn[0] = val;
      double fact = 1;
      for (ll k = 1; k < n && k < nder; ++k) {
        for (ll i = 1; i < n - k + 1; ++i) {
          pi[i] = w[k + i - 1] * pi[i - 1] + pi[i];
          cn[k] += cn[k + i] * pi[i];
        }
        fact *= (double)k;
        cn[k] = cn[k] * fact;
      }
      for (ll d = 0; d < nder; ++d) out[(d * m + p) * nc + q] = d < n ? cn[d] : ${T}(0);
    }
  }
}
"""


def _ct(dtype):
    return _dt.ctype(numpy.dtype(dtype))


def source(which, dtype=_f64, K=4, D=1):
    """CUDA source of one kernel family (a key of `_FAMILY`'s values) for data of `dtype`;
    K is the polynomial order (ppoly, bpoly), the spline degree (bspline), the largest
    order or degree (ndppoly, ndbspline) or the node count (krogh); D the number of axes."""
    tmpl = {"ppoly": _PPOLY, "bpoly": _BERNSTEIN, "linear": _LINEAR, "select": _SELECT,
            "bspline": _BSPLINE, "band": _BAND, "grid": _GRID, "ndbspline": _NDBSPLINE,
            "krogh": _KROGH, "ndppoly": _NDPPOLY, "fpchec": _FPCHEC,
            "roots": _ROOTS}[which]
    values = {"T": _ct(dtype)} if "${T}" in tmpl else {}
    if which in ("ppoly", "bpoly", "bspline"):
        values["K"] = str(K)
    if which in ("grid", "ndbspline", "ndppoly", "roots"):
        values["D"] = str(D)
    if which in ("ndbspline", "ndppoly"):
        values["KMAX"] = str(K)
    if which == "krogh":
        values["N"] = str(K)
    return PRELUDE + render(tmpl, **values)


_SIGS = {
    "ci_ppoly": "PPPPqqqii", "ci_bpoly": "PPPPqqqi", "ci_linear": "PPPPPPqqqii",
    "ci_select": "PPPPPPPqqqqiqqqi", "ci_bspline": "PPPPqqqii", "ci_colloc": "PPPPPPqqqqq",
    "ci_normal_eq": "PPPPPPqqqq", "ci_design": "PPPPPqq", "ci_band_factor": "PPPqqq", "ci_band_solve": "PPPqqqq",
    "ci_grid": "PPPPPPPqqii", "ci_ndbspline": "PPPPPPPPPqqi",
    "ci_krogh_coef": "PPPPPqq", "ci_fpchec": "PPPqqq",
    "ci_companion": "PPPdqq", "ci_roots_pick": "PPPPPPPdqqii", "ci_ndppoly": "PPPPPPPPPPqqi", "ci_krogh_eval": "PPPPqqqq",
}
_FAMILY = {"ci_ppoly": "ppoly", "ci_bpoly": "bpoly", "ci_linear": "linear", "ci_select": "select",
           "ci_bspline": "bspline", "ci_colloc": "bspline", "ci_normal_eq": "bspline", "ci_design": "bspline",
           "ci_band_factor": "band", "ci_band_solve": "band", "ci_grid": "grid",
           "ci_ndbspline": "ndbspline", "ci_krogh_coef": "krogh", "ci_krogh_eval": "krogh",
           "ci_ndppoly": "ndppoly", "ci_fpchec": "fpchec",
           "ci_companion": "roots", "ci_roots_pick": "roots"}


def run(name, n, args, dtype=_f64, K=4, D=1, single=False):
    """Launch kernel `name` over `n` items (one thread when `single`) with `args` (arrays
    are passed by their device pointers)."""
    dtype = numpy.dtype(dtype)
    fam = _FAMILY[name]
    entry = kernel(("interpolate", name, dtype.char, K, D), lambda: (
        source(fam, dtype, K, D), name, list(_SIGS[name])))
    vals = [a._ptr if hasattr(a, "_ptr") else a for a in args]
    grid = 1 if single else max(1, min(-(-n // BLOCK), 65535 * 8))
    launch(entry, grid, 1 if single else BLOCK, vals)


def solve_banded(ab, kl, ku, b, check=False):
    """Solve A x = b for a band matrix A in ci_band_factor's storage (`ab`: n x (2 kl + ku
    + 1), float64, overwritten by the factors) and b of shape (n, ...) (a new array). With
    `check`, a singular matrix raises LinAlgError (one flag read back)."""
    import cuarray
    n = ab.shape[0]
    shape = b.shape
    x = cuarray.array(b.reshape(n, -1), dtype=b.dtype, copy=True, order="C")
    nc = x.shape[1]
    piv = cuarray.empty((n,), dtype=numpy.int64)
    info = cuarray.zeros((1,), dtype=numpy.int32)
    if n:
        run("ci_band_factor", 1, [ab, piv, info, n, kl, ku], single=True)
        if nc:
            run("ci_band_solve", nc, [ab, piv, x, n, nc, kl, ku], dtype=x.dtype)
    if check and n and int(info.get()[0]):
        raise numpy.linalg.LinAlgError("singular matrix")
    return x.reshape(shape)
