"""The ufunc object: keywords, dtype resolution (NEP 50), methods, errors, NEP 13."""
import numpy
import pytest

import cuarray
from cuarray import testing

pytestmark = pytest.mark.gpu


def test_attributes_match_numpy():
    for name in ("add", "sin", "divmod", "isnan", "maximum", "frexp"):
        u, n = getattr(cuarray, name), getattr(numpy, name)
        assert (u.nin, u.nout, u.nargs, u.__name__, u.identity) == (n.nin, n.nout, n.nargs, n.__name__, n.identity)
        assert u.types and all(t in n.types for t in u.types)


@pytest.mark.parametrize("a_dt", ["?", "b", "B", "h", "i", "q", "Q", "e", "f", "d", "F", "D"])
@pytest.mark.parametrize("scalar", [2, 2.5, 1j, True, numpy.float32(2), numpy.int8(3), numpy.float64(2)])
@testing.numpy_cupy_allclose(rtol=1e-3)
def test_nep50_scalars(xp, a_dt, scalar):
    a = testing.shaped_arange((5,), xp, a_dt)
    return a + scalar, scalar * a


@testing.numpy_cupy_raises()
def test_python_int_out_of_bounds(xp):
    return xp.arange(3, dtype=numpy.uint8) + 300


@pytest.mark.parametrize("dt1", ["?", "b", "u1", "i4", "u8", "e", "f", "d", "F", "D"])
@pytest.mark.parametrize("dt2", ["?", "i1", "u2", "i8", "e", "f", "d", "D"])
@testing.numpy_cupy_allclose(rtol=1e-3)
def test_mixed_dtype_promotion(xp, dt1, dt2):
    return testing.shaped_arange((2, 3), xp, dt1) * testing.shaped_arange((3,), xp, dt2)


@testing.numpy_cupy_allclose()
def test_out_dtype_casting_where(xp):
    a = testing.shaped_arange((3, 4), xp, numpy.float32)
    b = testing.shaped_arange((4,), xp, numpy.float32)
    out = xp.zeros((3, 4), numpy.float64)
    xp.add(a, b, out=out)
    r2 = xp.multiply(a, 2, dtype=numpy.float64)
    m = a > 5
    out2 = xp.full((3, 4), -1.0, numpy.float32)
    xp.subtract(a, b, out=out2, where=m)
    r3 = xp.add(a, b, casting="unsafe", dtype=numpy.int16)
    return out, r2, out2, r3


@testing.numpy_cupy_raises(accept_error=TypeError)
def test_output_casting_refused(xp):
    a = xp.ones(3, numpy.float64)
    xp.add(a, a, out=xp.zeros(3, numpy.int32))


@testing.numpy_cupy_raises(accept_error=TypeError)
def test_inplace_unsafe_cast_refused(xp):
    a = xp.ones(3, numpy.int32)
    a += 1.5


@testing.numpy_cupy_raises(accept_error=ValueError)
def test_out_shape_mismatch(xp):
    xp.add(xp.ones(3), xp.ones(3), out=xp.zeros(4))


@testing.numpy_cupy_raises(accept_error=TypeError)
def test_no_loop(xp):
    xp.bitwise_and(xp.ones(3), xp.ones(3))


def test_host_arrays_refused():
    a = cuarray.ones(3)
    for bad in (numpy.ones(3), [1, 2, 3]):
        with pytest.raises(TypeError, match="cuarray.asarray"):
            cuarray.add(a, bad)
        with pytest.raises(TypeError, match="cuarray.asarray"):
            cuarray.sin(bad)


@testing.for_CF_orders()
@testing.numpy_cupy_array_equal()
def test_order_keyword(xp, order):
    a = testing.shaped_arange((3, 4), xp, numpy.int32, order="F")
    r = xp.add(a, 1, order=order)
    return r, r.flags.c_contiguous, r.flags.f_contiguous, xp.negative(a).flags.f_contiguous


@testing.numpy_cupy_allclose()
def test_two_output_ufuncs(xp):
    a = testing.shaped_random((10,), xp, numpy.float64, scale=20) - 10
    q, r = xp.divmod(a, 3.0)
    m, e = xp.frexp(a)
    f, i = xp.modf(a)
    return q, r, m, e, f, i, divmod(a, 2.5)[1]


@testing.numpy_cupy_allclose()
def test_outer(xp):
    return xp.multiply.outer(xp.arange(3), xp.arange(4.0)), xp.add.outer(xp.arange(6).reshape(2, 3), xp.arange(2))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or", "bitwise_xor", "fmax"])
