// NumPy-semantics helpers for the ufunc table (_core/ufunc_table.py) and complex math.
// Included by core.cuh. Integer helpers never trap and have no undefined behaviour;
// float helpers follow NumPy's npy_math (npy_divmod, npy_spacing, halffloat.cpp, ...).
#pragma once

// ---- constants ---------------------------------------------------------------------------
template <class T> struct cuarray_limits;
template <> struct cuarray_limits<float> {
  static CUARRAY_FN constexpr float eps() { return 1.1920928955078125e-7f; }
  static CUARRAY_FN constexpr float max() { return 3.40282346638528859812e+38f; }
  static CUARRAY_FN constexpr float min() { return 1.17549435082228750797e-38f; }
  static CUARRAY_FN constexpr int mant_dig() { return 24; }
  static CUARRAY_FN constexpr float sinh_big() { return 9.0f; }   // cosh(x) ~ exp(|x|)/2 above
  static CUARRAY_FN constexpr float tanh_big() { return 11.0f; }  // tanh(x) == +-1 above
  static CUARRAY_FN constexpr float exp_big() { return 88.0f; }  // exp() overflows a bit above
  static CUARRAY_FN float inf() { return cuarray_f32(0x7f800000u); }
  static CUARRAY_FN float nan() { return cuarray_f32(0x7fc00000u); }
};
template <> struct cuarray_limits<double> {
  static CUARRAY_FN constexpr double eps() { return 2.220446049250313080847e-16; }
  static CUARRAY_FN constexpr double max() { return 1.79769313486231570815e+308; }
  static CUARRAY_FN constexpr double min() { return 2.22507385850720138309e-308; }
  static CUARRAY_FN constexpr int mant_dig() { return 53; }
  static CUARRAY_FN constexpr double sinh_big() { return 22.0; }
  static CUARRAY_FN constexpr double tanh_big() { return 22.0; }
  static CUARRAY_FN constexpr double exp_big() { return 709.0; }
  static CUARRAY_FN double inf() { return cuarray_f64(0x7ff0000000000000ull); }
  static CUARRAY_FN double nan() { return cuarray_f64(0x7ff8000000000000ull); }
};
// Constants rounded once to T (NumPy's NPY_PIf etc. are float literals, not rounded doubles).
#define CUARRAY_K(T, v) (sizeof(T) == 4 ? (T)v##f : (T)v)
#define CUARRAY_PI(T) CUARRAY_K(T, 3.141592653589793238462643383279502884)
#define CUARRAY_PI_2(T) CUARRAY_K(T, 1.570796326794896619231321691639751442)
#define CUARRAY_LN2(T) CUARRAY_K(T, 0.693147180559945309417232121458176568)
#define CUARRAY_LOG2E(T) CUARRAY_K(T, 1.442695040888963407359924681001892137)
#define CUARRAY_LOG10E(T) CUARRAY_K(T, 0.434294481903251827651128918916605082)

// ---- integers ----------------------------------------------------------------------------
// Unsigned type that integer arithmetic happens in: wraps like NumPy, no signed overflow.
template <class T> struct cuarray_uint { typedef unsigned int type; };
template <> struct cuarray_uint<long long> { typedef unsigned long long type; };
template <> struct cuarray_uint<unsigned long long> { typedef unsigned long long type; };
template <class T> constexpr bool cuarray_signed = (T)-1 < (T)0;

template <class T> CUARRAY_FN typename cuarray_uint<T>::type cuarray_uabs(T a) {
  typedef typename cuarray_uint<T>::type U;
  if constexpr (cuarray_signed<T>) return a < 0 ? U(0) - (U)a : (U)a;
  else return (U)a;
}

// Python's floor division and modulo; x // 0 == x % 0 == 0 and MIN // -1 == MIN, as NumPy 2.
template <class T> CUARRAY_FN T cuarray_int_floor_divide(T a, T b) {
  if (b == 0) return 0;
  if constexpr (cuarray_signed<T>) {
    if (b == -1) return (T)(0 - (typename cuarray_uint<T>::type)a);
    const T q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  } else {
    return a / b;
  }
}
template <class T> CUARRAY_FN T cuarray_int_remainder(T a, T b) {
  if (b == 0) return 0;
  if constexpr (cuarray_signed<T>) {
    if (b == -1) return 0;
    const T r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  } else {
    return a % b;
  }
}

