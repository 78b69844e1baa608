"""Partial fraction expansion (cuarray version of `scipy.signal.residue`, `residuez`,
`invres`, `invresz`, `unique_roots`).

The polynomials live on the device; the roots come from `cuarray.roots` (eigenvalues of
the companion matrix) and the grouping of close roots is one single-thread kernel, since
SciPy's grouping is greedy and order dependent. The multiplicities of the groups shape the
loops of the expansion, so they are read on the host once per call."""
import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k

__all__ = ["unique_roots", "residue", "residuez", "invres", "invresz"]

_RTYPES = {"max": 1, "maximum": 1, "min": 0, "minimum": 0, "avg": 2, "mean": 2}

_SRC = r"""
// One thread. adjacent == 0: SciPy's unique_roots (each unused root, in index order, leads
// the group of the unused roots within tol of it: |p_j - p_i|^2 <= tol^2, as a k-d tree ball
// query; the group's value is its min, max (lexicographic on (re, im), as NumPy orders
// complex numbers) or mean). adjacent == 1: invres's grouping (a run of roots within tol of
// its first one; the run's value is that first root).
extern "C" __global__ void group_roots(const double* re, const double* im, long long n,
                                       double tol, long long mode, long long adjacent,
                                       unsigned char* used, double* ure, double* uim,
                                       long long* mult, long long* count) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (long long i = 0; i < n; ++i) used[i] = 0;
  long long k = 0;
  const double tol2 = tol * tol;
  for (long long i = 0; i < n; ++i) {
    if (used[i]) continue;
    double br = re[i], bi = im[i], sr = 0.0, si = 0.0;
    long long m = 0;
    for (long long j = i; j < n; ++j) {
      if (used[j]) continue;
      const double dr = re[j] - re[i], di = im[j] - im[i];
      if (adjacent) {
        if (j > i && !(sqrt(dr * dr + di * di) <= tol)) break;
      } else if (!(dr * dr + di * di <= tol2)) {
        continue;
      }
      used[j] = 1;
      ++m;
      sr += re[j];
      si += im[j];
      if ((mode == 0 && (re[j] < br || (re[j] == br && im[j] < bi))) ||
          (mode == 1 && (re[j] > br || (re[j] == br && im[j] > bi)))) {
        br = re[j];
        bi = im[j];
      }
    }
    if (mode == 2 && !adjacent) {
      br = sr / (double)m;
      bi = si / (double)m;
    }
    ure[k] = br;
    uim[k] = bi;
    mult[k] = m;
    ++k;
  }
  count[0] = k;
}
"""


def _dev(v):
    return cuarray.atleast_1d(v if isinstance(v, ndarray) else cuarray.asarray(numpy.asarray(v)))


def _reducer(rtype):
    if rtype not in _RTYPES:
        raise ValueError("`rtype` must be one of "
                         "{'max', 'maximum', 'min', 'minimum', 'avg', 'mean'}")
    return _RTYPES[rtype]


def _result_dtype(p, mode):
    """NumPy's dtype of min/max (p's) or mean (float64 for integers) over p's values."""
    return numpy.dtype(numpy.float64) if mode == 2 and p.dtype.kind in "biu" else p.dtype


def _group(p, tol, mode, adjacent):
    """(group values, multiplicities) of the 1-D device array p, both on the device."""
    n = p.shape[0]
    dt = _result_dtype(p, mode)
    c = p.astype(numpy.complex128)
    re = cuarray.ascontiguousarray(c.real)
    im = cuarray.ascontiguousarray(c.imag)
    used = cuarray.empty(n, numpy.uint8)
    ure = cuarray.empty(n, numpy.float64)
    uim = cuarray.empty(n, numpy.float64)
    mult = cuarray.empty(n, numpy.int64)
    count = cuarray.zeros(1, numpy.int64)
    kern = _k.kernel(_SRC, "group_roots")
    kern((1,), (1,), (re, im, n, float(tol), mode, int(adjacent), used, ure, uim, mult, count))
    m = int(count.get()[0])  # the number of groups sizes the result
    vals = ure[:m] + 1j * uim[:m] if dt.kind == "c" else ure[:m]
    return vals.astype(dt), mult[:m]


