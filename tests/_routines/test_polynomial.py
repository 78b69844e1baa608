"""Polynomials against NumPy: poly1d (arithmetic, call, roots, deriv, integ, indexing),
poly, polyadd/sub/mul/div, polyder/polyint, polyval, polyfit (deg, w, full, cov), roots and
`cuarray.polynomial.polynomial`/`polyutils`. Routines on elementwise kernels also run
through the host emulation; those needing cuSOLVER (roots, polyfit) run on the GPU only."""
import warnings

import numpy
import pytest

from _backends import cp  # noqa: F401

gpu = pytest.mark.gpu


@pytest.fixture
def gcp():
    """cuarray, for tests of routines on argmax/trim_zeros, which the emulation lacks."""
    import cuarray
    return cuarray


def _rng(seed):
    return numpy.random.default_rng(seed)


def _close(got, want, rtol=1e-10, atol=1e-12):
    got = got.get() if hasattr(got, "get") else got
    numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@gpu
@pytest.mark.parametrize("dtype", [numpy.int64, numpy.float32, numpy.float64, numpy.complex128])
def test_poly_arithmetic_routines(gcp, dtype):
    rng = _rng(1)
    a = rng.integers(-5, 6, 4).astype(dtype)
    b = rng.integers(-5, 6, 2).astype(dtype)
    ga, gb = gcp.asarray(a), gcp.asarray(b)
    for f in ("polyadd", "polysub", "polymul"):
        got, want = getattr(gcp, f)(ga, gb), getattr(numpy, f)(a, b)
        assert got.dtype == want.dtype, f
        _close(got, want, rtol=1e-5)
        _close(getattr(gcp, f)(gb, ga), getattr(numpy, f)(b, a), rtol=1e-5)


def test_polyder_polyint(cp):
    p = _rng(2).standard_normal(6)
    g = cp.asarray(p)
    for m in (0, 1, 2, 7):
        _close(cp.polyder(g, m), numpy.polyder(p, m))
    for m, k in ((1, None), (2, None), (1, 3.0), (2, [1.0, 2.0])):
        _close(cp.polyint(g, m, k), numpy.polyint(p, m, k))
    with pytest.raises(ValueError):
        cp.polyder(g, -1)
    with pytest.raises(ValueError):
        cp.polyint(g, -1)


@gpu
def test_polydiv(gcp):
    u = numpy.array([3.0, 5.0, 2.0, -1.0, 4.0])
    v = numpy.array([2.0, 1.0, -1.0])
    q, r = gcp.polydiv(gcp.asarray(u), gcp.asarray(v))
    wq, wr = numpy.polydiv(u, v)
    _close(q, wq)
    _close(r, wr)


@pytest.mark.parametrize("shape", [(), (0,), (1,), (7,), (3, 4), (5, 1)])
def test_polyval(cp, shape):
    rng = _rng(3)
    p = rng.standard_normal(4)
    x = rng.standard_normal(shape)
    got = cp.polyval(cp.asarray(p), cp.asarray(x))
    want = numpy.polyval(p, x)
    assert got.shape == want.shape
    _close(got, want)


def test_poly_from_roots(cp):
    r = numpy.array([1.0, -2.0, 0.5, 3.0])
    _close(cp.poly(cp.asarray(r)), numpy.poly(r))
    ri = numpy.array([1, 2, 3])
    got = cp.poly(cp.asarray(ri))
    assert got.dtype == numpy.poly(ri).dtype
    _close(got, numpy.poly(ri))
    assert cp.poly(cp.zeros(0)) == 1.0
    with pytest.raises(ValueError):
        cp.poly(cp.zeros((2, 3)))


