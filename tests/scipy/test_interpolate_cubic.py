"""CubicSpline (every bc_type), CubicHermiteSpline, PchipInterpolator, pchip_interpolate and
Akima1DInterpolator against SciPy on seeded inputs."""
import numpy
import pytest
import scipy.interpolate as si

BCS = ["not-a-knot", "natural", "clamped", "periodic", "mixed", ("not-a-knot", "natural")]


def _bc(bc, trailing):
    if bc == "mixed":
        return ((1, numpy.full(trailing, 0.5)), (2, numpy.full(trailing, -1.0)))
    return bc


@pytest.mark.parametrize("bc", BCS)
@pytest.mark.parametrize("n", [2, 3, 4, 17])
def test_cubic_spline_bc(cp, bc, n):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(n)
    x = numpy.sort(rng.random(n)) + numpy.arange(n)
    y = rng.standard_normal((n, 2))
    if bc == "periodic":
        y[-1] = y[0]
    b = _bc(bc, (2,))
    if n == 2 and bc == ("not-a-knot", "natural"):
        pytest.skip("SciPy keeps not-a-knot only with 3 or more points")
    xs = numpy.linspace(-0.5, n + 1, 29)
    ref = si.CubicSpline(x, y, bc_type=b)
    got = ci.CubicSpline(cp.asarray(x), cp.asarray(y), bc_type=b)
    numpy.testing.assert_allclose(got(cp.asarray(xs)).get(), ref(xs), rtol=1e-10, atol=1e-11)
    numpy.testing.assert_allclose(got(cp.asarray(xs), 2).get(), ref(xs, 2), rtol=1e-9, atol=1e-9)
    assert got.extrapolate == ref.extrapolate


def test_cubic_spline_axis_complex_float32(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(1)
    x = numpy.sort(rng.random(9))
    y = (rng.standard_normal((3, 9)) + 1j * rng.standard_normal((3, 9)))
    xs = rng.random((4, 2))
    ref = si.CubicSpline(x, y, axis=1)
    got = ci.CubicSpline(cp.asarray(x), cp.asarray(y), axis=1)
    r, g = ref(xs), got(cp.asarray(xs))
    assert g.shape == r.shape and g.dtype == r.dtype
    numpy.testing.assert_allclose(g.get(), r, rtol=1e-10)
    y32 = rng.standard_normal(9).astype(numpy.float32)
    got = ci.CubicSpline(cp.asarray(x.astype(numpy.float32)), cp.asarray(y32))
    ref = si.CubicSpline(x.astype(numpy.float32), y32)
    assert got.c.dtype == ref.c.dtype == numpy.float64
    numpy.testing.assert_allclose(got(cp.asarray(x)).get(), ref(x), rtol=1e-6)
    numpy.testing.assert_allclose(got.integrate(0.1, 0.8).get(), ref.integrate(0.1, 0.8), rtol=1e-9)


@pytest.mark.parametrize("name,kw", [("PchipInterpolator", {}), ("Akima1DInterpolator", {}),
                                     ("Akima1DInterpolator", {"method": "makima"}),
                                     ("Akima1DInterpolator", {"extrapolate": True})])
def test_shape_preserving(cp, name, kw):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(2)
    x = numpy.sort(rng.random(14))
    y = rng.standard_normal((14, 3))
    y[4:8] = 1.0          # flat run: zero slopes and Akima's equal-weights case
    y[10, 1] = y[9, 1]
    xs = numpy.r_[numpy.linspace(-0.1, 1.1, 31), x[:3]]
    ref = getattr(si, name)(x, y, **kw)
    got = getattr(ci, name)(cp.asarray(x), cp.asarray(y), **kw)
    numpy.testing.assert_allclose(got(cp.asarray(xs)).get(), ref(xs), rtol=1e-10, atol=1e-12)
    numpy.testing.assert_allclose(got(cp.asarray(xs), 1).get(), ref(xs, 1), rtol=1e-9, atol=1e-10)
    two = getattr(ci, name)(cp.asarray(x[:2]), cp.asarray(y[:2]), **kw)
    numpy.testing.assert_allclose(two(cp.asarray(xs)).get(), getattr(si, name)(x[:2], y[:2], **kw)(xs),
                                  rtol=1e-10, atol=1e-12)


def test_hermite_and_pchip_interpolate(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(3)
    x = numpy.sort(rng.random(10))
    y, d = rng.standard_normal(10), rng.standard_normal(10)
    xs = numpy.linspace(0, 1, 21)
    got = ci.CubicHermiteSpline(cp.asarray(x), cp.asarray(y), cp.asarray(d))
    ref = si.CubicHermiteSpline(x, y, d)
    for nu in (0, 1, 2):
        numpy.testing.assert_allclose(got(cp.asarray(xs), nu).get(), ref(xs, nu), rtol=1e-9, atol=1e-10)
    numpy.testing.assert_allclose(ci.pchip_interpolate(cp.asarray(x), cp.asarray(y), cp.asarray(xs)).get(),
                                  si.pchip_interpolate(x, y, xs), rtol=1e-10)
    g = ci.pchip_interpolate(cp.asarray(x), cp.asarray(y), cp.asarray(xs), der=[0, 1])
    r = si.pchip_interpolate(x, y, xs, der=[0, 1])
    for a, b in zip(g, r):
        numpy.testing.assert_allclose(a.get(), b, rtol=1e-9, atol=1e-10)


def test_errors(cp):
    from cuarray.scipy import interpolate as ci
    x = cp.asarray([0.0, 1.0, 2.0, 3.0])
    y = cp.asarray([0.0, 1.0, 0.0, 1.0])
    for bad in (cp.asarray([0.0, 1.0, 1.0, 2.0]), cp.asarray([0.0, 1.0, numpy.inf, 4.0])):
        with pytest.raises(ValueError):
            ci.CubicSpline(bad, y)
    with pytest.raises(ValueError):
        ci.CubicSpline(x, cp.asarray([0.0, numpy.nan, 1.0, 2.0]))
    with pytest.raises(ValueError):
        ci.CubicSpline(x[:1], y[:1])
    with pytest.raises(ValueError):
        ci.CubicSpline(x, y[:3])
    with pytest.raises(ValueError):
        ci.CubicSpline(x, y, bc_type=("periodic", "natural"))
    with pytest.raises(ValueError):
        ci.CubicSpline(x, y, bc_type=((3, 0.0), "natural"))
    with pytest.raises(ValueError):
        ci.CubicSpline(x, y, bc_type="periodic")
    with pytest.raises(ValueError):
        ci.CubicHermiteSpline(x, y, y[:3])
    with pytest.raises(ValueError):
        ci.Akima1DInterpolator(x, y + 1j)