def unique_roots(p, tol=1e-3, rtype="min"):
    """cuarray version of `scipy.signal.unique_roots`. Synchronises once (the number of
    unique roots)."""
    mode = _reducer(rtype)
    p = _dev(p)
    if p.ndim != 1:
        p = p.ravel()
    if p.size == 0:
        return cuarray.zeros(0, numpy.float64), cuarray.zeros(0, numpy.float64)
    return _group(p, tol, mode, False)


def _monomial(root):
    """[1, -root] as a device polynomial of root's dtype."""
    return cuarray.concatenate((cuarray.ones(1, root.dtype), -root.reshape(1)))


def _polymul(a, b):
    # Both factors are monic, so NumPy's trimming of leading zeros never applies.
    return cuarray.convolve(a, b)


def _factors(roots, mult, include_powers=False):
    """SciPy's partial-fraction factors: for each root, the full denominator divided by
    (s - root) to each power of its block, and the full denominator."""
    one = cuarray.ones(1, roots.dtype)
    current = one
    suffixes = [current]
    for j in range(len(mult) - 1, 0, -1):
        mono = _monomial(roots[j])
        for _ in range(mult[j]):
            current = _polymul(current, mono)
        suffixes.append(current)
    suffixes = suffixes[::-1]
    factors = []
    current = one
    for j, m in enumerate(mult):
        mono = _monomial(roots[j])
        block = []
        for i in range(m):
            if i == 0 or include_powers:
                block.append(_polymul(current, suffixes[j]))
            current = _polymul(current, mono)
        factors.extend(reversed(block))
    return factors, current


def _residues(poles, mult, numerator):
    """The residues of numerator / prod (s - pole)**mult by deflation through subtraction."""
    factors, _ = _factors(poles, mult)
    numerator = numerator.astype(poles.dtype)
    out = []
    for j, (m, factor) in enumerate(zip(mult, factors)):
        pole = poles[j:j + 1]
        if m == 1:
            out.append(cuarray.polyval(numerator, pole) / cuarray.polyval(factor, pole))
            continue
        # factor / (s - pole): the quotient is deflated, the remainder factor(pole) divides
        factor, d0 = _synthetic_div(factor, pole)
        numer = numerator
        block = []
        for _ in range(m):
            numer, rem = _synthetic_div(numer, pole)
            r = rem / d0
            numer = cuarray.polysub(numer, r * factor)
            block.append(r)
        out.extend(reversed(block))
    if not out:
        return cuarray.zeros(0, poles.dtype)
    return cuarray.concatenate(out).astype(poles.dtype)


def _synthetic_div(u, root):
    """(quotient, remainder) of u / (s - root): Horner's scheme, both on the device (the
    remainder is u(root), a length-1 array). NumPy's polydiv by a monic degree-1 divisor
    computes the same recurrence."""
    n = u.shape[0]
    if n < 2:
        return cuarray.zeros(1, u.dtype), u[:1].copy() if n else cuarray.zeros(1, u.dtype)
    q = cuarray.empty(n - 1, u.dtype)
    acc = u[0:1].copy()
    q[0:1] = acc
    for i in range(1, n - 1):
        acc = u[i:i + 1] + root * acc
        q[i:i + 1] = acc
    rem = u[n - 1:n] + root * acc
    return q, rem


def _promote_pair(b, a):
    if b.dtype.kind == "c" or a.dtype.kind == "c":
        return b.astype(numpy.complex128), a.astype(numpy.complex128)
    return b.astype(numpy.float64), a.astype(numpy.float64)


def _sorted_groups(poles, tol, rtype):
    mode = _reducer(rtype)
    vals, mult = _group(poles, tol, mode, False)
    order = cuarray.argsort(cuarray.abs(vals), kind="stable")
    return vals[order], [int(v) for v in mult[order].get()]


def _cmplx_sort(p):
    return p[cuarray.argsort(cuarray.abs(p), kind="stable")]


