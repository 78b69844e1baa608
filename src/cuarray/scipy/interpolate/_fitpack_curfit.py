"""FITPACK's smoothing-spline search (Dierckx's curfit/fpcurf) with the fits on the GPU.

The algorithm (P. Dierckx, "Curve and Surface Fitting with Splines", 1993, ch. 5):
least-squares splines on a growing knot set, starting with no interior knots; while the
weighted residual fp exceeds s, new knots go into the intervals with the largest residual
sums, at the data point that halves the interval's data; once fp <= s, the smoothing
parameter p of the penalised fit (the jumps of the k-th derivative at the interior knots)
is found by rational interpolation so that |fp(p) - s| < 0.001 s.

Each fit is one single-thread kernel (the Givens reduction is sequential by nature and
touches O(m k^2) numbers): the banded observation matrix is rotated into triangle row by
row, in FITPACK's order, so the residuals that steer the knot search are FITPACK's to
rounding; the penalised fits merge the triangle with the penalty rows by leading column
(O(n k^2), where rotating the rows into the finished triangle would fill it to the end).
The knot insertion is a single-thread kernel too. The host steers the search: it reads fp
back once per fit (with the triangle's diagonal sum, the first p) and keeps the counters.
As FITPACK's, the knot insertion costs O(n) per knot, so near-interpolating fits of very
many points are slow.
"""
import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels
from cuarray._core._kernel_helpers import kernel, launch, render

_f64 = numpy.dtype(numpy.float64)
_TOL = 0.001
_MAXIT = 20