// npy_divmod: fmod-based, quotient snapped to an integer, signs as Python's.
template <class T> CUARRAY_FN T cuarray_float_divmod(T a, T b, T& mod) {
  T m = fmod(a, b);
  if (!b) { mod = m; return a / b; }
  T div = (a - m) / b;
  if (m) {
    if ((b < 0) != (m < 0)) { m += b; div -= T(1); }
  } else {
    m = copysign(T(0), b);
  }
  T floordiv;
  if (div) {
    floordiv = floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = copysign(T(0), a / b);
  }
  mod = m;
  return floordiv;
}

template <class T> CUARRAY_FN T cuarray_floor_divide(T a, T b) {
  if constexpr (cuarray_is_float<T>) {
    if (!b) return a / b;
    T m;
    return cuarray_float_divmod(a, b, m);
  } else {
    return cuarray_int_floor_divide(a, b);
  }
}
template <class T> CUARRAY_FN T cuarray_remainder(T a, T b) {
  if constexpr (cuarray_is_float<T>) {
    if (!b) return fmod(a, b);
    T m;
    cuarray_float_divmod(a, b, m);
    return m;
  } else {
    return cuarray_int_remainder(a, b);
  }
}
template <class T, class Q, class R> CUARRAY_FN void cuarray_divmod(T a, T b, Q& q, R& r) {
  if constexpr (cuarray_is_float<T>) {
    T m;
    q = cuarray_float_divmod(a, b, m);
    r = m;
  } else {
    q = cuarray_int_floor_divide(a, b);
    r = cuarray_int_remainder(a, b);
  }
}
// C's % with NumPy's guards: x fmod 0 == 0 and MIN fmod -1 == 0.
template <class T> CUARRAY_FN T cuarray_int_fmod(T a, T b) {
  if (b == 0) return 0;
  if constexpr (cuarray_signed<T>) {
    if (b == -1) return 0;
  }
  return a % b;
}

// npy_lshift / npy_rshift: counts outside [0, bits) shift everything out.
template <class T> CUARRAY_FN T cuarray_left_shift(T a, T b) {
  typedef typename cuarray_uint<T>::type U;
  return (unsigned long long)b < 8 * sizeof(T) ? (T)((U)a << b) : (T)0;
}
template <class T> CUARRAY_FN T cuarray_right_shift(T a, T b) {
  if ((unsigned long long)b < 8 * sizeof(T)) return a >> b;
  if constexpr (cuarray_signed<T>) return a < 0 ? (T)-1 : (T)0;
  else return 0;
}

template <class T> CUARRAY_FN T cuarray_gcd(T a, T b) {
  typename cuarray_uint<T>::type x = cuarray_uabs(a), y = cuarray_uabs(b);
  while (x != 0) { const auto c = x; x = y % x; y = c; }
  return (T)y;
}
template <class T> CUARRAY_FN T cuarray_lcm(T a, T b) {
  typename cuarray_uint<T>::type x = cuarray_uabs(a), y = cuarray_uabs(b);
  const auto g = cuarray_uabs(cuarray_gcd(a, b));
  return g == 0 ? (T)0 : (T)(x / g * y);
}

// Exponentiation by squaring, wrapping. A negative exponent gives 0: NumPy raises
// "Integers to negative integer powers are not allowed." and cuarray's host side does too.
template <class T> CUARRAY_FN T cuarray_ipow(T a, T b) {
  typedef typename cuarray_uint<T>::type U;
  if constexpr (cuarray_signed<T>) {
    if (b < 0) return 0;
  }
  U base = (U)a, r = 1;
  for (U e = (U)b; e != 0; e >>= 1) {
    if (e & 1) r *= base;
    base *= base;
  }
  return (T)r;
}

// NumPy computes (T)(1.0 / x); 1/0 is inf, which x86 converts to INT_MIN for 32/64-bit
// signed types and (after truncation) to 0 for the others.
template <class T> CUARRAY_FN T cuarray_int_reciprocal(T a) {
  if (a == 1) return 1;
  if constexpr (cuarray_signed<T>) {
    if (a == -1) return -1;
    if (a == 0 && sizeof(T) >= 4) return (T)((typename cuarray_uint<T>::type)1 << (8 * sizeof(T) - 1));
  }
  return 0;
}

