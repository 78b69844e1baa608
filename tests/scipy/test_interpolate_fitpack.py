"""InterpolatedUnivariateSpline and LSQUnivariateSpline against SciPy (FITPACK)."""
import numpy
import pytest
import scipy.interpolate as si

XS = numpy.linspace(-0.2, 1.2, 15)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_interpolated(cp, k):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(k)
    x = numpy.sort(rng.random(14))
    y = rng.standard_normal(14)
    ref = si.InterpolatedUnivariateSpline(x, y, k=k)
    got = ci.InterpolatedUnivariateSpline(cp.asarray(x), cp.asarray(y), k=k)
    numpy.testing.assert_allclose(got.get_knots().get(), ref.get_knots())
    numpy.testing.assert_allclose(got.get_coeffs().get(), ref.get_coeffs(), rtol=1e-8, atol=1e-9)
    for ext in (0, 1, 3):
        numpy.testing.assert_allclose(got(cp.asarray(XS), ext=ext).get(), ref(XS, ext=ext), rtol=1e-8, atol=1e-9)
    numpy.testing.assert_allclose(got(cp.asarray(XS), nu=1).get(), ref(XS, nu=1), rtol=1e-7, atol=1e-7)
    numpy.testing.assert_allclose(float(got.integral(0.1, 0.9).get()), ref.integral(0.1, 0.9), rtol=1e-9)
    numpy.testing.assert_allclose(float(got.integral(-1.0, 2.0).get()), ref.integral(-1.0, 2.0), rtol=1e-9)
    numpy.testing.assert_allclose(got.derivatives(x[5]).get(), ref.derivatives(x[5]), rtol=1e-7, atol=1e-7)
    numpy.testing.assert_allclose(got.derivative()(cp.asarray(XS)).get(), ref.derivative()(XS), rtol=1e-7, atol=1e-7)
    numpy.testing.assert_allclose(got.antiderivative()(cp.asarray(XS)).get(), ref.antiderivative()(XS),
                                  rtol=1e-8, atol=1e-9)
    assert abs(float(got.get_residual().get())) < 1e-12
    with pytest.raises(ValueError):
        got(cp.asarray([5.0]), ext=2)


def test_lsq(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(7)
    x = numpy.sort(rng.random(80))
    y = numpy.sin(6 * x) + 0.1 * rng.standard_normal(80)
    w = rng.random(80) + 0.5
    t = [0.2, 0.4, 0.6, 0.8]
    ref = si.LSQUnivariateSpline(x, y, t, w=w, k=3, bbox=[0.0, 1.0])
    got = ci.LSQUnivariateSpline(cp.asarray(x), cp.asarray(y), cp.asarray(t), w=cp.asarray(w), k=3, bbox=[0.0, 1.0])
    numpy.testing.assert_allclose(got.get_coeffs().get(), ref.get_coeffs(), rtol=1e-8, atol=1e-10)
    numpy.testing.assert_allclose(got(cp.asarray(XS)).get(), ref(XS), rtol=1e-8, atol=1e-10)
    numpy.testing.assert_allclose(float(got.get_residual().get()), ref.get_residual(), rtol=1e-8)
    with pytest.raises(ValueError):
        ci.LSQUnivariateSpline(cp.asarray(x[:6]), cp.asarray(y[:6]), cp.asarray([0.1, 0.2, 0.3, 0.4, 0.5]))
    with pytest.raises(ValueError):
        ci.LSQUnivariateSpline(cp.asarray(x), cp.asarray(y), cp.asarray([0.6, 0.4]))
    with pytest.raises(ValueError):
        ci.InterpolatedUnivariateSpline(cp.asarray(x[::-1]), cp.asarray(y))
    with pytest.raises(ValueError):
        ci.InterpolatedUnivariateSpline(cp.asarray(x), cp.asarray(y), k=6)
