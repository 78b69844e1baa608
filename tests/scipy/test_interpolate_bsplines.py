"""BSpline, make_interp_spline, make_lsq_spline, splder and splantider against SciPy."""
import numpy
import pytest
import scipy.interpolate as si

XS = numpy.r_[numpy.linspace(-0.1, 1.1, 17), numpy.nan]


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5])
def test_make_interp_spline(cp, k):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(k)
    x = numpy.sort(rng.random(12))
    y = rng.standard_normal((12, 2))
    ref = si.make_interp_spline(x, y, k=k)
    got = ci.make_interp_spline(cp.asarray(x), cp.asarray(y), k=k)
    numpy.testing.assert_allclose(got.t.get(), ref.t)
    numpy.testing.assert_allclose(got.c.get(), ref.c, rtol=1e-9, atol=1e-10)
    numpy.testing.assert_allclose(got(cp.asarray(XS)).get(), ref(XS), rtol=1e-9, atol=1e-10)
    numpy.testing.assert_allclose(got(cp.asarray(XS), extrapolate=False).get(),
                                  ref(XS, extrapolate=False), rtol=1e-9, atol=1e-10)
    numpy.testing.assert_allclose(got(cp.asarray(XS), extrapolate="periodic").get(),
                                  ref(XS, extrapolate="periodic"), rtol=1e-9, atol=1e-10)
    for nu in range(1, k + 2):
        numpy.testing.assert_allclose(got(cp.asarray(XS), nu=nu).get(), ref(XS, nu=nu), rtol=1e-7,
                                      atol=1e-7)
    if k:
        numpy.testing.assert_allclose(got.derivative().c.get(), ref.derivative().c, rtol=1e-8, atol=1e-9)
        numpy.testing.assert_allclose(got.antiderivative(2)(cp.asarray(XS)).get(),
                                      ref.antiderivative(2)(XS), rtol=1e-9, atol=1e-10)
        for a, b, ext in [(0.2, 0.7, None), (0.9, -0.3, True), (-0.5, 1.5, False), (0.3, 2.9, "periodic")]:
            numpy.testing.assert_allclose(got.integrate(a, b, extrapolate=ext).get(),
                                          ref.integrate(a, b, extrapolate=ext), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("bc", ["clamped", "natural", "mixed"])
def test_make_interp_spline_bc(cp, bc):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(9)
    x = numpy.sort(rng.random(10))
    y = rng.standard_normal((10, 3)) + 1j * rng.standard_normal((10, 3))
    b = ([(1, numpy.ones(3))], [(2, numpy.zeros(3))]) if bc == "mixed" else bc
    ref = si.make_interp_spline(x, y, k=3, bc_type=b)
    got = ci.make_interp_spline(cp.asarray(x), cp.asarray(y), k=3, bc_type=b)
    numpy.testing.assert_allclose(got(cp.asarray(XS)).get(), ref(XS), rtol=1e-9, atol=1e-10)
    ref = si.make_interp_spline(x, y.real, k=3, axis=0, t=si.make_interp_spline(x, y.real).t)
    got = ci.make_interp_spline(cp.asarray(x), cp.asarray(y.real), k=3, t=cp.asarray(ref.t))
    numpy.testing.assert_allclose(got(cp.asarray(XS)).get(), ref(XS), rtol=1e-9, atol=1e-10)


def test_axis(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(3)
    x = numpy.sort(rng.random(8))
    y = rng.standard_normal((2, 8, 3))
    ref = si.make_interp_spline(x, y, axis=1)
    got = ci.make_interp_spline(cp.asarray(x), cp.asarray(y), axis=1)
    pts = rng.random((4, 5))
    r, g = ref(pts), got(cp.asarray(pts))
    assert r.shape == g.shape
    numpy.testing.assert_allclose(g.get(), r, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("method", ["qr", "norm-eq"])
def test_make_lsq_spline(cp, method):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(4)
    t = numpy.r_[[0.0] * 4, 0.3, 0.5, 0.8, [1.0] * 4]
    x = numpy.sort(rng.random(60))
    x[0], x[-1] = 0.0, 1.0
    y = rng.standard_normal((60, 2))
    w = rng.random(60) + 0.5
    ref = si.make_lsq_spline(x, y, t, k=3, w=w, method=method)
    got = ci.make_lsq_spline(cp.asarray(x), cp.asarray(y), cp.asarray(t), k=3, w=cp.asarray(w), method=method)
    numpy.testing.assert_allclose(got.c.get(), ref.c, rtol=1e-8, atol=1e-10)
    yc = y[:, 0] + 1j * y[:, 1]
    ref = si.make_lsq_spline(x, yc, t, k=3)
    got = ci.make_lsq_spline(cp.asarray(x), cp.asarray(yc), cp.asarray(t), k=3)
    numpy.testing.assert_allclose(got.c.get(), ref.c, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError):
        ci.make_lsq_spline(cp.asarray(x + 2), cp.asarray(y), cp.asarray(t))


def test_basis_element_design_matrix(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(5)
    t = numpy.r_[[0.0] * 4, 0.3, 0.5, 0.8, [1.0] * 4]
    x = numpy.sort(rng.random(20))
    dm = ci.BSpline.design_matrix(cp.asarray(x), cp.asarray(t), 3)
    numpy.testing.assert_allclose(dm.toarray().get(), si.BSpline.design_matrix(x, t, 3).toarray(), atol=1e-14)
    with pytest.raises(ValueError):
        ci.BSpline.design_matrix(cp.asarray(x + 2), cp.asarray(t), 3)
    for knots in ([0.0, 1, 2, 3], [0.0, 1, 1, 2]):
        be, rb = ci.BSpline.basis_element(cp.asarray(knots)), si.BSpline.basis_element(knots)
        numpy.testing.assert_allclose(be(cp.asarray(XS * 3)).get(), rb(XS * 3), atol=1e-14)


def test_splder_splantider_tuples(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(6)
    x = numpy.sort(rng.random(12))
    tck = si.splrep(x, rng.standard_normal(12))
    dtck = (cp.asarray(tck[0]), cp.asarray(tck[1]), tck[2])
    for n in (1, 2):
        for f in ("splder", "splantider"):
            r, g = getattr(si, f)(tck, n), getattr(ci, f)(dtck, n)
            assert g[2] == r[2]
            numpy.testing.assert_allclose(g[0].get(), r[0])
            numpy.testing.assert_allclose(g[1].get(), r[1], rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError):
        ci.splder(dtck, 4)


def test_errors(cp):
    from cuarray.scipy import interpolate as ci
    t = cp.asarray([0.0, 0, 0, 0, 1, 1, 1, 1])
    with pytest.raises(ValueError):
        ci.BSpline(t, cp.zeros(3), 3)
    with pytest.raises(ValueError):
        ci.BSpline(t[::-1], cp.zeros(4), 3)
    with pytest.raises(ValueError):
        ci.BSpline(t, cp.zeros(4), -1)
    x = cp.asarray([0.0, 1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        ci.make_interp_spline(cp.asarray([0.0, 1.0, 1.0, 2.0]), x)
    with pytest.raises(ValueError):
        ci.make_interp_spline(x, x[:3])
    with pytest.raises(ValueError):
        ci.make_interp_spline(x, x, k=0, bc_type="natural")
    with pytest.raises(ValueError):
        ci.make_interp_spline(x, cp.asarray([0.0, numpy.nan, 1.0, 2.0]))


@pytest.fixture
def solve_cp(cp, monkeypatch, request):
    """cp, with NumPy standing in for cuSOLVER's dense solve on the emulated device."""
    if request.node.callspec.params.get("cp") == "emu":
        monkeypatch.setattr(cp.linalg, "solve", lambda a, b: cp.asarray(numpy.linalg.solve(a.get(), b.get())))
    return cp


@pytest.mark.parametrize("k,n", [(2, 9), (3, 9), (5, 9), (3, 3), (4, 4)])
def test_make_interp_spline_periodic(solve_cp, k, n):
    cp = solve_cp
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(k + n)
    x = numpy.sort(rng.random(n)) * 2 * numpy.pi
    y = numpy.c_[numpy.sin(x), numpy.cos(x)] + 0.1 * rng.standard_normal((n, 2))
    y[-1] = y[0]
    ref = si.make_interp_spline(x, y, k=k, bc_type="periodic")
    got = ci.make_interp_spline(cp.asarray(x), cp.asarray(y), k=k, bc_type="periodic")
    numpy.testing.assert_allclose(got.t.get(), ref.t, rtol=1e-12)
    xs = numpy.linspace(-1, 8, 23)
    numpy.testing.assert_allclose(got(cp.asarray(xs)).get(), ref(xs), rtol=1e-8, atol=1e-9)
    with pytest.raises(ValueError):
        ci.make_interp_spline(cp.asarray(x), cp.asarray(y + numpy.arange(n)[:, None]), k=k, bc_type="periodic")