CUARRAY_FN unsigned char cuarray_popcount(unsigned long long x) {
#if defined(__CUDACC__)
  return (unsigned char)__popcll(x);
#else
  return (unsigned char)__builtin_popcountll(x);
#endif
}
// bitwise_count counts the bits of |x|, as NumPy.
template <class T> CUARRAY_FN unsigned char cuarray_bitwise_count(T a) { return cuarray_popcount(cuarray_uabs(a)); }

// Exact int64 <-> uint64 comparison (NumPy's qQ->? loops): -1 (a < b), 0 or 1.
CUARRAY_FN int cuarray_mixed_cmp(long long a, unsigned long long b) {
  return a < 0 ? -1 : ((unsigned long long)a < b ? -1 : (unsigned long long)a > b);
}
CUARRAY_FN int cuarray_mixed_cmp(unsigned long long a, long long b) { return -cuarray_mixed_cmp(b, a); }

// ---- floats ------------------------------------------------------------------------------
template <class T> CUARRAY_FN T cuarray_heaviside(T x, T h0) {
  if (isnan(x)) return cuarray_limits<T>::nan();
  return x == 0 ? h0 : (x < 0 ? T(0) : T(1));
}
template <class T> CUARRAY_FN T cuarray_rad2deg(T x) { return x * (T(180) / CUARRAY_PI(T)); }
template <class T> CUARRAY_FN T cuarray_deg2rad(T x) { return x * (CUARRAY_PI(T) / T(180)); }
template <class T> CUARRAY_FN T cuarray_logaddexp(T x, T y) {
  if (x == y) return x + CUARRAY_LN2(T);  // equal infinities without inf - inf
  const T d = x - y;
  if (d > 0) return x + log1p(exp(-d));
  if (d <= 0) return y + log1p(exp(d));
  return d;  // NaN
}
template <class T> CUARRAY_FN T cuarray_logaddexp2(T x, T y) {
  if (x == y) return x + T(1);
  const T d = x - y;
  if (d > 0) return x + CUARRAY_LOG2E(T) * log1p(exp2(-d));
  if (d <= 0) return y + CUARRAY_LOG2E(T) * log1p(exp2(d));
  return d;
}
// npy_spacing: the gap to the next value away from zero; +-0 gives +min subnormal.
template <class T> CUARRAY_FN T cuarray_spacing(T x) {
  if (isinf(x)) return cuarray_limits<T>::nan();
  if (x == 0) return nextafter(T(0), T(1));
  return nextafter(x, copysign(cuarray_limits<T>::inf(), x)) - x;
}
// ldexp with an int64 exponent: NumPy clamps it to int's range first.
template <class T, class I> CUARRAY_FN T cuarray_ldexp(T x, I e) {
  if constexpr (sizeof(I) > 4) e = e > 2147483647 ? 2147483647 : (e < -2147483647 - 1 ? -2147483647 - 1 : e);
  return ldexp(x, (int)e);
}

// float16 bit-level operations (NumPy's halffloat.cpp), where going through float would
// differ: NaN payloads, nextafter's ties, and spacing's own rules.
CUARRAY_FN half cuarray_half_nextafter(half x, half y) {
  const unsigned short a = x.x, b = y.x;
  unsigned short r;
  if ((a & 0x7fffu) > 0x7c00u || (b & 0x7fffu) > 0x7c00u) r = 0x7e00u;
  else if (a == b || ((a | b) & 0x7fffu) == 0) r = b;  // equal (or +-0 and -+0): y, as C99
  else if ((a & 0x7fffu) == 0) r = (b & 0x8000u) + 1;
  else if (!(a & 0x8000u)) r = (short)a > (short)b ? a - 1 : a + 1;
  else r = (!(b & 0x8000u) || (a & 0x7fffu) > (b & 0x7fffu)) ? a - 1 : a + 1;
  return cuarray_half_bits(r);
}
CUARRAY_FN half cuarray_half_spacing(half x) {
  const unsigned short h = x.x, e = h & 0x7c00u, s = h & 0x03ffu;
  unsigned short r;
  if (e == 0x7c00u) r = 0x7e00u;
  else if (h == 0x7bffu) r = 0x7c00u;
  else if ((h & 0x8000u) && s == 0) r = e > 0x2c00u ? e - 0x2c00u : (e > 0x0400u ? 1 << ((e >> 10) - 2) : 1);
  else r = e > 0x2800u ? e - 0x2800u : (e > 0x0400u ? 1 << ((e >> 10) - 1) : 1);
  return cuarray_half_bits(r);
}

