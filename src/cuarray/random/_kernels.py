"""CUDA C for cuarray.random: Philox4x32-10, the engines, the distributions, and the
kernels built from them.

Every source is `LIBRARY` plus one small wrapper; the builders below return
`(kernel name, wrapper)`. The library uses no CUDA headers, so it also compiles as
host C++ (the CPU tests run the kernels that way).

Counter layout (what makes results independent of the grid): a Philox block is
`philox(key, (position lo, position hi, draw, tag))`. A call owns the positions
`[ctr, ctr + used)` of its bit generator:
- bulk kernels: output i comes from the block at position `ctr + i / W` (W outputs per
  block, lane `i % W`, draw 0, tag 0); a bounded-integer rejection for lane l redraws
  from tag `1 + l` at the same position;
- element kernels: output (or row) i owns position `ctr + i`, tag 0, draws 0, 1, 2, ...
The stateful engines (XORWOW, MRG32k3a) keep one state per stream instead: stream t
serves elements t, t + S, t + 2S, ... for a fixed stream count S.
"""

LIBRARY = r"""
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;

#define CUARRAY_RAND_PI 3.14159265358979323846
#define CUARRAY_RAND_I64_MAX 9223372036854775807.0

// ---- Philox4x32-10 (Salmon, Moraes, Dror, Shaw: SC'11) -------------------------------
__device__ __forceinline__ uint4 philox4x32_10(uint4 c, uint2 k) {
  // 32-bit halves via __umulhi (as Random123 does on CUDA): a 64-bit product here makes
  // the compiler keep the state in 64-bit registers and multiply 64 x 64.
  u32 c0 = c.x, c1 = c.y, c2 = c.z, c3 = c.w, k0 = k.x, k1 = k.y;
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    if (r > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    const u32 hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const u32 hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0; c1 = lo1; c2 = hi0 ^ c3 ^ k1; c3 = lo0;
  }
  return make_uint4(c0, c1, c2, c3);
}

__device__ __forceinline__ uint2 philox_key(u64 key) {
  return make_uint2((u32)key, (u32)(key >> 32));
}

__device__ __forceinline__ uint4 philox_block(uint2 k, u64 pos, u32 draw, u32 tag) {
  return philox4x32_10(make_uint4((u32)pos, (u32)(pos >> 32), draw, tag), k);
}

// ---- engines: next() gives 32 random bits ---------------------------------------------
struct PhiloxEngine {  // one counter stream: fixed (position, tag), draws 0, 1, 2, ...
  uint2 k; u64 pos; u32 draw, tag, b0, b1, b2, b3; int left;
  __device__ PhiloxEngine(uint2 k_, u64 pos_, u32 tag_)
      : k(k_), pos(pos_), draw(0u), tag(tag_), b0(0u), b1(0u), b2(0u), b3(0u), left(0) {}
  __device__ __forceinline__ u32 next() {
    if (left == 0) {
      const uint4 r = philox_block(k, pos, draw++, tag);
      b0 = r.x; b1 = r.y; b2 = r.z; b3 = r.w; left = 4;
    }
    const u32 v = b0;
    b0 = b1; b1 = b2; b2 = b3; --left;
    return v;
  }
};

// Stateful engines keep six 32-bit words per stream, stored word-major (coalesced).
// Streams are seeded from Philox of (key, stream), a keyed hash, so they are independent.
struct XorwowEngine {  // Marsaglia (2003), the generator cuRAND calls XORWOW
  u32 x0, x1, x2, x3, x4, d;
  __device__ __forceinline__ u32 next() {
    const u32 t = x0 ^ (x0 >> 2);
    x0 = x1; x1 = x2; x2 = x3; x3 = x4;
    x4 = (x4 ^ (x4 << 4)) ^ (t ^ (t << 1));
    d += 362437u;
    return x4 + d;
  }
  __device__ void seed(uint2 k, u64 stream) {
    const uint4 a = philox_block(k, stream, 0u, 0xFFFFFFFFu);
    const uint4 b = philox_block(k, stream, 1u, 0xFFFFFFFFu);
    x0 = a.x; x1 = a.y; x2 = a.z; x3 = a.w; x4 = b.x; d = b.y;
    if ((x0 | x1 | x2 | x3 | x4) == 0u) x0 = 1u;  // the all-zero state is a fixed point
  }
  __device__ void load(const u32* s, i64 t, i64 ns) {
    x0 = s[t]; x1 = s[ns + t]; x2 = s[2 * ns + t]; x3 = s[3 * ns + t]; x4 = s[4 * ns + t];
    d = s[5 * ns + t];
  }
  __device__ void store(u32* s, i64 t, i64 ns) const {
    s[t] = x0; s[ns + t] = x1; s[2 * ns + t] = x2; s[3 * ns + t] = x3; s[4 * ns + t] = x4;
    s[5 * ns + t] = d;
  }
};

struct Mrg32k3aEngine {  // L'Ecuyer (1999); 32-bit output is the combined value in [1, m1]
  u32 s10, s11, s12, s20, s21, s22;
  __device__ __forceinline__ u32 next() {
    const i64 m1 = 4294967087LL, m2 = 4294944443LL;
    i64 p1 = (1403580LL * s11 - 810728LL * s10) % m1;
    if (p1 < 0) p1 += m1;
    s10 = s11; s11 = s12; s12 = (u32)p1;
    i64 p2 = (527612LL * s22 - 1370589LL * s20) % m2;
    if (p2 < 0) p2 += m2;
    s20 = s21; s21 = s22; s22 = (u32)p2;
    return (u32)(p1 > p2 ? p1 - p2 : p1 - p2 + m1);
  }
  __device__ void seed(uint2 k, u64 stream) {
    const uint4 a = philox_block(k, stream, 0u, 0xFFFFFFFFu);
    const uint4 b = philox_block(k, stream, 1u, 0xFFFFFFFFu);
    s10 = a.x % 4294967087u; s11 = a.y % 4294967087u; s12 = a.z % 4294967087u;
    s20 = a.w % 4294944443u; s21 = b.x % 4294944443u; s22 = b.y % 4294944443u;
    if ((s10 | s11 | s12) == 0u) s10 = 1u;  // each component needs a nonzero state
    if ((s20 | s21 | s22) == 0u) s20 = 1u;
  }
  __device__ void load(const u32* s, i64 t, i64 ns) {
    s10 = s[t]; s11 = s[ns + t]; s12 = s[2 * ns + t];
    s20 = s[3 * ns + t]; s21 = s[4 * ns + t]; s22 = s[5 * ns + t];
  }
  __device__ void store(u32* s, i64 t, i64 ns) const {
    s[t] = s10; s[ns + t] = s11; s[2 * ns + t] = s12;
    s[3 * ns + t] = s20; s[4 * ns + t] = s21; s[5 * ns + t] = s22;
  }
};

// ---- bits to uniforms ---------------------------------------------------------------------
// [0, 1): the top 24 bits, so 1.0 is never produced.
__device__ __forceinline__ float unit_f32(u32 x) { return (float)(x >> 8) * 0x1p-24f; }
// (0, 1): 23 bits plus half a step (exact in float), for transforms that take a logarithm.
__device__ __forceinline__ float unit_f32_open(u32 x) {
  return ((float)(x >> 9) + 0.5f) * 0x1p-23f;
}
// [0, 1) with 53 bits from two words.
__device__ __forceinline__ double unit_f64(u32 a, u32 b) {
  return ((double)(a >> 5) * 67108864.0 + (double)(b >> 6)) * 0x1p-53;
}
// (0, 1): 52 bits plus half a step (exact in double).
__device__ __forceinline__ double unit_f64_open(u32 a, u32 b) {
  return ((double)(a >> 6) * 67108864.0 + (double)(b >> 6) + 0.5) * 0x1p-52;
}

// Box-Muller on one pair of words. The radius uses accurate logf on (0, 1], so -2 log u
// is never negative; the angle uses the fast sine/cosine on [-pi, pi), where their
// absolute error is below 2^-21.4 (a few ulp of the result).
__device__ __forceinline__ void box_muller_f32(u32 a, u32 b, float& z0, float& z1) {
  const float r = sqrtf(-2.0f * logf(((float)(a >> 8) + 1.0f) * 0x1p-24f));
  float s, c;
  __sincosf(((float)(b >> 8) * 0x1p-24f - 0.5f) * 6.2831853071795865f, &s, &c);
  z0 = r * c;
  z1 = r * s;
}

// Box-Muller on one block: 52-bit radius uniform in (0, 1], 53-bit angle in [0, 2 pi).
__device__ __forceinline__ void box_muller_f64(const uint4& w, double& z0, double& z1) {
  const double u = ((double)(w.x >> 6) * 67108864.0 + (double)(w.y >> 6) + 1.0) * 0x1p-52;
  const double r = sqrt(-2.0 * log(u));
  double s, c;
  sincospi(((double)(w.z >> 5) * 67108864.0 + (double)(w.w >> 6)) * 0x1p-52, &s, &c);
  z0 = r * c;
  z1 = r * s;
}

// ---- Rng: an engine plus the draws every distribution needs -------------------------------
template <class E> struct Rng {
  E e; double cached; bool has_cached;
  __device__ explicit Rng(const E& e_) : e(e_), cached(0.0), has_cached(false) {}
  __device__ __forceinline__ u32 next_u32() { return e.next(); }
  __device__ __forceinline__ u64 next_u64() { const u64 hi = e.next(); return (hi << 32) | e.next(); }
  __device__ __forceinline__ double uniform() { const u32 a = e.next(); return unit_f64(a, e.next()); }
  __device__ __forceinline__ double uniform_open() {
    const u32 a = e.next();
    return unit_f64_open(a, e.next());
  }
  __device__ double normal() {  // Box-Muller; the second value of the pair is kept
    if (has_cached) { has_cached = false; return cached; }
    const double r = sqrt(-2.0 * log(uniform_open()));
    double s, c;
    sincospi(2.0 * uniform(), &s, &c);
    cached = r * s;
    has_cached = true;
    return r * c;
  }
  __device__ __forceinline__ double exponential() { return -log1p(-uniform()); }
  // Uniform integer in [0, rm1], exact: Lemire's multiply-shift with rejection.
  __device__ u64 bounded(u64 rm1) {
    if (rm1 <= 0xFFFFFFFFull) {
      if (rm1 == 0xFFFFFFFFull) return e.next();
      const u32 r = (u32)rm1 + 1u;
      u64 m = (u64)e.next() * r;
      if ((u32)m < r) {
        const u32 t = (0u - r) % r;
        while ((u32)m < t) m = (u64)e.next() * r;
      }
      return m >> 32;
    }
    if (rm1 == ~0ull) return next_u64();
    const u64 r = rm1 + 1ull;
    u64 x = next_u64();
    if (x * r < r) {
      const u64 t = (0ull - r) % r;
      while (x * r < t) x = next_u64();
    }
    return __umul64hi(x, r);
  }
};

// ---- transforms of one uniform u (bulk and element kernels share them) --------------------
template <class T> __device__ __forceinline__ T xu_uniform(T u, T low, T high, T) {
  return low + (high - low) * u;
}
template <class T> __device__ __forceinline__ T xu_exponential(T u, T scale, T, T) {
  return -log1p(-u) * scale;
}
template <class T> __device__ __forceinline__ T xu_gumbel(T u, T loc, T scale, T) {  // u in (0, 1)
  return loc - scale * log(-log(u));
}
template <class T> __device__ __forceinline__ T xu_laplace(T u, T loc, T scale, T) {  // u in (0, 1)
  return u < T(0.5) ? loc + scale * log(u + u) : loc - scale * log(T(2) - u - u);
}
template <class T> __device__ __forceinline__ T xu_logistic(T u, T loc, T scale, T) {  // (0, 1)
  return loc + scale * log(u / (T(1) - u));
}
template <class T> __device__ __forceinline__ T xu_rayleigh(T u, T scale, T, T) {
  return scale * sqrt(T(-2) * log1p(-u));
}
template <class T> __device__ __forceinline__ T xu_weibull(T u, T a, T, T) {
  return a == T(0) ? T(0) : pow(-log1p(-u), T(1) / a);
}
template <class T> __device__ __forceinline__ T xu_pareto(T u, T a, T, T) {
  return expm1(-log1p(-u) / a);
}
template <class T> __device__ __forceinline__ T xu_power(T u, T a, T, T) {
  return pow(u, T(1) / a);
}
template <class T> __device__ __forceinline__ T xu_cauchy(T u, T, T, T) {  // u in (0, 1)
  return tan(T(CUARRAY_RAND_PI) * (u - T(0.5)));
}
template <class T> __device__ __forceinline__ T xu_triangular(T u, T left, T mode, T right) {
  const T base = right - left, leftbase = mode - left;
  return u <= leftbase / base ? left + sqrt(u * leftbase * base)
                              : right - sqrt((T(1) - u) * (right - mode) * base);
}
// ---- transforms of one standard normal z ----------------------------------------------------
template <class T> __device__ __forceinline__ T xn_normal(T z, T loc, T scale, T) {
  return loc + scale * z;
}
template <class T> __device__ __forceinline__ T xn_lognormal(T z, T mean, T sigma, T) {
  return exp(mean + sigma * z);
}

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

// ---- bulk kernels: W outputs per Philox block, vector stores when aligned ------------------
template <int W, class T> struct alignas(W * sizeof(T) < 16 ? W * sizeof(T) : 16) Pack { T v[W]; };

template <int W, class T, class Make>
__device__ __forceinline__ void bulk_fill(T* __restrict__ out, u64 n, uint2 k, u64 ctr,
                                          const Make& make) {
  const u64 nq = n / W, stride = (u64)gridDim.x * blockDim.x;
  u64 q = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (reinterpret_cast<u64>(out) % alignof(Pack<W, T>) == 0) {
    Pack<W, T>* po = reinterpret_cast<Pack<W, T>*>(out);
    for (; q < nq; q += stride) {
      Pack<W, T> p;
      make(philox_block(k, ctr + q, 0u, 0u), ctr + q, p.v);
      po[q] = p;
    }
  } else {
    for (; q < nq; q += stride) {
      T v[W];
      make(philox_block(k, ctr + q, 0u, 0u), ctr + q, v);
#pragma unroll
      for (int l = 0; l < W; ++l) out[q * W + l] = v[l];
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && nq * W < n) {  // the partial last block
    T v[W];
    make(philox_block(k, ctr + nq, 0u, 0u), ctr + nq, v);
#pragma unroll
    for (int l = 0; l < W; ++l)
      if (nq * W + l < n) out[nq * W + l] = v[l];
  }
}

template <bool OPEN, class F> struct MakeUniformF32 {
  F f;
  __device__ __forceinline__ float u(u32 x) const { return OPEN ? unit_f32_open(x) : unit_f32(x); }
  __device__ __forceinline__ void operator()(const uint4& r, u64, float* v) const {
    v[0] = f(u(r.x)); v[1] = f(u(r.y)); v[2] = f(u(r.z)); v[3] = f(u(r.w));
  }
};
template <bool OPEN, class F> struct MakeUniformF64 {
  F f;
  __device__ __forceinline__ double u(u32 a, u32 b) const {
    return OPEN ? unit_f64_open(a, b) : unit_f64(a, b);
  }
  __device__ __forceinline__ void operator()(const uint4& r, u64, double* v) const {
    v[0] = f(u(r.x, r.y)); v[1] = f(u(r.z, r.w));
  }
};
template <class F> struct MakeNormalF32 {
  F f;
  __device__ __forceinline__ void operator()(const uint4& r, u64, float* v) const {
    float z0, z1, z2, z3;
    box_muller_f32(r.x, r.y, z0, z1);
    box_muller_f32(r.z, r.w, z2, z3);
    v[0] = f(z0); v[1] = f(z1); v[2] = f(z2); v[3] = f(z3);
  }
};
template <class F> struct MakeNormalF64 {
  F f;
  __device__ __forceinline__ void operator()(const uint4& r, u64, double* v) const {
    double z0, z1;
    box_muller_f64(r, z0, z1);
    v[0] = f(z0); v[1] = f(z1);
  }
};
struct MakeRaw {
  __device__ __forceinline__ void operator()(const uint4& r, u64, u32* v) const {
    v[0] = r.x; v[1] = r.y; v[2] = r.z; v[3] = r.w;
  }
};

// [lo, lo + range) for range <= 2^32, one word per output (Lemire). A rejected lane l
// redraws from its own stream (position, tag 1 + l), so no other output moves. The
// redraw is rare: one loop rotates through the lanes, so its engine is inlined once.
template <class T> struct MakeBounded32 {
  uint2 k; u64 range, lo; u32 thresh;
  __device__ __forceinline__ void operator()(const uint4& w, u64 pos, T* v) const {
    u32 x0 = w.x, x1 = w.y, x2 = w.z, x3 = w.w;
    if (range > 0xFFFFFFFFull) {  // the full 32-bit range
      v[0] = (T)(lo + x0); v[1] = (T)(lo + x1); v[2] = (T)(lo + x2); v[3] = (T)(lo + x3);
      return;
    }
    const u32 r = (u32)range;
    if (x0 * r < thresh || x1 * r < thresh || x2 * r < thresh || x3 * r < thresh) {
#pragma unroll 1
      for (u32 lane = 0; lane < 4; ++lane) {  // x0 is the current lane; rotate after
        if (x0 * r < thresh) {
          PhiloxEngine e(k, pos, 1u + lane);
          do { x0 = e.next(); } while (x0 * r < thresh);
        }
        const u32 t = x0; x0 = x1; x1 = x2; x2 = x3; x3 = t;
      }
    }
    v[0] = (T)(lo + __umulhi(x0, r)); v[1] = (T)(lo + __umulhi(x1, r));
    v[2] = (T)(lo + __umulhi(x2, r)); v[3] = (T)(lo + __umulhi(x3, r));
  }
};
// [lo, lo + rm1] for wider ranges, two words per output (Lemire, 64-bit).
template <class T> struct MakeBounded64 {
  uint2 k; u64 rm1, lo, thresh;
  __device__ __forceinline__ void operator()(const uint4& w, u64 pos, T* v) const {
    u64 x0 = ((u64)w.x << 32) | w.y, x1 = ((u64)w.z << 32) | w.w;
    if (rm1 == ~0ull) { v[0] = (T)(lo + x0); v[1] = (T)(lo + x1); return; }
    const u64 r = rm1 + 1ull;
    if (x0 * r < thresh || x1 * r < thresh) {
#pragma unroll 1
      for (u32 lane = 0; lane < 2; ++lane) {
        if (x0 * r < thresh) {
          PhiloxEngine e(k, pos, 1u + lane);
          do { const u64 hi = e.next(); x0 = (hi << 32) | e.next(); } while (x0 * r < thresh);
        }
        const u64 t = x0; x0 = x1; x1 = t;
      }
    }
    v[0] = (T)(lo + __umul64hi(x0, r)); v[1] = (T)(lo + __umul64hi(x1, r));
  }
};
"""

