"""zpk -> second-order sections on the GPU (cuarray version of `scipy.signal.zpk2sos`).

SciPy's pairing is a short sequential algorithm over a few dozen roots (sort into real
and conjugate-pair roots; repeatedly take the pole nearest the unit circle, or the
imaginary axis for analog systems, and pair it with its nearest zeros). It runs here as
one GPU thread, so the roots never leave the device."""
import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k

__all__ = ["zpk2sos"]

_SRC = r"""
typedef complex<double> cd;
__device__ double cabs_(cd v) { return sqrt(v.re * v.re + v.im * v.im); }

// Sort by (real, |imag|); keep the reals (imag set to 0) after the upper-half members.
__device__ int cplxreal(cd* v, int n, cd* out) {
  for (int i = 1; i < n; ++i) {
    cd t = v[i];
    int j = i - 1;
    while (j >= 0 && (v[j].re > t.re || (v[j].re == t.re && fabs(v[j].im) > fabs(t.im)))) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = t;
  }
  const double tol = 100 * 2.220446049250313e-16;
  int m = 0;
  for (int i = 0; i < n; ++i)
    if (!(fabs(v[i].im) <= tol * cabs_(v[i])) && v[i].im > 0) out[m++] = v[i];
  for (int i = 0; i < n; ++i)
    if (fabs(v[i].im) <= tol * cabs_(v[i])) out[m++] = cd(v[i].re, 0.0);
  return m;
}

__device__ void remove_at(cd* v, int& n, int i) {
  for (int j = i; j < n - 1; ++j) v[j] = v[j + 1];
  --n;
}

__device__ int worst(const cd* p, int n, int analog) {
  int best = 0;
  double bv = 1e308;
  for (int i = 0; i < n; ++i) {
    const double d = analog ? fabs(p[i].re) : fabs(1.0 - cabs_(p[i]));
    if (d < bv) { bv = d; best = i; }
  }
  return best;
}

// which: 0 any, 1 real, 2 complex; the nearest such element of z to `to`.
__device__ int nearest(const cd* z, int n, cd to, int which) {
  int best = -1;
  double bv = 1e308;
  for (int i = 0; i < n; ++i) {
    const bool real = z[i].im == 0.0;
    if ((which == 1 && !real) || (which == 2 && real)) continue;
    const double d = cabs_(z[i] - to);
    if (d < bv) { bv = d; best = i; }
  }
  return best;
}

// The root of z nearest `to` (of the kind `which` selects, as in nearest), taken out of z.
__device__ cd take_nearest(cd* z, int& nz, cd to, int which) {
  const int j = nearest(z, nz, to, which);
  const cd r = z[j];
  remove_at(z, nz, j);
  return r;
}

// poly of up to two roots (a conjugate pair when conj is set), placed right-aligned.
__device__ void put(double* s, int nr, cd r1, cd r2, bool conj) {
  double c[3];
  int len;
  if (nr == 0) { c[0] = 1; len = 1; }
  else if (nr == 1) { c[0] = 1; c[1] = -r1.re; len = 2; }
  else if (conj) { c[0] = 1; c[1] = -2 * r1.re; c[2] = r1.re * r1.re + r1.im * r1.im; len = 3; }
  else {
    cd sum = r1 + r2, prod = r1 * r2;
    c[0] = 1; c[1] = -sum.re; c[2] = prod.re; len = 3;
  }
  for (int i = 0; i < 3; ++i) s[i] = 0;
  for (int i = 0; i < len; ++i) s[3 - len + i] = c[i];
}

extern "C" __global__ void zpk2sos_kernel(const cd* zin, long long nz0, const cd* pin,
                                          long long np0, const double* kin, double* sos,
                                          long long nsec, int pairing, int analog) {
  if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
  cd zb[{MAXN}], pb[{MAXN}], z[{MAXN}], p[{MAXN}];
  int nz = (int)nz0, np = (int)np0;
  for (int i = 0; i < nz; ++i) zb[i] = zin[i];
  for (int i = 0; i < np; ++i) pb[i] = pin[i];
  if (pairing != 2) {  // pad to equal length, then to even length for 'nearest'
    while (np < nz) pb[np++] = cd(0.0, 0.0);
    while (nz < np) zb[nz++] = cd(0.0, 0.0);
    if (np % 2 == 1 && pairing == 0) { pb[np++] = cd(0.0, 0.0); zb[nz++] = cd(0.0, 0.0); }
  }
  nz = cplxreal(zb, nz, z);
  np = cplxreal(pb, np, p);
  for (long long si = nsec - 1; si >= 0; --si) {
    double* s = sos + si * 6;
    int i1 = worst(p, np, analog);
    cd p1 = p[i1];
    remove_at(p, np, i1);
    int preal = 0, zreal = 0;
    for (int i = 0; i < np; ++i) preal += p[i].im == 0.0;
    for (int i = 0; i < nz; ++i) zreal += z[i].im == 0.0;
    const bool p1real = p1.im == 0.0;
    if (p1real && preal == 0) {
      if (pairing != 2) {
        const cd z1 = take_nearest(z, nz, p1, 1);
        put(s, 2, z1, cd(0.0, 0.0), false);
        put(s + 3, 2, p1, cd(0.0, 0.0), false);
      } else if (nz > 0) {
        const cd z1 = take_nearest(z, nz, p1, 1);
        put(s, 1, z1, z1, false);
        put(s + 3, 1, p1, p1, false);
      } else {
        put(s, 0, p1, p1, false);
        put(s + 3, 1, p1, p1, false);
      }
    } else if (np + 1 == nz && !p1real && preal == 1 && zreal == 1) {
      const cd z1 = take_nearest(z, nz, p1, 2);
      put(s, 2, z1, z1, true);
      put(s + 3, 2, p1, p1, true);
    } else {
      cd p2;
      bool pconj = !p1real;
      if (p1real) {
        int best = -1;
        double bv = 1e308;
        for (int i = 0; i < np; ++i) {
          if (p[i].im != 0.0) continue;
          const double d = analog ? fabs(p[i].re) : fabs(1.0 - cabs_(p[i]));
          if (d < bv) { bv = d; best = i; }
        }
        p2 = p[best];
        remove_at(p, np, best);
      } else {
        p2 = cd(p1.re, -p1.im);
      }
      if (nz > 0) {
        const cd z1 = take_nearest(z, nz, p1, 0);
        if (z1.im != 0.0) {
          put(s, 2, z1, z1, true);
        } else if (nz > 0) {
          const cd z2 = take_nearest(z, nz, p1, 1);
          put(s, 2, z1, z2, false);
        } else {
          put(s, 1, z1, z1, false);
        }
      } else {
        put(s, 0, p1, p1, false);
      }
      put(s + 3, 2, p1, p2, pconj);
    }
  }
  for (int i = 0; i < 3; ++i) sos[i] *= kin[0];
}
"""