// ---- complex: NumPy's loops ----------------------------------------------------------------
// Lexicographic order with NumPy's NaN rules (CGE/CLE/... in loops.c.src).
template <class T> CUARRAY_FN bool cuarray_cge(const complex<T>& a, const complex<T>& b) {
  return (a.re > b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im >= b.im);
}
template <class T> CUARRAY_FN bool cuarray_cgt(const complex<T>& a, const complex<T>& b) {
  return (a.re > b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im > b.im);
}
template <class T> CUARRAY_FN bool cuarray_cle(const complex<T>& a, const complex<T>& b) {
  return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im <= b.im);
}
template <class T> CUARRAY_FN bool cuarray_clt(const complex<T>& a, const complex<T>& b) {
  return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im < b.im);
}
// NumPy 2: z / |z|, with NaN for NaN or two infinite parts and +-1 / +-i for one.
template <class T> CUARRAY_FN complex<T> cuarray_sign(const complex<T>& z) {
  const T nan = cuarray_limits<T>::nan();
  if (isnan(z.re) || isnan(z.im)) return complex<T>(nan, nan);
  if (isinf(z.re) || isinf(z.im)) {
    if (isinf(z.re)) return isinf(z.im) ? complex<T>(nan, nan) : complex<T>(z.re > 0 ? 1 : -1, 0);
    return complex<T>(0, z.im > 0 ? 1 : -1);
  }
  // Scale by the larger part first: |z| may overflow although z / |z| does not.
  const T m = fabs(z.re) > fabs(z.im) ? fabs(z.re) : fabs(z.im);
  if (m == 0) return complex<T>(0, 0);
  const T x = z.re / m, y = z.im / m, a = cuarray_hypot(x, y);
  return complex<T>(x / a, y / a);
}
template <class T> CUARRAY_FN complex<T> cuarray_reciprocal(const complex<T>& z) {
  if (fabs(z.im) <= fabs(z.re)) {
    const T r = z.im / z.re, d = z.re + cuarray_mul_rn(z.im, r);
    return complex<T>(1 / d, -r / d);
  }
  const T r = z.re / z.im, d = cuarray_mul_rn(z.re, r) + z.im;
  return complex<T>(r / d, -1 / d);
}
// NumPy's SIMD complex absolute (loops_unary_complex): larger * sqrt(fma(s/l, s/l, 1)).
template <class T> CUARRAY_FN T cuarray_cabs(const complex<T>& z) {
  const T re = fabs(z.re), im = fabs(z.im);
  if (isinf(re) || isinf(im)) return cuarray_limits<T>::inf();
  if (isnan(re) || isnan(im)) return cuarray_limits<T>::nan();
  const T larger = re > im ? re : im, smaller = re > im ? im : re;
  const T ratio = larger == 0 ? T(0) : smaller / larger;
  return sqrt(fma(ratio, ratio, T(1))) * larger;
}

// ---- complex: C99 functions (npy_math_complex.c / FreeBSD msun algorithms) ----------------
template <class T> CUARRAY_FN complex<T> exp(const complex<T>& z) {
  const T r = z.re, i = z.im;
  if (isfinite(r)) {
    if (!isfinite(i)) return complex<T>(i - i, i - i);
    if (i == 0) return complex<T>(exp(r), i);
    if (r > cuarray_limits<T>::exp_big()) {  // exp(r) may overflow where exp(r) * cos(i) does not
      const T h = exp(r / 2);
      return complex<T>(h * cos(i) * h, h * sin(i) * h);
    }
    const T x = exp(r);
    return complex<T>(x * cos(i), x * sin(i));
  }
  if (isnan(r)) return i == 0 ? z : complex<T>(r, i - i + r);
  if (r > 0) {
    if (i == 0) return z;
    if (isfinite(i)) return complex<T>(r * cos(i), r * sin(i));
    return complex<T>(r, i - i);
  }
  if (isfinite(i)) return complex<T>(T(0) * cos(i), T(0) * sin(i));
  return complex<T>(0, 0);
}

