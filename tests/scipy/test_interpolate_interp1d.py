"""interp1d against SciPy: every kind, fill values, bounds_error, extrapolation, axis,
dtypes and unsorted input."""
import numpy
import pytest
import scipy.interpolate as si

KINDS = ["linear", "nearest", "nearest-up", "zero", "slinear", "quadratic", "cubic",
         "previous", "next", 5]


@pytest.mark.parametrize("kind", KINDS)
def test_kinds_and_fill_values(cp, kind):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(0)
    x = rng.permutation(10).astype(float)
    y = rng.standard_normal((3, 10))
    xs = numpy.r_[numpy.linspace(-1, 10, 23), 0.5, 1.5, 2.0, numpy.nan]
    for fv in [numpy.nan, "extrapolate", (-1.0, 7.0), numpy.array([1.0, 2.0, 3.0])]:
        ref = si.interp1d(x, y, kind=kind, bounds_error=False, fill_value=fv)
        got = ci.interp1d(cp.asarray(x), cp.asarray(y), kind=kind, bounds_error=False,
                          fill_value=cp.asarray(fv) if isinstance(fv, numpy.ndarray) else fv)
        r, g = ref(xs), got(cp.asarray(xs))
        assert g.dtype == r.dtype and g.shape == r.shape
        numpy.testing.assert_allclose(g.get(), r, rtol=1e-9, atol=1e-10, err_msg=str(fv))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int64, numpy.complex128])
@pytest.mark.parametrize("kind", ["linear", "nearest", "previous", "cubic"])
def test_dtypes(cp, dtype, kind):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(1)
    x = numpy.arange(8.0)
    y = (rng.standard_normal(8) * 10).astype(dtype)
    xs = rng.random(11) * 7
    ref = si.interp1d(x, y, kind=kind)
    got = ci.interp1d(cp.asarray(x), cp.asarray(y), kind=kind)
    r, g = ref(xs), got(cp.asarray(xs))
    assert g.dtype == r.dtype
    numpy.testing.assert_allclose(g.get(), r, rtol=1e-5 if dtype == numpy.float32 else 1e-10)


def test_axis_and_shapes(cp):
    from cuarray.scipy import interpolate as ci
    rng = numpy.random.default_rng(2)
    x = numpy.sort(rng.random(6))
    y = rng.standard_normal((2, 6, 3))
    pts = numpy.clip(rng.random((4, 5)), x[0], x[-1])
    for kind in ("linear", "nearest", "quadratic"):
        ref = si.interp1d(x, y, kind=kind, axis=1)
        got = ci.interp1d(cp.asarray(x), cp.asarray(y), kind=kind, axis=1)
        for p in (pts, numpy.float64(x[2]), numpy.zeros(0)):
            r, g = ref(p), got(cp.asarray(p))
            assert g.shape == r.shape
            numpy.testing.assert_allclose(g.get(), r, rtol=1e-10, atol=1e-12)


def test_assume_sorted_and_duplicates(cp):
    from cuarray.scipy import interpolate as ci
    x = numpy.array([0.0, 1.0, 1.0, 2.0, 3.0])
    y = numpy.array([0.0, 1.0, 2.0, 3.0, 4.0])
    xs = numpy.array([0.5, 1.0, 1.5, 2.5])
    for kind in ("linear", "nearest", "previous", "next"):
        ref = si.interp1d(x, y, kind=kind, assume_sorted=True)
        got = ci.interp1d(cp.asarray(x), cp.asarray(y), kind=kind, assume_sorted=True)
        numpy.testing.assert_allclose(got(cp.asarray(xs)).get(), ref(xs))


def test_bounds_error(cp):
    from cuarray.scipy import interpolate as ci
    f = ci.interp1d(cp.asarray([0.0, 1.0, 2.0]), cp.asarray([1.0, 2.0, 0.0]))
    with pytest.raises(ValueError, match="below the interpolation range"):
        f(cp.asarray([0.5, -1.0]))
    with pytest.raises(ValueError, match="above the interpolation range"):
        f(cp.asarray([2.5]))
    with pytest.raises(ValueError):
        ci.interp1d(cp.asarray([0.0, 1.0]), cp.asarray([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):
        ci.interp1d(cp.asarray([0.0, 1.0]), cp.asarray([1.0, 2.0]), kind="cubic")
    with pytest.raises(ValueError):
        ci.interp1d(cp.asarray([0.0, 1.0]), cp.asarray([1.0, 2.0]), bounds_error=False,
                    fill_value=cp.asarray([1.0, 2.0]))