_PAIRINGS = {"nearest": 0, "keep_odd": 1, "minimal": 2}


def _dev(v, dtype=None):
    v = v if isinstance(v, ndarray) else cuarray.asarray(numpy.asarray(v))
    return v if dtype is None else v.astype(dtype)


def zpk2sos(z, p, k, pairing=None, *, analog=False):
    """cuarray version of `scipy.signal.zpk2sos` (the pairing runs in one GPU thread; the
    unmatched-conjugate and complex-gain checks of SciPy are not made)."""
    z = cuarray.atleast_1d(_dev(z)).ravel()
    p = cuarray.atleast_1d(_dev(p)).ravel()
    kd = cuarray.atleast_1d(_dev(k)).real.astype(numpy.float64).ravel()[:1]
    if pairing is None:
        pairing = "minimal" if analog else "nearest"
    if pairing not in _PAIRINGS:
        raise ValueError(f"pairing must be one of {list(_PAIRINGS)}, not {pairing}")
    if analog and pairing != "minimal":
        raise ValueError('for analog zpk2sos conversion, pairing must be "minimal"')
    if z.size == 0 and p.size == 0:
        sos = cuarray.zeros((1, 6))
        if not analog:
            sos[0, 0] = kd[0]
            sos[0, 3] = 1.0
        else:
            sos[0, 2] = kd[0]
            sos[0, 5] = 1.0
        return sos
    if pairing != "minimal":
        n = max(z.size, p.size)
        n_sections = (n + 1) // 2
    else:
        if p.size < z.size:
            raise ValueError("for analog zpk2sos conversion, must have len(p)>=len(z)")
        n_sections = (p.size + 1) // 2
    maxn = max(z.size, p.size) + 2
    maxn = 1 << (maxn - 1).bit_length()
    zc = cuarray.ascontiguousarray(z.astype(numpy.complex128))
    pc = cuarray.ascontiguousarray(p.astype(numpy.complex128))
    sos = cuarray.zeros((n_sections, 6))
    kern = _k.kernel(_SRC, "zpk2sos_kernel", MAXN=maxn)
    kern((1,), (1,), (zc, zc.size, pc, pc.size, cuarray.ascontiguousarray(kd), sos,
                      n_sections, numpy.int32(_PAIRINGS[pairing]), numpy.int32(bool(analog))))
    return sos