template <class T> CUARRAY_FN complex<T> log(const complex<T>& z) {
  typedef cuarray_limits<T> L;
  const T ax = fabs(z.re), ay = fabs(z.im);
  T rr;
  if (isnan(ax) && isfinite(ay)) return complex<T>(ax, L::nan());
  if (ax > L::max() / 4 || ay > L::max() / 4) {
    rr = log(hypot(ax / 2, ay / 2)) + CUARRAY_LN2(T);
  } else if (ax < L::min() && ay < L::min()) {
    if (ax > 0 || ay > 0) {  // subnormal |z|: scale up first
      rr = log(hypot(ldexp(ax, L::mant_dig()), ldexp(ay, L::mant_dig()))) - L::mant_dig() * CUARRAY_LN2(T);
    } else {
      return complex<T>(-L::inf(), atan2(z.im, z.re));
    }
  } else {
    const T h = hypot(ax, ay);
    if (T(0.71) <= h && h <= T(1.73)) {  // |z| near 1: log1p keeps the real part accurate
      const T am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
      rr = log1p((am - 1) * (am + 1) + an * an) / 2;
    } else {
      rr = log(h);
    }
  }
  return complex<T>(rr, atan2(z.im, z.re));
}

template <class T> CUARRAY_FN complex<T> sqrt(const complex<T>& z) {
  T a = z.re, b = z.im;
  if (a == 0 && b == 0) return complex<T>(0, b);
  if (isinf(b)) return complex<T>(cuarray_limits<T>::inf(), b);
  if (isnan(a)) return complex<T>(a, (b - b) / (b - b));
  if (isinf(a)) {
    if (signbit(a)) return complex<T>(fabs(b - b), copysign(a, b));
    return complex<T>(a, copysign(b - b, b));
  }
  // Scale to avoid overflow in a + hypot(a, b) (Algorithm 312, CACM vol 10, Oct 1967).
  const bool scale = fabs(a) >= cuarray_limits<T>::max() / T(2.414213562373095) ||
                     fabs(b) >= cuarray_limits<T>::max() / T(2.414213562373095);
  if (scale) { a *= T(0.25); b *= T(0.25); }
  complex<T> r;
  if (a >= 0) {
    const T t = sqrt((a + hypot(a, b)) * T(0.5));
    r = complex<T>(t, b / (2 * t));
  } else {
    const T t = sqrt((-a + hypot(a, b)) * T(0.5));
    r = complex<T>(fabs(b) / (2 * t), copysign(t, b));
  }
  if (scale) { r.re *= 2; r.im *= 2; }
  return r;
}

// C99 Annex G multiplication (GCC's __muldc3): infinities that the plain formula turns
// into NaN + NaN i are recovered.
template <class T> CUARRAY_FN complex<T> cuarray_cmul_c99(complex<T> z, complex<T> w) {
  T a = z.re, b = z.im, c = w.re, d = w.im;
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  T x = ac - bd, y = ad + bc;
  if (isnan(x) && isnan(y)) {
    bool recalc = false;
    if (isinf(a) || isinf(b)) {
      a = copysign(T(isinf(a) ? 1 : 0), a); b = copysign(T(isinf(b) ? 1 : 0), b);
      if (isnan(c)) c = copysign(T(0), c);
      if (isnan(d)) d = copysign(T(0), d);
      recalc = true;
    }
    if (isinf(c) || isinf(d)) {
      c = copysign(T(isinf(c) ? 1 : 0), c); d = copysign(T(isinf(d) ? 1 : 0), d);
      if (isnan(a)) a = copysign(T(0), a);
      if (isnan(b)) b = copysign(T(0), b);
      recalc = true;
    }
    if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
      if (isnan(a)) a = copysign(T(0), a);
      if (isnan(b)) b = copysign(T(0), b);
      if (isnan(c)) c = copysign(T(0), c);
      if (isnan(d)) d = copysign(T(0), d);
      recalc = true;
    }
    if (recalc) {
      x = cuarray_limits<T>::inf() * (a * c - b * d);
      y = cuarray_limits<T>::inf() * (a * d + b * c);
    }
  }
  return complex<T>(x, y);
}

// A complex product as written, never fused (npy_cpow's cmul, compiled without FMA).
template <class T> CUARRAY_FN complex<T> cuarray_cmul_plain(const complex<T>& a, const complex<T>& b) {
  return complex<T>(cuarray_mul_rn(a.re, b.re) - cuarray_mul_rn(a.im, b.im),
                    cuarray_mul_rn(a.re, b.im) + cuarray_mul_rn(a.im, b.re));
}

