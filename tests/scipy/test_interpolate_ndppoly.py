"""NdPPoly against SciPy: values, partial derivatives, antiderivatives, integrals."""
import numpy
import pytest
import scipy.interpolate as si


def _poly(seed, trailing=()):
    rng = numpy.random.default_rng(seed)
    x = (numpy.sort(rng.random(4)), numpy.sort(rng.random(3)))
    c = rng.standard_normal((3, 2, 3, 2) + trailing)
    return rng, x, c


def test_call_and_derivatives(cp):
    from cuarray.scipy import interpolate as ci
    rng, x, c = _poly(0, (2,))
    pts = rng.random((9, 2)) * 1.2 - 0.1
    ref = si.NdPPoly(c, x)
    got = ci.NdPPoly(cp.asarray(c), tuple(cp.asarray(v) for v in x))
    numpy.testing.assert_allclose(got(cp.asarray(pts)).get(), ref(pts), rtol=1e-11, atol=1e-12)
    numpy.testing.assert_allclose(got(cp.asarray(pts), nu=(1, 1)).get(), ref(pts, nu=(1, 1)), rtol=1e-10, atol=1e-11)
    numpy.testing.assert_allclose(got(cp.asarray(pts), extrapolate=False).get(), ref(pts, extrapolate=False),
                                  rtol=1e-11, atol=1e-12)
    numpy.testing.assert_allclose(got.derivative((2, 0))(cp.asarray(pts)).get(),
                                  ref.derivative((2, 0))(pts), rtol=1e-10, atol=1e-11)
    numpy.testing.assert_allclose(got.antiderivative((1, 2))(cp.asarray(pts)).get(),
                                  ref.antiderivative((1, 2))(pts), rtol=1e-10, atol=1e-11)
    with pytest.raises(ValueError):
        got(cp.asarray(pts), nu=(1,))


def test_integrate(cp):
    from cuarray.scipy import interpolate as ci
    _, x, c = _poly(1)
    ref = si.NdPPoly(c, x)
    got = ci.NdPPoly(cp.asarray(c), tuple(cp.asarray(v) for v in x))
    numpy.testing.assert_allclose(got.integrate([(0.2, 0.7), (0.1, 0.5)]).get(),
                                  ref.integrate([(0.2, 0.7), (0.1, 0.5)]), rtol=1e-10)
    r1 = ref.integrate_1d(0.2, 0.6, axis=1)
    g1 = got.integrate_1d(0.2, 0.6, axis=1)
    numpy.testing.assert_allclose(g1.c.get(), r1.c, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError):
        got.integrate([(0.0, 1.0)])


def test_errors(cp):
    from cuarray.scipy import interpolate as ci
    x = (cp.asarray([0.0, 1.0]), cp.asarray([0.0, 1.0]))
    with pytest.raises(ValueError):
        ci.NdPPoly(cp.zeros((2, 1, 1)), x)
    with pytest.raises(ValueError):
        ci.NdPPoly(cp.zeros((2, 2, 2, 1)), x)
    with pytest.raises(ValueError):
        ci.NdPPoly(cp.zeros((2, 2, 1, 1)), (cp.asarray([1.0, 0.0]), x[1]))
