"""PPoly and BPoly against SciPy on seeded inputs (values, derivatives, antiderivatives,
integrals, basis changes, extend), on the GPU and on the emulated device."""
import numpy
import pytest
import scipy.interpolate as si


def _data(seed, k=4, m=6, trailing=(2,), descending=False, complex_=False):
    rng = numpy.random.default_rng(seed)
    x = numpy.sort(rng.random(m + 1)) * 3
    if descending:
        x = x[::-1].copy()
    c = rng.standard_normal((k, m) + trailing)
    if complex_:
        c = c + 1j * rng.standard_normal(c.shape)
    return x, c


XS = numpy.r_[numpy.linspace(-0.5, 3.5, 19), numpy.nan]


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("cls", ["PPoly", "BPoly"])
def test_call_derivatives_extrapolate(cp, cls, descending):
    from cuarray.scipy import interpolate as ci
    x, c = _data(0, descending=descending)
    ref = getattr(si, cls)(c, x)
    got = getattr(ci, cls)(cp.asarray(c), cp.asarray(x))
    for nu in (0, 1, 3) + ((5,) if cls == "PPoly" else ()):
        numpy.testing.assert_allclose(got(cp.asarray(XS), nu).get(), ref(XS, nu), rtol=1e-11, atol=1e-11)
    numpy.testing.assert_allclose(got(cp.asarray(XS), extrapolate=False).get(),
                                  ref(XS, extrapolate=False), rtol=1e-11)
    numpy.testing.assert_allclose(got(cp.asarray(XS), extrapolate="periodic").get(),
                                  ref(XS, extrapolate="periodic"), rtol=1e-11, atol=1e-11)


@pytest.mark.parametrize("cls", ["PPoly", "BPoly"])
def test_antiderivative_integrate(cp, cls):
    from cuarray.scipy import interpolate as ci
    x, c = _data(1)
    ref = getattr(si, cls)(c, x)
    got = getattr(ci, cls)(cp.asarray(c), cp.asarray(x))
    for nu in (1, 2):
        numpy.testing.assert_allclose(got.antiderivative(nu)(cp.asarray(XS)).get(),
                                      ref.antiderivative(nu)(XS), rtol=1e-9, atol=1e-10)
    numpy.testing.assert_allclose(got.derivative(2).c.get(), ref.derivative(2).c, rtol=1e-12)
    for a, b, ext in [(0.5, 2.5, None), (2.5, 0.1, None), (-1.0, 4.0, False), (-1.0, 7.5, "periodic")]:
        numpy.testing.assert_allclose(got.integrate(a, b, extrapolate=ext).get(),
                                      ref.integrate(a, b, extrapolate=ext), rtol=1e-10, atol=1e-12)


