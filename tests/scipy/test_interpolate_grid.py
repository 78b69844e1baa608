"""RegularGridInterpolator, interpn and NdBSpline against SciPy. SciPy builds the
'slinear'/'cubic'/'quintic' splines with an iterative solver (tolerance ~1e-5); cuarray
solves the tensor-product system exactly, which SciPy's '*_legacy' methods also do, so the
spline methods are compared with those at tight tolerance."""
import numpy
import pytest
import scipy.interpolate as si


def _grid(seed, shape=(6, 7, 5), complex_=False):
    rng = numpy.random.default_rng(seed)
    def axis(n):
        a = numpy.sort(rng.random(n))
        a[0], a[-1] = 0.0, 1.0
        return a
    g = (axis(shape[0]), numpy.linspace(0, 1, shape[1])[::-1], axis(shape[2]))
    v = rng.standard_normal(shape)
    if complex_:
        v = v + 1j * rng.standard_normal(shape)
    return rng, g, v


@pytest.mark.parametrize("method", ["linear", "nearest"])
@pytest.mark.parametrize("fill", [numpy.nan, None, 2.5])
def test_linear_nearest(cp, method, fill):
    from cuarray.scipy import interpolate as ci
    rng, g, v = _grid(0, complex_=(fill == 2.5))
    xi = rng.random((20, 3)) * 1.2 - 0.1
    xi[3, 1] = numpy.nan
    gg = tuple(cp.asarray(a) for a in g)
    ref = si.RegularGridInterpolator(g, v, method=method, bounds_error=False, fill_value=fill)
    got = ci.RegularGridInterpolator(gg, cp.asarray(v), method=method, bounds_error=False, fill_value=fill)
    r, gv = ref(xi), got(cp.asarray(xi))
    assert r.dtype == gv.dtype and r.shape == gv.shape
    numpy.testing.assert_allclose(gv.get(), r, rtol=1e-12, atol=1e-14)


def test_dtypes_trailing_and_shapes(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(1)
    g = (numpy.arange(4.0), numpy.arange(5.0))
    v = rng.standard_normal((4, 5, 2)).astype(numpy.float32)
    xi = rng.random((3, 2, 2)) * 3
    gg = tuple(cp.asarray(a) for a in g)
    for m in ("linear", "nearest"):
        r = si.RegularGridInterpolator(g, v, method=m)(xi)
        gv = ci.RegularGridInterpolator(gg, cp.asarray(v), method=m)(cp.asarray(xi))
        assert r.dtype == gv.dtype and r.shape == gv.shape
        numpy.testing.assert_allclose(gv.get(), r, rtol=1e-6)
    vi = numpy.arange(20).reshape(4, 5)
    r = si.RegularGridInterpolator(g, vi)((xi[..., 0], xi[..., 1]))
    gv = ci.RegularGridInterpolator(gg, cp.asarray(vi))((cp.asarray(xi[..., 0]), cp.asarray(xi[..., 1])))
    numpy.testing.assert_allclose(gv.get(), r, rtol=1e-12)


@pytest.mark.parametrize("method", ["slinear", "cubic", "quintic", "pchip"])
def test_spline_methods(cp, method):
    from cuarray.scipy import interpolate as ci
    rng, g, v = _grid(2, shape=(7, 8, 6))
    xin = 0.6 + 0.3 * rng.random((15, 3))
    gg = tuple(cp.asarray(a) for a in g)
    legacy = method + ("_legacy" if method != "pchip" else "")
    ref = si.RegularGridInterpolator(g, v, method=legacy)
    got = ci.RegularGridInterpolator(gg, cp.asarray(v), method=method)
    numpy.testing.assert_allclose(got(cp.asarray(xin)).get(), ref(xin), rtol=1e-9, atol=1e-10)
    # SciPy's default spline methods solve iteratively (to about 1e-3 for quintic with
    # SciPy 1.18); cuarray solves exactly, as the `_legacy` comparison above shows
    close = si.RegularGridInterpolator(g, v, method=method)
    numpy.testing.assert_allclose(got(cp.asarray(xin)).get(), close(xin), rtol=1e-2, atol=1e-3)
    lin = ci.RegularGridInterpolator(gg, cp.asarray(v))
    numpy.testing.assert_allclose(lin(cp.asarray(xin), method=method).get(), ref(xin), rtol=1e-9, atol=1e-10)


def test_interpn_and_errors(cp):
    from cuarray.scipy import interpolate as ci
    rng, g, v = _grid(3)
    gg = tuple(cp.asarray(a) for a in g)
    xin = 0.6 + 0.3 * rng.random((15, 3))
    for m in ("linear", "nearest"):
        numpy.testing.assert_allclose(ci.interpn(gg, cp.asarray(v), cp.asarray(xin), method=m).get(),
                                      si.interpn(g, v, xin, method=m), rtol=1e-12)
    with pytest.raises(ValueError, match="out of bounds"):
        ci.interpn(gg, cp.asarray(v), cp.asarray(xin + 5))
    with pytest.raises(ValueError):
        ci.interpn(gg, cp.asarray(v), cp.asarray(xin), method="bogus")
    with pytest.raises(ValueError):
        ci.RegularGridInterpolator(gg, cp.asarray(v[:, :, :2]))
    with pytest.raises(ValueError):
        ci.RegularGridInterpolator((cp.asarray([0.0, 2.0, 1.0]),), cp.zeros(3))
    with pytest.raises(ValueError):
        ci.RegularGridInterpolator(gg, cp.asarray(v), method="quintic")  # 5 points < 6
    with pytest.raises(ValueError):
        ci.RegularGridInterpolator(gg, cp.asarray(v))(cp.asarray(xin[:, :2]))
    with pytest.raises(ValueError):
        ci.RegularGridInterpolator(gg, cp.asarray(v), fill_value=1j)


def test_ndbspline(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(4)
    t = (numpy.r_[[0.0] * 4, 0.4, [1.0] * 4], numpy.r_[[0.0] * 3, 0.3, 0.7, [1.0] * 3])
    k = (3, 2)
    c = rng.standard_normal((5, 5, 2))
    xi = rng.random((10, 2)) * 1.2 - 0.1
    ref = si.NdBSpline(t, c, k)
    got = ci.NdBSpline(tuple(cp.asarray(a) for a in t), cp.asarray(c), k)
    numpy.testing.assert_allclose(got(cp.asarray(xi)).get(), ref(xi), rtol=1e-10, atol=1e-12)
    numpy.testing.assert_allclose(got(cp.asarray(xi), nu=(1, 2)).get(), ref(xi, nu=(1, 2)), rtol=1e-9, atol=1e-10)
    numpy.testing.assert_allclose(got(cp.asarray(xi), extrapolate=False).get(), ref(xi, extrapolate=False),
                                  rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError):
        got(cp.asarray(xi), nu=(1,))
    with pytest.raises(ValueError):
        ci.NdBSpline([cp.asarray(a) for a in t], cp.asarray(c), k)
    with pytest.raises(ValueError):
        ci.NdBSpline(tuple(cp.asarray(a) for a in t), cp.asarray(c[:4]), k)
