"""PPoly.solve / roots against SciPy. The eigenvalues come from cuSOLVER on the GPU; the
emulated run stands NumPy in for that one library call (as tests/emulation.py does for
cuBLAS), so the kernels around it are checked on the CPU too."""
import numpy
import pytest
import scipy.interpolate as si


@pytest.fixture
def roots_cp(cp, monkeypatch, request):
    if request.node.callspec.params.get("cp") == "emu":
        import cuarray
        monkeypatch.setattr(cuarray.linalg, "eigvals",
                            lambda a: cuarray.asarray(numpy.linalg.eigvals(a.get()).astype(complex)))
    return cp


def _same(got, ref):
    g = got.get()
    assert g.shape == ref.shape, (g, ref)
    numpy.testing.assert_allclose(g, ref, rtol=1e-10, atol=1e-12)


def test_cubic_spline_roots(roots_cp):
    cp = roots_cp
    from cuarray.scipy import interpolate as ci
    x = numpy.linspace(0, 10, 11)
    y = numpy.sin(x)
    ref = si.CubicSpline(x, y)
    got = ci.CubicSpline(cp.asarray(x), cp.asarray(y))
    _same(got.roots(), ref.roots())
    _same(got.roots(extrapolate=False), ref.roots(extrapolate=False))
    _same(got.solve(0.5), ref.solve(0.5))


def test_discontinuity_and_zero_intervals(roots_cp):
    cp = roots_cp
    from cuarray.scipy import interpolate as ci
    c = numpy.array([[1.0, 0.0, -1.0], [-0.5, 0.0, 0.5]])      # linear pieces, one zero piece
    x = numpy.array([0.0, 1.0, 2.0, 3.0])
    ref = si.PPoly(c, x)
    got = ci.PPoly(cp.asarray(c), cp.asarray(x))
    for disc in (True, False):
        r, g = ref.roots(discontinuity=disc), got.roots(discontinuity=disc).get()
        numpy.testing.assert_array_equal(numpy.isnan(g), numpy.isnan(r))
        numpy.testing.assert_allclose(g[~numpy.isnan(g)], r[~numpy.isnan(r)], rtol=1e-12)


def test_several_polynomials_and_quartics(roots_cp):
    cp = roots_cp
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(0)
    c = rng.standard_normal((5, 4, 2))
    x = numpy.sort(rng.random(5)) * 4
    ref = si.PPoly(c, x).roots()
    got = ci.PPoly(cp.asarray(c), cp.asarray(x)).roots()
    assert got.shape == ref.shape == (2,)
    for g, r in zip(got, ref):
        _same(g, r)
    with pytest.raises(ValueError):
        ci.PPoly(cp.asarray(c + 1j), cp.asarray(x)).roots()


def test_spline_roots(roots_cp):
    cp = roots_cp
    from cuarray.scipy import interpolate as ci
    x = numpy.linspace(0, 10, 25)
    y = numpy.cos(x) + 0.2
    ref = si.InterpolatedUnivariateSpline(x, y)
    got = ci.InterpolatedUnivariateSpline(cp.asarray(x), cp.asarray(y))
    numpy.testing.assert_allclose(got.roots().get(), ref.roots(), rtol=1e-8)
    with pytest.raises(NotImplementedError):
        ci.InterpolatedUnivariateSpline(cp.asarray(x), cp.asarray(y), k=2).roots()
