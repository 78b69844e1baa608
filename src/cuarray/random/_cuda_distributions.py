"""CUDA C of cuarray.random, second part: the distributions drawn one element at a time
(`d_*`, on an `Rng`), and the helpers of choice and the row distributions (`r_*`).

One of the three pieces of `_kernels.LIBRARY` (after _cuda_generators.py, before
_cuda_bulk.py).
"""

DISTRIBUTIONS = r"""
// ---- distributions drawn one element at a time (g: an Rng) -----------------------------------
__device__ __forceinline__ double lfact(double k) { return lgamma(k + 1.0); }

template <class G> __device__ double d_standard_gamma(G& g, double a) {
  if (!(a > 0.0)) return a == 0.0 ? 0.0 : nan("");  // never loop on NaN
  if (a == 1.0) return g.exponential();
  // Marsaglia & Tsang (2000); a < 1 is boosted: G(a) = G(a + 1) * U^(1/a).
  const double log_boost = a < 1.0 ? log(g.uniform_open()) / a : 0.0;
  const double d = (a < 1.0 ? a + 1.0 : a) - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  double v;
  for (;;) {
    double x;
    do { x = g.normal(); v = 1.0 + c * x; } while (v <= 0.0);
    v = v * v * v;
    const double u = g.uniform_open(), x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) break;
    if (log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) break;
  }
  return a < 1.0 ? d * v * exp(log_boost) : d * v;
}

template <class G> __device__ double d_beta(G& g, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    // Johnk's algorithm: no gamma variates whose ratio would be 0/0 for tiny a and b.
    for (;;) {
      const double u = g.uniform(), v = g.uniform();
      const double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b), s = x + y;
      if (s <= 1.0 && (u > 0.0 || v > 0.0)) {
        if (s > 0.0) return x / s;
        double lx = log(u) / a, ly = log(v) / b;  // both underflowed: work in logs
        const double m = lx > ly ? lx : ly;
        lx -= m; ly -= m;
        return exp(lx - log(exp(lx) + exp(ly)));
      }
    }
  }
  const double ga = d_standard_gamma(g, a), gb = d_standard_gamma(g, b);
  return ga / (ga + gb);
}

template <class G> __device__ i64 d_poisson(G& g, double lam) {
  if (!(lam > 0.0)) return 0;
  if (lam < 10.0) {  // multiplication method: lam + 1 uniforms on average
    const double enlam = exp(-lam);
    i64 x = 0;
    double prod = 1.0;
    for (;;) {
      prod *= g.uniform();
      if (prod <= enlam) return x;
      ++x;
    }
  }
  // PTRS: transformed rejection with squeeze, Hoermann (1993).
  const double slam = sqrt(lam), loglam = log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = g.uniform() - 0.5, v = g.uniform(), us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return (i64)k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lfact(k))
      return (i64)k;
  }
}

// log(k!) minus Stirling's approximation (k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2.
__device__ double stirling_tail(double k) {
  switch ((int)(k < 10.0 ? k : 10.0)) {
    case 0: return 0.08106146679532726;
    case 1: return 0.04134069595540929;
    case 2: return 0.02767792568499834;
    case 3: return 0.02079067210376509;
    case 4: return 0.01664469118982119;
    case 5: return 0.01387612882307075;
    case 6: return 0.01189670994589177;
    case 7: return 0.01041126526197209;
    case 8: return 0.009255462182712733;
    case 9: return 0.008330563433362871;
    default: {
      const double k1 = k + 1.0, k1sq = k1 * k1;
      return (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / k1sq) / k1sq) / k1;
    }
  }
}

template <class G> __device__ i64 binomial_inversion(G& g, i64 n, double p) {
  const double q = 1.0 - p, s = p / q, qn = exp((double)n * log1p(-p));
  const double np = (double)n * p;
  const double bound_f = np + 10.0 * sqrt(np * q + 1.0);
  const i64 bound = bound_f < (double)n ? (i64)bound_f : n;
  for (;;) {  // restart if rounding walks past every plausible value
    i64 x = 0;
    double px = qn, u = g.uniform();
    while (u > px) {
      if (++x > bound) break;
      u -= px;
      px *= (double)(n - x + 1) * s / (double)x;
    }
    if (x <= bound) return x;
  }
}

// BTRS: transformed rejection with squeeze, Hoermann (1993); needs n p >= 10, p <= 1/2.
template <class G> __device__ i64 binomial_btrs(G& g, i64 n, double p) {
  const double nd = (double)n, q = 1.0 - p, spq = sqrt(nd * p * q);
  const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = nd * p + 0.5, vr = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq;
  const double r = p / q, m = floor((nd + 1.0) * p);
  const double hm = (m + 0.5) * log((m + 1.0) / (r * (nd - m + 1.0))) + stirling_tail(m) +
                    stirling_tail(nd - m);
  for (;;) {
    const double u = g.uniform() - 0.5, us = 0.5 - fabs(u);
    double v = g.uniform();
    const double k = floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > nd) continue;
    if (us >= 0.07 && v <= vr) return (i64)k;
    v = log(v * alpha / (a / (us * us) + b));
    const double h = hm + (nd + 1.0) * log((nd - m + 1.0) / (nd - k + 1.0)) +
                     (k + 0.5) * log(r * (nd - k + 1.0) / (k + 1.0)) - stirling_tail(k) -
                     stirling_tail(nd - k);
    if (v <= h) return (i64)k;
  }
}

template <class G> __device__ i64 d_binomial(G& g, i64 n, double p) {
  if (n <= 0 || !(p > 0.0)) return 0;
  if (p >= 1.0) return n;
  const bool flip = p > 0.5;
  const double pp = flip ? 1.0 - p : p;
  const i64 k = (double)n * pp < 10.0 ? binomial_inversion(g, n, pp) : binomial_btrs(g, n, pp);
  return flip ? n - k : k;
}

template <class G> __device__ i64 d_negative_binomial(G& g, double n, double p) {
  return d_poisson(g, d_standard_gamma(g, n) * ((1.0 - p) / p));
}

template <class G> __device__ i64 d_geometric(G& g, double p) {
  if (p >= 1.0) return 1;
  const double x = ceil(log(g.uniform_open()) / log1p(-p));  // inversion; x >= 1
  return x < CUARRAY_RAND_I64_MAX ? (i64)x : (i64)9223372036854775807LL;
}

template <class G> __device__ i64 d_logseries(G& g, double p) {  // Kemp (1981)
  const double r = log1p(-p);
  for (;;) {
    const double v = g.uniform();
    if (v >= p) return 1;
    const double q = -expm1(r * g.uniform());
    if (v <= q * q) {
      const double x = floor(1.0 + log(v) / log(q));
      if (x < 1.0 || v == 0.0) continue;
      return x < CUARRAY_RAND_I64_MAX ? (i64)x : (i64)9223372036854775807LL;
    }
    return v >= q ? 1 : 2;
  }
}

template <class G> __device__ i64 d_zipf(G& g, double a) {  // rejection, Devroye (1986)
  const double am1 = a - 1.0, b = pow(2.0, am1);
  for (;;) {
    const double u = 1.0 - g.uniform(), v = g.uniform();
    const double x = floor(pow(u, -1.0 / am1));
    if (x >= CUARRAY_RAND_I64_MAX || x < 1.0) continue;  // truncated to the int64 range
    const double t = pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return (i64)x;
  }
}

template <class G> __device__ i64 hypergeometric_urn(G& g, i64 good, i64 bad, i64 sample) {
  // Draw one ball at a time (from the smaller side of the sample).
  const i64 total = good + bad;
  const bool flip = sample > total / 2;
  i64 left = flip ? total - sample : sample, rem_total = total, rem_good = good;
  while (left > 0 && rem_good > 0 && rem_total > rem_good) {
    --rem_total;
    if ((i64)g.bounded((u64)rem_total) < rem_good) --rem_good;
    --left;
  }
  if (rem_total == rem_good) rem_good -= left;  // only good balls are left
  return flip ? rem_good : good - rem_good;
}

// HRUA: ratio of uniforms, Stadlober (1989, 1990).
template <class G> __device__ i64 hypergeometric_hrua(G& g, i64 good, i64 bad, i64 sample) {
  const i64 pop = good + bad;
  const i64 ns = sample < pop - sample ? sample : pop - sample;
  const i64 mn = good < bad ? good : bad, mx = good < bad ? bad : good;
  const double p = (double)mn / (double)pop, q = (double)mx / (double)pop;
  const double a = (double)ns * p + 0.5;
  const double var = (double)(pop - ns) * (double)ns * p * q / (double)(pop - 1);
  const double c = sqrt(var + 0.5);
  const double h = 1.7155277699214135 * c + 0.8989161620588988;  // 2 sqrt(2/e), 3 - 2 sqrt(3/e)
  const double m = floor((double)(ns + 1) * (double)(mn + 1) / (double)(pop + 2));
  const double gm = lfact(m) + lfact((double)mn - m) + lfact((double)ns - m) +
                    lfact((double)(mx - ns) + m);
  const double lim = fmin(fmin((double)ns, (double)mn) + 1.0, floor(a + 16.0 * c));
  double k;
  for (;;) {
    const double u = g.uniform_open(), v = g.uniform();
    const double x = a + h * (v - 0.5) / u;
    if (x < 0.0 || x >= lim) continue;
    k = floor(x);
    const double t = gm - (lfact(k) + lfact((double)mn - k) + lfact((double)ns - k) +
                           lfact((double)(mx - ns) + k));
    if (u * (4.0 - u) - 3.0 <= t) break;  // squeeze accept
    if (u * (u - t) >= 1.0) continue;     // squeeze reject
    if (2.0 * log(u) <= t) break;
  }
  i64 kk = (i64)k;
  if (good > bad) kk = ns - kk;
  if (ns < sample) kk = good - kk;
  return kk;
}

template <class G> __device__ i64 d_hypergeometric(G& g, i64 good, i64 bad, i64 sample) {
  if (sample >= 10 && sample <= good + bad - 10) return hypergeometric_hrua(g, good, bad, sample);
  return hypergeometric_urn(g, good, bad, sample);
}

template <class G> __device__ double d_noncentral_chisquare(G& g, double df, double nonc) {
  if (isnan(nonc)) return nonc;
  if (nonc == 0.0) return 2.0 * d_standard_gamma(g, 0.5 * df);
  if (df > 1.0) {
    const double chi2 = 2.0 * d_standard_gamma(g, 0.5 * (df - 1.0));
    const double z = g.normal() + sqrt(nonc);
    return chi2 + z * z;
  }
  const i64 i = d_poisson(g, 0.5 * nonc);  // Poisson mixture of central chi-squares
  return 2.0 * d_standard_gamma(g, 0.5 * df + (double)i);
}

template <class G> __device__ double d_f(G& g, double dfnum, double dfden) {
  const double num = d_standard_gamma(g, 0.5 * dfnum) * dfden;
  return num / (d_standard_gamma(g, 0.5 * dfden) * dfnum);
}

template <class G> __device__ double d_noncentral_f(G& g, double dfnum, double dfden, double nonc) {
  const double t = d_noncentral_chisquare(g, dfnum, nonc) * dfden;
  return t / (2.0 * d_standard_gamma(g, 0.5 * dfden) * dfnum);
}

template <class G> __device__ double d_standard_t(G& g, double df) {
  const double num = g.normal();
  return sqrt(0.5 * df) * num / sqrt(d_standard_gamma(g, 0.5 * df));
}

__device__ __forceinline__ double wrap_angle(double x) {  // to [-pi, pi], keeping the sign
  const bool neg = x < 0.0;
  double m = fmod(fabs(x) + CUARRAY_RAND_PI, 2.0 * CUARRAY_RAND_PI) - CUARRAY_RAND_PI;
  return neg ? -m : m;
}

template <class G> __device__ double d_vonmises(G& g, double mu, double kappa) {  // Best & Fisher
  if (isnan(kappa)) return kappa;
  if (kappa < 1e-8) return CUARRAY_RAND_PI * (2.0 * g.uniform() - 1.0);
  if (kappa > 1e6) return wrap_angle(mu + sqrt(1.0 / kappa) * g.normal());  // wrapped normal
  double s;
  if (kappa < 1e-5) {
    s = 1.0 / kappa + kappa;  // second-order expansion: the exact form cancels
  } else {
    const double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa);
    const double rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
    s = (1.0 + rho * rho) / (2.0 * rho);
  }
  double w;
  for (;;) {
    const double z = cospi(g.uniform());
    w = (1.0 + s * z) / (s + z);
    const double y = kappa * (s - w), v = g.uniform();
    if (y * (2.0 - y) - v >= 0.0 || log(y / v) + 1.0 - y >= 0.0) break;
  }
  w = fmax(-1.0, fmin(1.0, w));
  const double result = g.uniform() < 0.5 ? mu - acos(w) : mu + acos(w);
  return wrap_angle(result);
}

template <class G> __device__ double d_wald(G& g, double mean, double scale) {
  const double mu_2l = mean / (2.0 * scale);
  double y = g.normal();
  y = mean * y * y;
  const double x = mean + mu_2l * (y - sqrt(4.0 * scale * y + y * y));
  return g.uniform() <= mean / (mean + x) ? x : mean * mean / x;
}

// ---- helpers for choice and the row distributions -----------------------------------------
// First index whose cumulative weight exceeds u * total; never past the last positive weight.
__device__ i64 cdf_search(const double* cdf, i64 K, double u) {
  const double total = cdf[K - 1], x = u * total;
  i64 lo = 0, hi = K - 1;
  while (lo < hi) {  // the last index with positive weight
    const i64 mid = lo + (hi - lo) / 2;
    if (cdf[mid] >= total) hi = mid; else lo = mid + 1;
  }
  const i64 last = lo;
  lo = 0; hi = last;
  while (lo < hi) {
    const i64 mid = lo + (hi - lo) / 2;
    if (cdf[mid] > x) hi = mid; else lo = mid + 1;
  }
  return lo;
}

template <class G, class T> __device__ void r_multinomial(G& g, i64 n, const double* p, i64 K, T* out) {
  double remaining = 1.0;  // conditional binomials, one category at a time
  i64 left = n;
  for (i64 j = 0; j < K - 1; ++j) {
    i64 x = 0;
    if (left > 0) {
      double pj = remaining > 0.0 ? p[j] / remaining : 1.0;
      pj = pj < 0.0 ? 0.0 : (pj > 1.0 ? 1.0 : pj);
      x = d_binomial(g, left, pj);
      left -= x;
      remaining -= p[j];
    }
    out[j] = (T)x;
  }
  out[K - 1] = (T)left;
}

template <class G, class T> __device__ void r_dirichlet(G& g, const double* alpha, i64 K, T* out) {
  double amax = 0.0, asum = 0.0;
  for (i64 j = 0; j < K; ++j) { amax = fmax(amax, alpha[j]); asum += alpha[j]; }
  if (amax < 0.1) {
    // Stick breaking with beta variates: normalised gammas would all underflow to 0/0.
    double acc = 1.0, rest = asum;
    for (i64 j = 0; j < K - 1; ++j) {
      rest = fmax(rest - alpha[j], 0.0);
      const double v = alpha[j] == 0.0 ? 0.0 : (rest == 0.0 ? 1.0 : d_beta(g, alpha[j], rest));
      out[j] = (T)(acc * v);
      acc *= 1.0 - v;
    }
    out[K - 1] = (T)acc;
    return;
  }
  double sum = 0.0;
  for (i64 j = 0; j < K; ++j) {
    const double x = d_standard_gamma(g, alpha[j]);
    out[j] = (T)x;
    sum += x;
  }
  for (i64 j = 0; j < K; ++j) out[j] = (T)((double)out[j] / sum);
}

template <class G, class T>
__device__ void r_multivariate_hypergeometric(G& g, i64 nsample, const i64* colors, i64 K, T* out) {
  i64 total = 0;  // marginals: one hypergeometric per color against all later colors
  for (i64 j = 0; j < K; ++j) total += colors[j];
  i64 left = nsample;
  for (i64 j = 0; j < K - 1; ++j) {
    total -= colors[j];
    const i64 x = left > 0 ? d_hypergeometric(g, colors[j], total, left) : 0;
    out[j] = (T)x;
    left -= x;
  }
  out[K - 1] = (T)left;
}
"""