# ---- the distributions -------------------------------------------------------------------
# name -> (parameter kinds, device call, bulk form). Kinds: 'd' double, 'l' int64. The call
# sees `g` (an Rng) and `a0, a1, a2`; a bulk form ('u' / 'uo' / 'n', transform) marks a
# closed-form transform of one uniform ([0, 1) / (0, 1)) or one normal, which also has a
# vectorised Philox kernel for scalar parameters.
DISTS = {
    "uniform": ("dd", None, ("u", "xu_uniform")),
    "exponential": ("d", None, ("u", "xu_exponential")),
    "gumbel": ("dd", None, ("uo", "xu_gumbel")),
    "laplace": ("dd", None, ("uo", "xu_laplace")),
    "logistic": ("dd", None, ("uo", "xu_logistic")),
    "rayleigh": ("d", None, ("u", "xu_rayleigh")),
    "weibull": ("d", None, ("u", "xu_weibull")),
    "pareto": ("d", None, ("u", "xu_pareto")),
    "power": ("d", None, ("u", "xu_power")),
    "standard_cauchy": ("", None, ("uo", "xu_cauchy")),
    "triangular": ("ddd", None, ("u", "xu_triangular")),
    "normal": ("dd", None, ("n", "xn_normal")),
    "lognormal": ("dd", None, ("n", "xn_lognormal")),
    "standard_gamma": ("d", "d_standard_gamma(g, a0)", None),
    "gamma": ("dd", "a1 * d_standard_gamma(g, a0)", None),
    "beta": ("dd", "d_beta(g, a0, a1)", None),
    "chisquare": ("d", "2.0 * d_standard_gamma(g, 0.5 * a0)", None),
    "noncentral_chisquare": ("dd", "d_noncentral_chisquare(g, a0, a1)", None),
    "f": ("dd", "d_f(g, a0, a1)", None),
    "noncentral_f": ("ddd", "d_noncentral_f(g, a0, a1, a2)", None),
    "standard_t": ("d", "d_standard_t(g, a0)", None),
    "vonmises": ("dd", "d_vonmises(g, a0, a1)", None),
    "wald": ("dd", "d_wald(g, a0, a1)", None),
    "poisson": ("d", "d_poisson(g, a0)", None),
    "binomial": ("ld", "d_binomial(g, a0, a1)", None),
    "negative_binomial": ("dd", "d_negative_binomial(g, a0, a1)", None),
    "geometric": ("d", "d_geometric(g, a0)", None),
    "hypergeometric": ("lll", "d_hypergeometric(g, a0, a1, a2)", None),
    "logseries": ("d", "d_logseries(g, a0)", None),
    "zipf": ("d", "d_zipf(g, a0)", None),
    # [low, high - exclusive] with modular uint64 arithmetic, so any integer dtype fits.
    "integers": ("lll", "(u64)a0 + g.bounded((u64)a1 - (u64)a0 - (u64)a2)", None),
    # Efraimidis-Spirakis keys: the smallest `size` of E / p are a weighted sample
    # without replacement.
    "weighted_key": ("d", "-log(g.uniform_open()) / a0", None),
}

