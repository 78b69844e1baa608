"""The ufunc warm path's variants against NumPy: `out=` given, and Python float operands
packed straight into the loop's float type (rounding and overflow as NumPy's cast)."""
import warnings

import numpy
import pytest


@pytest.mark.parametrize("dtype", ["e", "f", "d"])
def test_out_warm_path_matches_numpy(cp, dtype):
    rng = numpy.random.default_rng(1901)
    xn = rng.standard_normal(257).astype(dtype)
    yn = rng.standard_normal(257).astype(dtype)
    x, y = cp.asarray(xn), cp.asarray(yn)
    o = cp.empty(257, dtype)
    for _ in range(3):   # first call resolves the loop, the rest take the warm path
        r = cp.add(x, y, out=o)
        assert r is o
        numpy.testing.assert_array_equal(o.get(), xn + yn)
        r = cp.negative(x, out=o)
        assert r is o
        numpy.testing.assert_array_equal(o.get(), -xn)
    # in place, out aliasing an input, as `y += x` does
    for _ in range(2):
        cp.add(y, x, out=y)
        yn = numpy.add(yn, xn, out=yn)
        numpy.testing.assert_array_equal(y.get(), yn)
    # an offset view (pointers not 16-byte aligned): the scalar-load kernel
    o2 = cp.zeros(258, dtype)
    for _ in range(2):
        assert cp.multiply(x, y, out=o2[1:]).base is o2
    numpy.testing.assert_array_equal(o2.get()[1:], xn * yn)


def test_out_warm_path_leaves_other_outputs_to_the_general_path(cp):
    rng = numpy.random.default_rng(1902)
    xn = rng.standard_normal((6, 8)).astype(numpy.float32)
    x = cp.asarray(xn)
    cp.add(x, x)   # the loop is resolved
    o64 = cp.empty((6, 8), numpy.float64)   # another dtype: cast by the general path
    assert cp.add(x, x, out=o64) is o64
    numpy.testing.assert_array_equal(o64.get(), (xn + xn).astype(numpy.float64))
    of = cp.empty((8, 6), numpy.float32).T   # not C-contiguous
    assert cp.add(x, x, out=of) is of
    numpy.testing.assert_array_equal(of.get(), xn + xn)
    ot = cp.empty((6, 8), numpy.float32)
    assert cp.add(x, x, out=(ot,)) is ot   # a tuple
    numpy.testing.assert_array_equal(ot.get(), xn + xn)
    oi = cp.empty((6, 8), numpy.int32)   # float into int: same_kind refuses, as NumPy
    with pytest.raises(TypeError):
        numpy.add(xn, xn, out=numpy.empty((6, 8), numpy.int32))
    with pytest.raises(TypeError):
        cp.add(x, x, out=oi)
    with pytest.raises(ValueError):
        cp.add(x, x, out=cp.empty((2, 6, 8), numpy.float32)[0:1])
    with pytest.raises(ValueError):
        cp.add(x, x, out=cp.empty(48, numpy.float32))
    o = cp.empty((6, 8), numpy.float32)
    with pytest.raises(TypeError):
        cp.add(x, x, out=numpy.empty((6, 8), numpy.float32))
    assert cp.add(x, x, out=None).shape == (6, 8)
    assert cp.sin(x, out=o) is o
    numpy.testing.assert_allclose(o.get(), numpy.sin(xn), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["e", "f", "d"])
def test_python_float_operand_matches_numpy(cp, dtype):
    rng = numpy.random.default_rng(1903)
    xn = rng.standard_normal(100).astype(dtype)
    x = cp.asarray(xn)
    scalars = [2.0, 0.1, 1 / 3, -1e-8, 65519.0, 1e-45, 3.4028235677973366e+38, 1e300,
               float("inf"), float("nan")]
    for s in scalars:
        with warnings.catch_warnings(), numpy.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            for _ in range(2):
                numpy.testing.assert_array_equal((x * s).get(), xn * s)
                numpy.testing.assert_array_equal((x + s).get(), xn + s)
                numpy.testing.assert_array_equal((x < s).get(), xn < s)
                assert (x * s).dtype == (xn * s).dtype