// npy_cpow: exact products for small integer exponents, exp(b log a) otherwise.
template <class T> CUARRAY_FN complex<T> pow(const complex<T>& a, const complex<T>& b) {
  const T ar = a.re, ai = a.im, br = b.re, bi = b.im;
  if (br == 0 && bi == 0) return complex<T>(1, 0);
  if (ar == 0 && ai == 0) {
    if (br > 0) return complex<T>(0, 0);
    return complex<T>(cuarray_limits<T>::nan(), cuarray_limits<T>::nan());
  }
  if (bi == 0 && br > -100 && br < 100 && (T)(long long)br == br) {
    long long n = (long long)br;
    if (n == 1) return a;
    if (n == 2) return cuarray_cmul_plain(a, a);
    if (n == 3) return cuarray_cmul_plain(a, cuarray_cmul_plain(a, a));
    if (n < 0) n = -n;
    complex<T> acc(1, 0), p = a;
    for (long long mask = 1;; mask <<= 1) {
      if (n & mask) acc = cuarray_cmul_plain(acc, p);
      if (n < (mask << 1)) break;
      p = cuarray_cmul_plain(p, p);
    }
    return br < 0 ? complex<T>(1, 0) / acc : acc;
  }
  return exp(cuarray_cmul_c99(b, log(a)));  // glibc's cpow: cexp(b * clog(a))
}
template <class T> CUARRAY_FN complex<T> pow(const complex<T>& a, typename complex<T>::value_type b) {
  return pow(a, complex<T>(b));
}
template <class T> CUARRAY_FN complex<T> pow(typename complex<T>::value_type a, const complex<T>& b) {
  return pow(complex<T>(a), b);
}

template <class T> CUARRAY_FN complex<T> cosh(const complex<T>& z) {
  const T x = z.re, y = z.im, ax = fabs(x);
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return complex<T>(cosh(x), x * y);
    if (ax < cuarray_limits<T>::sinh_big()) return complex<T>(cosh(x) * cos(y), sinh(x) * sin(y));
    // cosh(x) ~ sinh(|x|) ~ exp(|x|)/2; past exp's range, exp(|x|/2)^2 keeps finite results finite
    const T e = ax < cuarray_limits<T>::exp_big() ? T(1) : exp(ax / 2);
    const T h = (ax < cuarray_limits<T>::exp_big() ? exp(ax) : e) * T(0.5);
    return complex<T>(h * cos(y) * e, copysign(h, x) * sin(y) * e);
  }
  if (x == 0) return complex<T>(y - y, copysign(T(0), x * (y - y)));
  if (y == 0) return complex<T>(x * x, copysign(T(0), x) * y);
  if (isfinite(x)) return complex<T>(y - y, x * (y - y));
  if (isinf(x)) {
    if (!isfinite(y)) return complex<T>(x * x, x * (y - y));
    return complex<T>((x * x) * cos(y), x * sin(y));
  }
  return complex<T>((x * x) * (y - y), (x + x) * (y - y));
}

template <class T> CUARRAY_FN complex<T> sinh(const complex<T>& z) {
  const T x = z.re, y = z.im, ax = fabs(x);
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return complex<T>(sinh(x), y);
    if (ax < cuarray_limits<T>::sinh_big()) return complex<T>(sinh(x) * cos(y), cosh(x) * sin(y));
    const T e = ax < cuarray_limits<T>::exp_big() ? T(1) : exp(ax / 2);
    const T h = (ax < cuarray_limits<T>::exp_big() ? exp(ax) : e) * T(0.5);
    return complex<T>(copysign(h, x) * cos(y) * e, h * sin(y) * e);
  }
  if (x == 0) return complex<T>(copysign(T(0), x * (y - y)), y - y);
  if (y == 0) return isnan(x) ? z : complex<T>(x, copysign(T(0), y));
  if (isfinite(x)) return complex<T>(y - y, x * (y - y));
  if (isinf(x)) {
    if (!isfinite(y)) return complex<T>(x * x, x * (y - y));
    return complex<T>(x * cos(y), cuarray_limits<T>::inf() * sin(y));
  }
  return complex<T>((x * x) * (y - y), (x + x) * (y - y));
}

// Kahan's algorithm, as FreeBSD's ctanh.
template <class T> CUARRAY_FN complex<T> tanh(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (!isfinite(x)) {
    if (isnan(x)) return complex<T>(x, y == 0 ? y : x * y);
    return complex<T>(copysign(T(1), x), copysign(T(0), isinf(y) ? y : sin(y) * cos(y)));
  }
  if (!isfinite(y)) return complex<T>(x ? y - y : x, y - y);
  if (fabs(x) >= cuarray_limits<T>::tanh_big()) {
    const T e = exp(-fabs(x));
    return complex<T>(copysign(T(1), x), 4 * sin(y) * cos(y) * e * e);
  }
  const T t = tan(y), beta = 1 + t * t, s = sinh(x), rho = sqrt(1 + s * s), d = 1 + beta * s * s;
  return complex<T>((beta * rho * s) / d, t / d);
}

