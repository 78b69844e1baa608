"""ElementwiseKernel and ReductionKernel: the examples CuPy users know, against NumPy."""
import numpy
import pytest

import cuarray
from cuarray import testing

pytestmark = pytest.mark.gpu

squared_diff = cuarray.ElementwiseKernel(
    "float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
squared_diff_generic = cuarray.ElementwiseKernel(
    "T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff_generic")
squared_diff_super_generic = cuarray.ElementwiseKernel(
    "X x, Y y", "Z z", "z = (x - y) * (x - y)", "sqd_super_generic")
multi = cuarray.ElementwiseKernel(
    "T x, T y", "T z", "T diff = x - y; z = diff * diff;", "squared_diff_multi")


def test_squared_diff():
    x = cuarray.arange(10, dtype=numpy.float32).reshape(2, 5)
    y = cuarray.arange(5, dtype=numpy.float32)
    xn, yn = x.get(), y.get()
    numpy.testing.assert_array_equal(squared_diff(x, x[::-1]).get(), (xn - xn[::-1]) ** 2)
    numpy.testing.assert_array_equal(squared_diff(x, y).get(), (xn - yn) ** 2)
    numpy.testing.assert_array_equal(squared_diff(x, 5).get(), (xn - 5) ** 2)


@testing.for_all_dtypes(no_bool=True)
def test_generic_placeholders(dtype):
    x = testing.shaped_random((3, 4), cuarray, dtype)
    y = testing.shaped_random((4,), cuarray, dtype, seed=1)
    xn, yn = x.get(), y.get()
    d = xn - yn
    numpy.testing.assert_allclose(squared_diff_generic(x, y).get(), d * d, rtol=1e-3)
    numpy.testing.assert_allclose(multi(x, y).get(), d * d, rtol=1e-3)


def test_super_generic_needs_output():
    x = cuarray.arange(5, dtype=numpy.float32)
    y = cuarray.arange(5, dtype=numpy.int32)
    with pytest.raises(TypeError, match="output"):
        squared_diff_super_generic(x, y)
    z = cuarray.empty(5, numpy.float64)
    r = squared_diff_super_generic(x, y, z)
    assert r is z
    numpy.testing.assert_array_equal(z.get(), numpy.zeros(5))


def test_scalars_and_inplace():
    k = cuarray.ElementwiseKernel("T x, T a, T b", "T y", "y = a * x + b", "affine")
    x = cuarray.arange(6, dtype=numpy.float64)
    numpy.testing.assert_array_equal(k(x, 2.0, 1.0).get(), 2 * numpy.arange(6.0) + 1)
    k(x, numpy.float64(3), 0.5, x)
    numpy.testing.assert_array_equal(x.get(), 3 * numpy.arange(6.0) + 0.5)


def test_leaky_relu():
    k = cuarray.ElementwiseKernel("float32 x, float32 alpha", "float32 y",
                                  "y = x > 0 ? x : alpha * x", "leaky_relu")
    x = testing.shaped_random((100,), cuarray, numpy.float32, scale=2) - 1
    xn = x.get()
    numpy.testing.assert_allclose(k(x, 0.1).get(), numpy.where(xn > 0, xn, numpy.float32(0.1) * xn), rtol=1e-6)


def test_raw_and_size_and_index():
    k = cuarray.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "rev")
    x = cuarray.arange(7, dtype=numpy.int32)
    y = cuarray.empty(7, numpy.int32)
    k(x, y)
    assert y.get().tolist() == list(range(6, -1, -1))
    idx = cuarray.ElementwiseKernel("", "int64 y", "y = i * 2", "iota")
    assert idx(size=4).get().tolist() == [0, 2, 4, 6]
    with pytest.raises(ValueError, match="size"):
        idx()


def test_noncontiguous_and_options():
    k = cuarray.ElementwiseKernel("T x", "T y", "y = x + OFFSET", "addoff", options=("-DOFFSET=3",),
                                  preamble="#define UNUSED 1")
    x = testing.shaped_arange((4, 6), cuarray, numpy.int64)[:, ::2].T
    numpy.testing.assert_array_equal(k(x).get(), x.get() + 3)


def test_no_return_and_return_tuple():
    k = cuarray.ElementwiseKernel("T x", "T y, T z", "y = x; z = -x", "two", return_tuple=True)
    y, z = k(cuarray.arange(3))
    assert z.get().tolist() == [0, -1, -2]
    k2 = cuarray.ElementwiseKernel("T x", "T y", "y = x", "nr", no_return=True)
    assert k2(cuarray.arange(3), cuarray.empty(3, numpy.int64)) is None


def test_type_mismatch_error():
    with pytest.raises(TypeError):
        squared_diff_generic(cuarray.zeros(3, numpy.float32), cuarray.zeros(3, numpy.float64))
    with pytest.raises(TypeError, match="asarray"):
        squared_diff(numpy.zeros(3, numpy.float32), cuarray.zeros(3, numpy.float32))


l2norm = cuarray.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_l2norm(axis, keepdims):
    x = cuarray.arange(10, dtype=numpy.float32).reshape(2, 5)
    xn = x.get()
    expect = numpy.sqrt((xn * xn).sum(axis=axis, keepdims=keepdims))
    numpy.testing.assert_allclose(l2norm(x, axis=axis, keepdims=keepdims).get(), expect, rtol=1e-6)


@pytest.mark.parametrize("shape,axis", [((1000,), None), ((3000, 517), 0), ((3000, 517), 1), ((7, 8, 9), (0, 2)),
                                        ((64, 1 << 14), 1), ((1 << 14, 64), 0), ((0, 4), 0), ((4, 0), 1)])
def test_sum_of_squares(shape, axis):
    k = cuarray.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq")
    x = testing.shaped_random(shape, cuarray, numpy.float64)
    xn = x.get()
    numpy.testing.assert_allclose(k(x, axis=axis).get(), (xn * xn).sum(axis=axis), rtol=1e-10)


def test_reduction_kernel_out_and_reduce_type():
    k = cuarray.ReductionKernel("T x", "int64 y", "x", "a + b", "y = a", "0", "isum", reduce_type="int64")
    x = cuarray.full((4, 300), 100, numpy.int8)
    out = cuarray.empty(4, numpy.int64)
    assert k(x, axis=1, out=out) is out
    assert out.get().tolist() == [30000] * 4
