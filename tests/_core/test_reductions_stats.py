"""Reductions against NumPy, second half (a file of its own so that parallel GPU runs
balance): mean/var/std, all/any, the nan* reductions, empty and large inputs, whole-array
argmax/argmin."""
import numpy
import pytest

import cuarray
from cuarray import testing

pytestmark = pytest.mark.gpu

SHAPES_AXES = [((), None), ((7,), None), ((7,), 0), ((4, 5), 0), ((4, 5), 1), ((4, 5), -1), ((3, 4, 5), (0, 2)),
               ((3, 4, 5), (1,)), ((3, 4, 5), None), ((2, 0, 3), 1), ((1000, 33), 0), ((33, 1000), 1)]


def _rtol(dtype):
    return {numpy.float16: 1e-2, numpy.float32: 1e-5, numpy.complex64: 1e-5}.get(numpy.dtype(dtype).type, 1e-9)


@pytest.mark.parametrize("shape,axis", [s for s in SHAPES_AXES if 0 not in s[0]])
@testing.for_all_dtypes()
def test_mean_var_std(shape, axis, dtype):
    a = testing.shaped_random(shape, numpy, dtype)
    g = cuarray.asarray(a)
    tol = max(_rtol(dtype), 1e-6) * 20
    for f, kw in (("mean", {}), ("var", {}), ("std", {}), ("var", {"ddof": 1}), ("std", {"ddof": 1})):
        if kw and a.size <= 1:
            continue
        with numpy.errstate(all="ignore"):
            e = getattr(numpy, f)(a, axis=axis, **kw)
        r = getattr(cuarray, f)(g, axis=axis, **kw)
        assert r.dtype == e.dtype, (f, r.dtype, e.dtype)
        numpy.testing.assert_allclose(r.get(), e, rtol=tol, atol=tol)


@testing.numpy_cupy_allclose(rtol=1e-6)
def test_mean_dtype_out_where(xp):
    a = testing.shaped_random((6, 5), xp, numpy.float32)
    out = xp.empty(5, numpy.float64)
    xp.mean(a, axis=0, dtype=numpy.float64, out=out)
    return out, xp.mean(a, axis=1, where=a > 3), xp.var(a, axis=1, where=a > 2), a.mean(dtype=numpy.float64)


@pytest.mark.parametrize("name", ["all", "any"])
@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_all_any(xp, name, shape, axis, dtype):
    a = testing.shaped_random(shape, xp, dtype, scale=1.2)
    return getattr(xp, name)(a, axis=axis), getattr(a, name)(axis=axis, keepdims=True)


@testing.numpy_cupy_array_equal()
def test_count_nonzero(xp):
    a = testing.shaped_random((6, 7), xp, numpy.int32, scale=3)
    return xp.count_nonzero(a, axis=1), xp.count_nonzero(a, axis=(0, 1))


def test_count_nonzero_full_returns_array():
    r = cuarray.count_nonzero(cuarray.arange(5))
    assert isinstance(r, cuarray.ndarray) and int(r) == 4


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@testing.for_float_dtypes(no_float16=True)
@testing.numpy_cupy_allclose(rtol=1e-5)
def test_nan_reductions(xp, name, axis, dtype):
    a = testing.shaped_random((5, 8), xp, dtype, scale=2)
    a[1, 3] = xp.nan
    a[4, 0] = xp.nan
    return getattr(xp, name)(a, axis=axis)


@testing.for_int_dtypes()
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_nan_reductions_on_ints(xp, dtype):
    a = testing.shaped_arange((3, 4), xp, dtype)
    return xp.nansum(a), xp.nanmean(a, axis=0), xp.nanmax(a, axis=1)


@testing.numpy_cupy_allclose()
def test_empty_sums(xp):
    return xp.sum(xp.zeros((0, 3)), axis=0), xp.prod(xp.zeros((0,))), xp.zeros((3, 0)).sum(axis=1)


@testing.numpy_cupy_allclose(rtol=1e-6)
def test_large_and_noncontiguous(xp):
    a = testing.shaped_random((1 << 21,), xp, numpy.float32)
    m = testing.shaped_random((512, 700), xp, numpy.float64)
    return a.sum(), a[::3].sum(), m.T.sum(axis=0), m[:, ::2].max(axis=0), m.argmax(axis=0)


@testing.numpy_cupy_allclose(rtol=1e-3)
def test_float16_accumulates_in_float32(xp):
    return xp.ones(5000, numpy.float16).sum(), xp.ones(5000, numpy.float16).mean()


def test_sum_int8_gives_int64():
    assert cuarray.ones(3, numpy.int8).sum().dtype == numpy.int64
    assert cuarray.ones(3, numpy.uint16).sum().dtype == numpy.uint64
    assert cuarray.ones(3, numpy.bool_).sum().dtype == numpy.int64
    assert cuarray.ones(3, numpy.float16).mean().dtype == numpy.float16


def test_reductions_return_0d_arrays():
    r = cuarray.arange(5).sum()
    assert isinstance(r, cuarray.ndarray) and r.shape == () and int(r) == 10


@testing.numpy_cupy_raises(accept_error=numpy.exceptions.AxisError)
def test_axis_out_of_range(xp):
    xp.zeros((2, 3)).sum(axis=2)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", "?bBhHiIlLqQefd")
@pytest.mark.parametrize("n", [1, 7, 17, 4096 * 3 + 5, (1 << 22) + 3])
def test_argmax_argmin_whole_array(dtype, n):
    rng = numpy.random.default_rng(1008)
    x = rng.integers(-50, 50, n).astype(dtype) if dtype != "?" else rng.integers(0, 2, n).astype(bool)
    if n > 100 and dtype not in "?":
        x[n // 3] = x.max()           # ties: the first occurrence wins
        x[n // 2] = x.max()
    g = cuarray.asarray(x)
    for name in ("argmax", "argmin"):
        got = getattr(cuarray, name)(g)
        assert got.shape == () and got.dtype == numpy.int64
        assert int(got) == getattr(numpy, name)(x), (name, dtype, n)
    if n > 1:                                                  # unaligned: the general path
        assert int(cuarray.argmax(g[1:])) == numpy.argmax(x[1:])
    if dtype in "efd" and n > 10:
        x[n // 4] = numpy.nan
        x[n // 5] = numpy.nan
        for name in ("argmax", "argmin"):
            assert int(getattr(cuarray, name)(cuarray.asarray(x))) == getattr(numpy, name)(x)