// sin(z) = -i sinh(iz), cos(z) = cosh(iz), tan(z) = -i tanh(iz)
template <class T> CUARRAY_FN complex<T> sin(const complex<T>& z) {
  if (isinf(z.im) && !isfinite(z.re)) return complex<T>(z.re - z.re, cuarray_limits<T>::inf());  // glibc's sign
  const complex<T> w = sinh(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}
template <class T> CUARRAY_FN complex<T> cos(const complex<T>& z) { return cosh(complex<T>(-z.im, z.re)); }
template <class T> CUARRAY_FN complex<T> tan(const complex<T>& z) {
  const complex<T> w = tanh(complex<T>(-z.im, z.re));
  return complex<T>(w.im, -w.re);
}

// log(z) for |z| > 1/eps, where asinh/acos reduce to it (FreeBSD's clog_for_large_values).
template <class T> CUARRAY_FN complex<T> cuarray_clog_large(T x, T y) {
  const T ax = fabs(x), ay = fabs(y), m = ax > ay ? ax : ay;
  const T e = T(2.718281828459045);
  const T rr = m > cuarray_limits<T>::max() / 2 ? log(hypot(x / e, y / e)) + 1 : log(hypot(x, y));
  return complex<T>(rr, atan2(y, x));
}

// Kahan, "Branch cuts for complex elementary functions" (1987): accurate for finite z of
// moderate size, with C99's signed zeros on the cuts. Special and huge inputs first, as in
// FreeBSD's catrig.c.
template <class T> CUARRAY_FN complex<T> asinh(const complex<T>& z) {
  const T x = z.re, y = z.im, nan = cuarray_limits<T>::nan();
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return complex<T>(x, y + y);
    if (isinf(y)) return complex<T>(fabs(y), x + x);  // sign unspecified by C99; glibc's +
    if (y == 0) return complex<T>(x + x, y);
    return complex<T>(nan, nan);
  }
  if (fabs(x) > 1 / cuarray_limits<T>::eps() || fabs(y) > 1 / cuarray_limits<T>::eps()) {
    complex<T> w = signbit(x) ? cuarray_clog_large(-x, -y) : cuarray_clog_large(x, y);
    return complex<T>(copysign(w.re + CUARRAY_LN2(T), x), copysign(w.im, y));
  }
  // asinh(z) = swap(asin(swap(z))); asin(u + iv) = atan2(u, Re(s1 s2)) + i asinh(Im(conj(s1) s2))
  // with s1 = sqrt(1 - w), s2 = sqrt(1 + w), w = y + ix.
  const complex<T> s1 = sqrt(complex<T>(1 - y, -x)), s2 = sqrt(complex<T>(1 + y, x));
  return complex<T>(asinh(s1.re * s2.im - s1.im * s2.re), atan2(y, s1.re * s2.re - s1.im * s2.im));
}
template <class T> CUARRAY_FN complex<T> asin(const complex<T>& z) {
  const complex<T> w = asinh(complex<T>(z.im, z.re));
  return complex<T>(w.im, w.re);
}
template <class T> CUARRAY_FN complex<T> acos(const complex<T>& z) {
  const T x = z.re, y = z.im, nan = cuarray_limits<T>::nan();
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return complex<T>(y + y, -cuarray_limits<T>::inf());
    if (isinf(y)) return complex<T>(x + x, -y);
    if (x == 0) return complex<T>(CUARRAY_PI_2(T), y + y);
    return complex<T>(nan, nan);
  }
  if (fabs(x) > 1 / cuarray_limits<T>::eps() || fabs(y) > 1 / cuarray_limits<T>::eps()) {
    const complex<T> w = cuarray_clog_large(x, y);
    const T ry = w.re + CUARRAY_LN2(T);
    return complex<T>(fabs(w.im), signbit(y) ? ry : -ry);
  }
  // acos(z) = 2 atan2(Re(s1), Re(s2)) + i asinh(Im(conj(s2) s1)), s1 = sqrt(1 - z), s2 = sqrt(1 + z)
  const complex<T> s1 = sqrt(complex<T>(1 - x, -y)), s2 = sqrt(complex<T>(1 + x, y));
  return complex<T>(2 * atan2(s1.re, s2.re), asinh(s2.re * s1.im - s2.im * s1.re));
}
template <class T> CUARRAY_FN complex<T> acosh(const complex<T>& z) {
  const complex<T> w = acos(z);
  if (isnan(w.re) && isnan(w.im)) return complex<T>(w.im, w.re);
  if (isnan(w.re)) return complex<T>(fabs(w.im), w.re);
  if (isnan(w.im)) return complex<T>(w.im, w.re);  // acosh(+-0 + i NaN) = NaN + i pi/2, as glibc
  return complex<T>(fabs(w.im), copysign(w.re, z.im));
}
template <class T> CUARRAY_FN complex<T> atanh(const complex<T>& z) {
  typedef cuarray_limits<T> L;
  const T x = z.re, y = z.im, ax = fabs(x), ay = fabs(y);
  if (y == 0 && ax <= 1) return complex<T>(atanh(x), y);
  if (x == 0) return complex<T>(x, atan(y));
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return complex<T>(copysign(T(0), x), y + y);
    if (isinf(y)) return complex<T>(copysign(T(0), x), copysign(CUARRAY_PI_2(T), y));
    return complex<T>(L::nan(), L::nan());
  }
  if (ax > 1 / L::eps() || ay > 1 / L::eps()) {  // Re(1/z), without overflow
    T re;
    if (isinf(x) || isinf(y)) re = copysign(T(0), x);
    else { const int e = ilogb(ax > ay ? ax : ay); const T sx = ldexp(x, -e), sy = ldexp(y, -e);
           re = ldexp(sx / (sx * sx + sy * sy), -e); }
    return complex<T>(re, copysign(CUARRAY_PI_2(T), y));
  }
  T rx, ry;
  if (ax == 1 && ay < L::eps()) rx = (CUARRAY_LN2(T) - log(ay)) / 2;
  else rx = log1p(4 * ax / ((ax - 1) * (ax - 1) + ay * ay)) / 4;
  if (ax == 1) ry = atan2(T(2), -ay) / 2;
  else if (ay < L::eps()) ry = atan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
  else ry = atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
  return complex<T>(copysign(rx, x), copysign(ry, y));
}
template <class T> CUARRAY_FN complex<T> atan(const complex<T>& z) {
  const complex<T> w = atanh(complex<T>(z.im, z.re));
  return complex<T>(w.im, w.re);
}