# Distributions with a row vector (`vec`, length K): element i is a row of K outputs, or
# (choice) one output searched in the vector. name -> (kinds, vector C type, statement).
ROW_DISTS = {
    "choice_cdf": ("", "double", "out[i] = (OUT)cdf_search(vec, K, g.uniform());"),
    "multinomial": ("l", "double", "r_multinomial(g, a0, vec, K, out + i * K);"),
    "dirichlet": ("", "double", "r_dirichlet(g, vec, K, out + i * K);"),
    "multivariate_hypergeometric": (
        "l", "long long", "r_multivariate_hypergeometric(g, a0, vec, K, out + i * K);"),
}

ENGINES = {"philox": "PhiloxEngine", "xorwow": "XorwowEngine", "mrg32k3a": "Mrg32k3aEngine"}

CTYPES = {"?": "bool", "b": "signed char", "B": "unsigned char", "h": "short",
          "H": "unsigned short", "i": "int", "I": "unsigned int", "l": "long long",
          "q": "long long", "L": "unsigned long long", "Q": "unsigned long long",
          "f": "float", "d": "double"}
_SHORT = {"?": "b1", "b": "i8", "B": "u8", "h": "i16", "H": "u16", "i": "i32", "I": "u32",
          "l": "i64", "q": "i64", "L": "u64", "Q": "u64", "f": "f32", "d": "f64"}
