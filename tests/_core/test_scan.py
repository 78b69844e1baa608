"""cumsum, cumprod and their nan forms against NumPy, on every layout the scan engine has."""
import numpy
import pytest

import cuarray
from cuarray import testing

pytestmark = pytest.mark.gpu

CASES = [((0,), None), ((1,), None), ((5,), 0), ((4097,), None), ((3, 4), 0), ((3, 4), 1), ((3, 4), None),
         ((2, 3, 4), 1), ((2, 3, 4), -1), ((5, 10000), 1), ((10000, 3), 0), ((1 << 20,), 0)]


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape,axis", CASES)
@testing.for_all_dtypes()
def test_cumsum_cumprod(name, shape, axis, dtype):
    scale = 2 if name == "cumprod" else 10
    a = testing.shaped_random(shape, numpy, dtype, scale=scale)
    if name == "cumprod" and a.size > 100:
        a = (a != 0).astype(dtype) if numpy.dtype(dtype).kind in "biu" else numpy.ones_like(a)
    g = cuarray.asarray(a)
    e = getattr(numpy, name)(a, axis=axis)
    r = getattr(cuarray, name)(g, axis=axis)
    assert r.dtype == e.dtype and r.shape == e.shape
    rtol = 1e-2 if numpy.dtype(dtype) == numpy.float16 else (1e-4 if numpy.dtype(dtype).itemsize <= 8 and
                                                             numpy.dtype(dtype).kind in "fc" else 1e-12)
    if numpy.dtype(dtype) == numpy.float16:
        e = getattr(numpy, name)(a.astype(numpy.float32), axis=axis).astype(numpy.float16)
    numpy.testing.assert_allclose(r.get(), e, rtol=rtol, atol=rtol)


@testing.numpy_cupy_allclose(rtol=1e-6)
def test_noncontiguous_and_methods(xp):
    a = testing.shaped_random((40, 30), xp, numpy.float64)
    return a[::2, ::3].cumsum(axis=1), a.T.cumsum(axis=0), a[:, 5].cumprod(), a.cumsum()


@testing.numpy_cupy_allclose(rtol=1e-6)
def test_dtype_and_out(xp):
    a = testing.shaped_arange((10,), xp, numpy.int8)
    out = xp.empty(10, numpy.float64)
    xp.cumsum(a, out=out)
    return out, xp.cumsum(a, dtype=numpy.int16), xp.cumprod(a, dtype=numpy.float32)


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_nan_scans(xp, name):
    a = testing.shaped_random((6, 5), xp, numpy.float64, scale=2)
    a[2, 1] = xp.nan
    a[0, 0] = xp.nan
    return getattr(xp, name)(a, axis=0), getattr(xp, name)(a)


def test_long_scan_precision():
    n = 1 << 24
    g = cuarray.ones(n, numpy.float32)
    r = cuarray.cumsum(g)
    assert float(r[-1]) == float(n) and float(r[12345]) == 12346.0
