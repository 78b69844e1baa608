"""Device code of the complex-valued functions: the Lambert W function and the spherical
harmonics (cuarray versions of `scipy.special.lambertw`, `sph_harm_y`).

Halley's iteration on w e^w = z from a branch-dependent start: the series in
p = sqrt(2 (e z + 1)) near the branch point -1/e (branches 0 and -1), the same series or
log(1 + z) for |z| <= 3 on the principal branch, and the asymptotic L1 - L2 + L2 / L1 with
L1 = log z + 2 pi i k, L2 = log L1 elsewhere.
The spherical harmonics use the fully normalized associated Legendre functions by their
stable recurrence in the degree, from P_m^m = (-1)^m sqrt((2m+1)!! / (4 pi (2m)!!)) sin^m.
"""
from cuarray.scipy.special._math import SOURCE as _BASE

SOURCE_LAMBERTW = _BASE + r"""
CUARRAY_FN complex<double> cusp_lambertw(complex<double> z, long long k, double tol) {
  typedef complex<double> C;
  const double zr = z.real(), zi = z.imag();
  if (zr != zr || zi != zi) return C(CUSP_NAN, CUSP_NAN);
  if (isinf(zr) && zi == 0 && zr > 0) return C(CUSP_INF, 2 * CUSP_PI * k);
  if (zr == 0 && zi == 0) return k == 0 ? z : C(-CUSP_INF, 0.0);
  if (zr == 1.0 && zi == 0 && k == 0) return C(0.56714329040978387300, 0.0);   // omega
  const double e = 2.71828182845904523536;
  C w;
  const C ez1 = C(e) * z + C(1.0);
  if ((k == 0 || k == -1) && abs(ez1) < 0.3 && (k == 0 || zi <= 0 && (zi != 0 || zr < 0))) {
    C p = sqrt(C(2.0) * ez1);
    if (k == -1) p = -p;
    w = C(-1.0) + p - p * p / C(3.0) + C(11.0 / 72) * p * p * p;
  } else if (k == 0 && abs(z) <= 3) {
    if (abs(ez1) < 1.5) {
      const C p = sqrt(C(2.0) * ez1);
      w = C(-1.0) + p - p * p / C(3.0) + C(11.0 / 72) * p * p * p;
    } else {
      w = log(C(1.0) + z);
    }
  } else {
    const C l1 = log(z) + C(0.0, 2 * CUSP_PI * k);
    const C l2 = log(l1);
    w = l1 - l2 + l2 / l1;
  }
  for (int it = 0; it < 100; ++it) {
    const C ew = exp(w);
    const C f = w * ew - z;
    const C wp1 = w + C(1.0);
    const C step = f / (ew * wp1 - (w + C(2.0)) * f / (C(2.0) * wp1));
    const C wn = w - step;
    if (abs(wn - w) <= tol * abs(wn)) { w = wn; break; }
    w = wn;
  }
  return w;
}
// Y_n^m(theta, phi), theta the polar angle, with the Condon-Shortley phase
CUARRAY_FN complex<double> cusp_sph_harm_y(long long n, long long m, double theta, double phi) {
  typedef complex<double> C;
  if (theta != theta || phi != phi) return C(CUSP_NAN, CUSP_NAN);
  const long long am = m < 0 ? -m : m;
  if (n < 0 || am > n) return C(0.0, 0.0);
  const double x = cos(theta), s = sin(theta);
  double p = sqrt(1 / (4 * CUSP_PI));
  for (long long k = 1; k <= am; ++k) p *= -sqrt((2 * k + 1.0) / (2 * k)) * s;
  if (n > am) {
    double pm2 = p, pm1 = sqrt(2 * am + 3.0) * x * p;
    for (long long l = am + 2; l <= n; ++l) {
      const double l2 = (double)l * l, m2 = (double)am * am;
      const double pl = sqrt((4 * l2 - 1) / (l2 - m2)) *
          (x * pm1 - sqrt(((l - 1.0) * (l - 1.0) - m2) / (4 * (l - 1.0) * (l - 1.0) - 1)) * pm2);
      pm2 = pm1; pm1 = pl;
    }
    p = pm1;
  }
  double sn, cs;
  sincos(am * phi, &sn, &cs);
  if (m < 0) {   // Y_n^-m = (-1)^m conj(Y_n^m)
    if (am & 1) p = -p;
    sn = -sn;
  }
  return C(p * cs, p * sn);
}
"""

TABLE_LAMBERTW = {
    "_lambertw": (["Dld->D"], "lambertw", "The Lambert W function's ufunc."),
    "_sph_harm_y": (["lldd->D"], "sph_harm_y", "The spherical harmonics' ufunc."),
}