_KIND_CTYPE = {"d": "double", "l": "long long"}


def source(wrapper):
    """The full NVRTC source of a kernel: the library, then its wrapper."""
    return LIBRARY + wrapper


def _params(kinds):
    """Kernel parameters and per-element loads for distribution parameters.

    Parameter j is a pointer (null: use the scalar) indexed `(i / div) % mod` (mod 0:
    index i), which covers scalars, full arrays and arrays broadcast along leading or
    trailing axes without materialising them.
    """
    decl, load = [], []
    for j, kind in enumerate(kinds):
        t = _KIND_CTYPE[kind]
        decl.append(f"const {t}* __restrict__ q{j}, const i64 d{j}, const i64 m{j}, const {t} s{j}")
        load.append(f"const {t} a{j} = q{j} ? q{j}[m{j} ? (i / d{j}) % m{j} : i] : s{j};")
    return decl, load


def _element_wrapper(name, engine, out_char, kinds, statement, extra=()):
    cls = ENGINES[engine]
    decl, load = _params(kinds)
    args = ["OUT* __restrict__ out", "const i64 n", *decl, *extra,
            "const u64 key", "const u64 ctr", "u32* __restrict__ states", "const i64 nstates"]
    body = "\n      ".join(load + [statement])
    if engine == "philox":
        loop = f"""  const uint2 k = philox_key(key);
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {{
      Rng<PhiloxEngine> g(PhiloxEngine(k, ctr + (u64)i, 0u));
      {body}
  }}"""
    else:
        loop = f"""  const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nstates) return;
  {cls} e;
  e.load(states, t, nstates);
  Rng<{cls}> g(e);
  for (i64 i = t; i < n; i += nstates) {{
      {body}
  }}
  g.e.store(states, t, nstates);"""
    return f"""
typedef {CTYPES[out_char]} OUT;
extern "C" __global__ void __launch_bounds__(256) {name}({", ".join(args)}) {{
{loop}
}}
"""


