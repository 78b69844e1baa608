"""KroghInterpolator, BarycentricInterpolator, krogh_interpolate and barycentric_interpolate
against SciPy."""
import numpy
import pytest
import scipy.interpolate as si


def test_krogh(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(0)
    xi = numpy.array([0.0, 0.0, 0.5, 1.0, 1.0, 1.0, 2.0])   # repeated nodes: derivatives
    yi = rng.standard_normal((7, 2))
    xs = numpy.linspace(-0.2, 2.2, 13)
    ref = si.KroghInterpolator(xi, yi)
    got = ci.KroghInterpolator(cp.asarray(xi), cp.asarray(yi))
    numpy.testing.assert_allclose(got(cp.asarray(xs)).get(), ref(xs), rtol=1e-10, atol=1e-10)
    numpy.testing.assert_allclose(got.derivatives(cp.asarray(xs)).get(), ref.derivatives(xs), rtol=1e-9, atol=1e-9)
    numpy.testing.assert_allclose(got.derivatives(cp.asarray(xs), der=9).get(), ref.derivatives(xs, der=9),
                                  rtol=1e-9, atol=1e-9)
    numpy.testing.assert_allclose(got.derivative(cp.asarray(xs), 2).get(), ref.derivative(xs, 2), rtol=1e-9, atol=1e-9)
    y2 = rng.standard_normal((3, 5)) + 1j
    x2 = numpy.sort(rng.random(5))
    r = si.krogh_interpolate(x2, y2, xs[:4], der=1, axis=1)
    g = ci.krogh_interpolate(cp.asarray(x2), cp.asarray(y2), cp.asarray(xs[:4]), der=1, axis=1)
    assert g.shape == r.shape
    numpy.testing.assert_allclose(g.get(), r, rtol=1e-9, atol=1e-9)
    r = si.krogh_interpolate(x2, y2[0], xs[:4], der=[0, 2])
    g = ci.krogh_interpolate(cp.asarray(x2), cp.asarray(y2[0]), cp.asarray(xs[:4]), der=[0, 2])
    numpy.testing.assert_allclose(g.get(), r, rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError):
        ci.KroghInterpolator(cp.asarray([0.0, 1.0, 0.0]), cp.asarray([1.0, 2.0, 3.0]))


def test_barycentric(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(1)
    xi = numpy.cos(numpy.linspace(0, numpy.pi, 12))
    yi = rng.standard_normal((12, 3))
    xs = numpy.r_[numpy.linspace(-1, 1, 15), xi[3]]
    ref = si.BarycentricInterpolator(xi, yi)
    got = ci.BarycentricInterpolator(cp.asarray(xi), cp.asarray(yi))
    numpy.testing.assert_allclose(got.wi.get(), ref.wi, rtol=1e-10)
    numpy.testing.assert_allclose(got(cp.asarray(xs)).get(), ref(xs), rtol=1e-10, atol=1e-12)
    numpy.testing.assert_allclose(got(cp.asarray(xi[3])).get(), ref(xi[3]), rtol=1e-14)
    y2 = rng.standard_normal((12, 3))
    ref.set_yi(y2)
    got.set_yi(cp.asarray(y2))
    numpy.testing.assert_allclose(got(cp.asarray(xs)).get(), ref(xs), rtol=1e-10, atol=1e-12)
    # SciPy's add_xi flips the sign of the old weights against the new ones for an even
    # number of old points; cuarray gives the interpolant of all the points, as SciPy does
    # when they are given at once.
    ref = si.BarycentricInterpolator(numpy.r_[xi, 1.5, 2.0], numpy.r_[y2, numpy.ones((2, 3))])
    got.add_xi(cp.asarray([1.5, 2.0]), cp.ones((2, 3)))
    numpy.testing.assert_allclose(got(cp.asarray(xs)).get(), ref(xs), rtol=1e-8, atol=1e-10)
    r = si.barycentric_interpolate(xi, yi.T, xs, axis=1)
    g = ci.barycentric_interpolate(cp.asarray(xi), cp.asarray(yi.T), cp.asarray(xs), axis=1)
    numpy.testing.assert_allclose(g.get(), r, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError):
        got.add_xi(cp.asarray([3.0]))