// NumPy's own definitions (umath/funcs.inc.src).
template <class T> CUARRAY_FN complex<T> log2(const complex<T>& z) { return log(z) * CUARRAY_LOG2E(T); }
template <class T> CUARRAY_FN complex<T> log10(const complex<T>& z) { return log(z) * CUARRAY_LOG10E(T); }
template <class T> CUARRAY_FN complex<T> exp2(const complex<T>& z) { return exp(z * CUARRAY_LN2(T)); }
template <class T> CUARRAY_FN complex<T> expm1(const complex<T>& z) {
  const T a = sin(z.im / 2);
  return complex<T>(expm1(z.re) * cos(z.im) - 2 * a * a, exp(z.re) * sin(z.im));
}
template <class T> CUARRAY_FN complex<T> log1p(const complex<T>& z) {
  // Near z = 0, log|1 + z| = log1p(2x + x^2 + y^2) / 2 keeps the digits log(hypot) loses.
  const T x = z.re, y = z.im, h = cuarray_hypot(x + 1, y);
  const T re = (h > T(0.5) && h < T(2)) ? log1p(x * (2 + x) + y * y) / 2 : log(h);
  return complex<T>(re, atan2(y, x + 1));
}
template <> CUARRAY_FN complex<float> log1p(const complex<float>& z) {
  // Near |1 + z| = 1 the float formula loses digits NumPy keeps: compute that region in
  // double and round once. Elsewhere stay in float, where NumPy overflows too.
  const float h = cuarray_hypot(z.re + 1.0f, z.im);
  if (h > 0.5f && h < 2.0f) {
    const complex<double> r = log1p(complex<double>(z.re, z.im));
    return complex<float>((float)r.re, (float)r.im);
  }
  return complex<float>(log(h), atan2(z.im, z.re + 1.0f));
}