@pytest.mark.parametrize("axis", [0, 1, None, (0, 2)])
@testing.for_dtypes("?ifdl")
@testing.numpy_cupy_allclose(rtol=1e-6, type_check=False)
def test_reduce_method(xp, name, axis, dtype):
    uf = getattr(xp, name)
    if name.startswith("bitwise") and numpy.dtype(dtype).kind == "f":
        return xp.zeros(1)
    a = testing.shaped_random((4, 5, 3), xp, dtype)
    return uf.reduce(a, axis=axis), uf.reduce(a, axis=axis, keepdims=True)


@testing.numpy_cupy_allclose(rtol=1e-6)
def test_reduce_initial_where_dtype(xp):
    a = testing.shaped_random((4, 5), xp, numpy.float32)
    return (xp.add.reduce(a, axis=1, initial=10), xp.maximum.reduce(a, axis=0, initial=100),
            xp.add.reduce(a, axis=1, where=a > 3), xp.add.reduce(a, dtype=numpy.float64))


@testing.numpy_cupy_raises(accept_error=ValueError)
def test_reduce_empty_no_identity(xp):
    xp.maximum.reduce(xp.zeros((0, 3)), axis=0)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract", "logical_and"])
@pytest.mark.parametrize("axis", [0, 1, -1])
@testing.numpy_cupy_allclose(rtol=1e-6, type_check=False)
def test_accumulate(xp, name, axis):
    a = testing.shaped_random((6, 7), xp, numpy.float64, scale=2)
    return getattr(xp, name).accumulate(a, axis=axis)


@testing.numpy_cupy_allclose()
def test_reduceat(xp):
    a = testing.shaped_arange((8, 3), xp, numpy.float64)
    return xp.add.reduceat(a, [0, 4, 1, 5], axis=0), xp.maximum.reduceat(xp.arange(10.0), [0, 3, 3, 7])


@testing.numpy_cupy_array_equal()
def test_at(xp):
    a = xp.zeros(5, numpy.int64)
    xp.add.at(a, xp.asarray([0, 1, 1, 4, 4, 4]), 1)
    b = xp.ones(4, numpy.float32)
    xp.maximum.at(b, xp.asarray([2, 2]), xp.asarray([3.0, 5.0], dtype=numpy.float32))
    c = xp.zeros(3, numpy.float64)
    xp.negative.at(c, xp.asarray([0, 2]))
    return a, b, c


def test_array_ufunc_protocol():
    a = cuarray.arange(4.0)
    r = numpy.add(a, a)
    assert isinstance(r, cuarray.ndarray)
    assert r.get().tolist() == [0, 2, 4, 6]
    assert isinstance(numpy.sin(a), cuarray.ndarray)
    assert isinstance(numpy.add.reduce(a), cuarray.ndarray)
    out = cuarray.empty(4)
    assert numpy.multiply(a, 2, out=out) is out
    with pytest.raises(TypeError):
        numpy.add(a, numpy.ones(4))


def test_get_array_module():
    assert cuarray.get_array_module(cuarray.zeros(1), numpy.zeros(1)) is cuarray
    assert cuarray.get_array_module(numpy.zeros(1), 3) is numpy
    assert cuarray.get_array_module() is numpy


def test_integer_division_by_zero_and_overflow():
    a = cuarray.asarray(numpy.array([5, -5, 0, numpy.iinfo(numpy.int32).min], numpy.int32))
    z = cuarray.zeros(4, numpy.int32)
    an = a.get()
    with numpy.errstate(all="ignore"):
        numpy.testing.assert_array_equal((a // z).get(), an // numpy.zeros(4, numpy.int32))
        numpy.testing.assert_array_equal((a % z).get(), an % numpy.zeros(4, numpy.int32))
        numpy.testing.assert_array_equal((a // -1).get(), an // numpy.int32(-1))
        big = cuarray.asarray(numpy.array([2**62], numpy.int64))
        numpy.testing.assert_array_equal((big * 4).get(), numpy.array([2**62], numpy.int64) * 4)
    f = cuarray.asarray(numpy.array([1.0, -1.0, 0.0]))
    r = (f / 0).get()
    assert numpy.isinf(r[0]) and numpy.isinf(r[1]) and numpy.isnan(r[2])


def test_negative_integer_power_scalar():
    with pytest.raises(ValueError, match="negative integer powers"):
        cuarray.arange(3) ** -1