def _expand(vals, mult, like):
    """The unique poles repeated by multiplicity, in like's dtype (SciPy writes them back
    into the array of roots)."""
    return cuarray.repeat(vals, mult).astype(like.dtype) if mult else like


def _fraction(b, a, rtype, trim):
    """b and a on the device in one dtype, their zeros trimmed at `trim` ('f' or 'b')."""
    _reducer(rtype)
    b, a = _promote_pair(_dev(b), _dev(a))
    b = cuarray.trim_zeros(b, trim)
    a = cuarray.trim_zeros(a, trim)
    if a.size == 0:
        raise ValueError("Denominator `a` is zero.")
    return b, a


def _no_numerator(poles):
    """(r, p, k) of a zero numerator: zero residues at the sorted poles."""
    return cuarray.zeros(poles.shape), _cmplx_sort(poles), cuarray.zeros(0, numpy.float64)


def _divide(b, a):
    """(k, remainder) of b / a; k is empty when b is the shorter."""
    if b.shape[0] < a.shape[0]:
        return cuarray.zeros(0, numpy.float64), b
    return cuarray.polydiv(b, a)


def residue(b, a, tol=1e-3, rtype="avg"):
    """cuarray version of `scipy.signal.residue`. Synchronises (root grouping and a few
    sizes)."""
    b, a = _fraction(b, a, rtype, "f")
    poles = cuarray.roots(a)
    if b.size == 0:
        return _no_numerator(poles)
    k, b = _divide(b, a)
    if poles.size == 0:
        return cuarray.zeros(0, numpy.float64) / a[0], poles, k
    vals, mult = _sorted_groups(poles, tol, rtype)
    res = _residues(vals, mult, b)
    return res / a[0], _expand(vals, mult, poles), k


def residuez(b, a, tol=1e-3, rtype="avg"):
    """cuarray version of `scipy.signal.residuez`. Synchronises (root grouping and a few
    sizes)."""
    b, a = _fraction(b, a, rtype, "b")
    if bool(a[0] == 0):
        raise ValueError("First coefficient of determinant `a` must be non-zero.")
    poles = cuarray.roots(a)
    if b.size == 0:
        return _no_numerator(poles)
    a_rev = a[::-1]
    k_rev, b_rev = _divide(b[::-1], a_rev)
    if poles.size == 0:
        return cuarray.zeros(0, numpy.float64) / a_rev[0], poles, k_rev[::-1]
    vals, mult = _sorted_groups(poles, tol, rtype)
    res = _residues(1 / vals, mult, b_rev)
    poles = _expand(vals, mult, poles)
    powers = cuarray.concatenate([cuarray.arange(1, m + 1) for m in mult])
    res = res * (-poles) ** powers / a_rev[0]
    return res, poles, k_rev[::-1]


def _invert(r, p, k, tol, rtype, trim, reverse):
    mode = _reducer(rtype)
    r = _dev(r)
    p = _dev(p)
    k = cuarray.trim_zeros(_dev(k), trim)
    if p.size == 0:  # SciPy's grouping starts from p[0]
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    vals, mult = _group(p, tol, mode, True)
    mult = [int(v) for v in mult.get()]
    factors, denominator = _factors(vals, mult, include_powers=True)
    flip = (lambda v: v[::-1]) if reverse else (lambda v: v)
    numerator = _polymul(flip(k), flip(denominator)) if k.size else None
    for j in range(min(r.shape[0], len(factors))):
        term = r[j] * flip(factors[j])
        numerator = term if numerator is None else cuarray.polyadd(numerator, term)
    if numerator is None:
        numerator = cuarray.zeros(1, numpy.int64)
    return flip(numerator), denominator


def invres(r, p, k, tol=1e-3, rtype="avg"):
    """cuarray version of `scipy.signal.invres`. Synchronises (pole grouping)."""
    return _invert(r, p, k, tol, rtype, "f", False)


def invresz(r, p, k, tol=1e-3, rtype="avg"):
    """cuarray version of `scipy.signal.invresz`. Synchronises (pole grouping)."""
    return _invert(r, p, k, tol, rtype, "b", True)
