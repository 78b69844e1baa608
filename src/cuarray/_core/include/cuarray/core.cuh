// cuarray's device types: half, complex<T>, and cuarray_cast<To>(x) with NumPy's casting.
// Needs no CUDA toolkit header (NVRTC may ship without cuda_fp16.h). Also compiles as host
// C++ (g++ >= 12) so the CPU tests can check the same code against NumPy.
#pragma once

#if defined(__CUDACC__)
#define CUARRAY_FN __device__ __forceinline__
#else
#define CUARRAY_FN inline
#endif

// ---- traits (no <type_traits> under NVRTC) ---------------------------------------------
template <class A, class B> struct cuarray_same_t { static constexpr bool value = false; };
template <class A> struct cuarray_same_t<A, A> { static constexpr bool value = true; };
template <class A, class B> constexpr bool cuarray_same = cuarray_same_t<A, B>::value;
template <class T> constexpr bool cuarray_is_float = cuarray_same<T, float> || cuarray_same<T, double>;

// ---- bit patterns --------------------------------------------------------------------------
CUARRAY_FN float cuarray_f32(unsigned int b) {
#if defined(__CUDACC__)
  return __uint_as_float(b);
#else
  float f; __builtin_memcpy(&f, &b, 4); return f;
#endif
}
CUARRAY_FN double cuarray_f64(unsigned long long b) {
#if defined(__CUDACC__)
  return __longlong_as_double((long long)b);
#else
  double d; __builtin_memcpy(&d, &b, 8); return d;
#endif
}

// ---- half: IEEE binary16 storage; arithmetic goes through float, as NumPy's does -------
CUARRAY_FN float cuarray_h2f(unsigned short h) {
#if defined(__CUDACC__)
  float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f;
#else
  _Float16 v; __builtin_memcpy(&v, &h, 2); return (float)v;
#endif
}
// Rounding to half from T in one step (PTX: T's cvt type and register constraint).
#if defined(__CUDACC__)
#define CUARRAY_TO_HALF(NAME, T, PTX, REG) CUARRAY_FN unsigned short NAME(T v) { \
  unsigned short h; asm("cvt.rn.f16." PTX " %0, %1;" : "=h"(h) : REG(v)); return h; }
#else
#define CUARRAY_TO_HALF(NAME, T, PTX, REG) CUARRAY_FN unsigned short NAME(T v) { \
  _Float16 x = (_Float16)v; unsigned short h; __builtin_memcpy(&h, &x, 2); return h; }
#endif
CUARRAY_TO_HALF(cuarray_f2h, float, "f32", "f")
// One rounding from double, as NumPy's npy_double_to_half (not double -> float -> half).
CUARRAY_TO_HALF(cuarray_d2h, double, "f64", "d")
#undef CUARRAY_TO_HALF

struct half {
  unsigned short x;
  half() = default;
  CUARRAY_FN half(float f) : x(cuarray_f2h(f)) {}
  CUARRAY_FN half(double d) : x(cuarray_d2h(d)) {}
  template <class T> CUARRAY_FN half(T v) : x(cuarray_f2h((float)v)) {}  // integers, bool
  CUARRAY_FN operator float() const { return cuarray_h2f(x); }
};
typedef half float16;  // the name CuPy's kernels use
CUARRAY_FN half cuarray_half_bits(unsigned short b) { half h; h.x = b; return h; }

// ---- complex<T>: CuPy's (thrust's) interface; layout {re, im} aligned to its size ------
template <class T> struct alignas(2 * sizeof(T)) complex {
  typedef T value_type;
  T re, im;
  complex() = default;
  CUARRAY_FN constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
  template <class U> CUARRAY_FN explicit constexpr complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}
  CUARRAY_FN T real() const { return re; }
  CUARRAY_FN T imag() const { return im; }
  CUARRAY_FN void real(T v) { re = v; }
  CUARRAY_FN void imag(T v) { im = v; }
  CUARRAY_FN complex& operator+=(const complex& z) { re += z.re; im += z.im; return *this; }
  CUARRAY_FN complex& operator-=(const complex& z) { re -= z.re; im -= z.im; return *this; }
  CUARRAY_FN complex& operator*=(const complex& z) { return *this = *this * z; }
  CUARRAY_FN complex& operator/=(const complex& z) { return *this = *this / z; }
};
template <class T> struct cuarray_is_complex_t { static constexpr bool value = false; };
template <class T> struct cuarray_is_complex_t<complex<T>> { static constexpr bool value = true; };
template <class T> constexpr bool cuarray_is_complex = cuarray_is_complex_t<T>::value;