@gpu
def test_poly1d_arithmetic_and_call(gcp):
    a, b = [1.0, -2.0, 3.0], [4.0, 5.0]
    pa, pb = gcp.poly1d(gcp.asarray(a)), gcp.poly1d(gcp.asarray(b))
    na, nb = numpy.poly1d(a), numpy.poly1d(b)
    for got, want in ((pa + pb, na + nb), (pa - pb, na - nb), (pa * pb, na * nb), (pa * 2, na * 2),
                      (2 * pa, 2 * na), (-pa, -na), (pa ** 3, na ** 3), (pa ** 0, na ** 0),
                      (pa / 2.0, na / 2.0), (pa.deriv(), na.deriv()), (pa.integ(2, 1.0), na.integ(2, 1.0))):
        assert isinstance(got, gcp.poly1d)
        _close(got.coeffs, want.coeffs)
    x = _rng(4).standard_normal(5)
    _close(pa(gcp.asarray(x)), na(x))
    assert pa.order == na.order == len(pa) and pa.variable == "x"
    _close(pa[0], na[0])
    assert pa[7] == 0
    assert pa == gcp.poly1d(gcp.asarray(a)) and pa != pb
    assert str(pa) == str(na) and repr(pa) == repr(na)
    z = gcp.poly1d(gcp.asarray([0.0, 0.0, 1.0, 2.0]))
    assert z.order == 1  # leading zeros trimmed, as NumPy
    q, r = pa / pb
    wq, wr = na / nb
    _close(q.coeffs, wq.coeffs)
    _close(r.coeffs, wr.coeffs)
    c = pa(pb)  # composition
    _close(c.coeffs, na(nb).coeffs)
    with pytest.raises(ValueError):
        pa ** -1
    with pytest.raises(ValueError):
        gcp.poly1d(gcp.zeros((2, 2)))
    with pytest.raises(TypeError):
        numpy.asarray(pa)


@gpu
def test_poly1d_setitem(gcp):
    p = gcp.poly1d(gcp.asarray([1.0, 2.0]))
    n = numpy.poly1d([1.0, 2.0])
    p[3] = 5.0
    n[3] = 5.0
    _close(p.coeffs, n.coeffs)
    with pytest.raises(ValueError):
        p[-1] = 1.0


def test_polynomial_module(cp):
    from numpy.polynomial import polynomial as P
    rng = _rng(5)
    x = rng.standard_normal(6)
    c = rng.standard_normal(4)
    gx, gc = cp.asarray(x), cp.asarray(c)
    _close(cp.polynomial.polynomial.polyvander(gx, 3), P.polyvander(x, 3))
    _close(cp.polynomial.polynomial.polyval(gx, gc), P.polyval(x, c))
    c2 = rng.standard_normal((4, 2))
    _close(cp.polynomial.polynomial.polyval(gx, cp.asarray(c2)), P.polyval(x, c2))
    x2 = rng.standard_normal(2)
    _close(cp.polynomial.polynomial.polyval(cp.asarray(x2), cp.asarray(c2), tensor=False),
           P.polyval(x2, c2, tensor=False))
    with pytest.raises(ValueError):
        cp.polynomial.polynomial.polyvander(gx, -1)
    with pytest.raises(TypeError):
        cp.polynomial.polynomial.polyvander(gx, 1.5)


@gpu
def test_polyutils_and_polyvalfromroots(gcp):
    from numpy.polynomial import polynomial as P
    from numpy.polynomial import polyutils as pu
    cp = gcp
    rng = _rng(8)
    x, r = rng.standard_normal(6), rng.standard_normal(3)
    _close(cp.polynomial.polynomial.polyvalfromroots(cp.asarray(x), cp.asarray(r)),
           P.polyvalfromroots(x, r))
    # tensor=False pairs column j of a 2-D r (the roots of polynomial j) with x[j]; x must
    # have fewer dimensions than r, as in NumPy.
    r2 = rng.standard_normal((3, 4))
    pvr = cp.polynomial.polynomial.polyvalfromroots
    _close(pvr(cp.asarray(x[:4]), cp.asarray(r2), tensor=False),
           P.polyvalfromroots(x[:4], r2, tensor=False))
    with pytest.raises(ValueError):
        P.polyvalfromroots(x[:3], r, tensor=False)
    with pytest.raises(ValueError):
        pvr(cp.asarray(x[:3]), cp.asarray(r), tensor=False)
    c = rng.standard_normal(4)
    _close(cp.polynomial.polynomial.polycompanion(cp.asarray(c)), P.polycompanion(c))
    _close(cp.polynomial.polynomial.polycompanion(cp.asarray(c[:2])), P.polycompanion(c[:2]))
    with pytest.raises(ValueError):
        cp.polynomial.polynomial.polycompanion(cp.asarray(c[:1]))
    t = numpy.array([1.0, 2.0, 0.0, 0.0])
    _close(cp.polynomial.polyutils.trimseq(cp.asarray(t)), pu.trimseq(t))
    _close(cp.polynomial.polyutils.trimcoef(cp.asarray([1.0, 1e-3, 1e-9]), 1e-6),
           pu.trimcoef(numpy.array([1.0, 1e-3, 1e-9]), 1e-6))
    [s] = cp.polynomial.polyutils.as_series([cp.asarray([1, 2, 0])])
    [w] = pu.as_series([numpy.array([1, 2, 0])])
    assert s.dtype == w.dtype
    _close(s, w)
    with pytest.raises(ValueError):
        cp.polynomial.polyutils.trimcoef(cp.asarray([1.0]), -1)


