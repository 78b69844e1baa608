"""Device code of cuarray.scipy.special: one overload per (function, float/double).

CUDA's math library supplies erf, erfc, erfcx, erfinv, erfcinv, tgamma, lgamma, normcdf,
normcdfinv, the Bessel functions j0/j1/y0/y1/cyl_bessel_i0/i1, exp2/exp10/cbrt; NVRTC
knows them without headers. The rest is here, ported from Cephes as SciPy uses it
(digamma, beta, betaln, zeta, gammasgn, ...), with SciPy's values at poles and
infinities. Functions CUDA does not provide compute in double for float32 inputs and
round once, as SciPy's float loops do. The source also builds as host C++ (g++), which
is how the CPU tests check it against SciPy.
"""

SOURCE = r"""
#define CUSP_INF cuarray_f64(0x7ff0000000000000ull)
#define CUSP_NAN cuarray_f64(0x7ff8000000000000ull)
#define CUSP_PI 3.14159265358979323846
#define CUSP_MAXGAM 171.624376956302725
#define CUSP_MAXLOG 7.09782712893383996843e2
#define CUSP_MACHEP 1.11022302462515654042e-16

// ---- thin overloads over CUDA's library: one name for float and double ------------------
CUARRAY_FN float cusp_erf(float x) { return erff(x); }
CUARRAY_FN double cusp_erf(double x) { return erf(x); }
CUARRAY_FN float cusp_erfc(float x) { return erfcf(x); }
CUARRAY_FN double cusp_erfc(double x) { return erfc(x); }
CUARRAY_FN float cusp_erfcx(float x) { return erfcxf(x); }
CUARRAY_FN double cusp_erfcx(double x) { return erfcx(x); }
CUARRAY_FN float cusp_erfinv(float x) { return erfinvf(x); }
CUARRAY_FN double cusp_erfinv(double x) { return erfinv(x); }
CUARRAY_FN float cusp_erfcinv(float x) { return erfcinvf(x); }
CUARRAY_FN double cusp_erfcinv(double x) { return erfcinv(x); }
CUARRAY_FN float cusp_ndtr(float x) { return normcdff(x); }
CUARRAY_FN double cusp_ndtr(double x) { return normcdf(x); }
CUARRAY_FN float cusp_ndtri(float x) { return normcdfinvf(x); }
CUARRAY_FN double cusp_ndtri(double x) { return normcdfinv(x); }
// SciPy's Bessel functions are NaN at +-inf (CUDA's J and Y give 0 there, I gives inf).
#define CUSP_NAN_AT_INF(x, value) (isinf(x) ? decltype(x)(CUSP_NAN) : (value))
// Float32 Bessel and gamma values go through double: CUDA's float versions are only
// absolutely accurate (2.2e-6) past |x| = 8 or near the zeros of lgamma, SciPy's exact.
CUARRAY_FN double cusp_j0(double x) { return CUSP_NAN_AT_INF(x, j0(x)); }
CUARRAY_FN double cusp_j1(double x) { return CUSP_NAN_AT_INF(x, j1(x)); }
CUARRAY_FN double cusp_y0(double x) { return CUSP_NAN_AT_INF(x, y0(x)); }
CUARRAY_FN double cusp_y1(double x) { return CUSP_NAN_AT_INF(x, y1(x)); }
CUARRAY_FN double cusp_i0(double x) { return CUSP_NAN_AT_INF(x, cyl_bessel_i0(x)); }
CUARRAY_FN double cusp_i1(double x) { return CUSP_NAN_AT_INF(x, cyl_bessel_i1(x)); }
CUARRAY_FN float cusp_j0(float x) { return (float)cusp_j0((double)x); }
CUARRAY_FN float cusp_j1(float x) { return (float)cusp_j1((double)x); }
CUARRAY_FN float cusp_y0(float x) { return (float)cusp_y0((double)x); }
CUARRAY_FN float cusp_y1(float x) { return (float)cusp_y1((double)x); }
CUARRAY_FN float cusp_i0(float x) { return (float)cusp_i0((double)x); }
CUARRAY_FN float cusp_i1(float x) { return (float)cusp_i1((double)x); }
CUARRAY_FN float cusp_exp2(float x) { return exp2f(x); }
CUARRAY_FN double cusp_exp2(double x) { return exp2(x); }
CUARRAY_FN float cusp_exp10(float x) { return exp10f(x); }
CUARRAY_FN double cusp_exp10(double x) { return exp10(x); }
CUARRAY_FN float cusp_cbrt(float x) { return cbrtf(x); }
CUARRAY_FN double cusp_cbrt(double x) { return cbrt(x); }
CUARRAY_FN float cusp_expm1(float x) { return expm1f(x); }
CUARRAY_FN double cusp_expm1(double x) { return expm1(x); }
CUARRAY_FN float cusp_log1p(float x) { return log1pf(x); }
CUARRAY_FN double cusp_log1p(double x) { return log1p(x); }

// ---- gamma family ------------------------------------------------------------------------
CUARRAY_FN bool cusp_nonpos_int(double x) { return x <= 0 && x == floor(x); }
CUARRAY_FN double cusp_gamma(double x) { return tgamma(x); }   // NaN at the poles, as SciPy
CUARRAY_FN float cusp_gamma(float x) { return (float)tgamma((double)x); }
// Cephes' internal Gamma: +inf at the poles (beta and betaln rely on it).
CUARRAY_FN double cusp_gamma_cephes(double x) {
  return (x != 0 && cusp_nonpos_int(x)) ? CUSP_INF : tgamma(x);
}
CUARRAY_FN double cusp_gammaln(double x) { return x == -CUSP_INF ? -CUSP_INF : lgamma(x); }
CUARRAY_FN float cusp_gammaln(float x) { return (float)cusp_gammaln((double)x); }
CUARRAY_FN double cusp_gammasgn(double x) {
  if (x != x) return x;
  if (x > 0) return 1;
  if (x == 0) return signbit(x) ? -1 : 1;
  if (x == floor(x)) return CUSP_NAN;   // poles, and -inf
  return fmod(floor(x), 2.0) == 0 ? 1 : -1;
}
CUARRAY_FN float cusp_gammasgn(float x) { return (float)cusp_gammasgn((double)x); }
CUARRAY_FN double cusp_rgamma(double x) {
  if (x != x) return x;
  if (isinf(x)) return 0;
  if (cusp_nonpos_int(x)) return x == 0 ? x : 0.0;   // rgamma(-0.0) is -0.0
  return 1 / tgamma(x);
}
CUARRAY_FN float cusp_rgamma(float x) { return (float)cusp_rgamma((double)x); }
// log|Gamma(x)| and its sign
CUARRAY_FN double cusp_lgam_sgn(double x, double* sign) {
  *sign = cusp_gammasgn(x);
  if (*sign != *sign) *sign = 1;
  return lgamma(x);
}

CUARRAY_FN double cusp_digamma(double x) {
  if (x != x) return x;
  if (x == 0) return signbit(x) ? CUSP_INF : -CUSP_INF;
  if (isinf(x)) return x > 0 ? x : CUSP_NAN;
  double res = 0;
  if (x < 0) {
    if (x == floor(x)) return CUSP_NAN;
    // reflection: psi(x) = psi(1 - x) - pi / tan(pi x); sinpi/cospi reduce x exactly
    res = -CUSP_PI * cospi(x) / sinpi(x);
    x = 1 - x;
  }
  while (x < 10) { res -= 1 / x; x += 1; }
  const double y = 1 / (x * x);
  const double poly = y * (8.33333333333333333333e-2 + y * (-8.33333333333333333333e-3
      + y * (3.96825396825396825397e-3 + y * (-4.16666666666666666667e-3
      + y * (7.57575757575757575758e-3 + y * (-2.10927960927960927961e-2
      + y * 8.33333333333333333333e-2))))));
  return res + log(x) - 0.5 / x - poly;
}
CUARRAY_FN float cusp_digamma(float x) { return (float)cusp_digamma((double)x); }

// ---- beta, betaln (Cephes beta.c) ----------------------------------------------------------
CUARRAY_FN double cusp_lbeta_asymp(double a, double b, double* sgn) {
  double r = cusp_lgam_sgn(b, sgn);
  r -= b * log(a);
  r += b * (1 - b) / (2 * a);
  r += b * (1 - b) * (1 - 2 * b) / (12 * a * a);
  r += -b * b * (1 - b) * (1 - b) / (12 * a * a * a);
  return r;
}
// Beta away from the poles of its arguments; `log_` gives log|B|.
CUARRAY_FN double cusp_beta_core(double a, double b, bool log_) {
  double sign = 1, s;
  if (fabs(a) < fabs(b)) { const double t = a; a = b; b = t; }
  if (fabs(a) > 1e6 * fabs(b) && a > 1e6) {   // lgam(a + b) - lgam(a) would cancel
    const double y = cusp_lbeta_asymp(a, b, &s);
    return log_ ? y : s * exp(y);
  }
  double y = a + b;
  if (fabs(y) > CUSP_MAXGAM || fabs(a) > CUSP_MAXGAM || fabs(b) > CUSP_MAXGAM) {
    y = cusp_lgam_sgn(y, &s); sign *= s;
    y = cusp_lgam_sgn(b, &s) - y; sign *= s;
    y = cusp_lgam_sgn(a, &s) + y; sign *= s;
    if (log_) return y;
    if (y > CUSP_MAXLOG) return sign * CUSP_INF;
    return sign * exp(y);
  }
  y = cusp_gamma_cephes(y);
  a = cusp_gamma_cephes(a);
  b = cusp_gamma_cephes(b);
  if (y == 0) return log_ ? CUSP_INF : sign * CUSP_INF;
  if (fabs(fabs(a) - fabs(y)) > fabs(fabs(b) - fabs(y))) { y = b / y; y *= a; }
  else { y = a / y; y *= b; }
  return log_ ? log(fabs(y)) : y;
}
// At a non-positive integer argument, B(a, b) = (-1)^b B(1 - a - b, b) when b is an
// integer with 1 - a - b > 0, else it overflows (Cephes' beta_negint and lbeta_negint).
CUARRAY_FN double cusp_beta_any(double a, double b, bool log_) {
  double sign = 1;   // no early NaN test: Cephes gives inf for beta(nan, 0), and so does SciPy
  for (int k = 0; k < 4; ++k) {
    const bool na = cusp_nonpos_int(a), nb = cusp_nonpos_int(b);
    if (!na && !nb) { const double r = cusp_beta_core(a, b, log_); return log_ ? r : sign * r; }
    if (!na) { const double t = a; a = b; b = t; }
    // Cephes tests integrality through (int): values beyond int (-inf too) overflow.
    if (a < -2147483648.0) break;
    if (b == floor(b) && fabs(b) <= 2147483647.0 && 1 - a - b > 0) {
      if (!log_ && fmod(b, 2.0) != 0) sign = -sign;
      a = 1 - a - b;
      continue;
    }
    break;
  }
  return log_ ? CUSP_INF : sign * CUSP_INF;
}
CUARRAY_FN double cusp_beta(double a, double b) { return cusp_beta_any(a, b, false); }
CUARRAY_FN float cusp_beta(float a, float b) { return (float)cusp_beta_any(a, b, false); }
CUARRAY_FN double cusp_betaln(double a, double b) { return cusp_beta_any(a, b, true); }
CUARRAY_FN float cusp_betaln(float a, float b) { return (float)cusp_beta_any(a, b, true); }

// ---- zeta (Cephes zeta.c: Euler-Maclaurin summation) ----------------------------------------
CUARRAY_FN double cusp_zeta_em(double x, double q) {
  const double A[12] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0,
                        -1.8924375803183791606e9, 7.47242496e10, -2.950130727918164224e12,
                        1.1646782814350067249e14, -4.5979787224074726105e15,
                        1.8152105401943546773e17, -7.1661652561756670113e18};
  if (q > 1e8) return (1 / (x - 1) + 1 / (2 * q)) * pow(q, 1 - x);
  double s = pow(q, -x), a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1; a += 1.0; b = pow(a, -x); s += b;
    if (fabs(b / s) < CUSP_MACHEP) return s;
  }
  const double w = a;
  s += b * w / (x - 1.0);
  s -= 0.5 * b;
  a = 1.0;
  double k = 0.0;
  for (i = 0; i < 12; i++) {
    a *= x + k; b /= w;
    const double t = a * b / A[i];
    s = s + t;
    if (fabs(t / s) < CUSP_MACHEP) break;
    k += 1.0; a *= x + k; b /= w; k += 1.0;
  }
  return s;
}
// Hurwitz zeta(x, q) for x >= 1 (SciPy's `zeta(x, q)`)
CUARRAY_FN double cusp_zeta(double x, double q) {
  if (x == 1.0) return CUSP_INF;   // Cephes' order of tests, NaNs included
  if (x < 1.0) return CUSP_NAN;
  if (q <= 0.0) {
    if (q == floor(q)) return CUSP_INF;
    if (x != floor(x)) return CUSP_NAN;   // q^-x undefined
  }
  return cusp_zeta_em(x, q);
}
CUARRAY_FN float cusp_zeta(float x, float q) { return (float)cusp_zeta((double)x, (double)q); }
// Riemann zeta(x) for every real x (reflection below 0)
CUARRAY_FN double cusp_zeta(double x) {
  if (x != x) return x;
  if (x == 1.0) return CUSP_INF;
  if (x == CUSP_INF) return 1.0;
  if (x == -CUSP_INF) return CUSP_NAN;
  // Euler-Maclaurin continues analytically past 0; below -1 the reflection
  // zeta(x) = 2^x pi^(x - 1) sin(pi x / 2) Gamma(1 - x) zeta(1 - x), in logarithms so that
  // Gamma(1 - x) may overflow on its own.
  if (x > -1) return cusp_zeta_em(x, 1.0);
  const double h = x / 2;
  if (h == floor(h)) return 0.0;   // the trivial zeros
  const double lg = x * 0.69314718055994530942 + (x - 1) * 1.14472988584940017414 + lgamma(1 - x);
  return exp(lg) * sinpi(h) * cusp_zeta_em(1 - x, 1.0);
}
CUARRAY_FN float cusp_zeta(float x) { return (float)cusp_zeta((double)x); }
CUARRAY_FN double cusp_polygamma(double n, double x) {
  if (n == 0) return cusp_digamma(x);
  return pow(-1.0, n + 1) * tgamma(n + 1.0) * cusp_zeta(n + 1, x);
}
CUARRAY_FN float cusp_polygamma(float n, float x) {
  return (float)cusp_polygamma((double)n, (double)x);
}

// ---- logistic, entropies, log-probabilities ------------------------------------------------
template <class T> CUARRAY_FN T cusp_expit(T x) { return T(1) / (T(1) + exp(-x)); }
template <class T> CUARRAY_FN T cusp_log_expit(T x) {
  return x < 0 ? x - log1p(exp(x)) : -log1p(exp(-x));
}
template <class T> CUARRAY_FN T cusp_logit(T x) {
  // log(x / (1 - x)) loses precision near 1/2, where the log1p form does not.
  if (x < T(0.3) || x > T(0.65)) return log(x / (T(1) - x));
  const T s = T(2) * (x - T(0.5));
  return log1p(s) - log1p(-s);
}
template <class T> CUARRAY_FN T cusp_xlogy(T x, T y) {
  return (x == 0 && y == y) ? T(0) : x * log(y);
}
template <class T> CUARRAY_FN T cusp_xlog1py(T x, T y) {
  return (x == 0 && y == y) ? T(0) : x * log1p(y);
}
template <class T> CUARRAY_FN T cusp_entr(T x) {
  if (x != x) return x;
  if (x > 0) return -x * log(x);
  if (x == 0) return T(0);
  return -T(CUSP_INF);
}
// x log(x / y), without losing x / y to overflow or underflow or 1 + small to rounding
CUARRAY_FN double cusp_xlog_ratio(double x, double y) {
  const double r = x / y;
  if (r > 0.5 && r < 2) return x * log1p((x - y) / y);
  if (r > 2.2250738585072014e-308 && r < CUSP_INF) return x * log(r);
  return x * (log(x) - log(y));
}
CUARRAY_FN double cusp_rel_entr(double x, double y) {
  if (x != x || y != y) return CUSP_NAN;
  if (x > 0 && y > 0) return cusp_xlog_ratio(x, y);
  if (x == 0 && y >= 0) return 0;
  return CUSP_INF;
}
CUARRAY_FN float cusp_rel_entr(float x, float y) {
  return (float)cusp_rel_entr((double)x, (double)y);
}
CUARRAY_FN double cusp_kl_div(double x, double y) {
  if (x != x || y != y) return CUSP_NAN;
  if (x > 0 && y > 0) return x * log(x / y) - x + y;   // SciPy's plain formula here
  if (x == 0 && y >= 0) return y;
  return CUSP_INF;
}
CUARRAY_FN float cusp_kl_div(float x, float y) { return (float)cusp_kl_div((double)x, (double)y); }
CUARRAY_FN double cusp_log_ndtr(double x) {
  if (x > 3) return log1p(-cusp_ndtr(-x));   // log(ndtr(x)) would lose the tiny 1 - ndtr(x)
  if (x > -1) return log(cusp_ndtr(x));
  const double t = -x / 1.41421356237309504880;   // log(erfc(t) / 2) without underflow
  return log(erfcx(t) / 2) - t * t;
}
CUARRAY_FN float cusp_log_ndtr(float x) { return (float)cusp_log_ndtr((double)x); }

// ---- exponentially scaled Bessel I0, I1 -----------------------------------------------------
// exp(-|x|) I_n(|x|) ~ 1/sqrt(2 pi x) (1 - (mu-1)/(8x) + (mu-1)(mu-9)/(2!(8x)^2) - ...),
// mu = 4 n^2, where I_n itself would overflow.
CUARRAY_FN double cusp_ie_asymp(double ax, double mu) {
  double term = 1, sum = 1;
  for (int k = 1; k < 12; ++k) {
    term *= -(mu - (2 * k - 1) * (2 * k - 1)) / (k * 8 * ax);
    sum += term;
  }
  return sum / sqrt(2 * CUSP_PI * ax);
}
CUARRAY_FN double cusp_i0e(double x) {
  const double ax = fabs(x);
  return ax < 700 ? exp(-ax) * cyl_bessel_i0(ax) : cusp_ie_asymp(ax, 0.0);
}
CUARRAY_FN float cusp_i0e(float x) { return (float)cusp_i0e((double)x); }
CUARRAY_FN double cusp_i1e(double x) {
  const double ax = fabs(x);
  const double r = ax < 700 ? exp(-ax) * cyl_bessel_i1(ax) : cusp_ie_asymp(ax, 4.0);
  return x < 0 ? -r : r;
}
CUARRAY_FN float cusp_i1e(float x) { return (float)cusp_i1e((double)x); }
"""