// The scalar operand is a non-deduced context, so `z * 2` and `z == 0` work.
#define CUARRAY_CT const complex<T>&
#define CUARRAY_RT typename complex<T>::value_type
template <class T> CUARRAY_FN complex<T> operator+(CUARRAY_CT a) { return a; }
template <class T> CUARRAY_FN complex<T> operator-(CUARRAY_CT a) { return complex<T>(-a.re, -a.im); }
template <class T> CUARRAY_FN complex<T> operator+(CUARRAY_CT a, CUARRAY_CT b) { return complex<T>(a.re + b.re, a.im + b.im); }
template <class T> CUARRAY_FN complex<T> operator+(CUARRAY_CT a, CUARRAY_RT b) { return complex<T>(a.re + b, a.im); }
template <class T> CUARRAY_FN complex<T> operator+(CUARRAY_RT a, CUARRAY_CT b) { return complex<T>(a + b.re, b.im); }
template <class T> CUARRAY_FN complex<T> operator-(CUARRAY_CT a, CUARRAY_CT b) { return complex<T>(a.re - b.re, a.im - b.im); }
template <class T> CUARRAY_FN complex<T> operator-(CUARRAY_CT a, CUARRAY_RT b) { return complex<T>(a.re - b, a.im); }
template <class T> CUARRAY_FN complex<T> operator-(CUARRAY_RT a, CUARRAY_CT b) { return complex<T>(a - b.re, -b.im); }
// Fused as NumPy's SIMD loops on x86 with FMA (re = fma(ar, br, -ai bi)), which also keeps
// the result independent of how the compiler would contract the plain formula.
template <class T> CUARRAY_FN complex<T> operator*(CUARRAY_CT a, CUARRAY_CT b) {
  return complex<T>(fma(a.re, b.re, -(a.im * b.im)), fma(a.re, b.im, a.im * b.re));
}
template <class T> CUARRAY_FN complex<T> operator*(CUARRAY_CT a, CUARRAY_RT b) { return complex<T>(a.re * b, a.im * b); }
template <class T> CUARRAY_FN complex<T> operator*(CUARRAY_RT a, CUARRAY_CT b) { return complex<T>(a * b.re, a * b.im); }
// A product the compiler may not fuse into an fma: NumPy's loops round it on its own.
template <class T> CUARRAY_FN T cuarray_mul_rn(T a, T b) {
#if defined(__CUDACC__)
  if constexpr (sizeof(T) == 4) return __fmul_rn(a, b);
  else return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
// NumPy's complex division loop (Smith's algorithm; 0/0 gives inf or nan parts as NumPy).
template <class T> CUARRAY_FN complex<T> operator/(CUARRAY_CT a, CUARRAY_CT b) {
  const T abr = fabs(b.re), abi = fabs(b.im);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return complex<T>(a.re / abr, a.im / abr);
    const T rat = b.im / b.re, scl = T(1) / (b.re + cuarray_mul_rn(b.im, rat));
    return complex<T>((a.re + cuarray_mul_rn(a.im, rat)) * scl, (a.im - cuarray_mul_rn(a.re, rat)) * scl);
  }
  const T rat = b.re / b.im, scl = T(1) / (b.im + cuarray_mul_rn(b.re, rat));
  return complex<T>((cuarray_mul_rn(a.re, rat) + a.im) * scl, (cuarray_mul_rn(a.im, rat) - a.re) * scl);
}
template <class T> CUARRAY_FN complex<T> operator/(CUARRAY_CT a, CUARRAY_RT b) { return complex<T>(a.re / b, a.im / b); }
template <class T> CUARRAY_FN complex<T> operator/(CUARRAY_RT a, CUARRAY_CT b) { return complex<T>(a) / b; }
template <class T> CUARRAY_FN bool operator==(CUARRAY_CT a, CUARRAY_CT b) { return a.re == b.re && a.im == b.im; }
template <class T> CUARRAY_FN bool operator==(CUARRAY_CT a, CUARRAY_RT b) { return a.re == b && a.im == 0; }
template <class T> CUARRAY_FN bool operator==(CUARRAY_RT a, CUARRAY_CT b) { return b == a; }
template <class T> CUARRAY_FN bool operator!=(CUARRAY_CT a, CUARRAY_CT b) { return !(a == b); }
template <class T> CUARRAY_FN bool operator!=(CUARRAY_CT a, CUARRAY_RT b) { return !(a == b); }
template <class T> CUARRAY_FN bool operator!=(CUARRAY_RT a, CUARRAY_CT b) { return !(b == a); }
template <class T> CUARRAY_FN T real(CUARRAY_CT z) { return z.re; }
template <class T> CUARRAY_FN T imag(CUARRAY_CT z) { return z.im; }
template <class T> CUARRAY_FN complex<T> conj(CUARRAY_CT z) { return complex<T>(z.re, -z.im); }
// hypot without overflow near the largest finite value (CUDA's gives inf for
// hypot(1, DBL_MAX), seen on an H200; NumPy gives DBL_MAX).
template <class T> CUARRAY_FN T cuarray_hypot(T a, T b) {
  a = fabs(a); b = fabs(b);
  if (isinf(a)) return a;  // inf, even with a NaN partner (C99)
  if (isinf(b)) return b;
  if (isnan(a) || isnan(b)) return a + b;
  const T m = a > b ? a : b, n = a > b ? b : a;
  if (m == 0) return m;
  const T r = n / m;
  return m * sqrt(1 + r * r);
}
template <class T> CUARRAY_FN T abs(CUARRAY_CT z) { return cuarray_hypot(z.re, z.im); }
template <class T> CUARRAY_FN T arg(CUARRAY_CT z) { return atan2(z.im, z.re); }
template <class T> CUARRAY_FN T norm(CUARRAY_CT z) { return z.re * z.re + z.im * z.im; }
template <class T> CUARRAY_FN bool isnan(CUARRAY_CT z) { return isnan(z.re) || isnan(z.im); }
template <class T> CUARRAY_FN bool isinf(CUARRAY_CT z) { return isinf(z.re) || isinf(z.im); }
template <class T> CUARRAY_FN bool isfinite(CUARRAY_CT z) { return isfinite(z.re) && isfinite(z.im); }