def element_kernel(dist, engine, out_char):
    """(name, wrapper) of the one-output-per-element kernel for `dist` (any engine)."""
    kinds, call, bulk = DISTS[dist]
    if call is None:
        form, fn = bulk
        draw = {"u": "g.uniform()", "uo": "g.uniform_open()", "n": "g.normal()"}[form]
        args = ", ".join([f"a{j}" for j in range(len(kinds))] + ["0.0"] * (3 - len(kinds)))
        call = f"{fn}<double>({draw}, {args})"
    name = f"cuarray_random_{dist}_{engine}_{_SHORT[out_char]}"
    return name, _element_wrapper(name, engine, out_char, kinds, f"out[i] = (OUT)({call});")


def row_kernel(dist, engine, out_char):
    """(name, wrapper) of a row kernel: element i writes out[i*K : i*K + K] (or out[i])."""
    kinds, vec_t, statement = ROW_DISTS[dist]
    name = f"cuarray_random_{dist}_{engine}_{_SHORT[out_char]}"
    extra = (f"const {vec_t}* __restrict__ vec", "const i64 K")
    return name, _element_wrapper(name, engine, out_char, kinds, statement, extra)


# Bulk kernels that fit 32 registers without spilling when asked to (ptxas -v, sm_90):
# 8 blocks of 256 per SM, a full SM, for the throughput-critical draws.
_FULL_OCCUPANCY = {("uniform", "f"), ("uniform", "d"), ("exponential", "f"),
                   ("exponential", "d"), ("normal", "f"), ("lognormal", "f")}