_SRC = r"""
#define K1 (${K} + 1)
#define K2 (${K} + 2)

// A Givens rotation that zeroes piv against *ww (which becomes the new diagonal, >= 0).
__device__ __forceinline__ void cf_givs(double piv, double* ww, double* co, double* si) {
  const double store = fabs(piv), d = *ww;
  double dd;
  if (store >= d) { const double r = d / piv; dd = store * sqrt(1.0 + r * r); }
  else { const double r = piv / d; dd = d * sqrt(1.0 + r * r); }
  *co = d / dd;
  *si = piv / dd;
  *ww = dd;
}

__device__ __forceinline__ void cf_rota(double co, double si, double* a, double* b) {
  const double s1 = *a, s2 = *b;
  *b = co * s2 + si * s1;
  *a = co * s1 - si * s2;
}

// Back substitution with the upper-triangular band a (rows of width kw: a[i*kw + j] is
// R(i, i+j)); z and c may be the same array.
__device__ void cf_back(const double* a, const double* z, ll n, int kw, double* c) {
  c[n - 1] = z[n - 1] / a[(n - 1) * kw];
  for (ll i = n - 2; i >= 0; --i) {
    double store = z[i];
    const ll i1 = (n - 1 - i < kw - 1) ? n - 1 - i : kw - 1;
    for (ll l = 1; l <= i1; ++l) store -= c[i + l] * a[i * kw + l];
    c[i] = store / a[i * kw];
  }
}

// The spline value at data point it from its basis values q; lk (1-based, FITPACK's) is
// the knot the residual loops have reached.
__device__ __forceinline__ double cf_value(const double* c, const double* q, ll it, ll lk) {
  const ll base = lk - K2;
  double term = 0;
  for (int j = 0; j < K1; ++j) term += c[base + j] * q[it * K1 + j];
  return term;
}

// Rotates the row h (W entries from column lead; right-hand side yi) into the banded
// triangle g (rows of width W, nk1 of them) and its right-hand side c; returns what is
// left of yi (its square adds to the residual).
template <int W>
__device__ double cf_addrow(double* g, double* c, double* h, double yi, ll lead, ll nk1) {
  for (int i = 0; i < W; ++i) {
    const ll r = lead + i;
    if (r >= nk1) break;
    const double piv = h[i];
    if (piv == 0) continue;
    double co, si;
    cf_givs(piv, g + r * W, &co, &si);
    cf_rota(co, si, &yi, c + r);
    for (int i1 = i + 1; i1 < W; ++i1) cf_rota(co, si, h + i1, g + r * W + (i1 - i));
  }
  return yi;
}

// Weighted least-squares spline on the knots t (n of them): the triangle a (nk1 x K1),
// the rotated right-hand side z, the coefficients c, the basis values q (m x K1), the
// residual sums of the knot intervals fpint (a point on a knot counts half to each side);
// out[0] = fp (the rotated residual), out[1] = the sum of the triangle's diagonal.
extern "C" __global__ void cf_lsq(const double* __restrict__ t, const double* __restrict__ x,
    const double* __restrict__ y, const double* __restrict__ w, double* __restrict__ q,
    double* __restrict__ a, double* __restrict__ z, double* __restrict__ c,
    double* __restrict__ fpint, double* __restrict__ out, ll m, ll n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const ll nk1 = n - K1;
  for (ll i = 0; i < nk1; ++i) { z[i] = 0; for (int j = 0; j < K1; ++j) a[i * K1 + j] = 0; }
  double fp = 0;
  ll l = ${K};
  for (ll it = 0; it < m; ++it) {
    const double xi = x[it], wi = w[it];
    double yi = y[it] * wi;
    while (!(xi < t[l + 1] || l == nk1 - 1)) ++l;
    double h[K1 + 1];
    ci_basis<${K}>(t, l, xi, 0, ${K}, h);
    for (int i = 0; i < K1; ++i) { q[it * K1 + i] = h[i]; h[i] *= wi; }
    yi = cf_addrow<K1>(a, z, h, yi, l - ${K}, nk1);
    fp += yi * yi;
  }
  cf_back(a, z, nk1, K1, c);
  double sd = 0;
  for (ll i = 0; i < nk1; ++i) sd += a[i * K1];
  out[0] = fp;
  out[1] = sd;
  double fpart = 0;
  ll i = 0, lk = K2;
  for (ll it = 0; it < m; ++it) {
    int nw = 0;
    if (x[it] >= t[lk - 1] && lk <= nk1) { nw = 1; ++lk; }
    const double r = w[it] * (cf_value(c, q, it, lk) - y[it]);
    const double term = r * r;
    fpart += term;
    if (nw) { const double store = term * 0.5; fpint[i++] = fpart - store; fpart = store; }
  }
  fpint[nk1 - ${K} - 1] = fpart;
}

// The jumps of the K-th derivative of the B-splines at the interior knots, scaled as
// FITPACK's: b is (n - 2 K1) x K2, row r for the knot t[K1 + r].
extern "C" __global__ void cf_disc(const double* __restrict__ t, double* __restrict__ b, ll n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
#define T(i) t[(i) - 1]
  const ll nk1 = n - K1;
  const double fac = (double)(nk1 - ${K}) / (T(nk1 + 1) - T(K1));
  for (ll l = K2; l <= nk1; ++l) {
    const ll lmk = l - K1;
    double h[2 * K1];
    for (ll j = 1; j <= K1; ++j) {
      h[j - 1] = T(l) - T(l + j - K2);
      h[j + K1 - 1] = T(l) - T(l + j);
    }
    ll lp = lmk;
    for (ll j = 1; j <= K2; ++j) {
      double prod = h[j - 1];
      for (ll i = 1; i <= ${K}; ++i) prod = prod * h[j + i - 1] * fac;
      b[(lmk - 1) * K2 + j - 1] = (T(lp + K1) - T(lp)) / prod;
      ++lp;
    }
  }
#undef T
}


// The penalised fit for the parameter p: the least-squares triangle a (with its
// right-hand side z) and the rows of b / p, merged by leading column into a new banded
// triangle g (the same factor as rotating b / p into a, to rounding, without the fill
// that reaches the last row), back substitution (band K2), then fp = the weighted
// residual in out[0].
extern "C" __global__ void cf_smooth(const double* __restrict__ t, const double* __restrict__ x,
    const double* __restrict__ y, const double* __restrict__ w, const double* __restrict__ q,
    const double* __restrict__ a, const double* __restrict__ z, const double* __restrict__ b,
    double* __restrict__ g, double* __restrict__ c, double* __restrict__ out, ll m, ll n,
    double p) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const ll nk1 = n - K1, n8 = n - 2 * K1;
  const double pinv = 1.0 / p;
  for (ll i = 0; i < nk1; ++i) { c[i] = 0; for (int j = 0; j < K2; ++j) g[i * K2 + j] = 0; }
  double h[K2];
  for (ll j = 0; j < nk1; ++j) {
    for (int i = 0; i < K2; ++i) h[i] = i < K1 ? a[j * K1 + i] : 0.0;
    cf_addrow<K2>(g, c, h, z[j], j, nk1);
    if (j < n8) {
      for (int i = 0; i < K2; ++i) h[i] = b[j * K2 + i] * pinv;
      cf_addrow<K2>(g, c, h, 0.0, j, nk1);
    }
  }
  cf_back(g, c, nk1, K2, c);
  double fp = 0;
  ll lk = K2;
  for (ll it = 0; it < m; ++it) {
    if (x[it] >= t[lk - 1] && lk <= nk1) ++lk;
    const double r = w[it] * (cf_value(c, q, it, lk) - y[it]);
    fp += r * r;
  }
  out[0] = fp;
}

// Adds up to `count` knots, one at a time: each in the interval of largest residual sum
// fpint among those holding data points (nrdata of them, strictly inside), at the data
// point that halves them; fpint and nrdata are split in proportion. state = {n, nrint,
// knots added}.
extern "C" __global__ void cf_knot(const double* __restrict__ x, double* __restrict__ t,
    double* __restrict__ fpint, ll* __restrict__ nrdata, ll* __restrict__ state, ll count) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
#define T(i) t[(i) - 1]
#define FI(i) fpint[(i) - 1]
#define NR(i) nrdata[(i) - 1]
  ll n = state[0], nrint = state[1], added = 0;
  for (ll step = 0; step < count; ++step) {
    double fpmax = 0;
    ll jbegin = 1, number = 0, maxpt = 0, maxbeg = 0;
    for (ll j = 1; j <= nrint; ++j) {
      const ll jpoint = NR(j);
      if (!(fpmax >= FI(j) || jpoint == 0)) { fpmax = FI(j); number = j; maxpt = jpoint; maxbeg = jbegin; }
      jbegin += jpoint + 1;
    }
    if (number == 0) break;
    const ll ihalf = maxpt / 2 + 1, nrx = maxbeg + ihalf, next = number + 1;
    for (ll jj = nrint; jj >= next; --jj) {
      FI(jj + 1) = FI(jj);
      NR(jj + 1) = NR(jj);
      T(jj + ${K} + 1) = T(jj + ${K});
    }
    NR(number) = ihalf - 1;
    NR(next) = maxpt - ihalf;
    const double am = (double)maxpt;
    FI(number) = fpmax * (double)NR(number) / am;
    FI(next) = fpmax * (double)NR(next) / am;
    T(next + ${K}) = x[nrx - 1];
    ++n; ++nrint; ++added;
  }
  state[0] = n; state[1] = nrint; state[2] = added;
#undef T
#undef FI
#undef NR
}
"""