// ---- casts with NumPy's results ---------------------------------------------------------
template <class T> CUARRAY_FN bool cuarray_nonzero(const T& x) { return x != 0; }
template <class T> CUARRAY_FN bool cuarray_nonzero(CUARRAY_CT z) { return z.re != 0 || z.im != 0; }
#undef CUARRAY_CT
#undef CUARRAY_RT

// Out-of-range float -> int is undefined in C and NumPy. Going through a wider signed
// integer gives x86 NumPy's answer wherever that fits (-1.0 -> uint8 255, 300.0 -> int8 44)
// and never traps.
template <class To, class From> CUARRAY_FN To cuarray_float_to_int(From x) {
  if constexpr (sizeof(To) < 4) return (To)(int)x;
  else if constexpr ((To)-1 < (To)0) return (To)x;
  else if constexpr (sizeof(To) == 4) return (To)(long long)x;
  else return x < 0 ? (To)(long long)x : (To)x;
}

template <class To, class From> CUARRAY_FN To cuarray_cast(const From& x) {
  if constexpr (cuarray_same<To, From>) return x;
  else if constexpr (cuarray_same<To, bool>) return cuarray_nonzero(x);
  else if constexpr (cuarray_is_complex<From>) {
    if constexpr (cuarray_is_complex<To>) return To(typename To::value_type(x.re), typename To::value_type(x.im));
    else return cuarray_cast<To>(x.re);  // the imaginary part is dropped, as NumPy does
  }
  else if constexpr (cuarray_is_complex<To>) return To(cuarray_cast<typename To::value_type>(x), 0);
  else if constexpr (cuarray_same<From, half>) return cuarray_cast<To>((float)x);
  else if constexpr (cuarray_same<To, half>) return half(x);
  else if constexpr (cuarray_is_float<From> && !cuarray_is_float<To>) return cuarray_float_to_int<To>(x);
  else return (To)x;
}

#include <cuarray/math.cuh>