def bulk_kernel(dist, out_char):
    """(name, wrapper) of the vectorised Philox kernel for a closed-form `dist`.

    float32: 4 outputs per block (one word each); float64: 2 (two words each). The
    scalar parameters arrive as doubles and are converted once.
    """
    form, fn = DISTS[dist][2]
    t = CTYPES[out_char]
    name = f"cuarray_random_bulk_{dist}_{_SHORT[out_char]}"
    bounds = "256, 8" if (dist, out_char) in _FULL_OCCUPANCY else "256"
    width = "F32" if out_char == "f" else "F64"
    if form == "n":
        make = f"MakeNormal{width}<Xf>{{f}}"
    else:
        make = f"MakeUniform{width}<{'true' if form == 'uo' else 'false'}, Xf>{{f}}"
    return name, f"""
struct Xf {{
  {t} p0, p1, p2;
  __device__ __forceinline__ {t} operator()({t} x) const {{ return {fn}<{t}>(x, p0, p1, p2); }}
}};
extern "C" __global__ void __launch_bounds__({bounds}) {name}({t}* __restrict__ out, const u64 n,
    const u64 key, const u64 ctr, const double p0, const double p1, const double p2) {{
  const Xf f = {{({t})p0, ({t})p1, ({t})p2}};
  bulk_fill<{16 // (4 if out_char == "f" else 8)}>(out, n, philox_key(key), ctr, {make});
}}
"""