_SIGS = {"cf_lsq": "PPPPPPPPPPqq", "cf_disc": "PPq", "cf_smooth": "PPPPPPPPPPPqqd",
         "cf_knot": "PPPPPq"}


def source(k):
    """CUDA source of the curfit kernels for degree k (the B-spline basis included)."""
    return _kernels.source("bspline", K=k) + render(_SRC, K=str(k))


def _run(name, k, args):
    # FITPACK's arithmetic rounds each product and sum (as SciPy's build, without fused
    # multiply-adds): the knot search compares residual sums, so the rounding must match
    entry = kernel(("interpolate-curfit", name, k), lambda: (source(k), name, list(_SIGS[name])),
                   ("-fmad=false",))
    launch(entry, 1, 1, [a._ptr if hasattr(a, "_ptr") else a for a in args])


def interpolation_knots(x, xb, xe, k):
    """FITPACK's knots for s = 0: the data points (midpoints for even k) inside k + 1 fold
    end knots at xb and xe (device arrays of one element)."""
    m = x.size
    if k % 2:
        inner = x[k // 2 + 1:m - k // 2 - 1]
    else:
        inner = (x[k // 2:m - k // 2 - 1] + x[k // 2 + 1:m - k // 2]) * 0.5
    return cuarray.concatenate([cuarray.broadcast_to(xb, (k + 1,)), inner,
                                cuarray.broadcast_to(xe, (k + 1,))])


class Curfit:
    """The state of one smoothing search (FITPACK's data for continuing with a new s)."""

    def __init__(self, x, y, w, xb, xe, k):
        m = x.size
        self.x, self.y, self.w, self.k = x, y, w, k
        self.xb, self.xe = xb, xe
        self.m = m
        self.nmin = 2 * (k + 1)
        self.nmax = m + k + 1
        nmax = self.nmax
        self.t = cuarray.zeros(nmax)
        self.c = cuarray.zeros(nmax)
        self.fpint = cuarray.zeros(nmax)
        self.nrdata = cuarray.zeros(nmax, dtype=numpy.int64)
        self.q = cuarray.zeros(max(m, 1) * (k + 1))
        self.a = cuarray.zeros(nmax * (k + 1))
        self.z = cuarray.zeros(nmax)
        self.n = 0
        self.fp = self.fp0 = None
        self.fpold, self.nplus = 0.0, 0
        self.ier = 0
        self.nest = None

    def _ends(self, n):
        k1 = self.k + 1
        self.t[:k1] = self.xb
        self.t[n - k1:n] = self.xe

    def _lsq(self, n):
        self._ends(n)
        out = cuarray.zeros(2)
        _run("cf_lsq", self.k, [self.t, self.x, self.y, self.w, self.q, self.a, self.z, self.c,
                                self.fpint, out, self.m, n])
        fp, sd = (float(v) for v in out.get())
        return fp, sd

    def fit(self, s):
        """Run the search for smoothing factor s (continuing from the last knots where
        FITPACK's iopt = 1 would); sets t, c, n, fp, ier."""
        k, m, nmin, nmax = self.k, self.m, self.nmin, self.nmax
        acc = _TOL * s
        # SciPy's first pass has room for nest knots; reaching it (FITPACK's ier = 1), it
        # resumes with room for all of them. A resumed search starts with the last ier.
        if self.nest is None:
            self.nest = nmax if s == 0 else max(m // 2, nmin)
        nest = self.nest
        ier = self.ier
        if s == 0:
            self.nest = nest = nmax
            n = nmax
            self.t[:n] = interpolation_knots(self.x, self.xb, self.xe, k)
            fp0, fpold, nplus = self.fp0, 0.0, 0
        elif self.n and self.n != nmin and self.fp0 is not None and self.fp0 > s:
            n, fp0, fpold, nplus = self.n, self.fp0, self.fpold, self.nplus
        else:
            n, fp0, fpold, nplus = nmin, None, 0.0, 0
            self.nrdata[0] = m - 2
        while True:
            if n == nmin:
                ier = -2
            fp, sdiag = self._lsq(n)
            if ier == -2:
                fp0 = fp
            self.n, self.fp0, self.fpold, self.nplus = n, fp0, fpold, nplus
            fpms = fp - s
            if abs(fpms) < acc:
                return self._done(n, fp, ier)
            if fpms < 0:
                break
            if n == nmax:
                return self._done(n, fp, -1)
            if n == nest:
                if nest == nmax:
                    return self._done(n, fp, 1)
                self.nest = nest = nmax
                if ier == 0:
                    ier = 1
            if ier != 0:
                nplus, ier = 1, 0
            else:
                npl1 = nplus * 2
                if fpold - fp > acc:
                    npl1 = int(nplus * fpms / (fpold - fp))
                nplus = min(nplus * 2, max(npl1, nplus // 2, 1))
            fpold = fp
            count = min(nplus, nest - n)
            state = cuarray.asarray(numpy.array([n, n - nmin + 1, 0], dtype=numpy.int64))
            _run("cf_knot", k, [self.x, self.t, self.fpint, self.nrdata, state, count])
            n_new, _, added = (int(v) for v in state.get())
            if added == 0:     # no interval has data points left to split
                return self._done(n, fp, ier)
            n = n_new
            if n == nmax:
                self.t[:n] = interpolation_knots(self.x, self.xb, self.xe, k)
        if ier == -2:
            return self._done(n, fp0, -2)
        return self._smooth(n, s, acc, fp0, fpms, sdiag, ier)

    def _smooth(self, n, s, acc, fp0, fpms, sdiag, ier):
        # On success ier keeps its value (as FITPACK's: a resumed search that goes
        # straight to this part reports the last run's ier again).
        k = self.k
        k2 = k + 2
        nk1 = n - k - 1
        n8 = n - self.nmin
        b = cuarray.zeros(max(n8, 1) * k2)
        g = cuarray.zeros(nk1 * k2)
        if n8:
            _run("cf_disc", k, [self.t, b, n])
        out = cuarray.zeros(1)
        p1, f1 = 0.0, fp0 - s
        p3, f3 = -1.0, fpms
        p = nk1 / sdiag
        ich1 = ich3 = 0
        for it in range(1, _MAXIT + 1):
            _run("cf_smooth", k, [self.t, self.x, self.y, self.w, self.q, self.a, self.z, b, g,
                                  self.c, out, self.m, n, p])
            fp = float(out.get()[0])
            fpms = fp - s
            if abs(fpms) < acc:
                break
            if it == _MAXIT:
                ier = 3
                break
            p2, f2 = p, fpms
            if not ich3:
                if not f2 - f3 > acc:        # p too large
                    p3, f3 = p2, f2
                    p *= 0.04
                    if p <= p1:
                        p = p1 * 0.9 + p2 * 0.1
                    continue
                if f2 < 0:
                    ich3 = 1
            if not ich1:
                if not f1 - f2 > acc:        # p too small
                    p1, f1 = p2, f2
                    p /= 0.04
                    if p3 < 0:
                        continue
                    if p >= p3:
                        p = p2 * 0.1 + p3 * 0.9
                    continue
                if f2 > 0:
                    ich1 = 1
            if f2 >= f1 or f2 <= f3:
                ier = 2
                break
            p, p1, f1, p3, f3 = _rational(p1, f1, p2, f2, p3, f3)
        return self._done(n, fp, ier)

    def _done(self, n, fp, ier):
        self.n, self.fp, self.ier = n, fp, ier
        return ier


def _rational(p1, f1, p2, f2, p3, f3):
    """The zero of the rational interpolant r(p) = (u p + v) / (p + w) through (p1, f1),
    (p2, f2), (p3, f3) (p3 < 0 stands for infinity), and the bracket kept with f1 > 0 > f3."""
    if p3 > 0:
        h1 = f1 * (f2 - f3)
        h2 = f2 * (f3 - f1)
        h3 = f3 * (f1 - f2)
        p = -(p1 * p2 * h3 + p2 * p3 * h1 + p3 * p1 * h2) / (p1 * h1 + p2 * h2 + p3 * h3)
    else:
        p = (p1 * (f1 - f3) * f2 - p2 * (f2 - f3) * f1) / ((f1 - f2) * f3)
    if f2 < 0:
        p3, f3 = p2, f2
    else:
        p1, f1 = p2, f2
    return p, p1, f1, p3, f3