# ---- GPU: cuSOLVER behind roots and polyfit ---------------------------------------------------------
@gpu
@pytest.mark.parametrize("p", [[1.0, -3.0, 2.0], [0.0, 0.0, 1.0, 0.0, -1.0, 0.0], [2.0], [1, 0, 1],
                               [1.0 + 1j, 2.0, -1j]])
def test_roots_and_poly1d_roots(p):
    import cuarray
    got = numpy.sort_complex(cuarray.roots(cuarray.asarray(numpy.array(p))).get())
    want = numpy.sort_complex(numpy.roots(numpy.array(p)))
    numpy.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)
    got = numpy.sort_complex(cuarray.poly1d(cuarray.asarray(numpy.array(p))).r.get())
    numpy.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)


@gpu
@pytest.mark.parametrize("deg", [0, 1, 3])
@pytest.mark.parametrize("ycols", [None, 2])
def test_polyfit(deg, ycols):
    import cuarray
    rng = _rng(7)
    x = numpy.linspace(-1, 1, 20)
    y = rng.standard_normal(20 if ycols is None else (20, ycols))
    w = rng.uniform(0.5, 2.0, 20)
    gx, gy, gw = cuarray.asarray(x), cuarray.asarray(y), cuarray.asarray(w)
    _close(cuarray.polyfit(gx, gy, deg), numpy.polyfit(x, y, deg), rtol=1e-8, atol=1e-10)
    _close(cuarray.polyfit(gx, gy, deg, w=gw), numpy.polyfit(x, y, deg, w=w), rtol=1e-8, atol=1e-10)
    got = cuarray.polyfit(gx, gy, deg, full=True)
    want = numpy.polyfit(x, y, deg, full=True)
    _close(got[0], want[0], rtol=1e-8, atol=1e-10)
    _close(got[1], want[1], rtol=1e-8, atol=1e-10)
    assert int(got[2]) == want[2]
    c, cov = cuarray.polyfit(gx, gy, deg, cov=True)
    wc, wcov = numpy.polyfit(x, y, deg, cov=True)
    _close(cov, wcov, rtol=1e-7, atol=1e-12)
    c, cov = cuarray.polyfit(gx, gy, deg, cov="unscaled")
    wc, wcov = numpy.polyfit(x, y, deg, cov="unscaled")
    _close(cov, wcov, rtol=1e-7, atol=1e-12)


@gpu
def test_polyfit_errors_and_rank_warning():
    import cuarray
    x = cuarray.asarray(numpy.linspace(0, 1, 5))
    with pytest.raises(ValueError):
        cuarray.polyfit(x, x, -1)
    with pytest.raises(TypeError):
        cuarray.polyfit(cuarray.zeros((2, 2)), x, 1)
    with pytest.raises(TypeError):
        cuarray.polyfit(x, cuarray.zeros(4), 1)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        cuarray.polyfit(cuarray.asarray([1.0, 1.0, 1.0]), cuarray.asarray([1.0, 2.0, 3.0]), 2)
    assert any(issubclass(r.category, numpy.exceptions.RankWarning) for r in rec)
