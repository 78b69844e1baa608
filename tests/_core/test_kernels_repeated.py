"""ElementwiseKernel's warm path (repeat calls with C-contiguous same-shape inputs) gives
what the general path gives, and never serves a call it does not fit. Runs on the GPU and
on the emulated host device (the `cp` fixture)."""

import numpy
import pytest



def test_warm_calls_match_numpy_across_dtypes_and_layouts(cp):
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y - x", "warm_generic")
    rng = numpy.random.default_rng(1004)
    for dt in (numpy.float32, numpy.float64, numpy.int64, numpy.float32):
        for shape in [(7,), (3, 5), (), (0,), (3, 5)]:
            xn = rng.integers(-5, 5, shape).astype(dt)
            yn = rng.integers(-5, 5, shape).astype(dt)
            for _ in range(2):   # the second call takes the warm path
                z = k(cp.asarray(xn), cp.asarray(yn))
                assert z.dtype == dt and z.shape == shape
                numpy.testing.assert_array_equal(z.get(), xn * yn - xn)
    assert set(k._warm) == {(numpy.dtype(d),) * 2 for d in ("f4", "f8", "i8")}


def test_warm_path_leaves_other_calls_to_the_general_path(cp):
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "warm_fallbacks")
    xn = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    x = cp.asarray(xn)
    k(x, x)
    numpy.testing.assert_array_equal(k(x.T, x.T).get(), xn.T + xn.T)         # F-ordered
    numpy.testing.assert_array_equal(k(x[:, ::2], x[:, ::2]).get(), xn[:, ::2] * 2)
    numpy.testing.assert_array_equal(k(x, x[0]).get(), xn + xn[0])          # broadcast
    numpy.testing.assert_array_equal(k(x, numpy.float32(2)).get(), xn + 2)  # scalar
    out = cp.empty((3, 4), numpy.float32)
    assert k(x, x, out) is out
    numpy.testing.assert_array_equal(out.get(), xn + xn)
    with pytest.raises(TypeError, match="placeholder"):
        k(x, x.astype(numpy.float64))       # T bound twice: never cached, still an error
    assert list(k._warm) == [(numpy.dtype(numpy.float32),) * 2]


def test_fixed_types_multiple_outputs_and_no_return(cp):
    k = cp.ElementwiseKernel("float32 x", "float64 s, int32 c", "s = x * 2; c = (int)x;",
                             "warm_two_outputs")
    xn = numpy.linspace(0, 9, 10, dtype=numpy.float32)
    for _ in range(2):
        s, c = k(cp.asarray(xn))
        assert s.dtype == numpy.float64 and c.dtype == numpy.int32
        numpy.testing.assert_array_equal(s.get(), xn.astype(numpy.float64) * 2)
        numpy.testing.assert_array_equal(c.get(), xn.astype(numpy.int32))
    quiet = cp.ElementwiseKernel("T x", "T y", "y = x", "warm_quiet", no_return=True)
    for _ in range(2):
        assert quiet(cp.asarray(xn)) is None


def test_raw_parameters_never_take_the_warm_path(cp):
    k = cp.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - 1 - i]", "warm_raw")
    assert k._warm is None
    xn = numpy.arange(5, dtype=numpy.float32)
    y = cp.empty(5, numpy.float32)
    k(cp.asarray(xn), y)
    numpy.testing.assert_array_equal(y.get(), xn[::-1])