def bounded_kernel(out_char, wide):
    """(name, wrapper) of the vectorised Philox kernel for integers in [lo, lo + range).

    Narrow (range <= 2^32): 4 outputs per block, `range` given as an integer up to 2^32
    and `thresh` = 2^32 mod range. Wide: 2 outputs per block, `range_or_rm1` is
    range - 1 (all ones: the full 64-bit range) and `thresh` = 2^64 mod range.
    """
    t = CTYPES[out_char]
    name = f"cuarray_random_bounded{64 if wide else 32}_{_SHORT[out_char]}"
    if wide:
        make, width = f"MakeBounded64<{t}>{{k, range_or_rm1, lo, thresh}}", 2
    else:
        make, width = f"MakeBounded32<{t}>{{k, range_or_rm1, lo, (u32)thresh}}", 4
    return name, f"""
extern "C" __global__ void __launch_bounds__(256) {name}({t}* __restrict__ out, const u64 n,
    const u64 key, const u64 ctr, const u64 range_or_rm1, const u64 thresh, const u64 lo) {{
  const uint2 k = philox_key(key);
  bulk_fill<{width}>(out, n, k, ctr, {make});
}}
"""


def raw_kernel():
    """(name, wrapper) of the kernel writing raw 32-bit Philox words, 4 per block."""
    name = "cuarray_random_raw_u32"
    return name, f"""
extern "C" __global__ void __launch_bounds__(256, 8) {name}(u32* __restrict__ out, const u64 n,
    const u64 key, const u64 ctr) {{
  bulk_fill<4>(out, n, philox_key(key), ctr, MakeRaw{{}});
}}
"""


