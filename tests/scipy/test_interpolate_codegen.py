"""CPU tests of `cuarray.scipy.interpolate`'s kernels and host logic: every generated source
compiles with NVRTC for sm_90 (no GPU needed), the public names match CuPy 14.2's list,
and arguments are checked before any kernel runs."""
import numpy
import pytest

from cuarray._runtime import compiler
from cuarray.scipy.interpolate import _kernels

# CuPy 14.2's cupyx.scipy.interpolate names this module owns (the scattered-data
# interpolators live in their own module).
NAMES = ["BarycentricInterpolator", "KroghInterpolator", "barycentric_interpolate",
         "krogh_interpolate", "pchip_interpolate", "CubicHermiteSpline", "PchipInterpolator",
         "Akima1DInterpolator", "PPoly", "BPoly", "NdPPoly", "CubicSpline", "interp1d",
         "BSpline", "make_interp_spline", "make_lsq_spline", "splder", "splantider",
         "NdBSpline", "RegularGridInterpolator", "interpn", "InterpolatedUnivariateSpline",
         "LSQUnivariateSpline", "UnivariateSpline", "pchip"]


@pytest.mark.parametrize("family", ["ppoly", "bpoly", "linear", "select", "bspline", "band",
                                    "grid", "ndbspline", "ndppoly", "krogh", "fpchec", "roots"])
@pytest.mark.parametrize("dtype", ["d", "D"])
def test_sources_compile(family, dtype):
    K, D = (5, 3) if family in ("ndbspline", "ndppoly") else (4, 3)
    compiler.compile_cubin(_kernels.source(family, numpy.dtype(dtype), K, D), (), (), "sm_90",
                           "ci")


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_curfit_sources_compile(k):
    from cuarray.scipy.interpolate import _fitpack_curfit
    src = _fitpack_curfit.source(k)
    for name in _fitpack_curfit._SIGS:
        assert f"__global__ void {name}(" in src
    compiler.compile_cubin(src, (), (), "sm_90", "ci")


def test_select_compiles_for_every_value_dtype():
    for dt in "?bhilqfdFD":
        compiler.compile_cubin(_kernels.source("select", numpy.dtype(dt)), (), (), "sm_90", "ci")


def test_signatures_cover_every_kernel():
    for name, fam in _kernels._FAMILY.items():
        assert f'__global__ void {name}(' in _kernels.source(fam, numpy.dtype("d"), 3, 2)
        assert name in _kernels._SIGS


def test_public_names():
    import cuarray.scipy.interpolate as ci
    missing = [n for n in NAMES if not hasattr(ci, n)]
    assert not missing


def test_bad_input_raises_before_launch(emulated):
    import cuarray
    from cuarray.scipy import interpolate as ci
    x = cuarray.arange(5.0)
    with pytest.raises(ValueError, match="at least 2-dimensional"):
        ci.PPoly(cuarray.zeros(4), x)
    with pytest.raises(ValueError, match="number of coefficients"):
        ci.PPoly(cuarray.zeros((4, 3)), x)
    with pytest.raises(ValueError, match="strictly increasing"):
        ci.CubicSpline(cuarray.asarray([0.0, 2.0, 1.0]), cuarray.zeros(3))
    with pytest.raises(ValueError, match="bc_type=bogus is not allowed"):
        ci.CubicSpline(x, x, bc_type="bogus")
    with pytest.raises(ValueError, match="must be identical"):
        ci.CubicSpline(x, x, bc_type="periodic")
    with pytest.raises(NotImplementedError):
        ci.interp1d(x, x, kind="bogus")
    with pytest.raises(NotImplementedError):
        ci.Akima1DInterpolator(x, x, method="bogus")
    with pytest.raises(ValueError, match="Cannot extrapolate and raise"):
        ci.interp1d(x, x, bounds_error=True, fill_value="extrapolate")
    with pytest.raises(ValueError, match="Need at least"):
        ci.BSpline(cuarray.arange(4.0), cuarray.zeros(4), 3)
    with pytest.raises(ValueError, match="not defined"):
        ci.RegularGridInterpolator((x,), x, method="bogus")
    with pytest.raises(ValueError, match="only works with real"):
        ci.PchipInterpolator(x, x + 1j)