def test_axis_shapes_and_complex(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(2)
    x = numpy.sort(rng.random(5))
    c = rng.standard_normal((3, 2, 4, 4)) + 1j * rng.standard_normal((3, 2, 4, 4))
    ref = si.PPoly(c, x, axis=1)
    got = ci.PPoly(cp.asarray(c), cp.asarray(x), axis=1)
    pts = rng.random((2, 3))
    r, g = ref(pts), got(cp.asarray(pts))
    assert g.shape == r.shape and g.dtype == r.dtype == numpy.complex128
    numpy.testing.assert_allclose(g.get(), r, rtol=1e-12)
    assert got(cp.asarray(0.5)).shape == ref(0.5).shape
    assert got(cp.asarray(numpy.zeros(0))).shape == ref(numpy.zeros(0)).shape


def test_float32_and_integer_coefficients_become_float64(cp):
    from cuarray.scipy import interpolate as ci
    x, c = _data(3)
    for dt in (numpy.float32, numpy.int64):
        cc = (c * 10).astype(dt)
        got = ci.PPoly(cp.asarray(cc), cp.asarray(x))
        assert got.c.dtype == si.PPoly(cc, x).c.dtype == numpy.float64
        numpy.testing.assert_allclose(got(cp.asarray(XS[:-1])).get(), si.PPoly(cc, x)(XS[:-1]), rtol=1e-10)


def test_basis_changes_and_from_spline(cp):
    from cuarray.scipy import interpolate as ci
    x, c = _data(4)
    pp, rp = ci.PPoly(cp.asarray(c), cp.asarray(x)), si.PPoly(c, x)
    bp, rb = ci.BPoly(cp.asarray(c), cp.asarray(x)), si.BPoly(c, x)
    numpy.testing.assert_allclose(ci.PPoly.from_bernstein_basis(bp).c.get(),
                                  si.PPoly.from_bernstein_basis(rb).c, rtol=1e-10)
    numpy.testing.assert_allclose(ci.BPoly.from_power_basis(pp).c.get(),
                                  si.BPoly.from_power_basis(rp).c, rtol=1e-10)
    rng = numpy.random.default_rng(5)
    xd = numpy.sort(rng.random(10))
    tck = si.splrep(xd, rng.standard_normal(10))
    got = ci.PPoly.from_spline(tuple(cp.asarray(a) if i < 2 else a for i, a in enumerate(tck)))
    ref = si.PPoly.from_spline(tck)
    numpy.testing.assert_allclose(got(cp.asarray(XS / 3)).get(), ref(XS / 3), rtol=1e-9, atol=1e-10)
    with pytest.raises(TypeError):
        ci.PPoly.from_bernstein_basis(pp)
    with pytest.raises(TypeError):
        ci.BPoly.from_power_basis(bp)


def test_from_derivatives(cp):
    from cuarray.scipy import interpolate as ci
    xi = [0.0, 1.0, 3.0]
    yi = [[1, 2], [3, 4, 5], [0]]
    got = ci.BPoly.from_derivatives(cp.asarray(xi), yi)
    ref = si.BPoly.from_derivatives(xi, yi)
    numpy.testing.assert_allclose(got.c.get(), ref.c, rtol=1e-12)
    numpy.testing.assert_allclose(got(cp.asarray(XS)).get(), ref(XS), rtol=1e-11, atol=1e-12)
    got = ci.BPoly.from_derivatives(cp.asarray(xi), yi, orders=1)
    numpy.testing.assert_allclose(got.c.get(), si.BPoly.from_derivatives(xi, yi, orders=1).c, rtol=1e-12)
    yu = numpy.random.default_rng(6).random((4, 3))
    got = ci.BPoly.from_derivatives(cp.asarray([0.0, 1, 2, 4]), cp.asarray(yu))
    numpy.testing.assert_allclose(got.c.get(), si.BPoly.from_derivatives([0.0, 1, 2, 4], yu).c, rtol=1e-12)
    with pytest.raises(ValueError):
        ci.BPoly.from_derivatives(cp.asarray([0.0, 1.0]), [[1], [2], [3]])
    with pytest.raises(ValueError):
        ci.BPoly.from_derivatives(cp.asarray([0.0, 1.0]), [[1], [2]], orders=0)


def test_extend(cp):
    from cuarray.scipy import interpolate as ci
    x, c = _data(7, m=4, trailing=())
    x2 = x[-1] + numpy.array([0.5, 1.0])
    c2 = numpy.random.default_rng(8).standard_normal((2, 2))
    ref = si.PPoly(c, x)
    ref.extend(c2, x2[1:] if False else x2)
    got = ci.PPoly(cp.asarray(c), cp.asarray(x))
    got.extend(cp.asarray(c2), cp.asarray(x2))
    numpy.testing.assert_allclose(got.c.get(), ref.c)
    numpy.testing.assert_allclose(got.x.get(), ref.x)
    with pytest.raises(ValueError):
        got.extend(cp.asarray(c2), cp.asarray([0.5, 0.7]))


def test_errors(cp):
    from cuarray.scipy import interpolate as ci
    x = cp.asarray([0.0, 1.0, 2.0])
    with pytest.raises(ValueError):
        ci.PPoly(cp.zeros((2, 2)), cp.asarray([0.0, 2.0, 1.0]))
    with pytest.raises(ValueError):
        ci.PPoly(cp.zeros((0, 2)), x)
    with pytest.raises(ValueError):
        ci.PPoly(cp.zeros((2, 2)), x, axis=1)
    with pytest.raises(ValueError):
        ci.PPoly(cp.zeros((2, 2)), x)(cp.asarray([0.5]), nu=-1)
