"""Reductions against NumPy: dtypes, axes, keepdims, dtype=, out=, empty inputs, NaN rules."""
import numpy
import pytest

import cuarray
from cuarray import testing

pytestmark = pytest.mark.gpu

SHAPES_AXES = [((), None), ((7,), None), ((7,), 0), ((4, 5), 0), ((4, 5), 1), ((4, 5), -1), ((3, 4, 5), (0, 2)),
               ((3, 4, 5), (1,)), ((3, 4, 5), None), ((2, 0, 3), 1), ((1000, 33), 0), ((33, 1000), 1)]


def _rtol(dtype):
    return {numpy.float16: 1e-2, numpy.float32: 1e-5, numpy.complex64: 1e-5}.get(numpy.dtype(dtype).type, 1e-9)


@pytest.mark.parametrize("name", ["sum", "prod"])
@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
@testing.for_all_dtypes()
def test_sum_prod(name, shape, axis, dtype):
    a = testing.shaped_random(shape, numpy, dtype, scale=2 if name == "prod" else 10)
    g = cuarray.asarray(a)
    for kd in (False, True):
        e = getattr(numpy, name)(a, axis=axis, keepdims=kd)
        r = getattr(cuarray, name)(g, axis=axis, keepdims=kd)
        assert isinstance(r, cuarray.ndarray) and r.dtype == e.dtype and r.shape == e.shape
        numpy.testing.assert_allclose(r.get(), e, rtol=_rtol(dtype) * 10)
        m = getattr(g, name)(axis=axis, keepdims=kd)
        numpy.testing.assert_allclose(m.get(), e, rtol=_rtol(dtype) * 10)


@pytest.mark.parametrize("name", ["max", "min", "amax", "amin", "ptp"])
@pytest.mark.parametrize("shape,axis", [s for s in SHAPES_AXES if 0 not in s[0]])
@testing.for_all_dtypes(no_complex=True)
@testing.numpy_cupy_array_equal()
def test_max_min(xp, name, shape, axis, dtype):
    a = testing.shaped_random(shape, xp, dtype)
    if name == "ptp" and numpy.dtype(dtype) == numpy.bool_:
        return a
    return getattr(xp, name)(a, axis=axis), getattr(xp, name)(a, axis=axis, keepdims=True)


@testing.for_float_dtypes()
@testing.numpy_cupy_array_equal()
def test_max_min_nan(xp, dtype):
    a = testing.shaped_random((4, 6), xp, dtype)
    a[1, 2] = xp.nan
    a[3, :] = xp.nan
    return (a.max(axis=1), a.min(axis=0), a.max(), xp.nanmax(a, axis=0), xp.nanmin(a, axis=1),
            xp.fmax.reduce(a, axis=1))


@testing.numpy_cupy_raises(accept_error=ValueError)
def test_max_empty(xp):
    return xp.zeros((0,)).max()


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_argmax(xp, name, axis, dtype):
    a = testing.shaped_random((30, 17), xp, dtype, scale=3)  # ties: first occurrence wins
    return getattr(xp, name)(a, axis=axis), getattr(a, name)(axis=axis, keepdims=True)


@testing.for_float_dtypes()
@testing.numpy_cupy_array_equal()
def test_argmax_nan_and_nanarg(xp, dtype):
    a = testing.shaped_random((5, 40), xp, dtype)
    a[2, 7] = xp.nan
    a[2, 30] = xp.nan
    return xp.argmax(a, axis=1), xp.argmin(a), xp.nanargmax(a, axis=1), xp.nanargmin(a, axis=1)


@testing.numpy_cupy_raises(accept_error=ValueError)
def test_argmax_empty(xp):
    xp.argmax(xp.zeros(0))
