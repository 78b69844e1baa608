"""NumPy 2 promotion with Python scalars (NEP 50) and result dtypes as NumPy/CuPy give
them: integer arrays compared with out-of-range Python ints answer instead of raising,
arithmetic with them raises OverflowError, `angle` keeps NumPy's float type. On the GPU and
through the host emulation."""
import operator

import numpy
import pytest

from _backends import cp  # noqa: F401

COMPARISONS = ["less", "less_equal", "greater", "greater_equal", "equal", "not_equal"]


def _numpy_or_error(f, *args):
    try:
        return f(*args)
    except OverflowError:
        return OverflowError


@pytest.mark.parametrize("dt", ["u1", "i1", "u2", "i4", "u8", "i8"])
def test_comparison_with_out_of_range_python_ints(cp, dt):
    h = numpy.array([0, 1, 5, 100], dt)
    g = cp.asarray(h)
    for v in (-1, -129, 300, 70000, 2**63, 2**64, -2**63 - 1):
        for name in COMPARISONS:
            want = _numpy_or_error(getattr(numpy, name), h, v)
            if want is OverflowError:
                with pytest.raises(OverflowError):
                    getattr(cp, name)(g, v)
                continue
            got = getattr(cp, name)(g, v)
            assert got.dtype == want.dtype
            numpy.testing.assert_array_equal(got.get(), want)
            numpy.testing.assert_array_equal(getattr(cp, name)(v, g).get(), getattr(numpy, name)(v, h))
        for op in (operator.lt, operator.ge, operator.eq, operator.ne):
            numpy.testing.assert_array_equal(op(g, v).get(), op(h, v))
            numpy.testing.assert_array_equal(op(v, g).get(), op(v, h))


@pytest.mark.parametrize("shape", [(0,), (1,), (1000,), (3, 7)])
def test_out_of_range_comparison_repeated_calls(cp, shape):
    # The second and later calls take the warm path (a cached loop with the int's range).
    h = numpy.random.default_rng(18).integers(0, 256, shape).astype(numpy.uint8)
    g = cp.asarray(h)
    for _ in range(3):
        for v in (-1, 255, 256, 300, -2**70):
            for op in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq,
                       operator.ne):
                got, want = op(g, v), op(h, v)
                assert got.dtype == want.dtype and got.shape == want.shape
                numpy.testing.assert_array_equal(got.get(), want)
                numpy.testing.assert_array_equal(op(v, g).get(), op(v, h))
    if len(shape) == 2:  # non-contiguous operand: the general path
        numpy.testing.assert_array_equal((g.T < -1).get(), h.T < -1)
        numpy.testing.assert_array_equal((g[:, ::2] >= -1).get(), h[:, ::2] >= -1)


def test_out_of_range_comparison_with_out_and_where(cp):
    h = numpy.arange(4, dtype=numpy.uint8)
    g = cp.asarray(h)
    out = cp.ones(4, numpy.bool_)
    r = cp.less(g, -1, out=out)
    assert r is out and not out.get().any()
    mask = numpy.array([True, False, True, False])
    # NumPy 2.4 itself crashes on numpy.less(h, -1, out=o, where=mask); the answer is plain.
    o = ~mask
    out = cp.ones(4, numpy.bool_)
    cp.less(g, -1, out=out, where=cp.asarray(mask))
    numpy.testing.assert_array_equal(out.get(), o)


@pytest.mark.parametrize("dt", ["u1", "i1", "i4"])
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum"])
def test_arithmetic_with_out_of_range_python_ints_raises(cp, dt, name):
    g = cp.asarray(numpy.array([1, 2], dt))
    with pytest.raises(OverflowError):
        getattr(cp, name)(g, 2**40)
    with pytest.raises(OverflowError):
        getattr(cp, name)(-2**40, g)


@pytest.mark.parametrize("dt", ["?", "u1", "i1", "i2", "u2", "i4", "i8", "e", "f", "d", "F", "D"])
@pytest.mark.parametrize("deg", [False, True])
def test_angle_real_imag_dtypes(cp, dt, deg):
    h = (numpy.arange(6) % 3).astype(dt)
    g = cp.asarray(h)
    got, want = cp.angle(g, deg=deg), numpy.angle(h, deg=deg)
    assert got.dtype == want.dtype
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-3 if dt in "eF" else 1e-12)
    for f in ("real", "imag"):
        got, want = getattr(cp, f)(g), getattr(numpy, f)(h)
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_array_equal(got.get(), want)