def raw_stateful_kernel(engine):
    """(name, wrapper) of the kernel writing raw 32-bit words from a stateful engine."""
    name = f"cuarray_random_raw_{engine}"
    return name, _element_wrapper(name, engine, "I", "", "out[i] = g.next_u32();")


def init_kernel(engine):
    """(name, wrapper) of the kernel seeding the `ns` streams of a stateful engine."""
    cls = ENGINES[engine]
    name = f"cuarray_random_init_{engine}"
    return name, f"""
extern "C" __global__ void __launch_bounds__(256) {name}(u32* __restrict__ states, const i64 ns,
    const u64 key) {{
  const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ns) return;
  {cls} e;
  e.seed(philox_key(key), (u64)t);
  e.store(states, t, ns);
}}
"""


def check_kernel(tag, kinds, conditions):
    """(name, wrapper) of a kernel counting, per condition, the elements that violate it.

    `conditions` are C expressions over `a0, a1, a2`; counts[c] gets the number of
    elements where condition c holds.
    """
    decl, load = _params(kinds)
    tests = "\n      ".join(f"if ({c}) atomicAdd(counts + {j}, 1ull);"
                           for j, c in enumerate(conditions))
    loads = "\n      ".join(load)
    name = f"cuarray_random_check_{tag}"
    args = ", ".join(["u64* __restrict__ counts", "const i64 n", *decl])
    return name, f"""
extern "C" __global__ void __launch_bounds__(256) {name}({args}) {{
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {{
      {loads}
      {tests}
  }}
}}
"""


def all_kernels():
    """Every (name, wrapper) the library can build (for compile tests)."""
    out = []
    for engine in ENGINES:
        for dist in DISTS:
            out += [element_kernel(dist, engine, c) for c in ("f", "d", "l")]
        for dist in ROW_DISTS:
            out += [row_kernel(dist, engine, c) for c in ("d", "l")]
        if engine != "philox":
            out += [init_kernel(engine), raw_stateful_kernel(engine)]
    for dist, (_, _, bulk) in DISTS.items():
        if bulk is not None:
            out += [bulk_kernel(dist, c) for c in ("f", "d")]
    for c in "?bBhHiIlLfd":
        if c not in "fd":
            out += [bounded_kernel(c, False), bounded_kernel(c, True)]
        out.append(element_kernel("integers", "philox", c))
    out.append(raw_kernel())
    return list(dict(out).items())
