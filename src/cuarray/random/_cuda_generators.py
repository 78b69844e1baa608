"""CUDA C of cuarray.random, first part: Philox4x32-10, the stateful engines (XORWOW,
MRG32k3a), bits to uniforms, Box-Muller, `Rng` and the closed-form transforms of one
uniform or one normal.

One of the three pieces of `_kernels.LIBRARY` (then _cuda_distributions.py and
_cuda_bulk.py), which joins them in this order; the library's text is split by topic
only, so each piece reads on its own.
"""

GENERATORS = r"""
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
"""
