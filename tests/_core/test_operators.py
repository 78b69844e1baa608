"""ndarray operators against NumPy's, with arrays, scalars, in-place and reflected forms."""
import operator

import numpy
import pytest

import cuarray
from cuarray import testing

pytestmark = pytest.mark.gpu

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.pow, operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]
BITWISE = [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift]


@pytest.mark.parametrize("op", BINARY)
@testing.for_dtypes("bhilBHILefdFD")
@testing.numpy_cupy_allclose(rtol=1e-3, atol=1e-3, accept_error=TypeError)
def test_binary_arrays(xp, op, dtype):
    if numpy.dtype(dtype).kind == "c" and op in (operator.floordiv, operator.mod, operator.lt, operator.le,
                                                  operator.gt, operator.ge):
        return xp.zeros(1)
    a = testing.shaped_arange((2, 3), xp, dtype)
    b = testing.shaped_reverse_arange((3,), xp, dtype)
    return op(a, b), op(a, 2), op(3, b) if op is not operator.pow or numpy.dtype(dtype).kind != "i" else a


@pytest.mark.parametrize("op", BITWISE)
@testing.for_int_dtypes()
@testing.numpy_cupy_array_equal()
def test_bitwise(xp, op, dtype):
    a = testing.shaped_arange((2, 3), xp, dtype)
    return op(a, xp.asarray(numpy.array([1, 2, 3], dtype))), op(a, 1), op(5, a)


@pytest.mark.parametrize("op", [operator.iadd, operator.isub, operator.imul, operator.itruediv,
                                operator.ifloordiv, operator.imod, operator.ipow])
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_inplace(xp, op):
    a = testing.shaped_arange((2, 3), xp, numpy.float64)
    b = testing.shaped_arange((3,), xp, numpy.float64)
    r = op(a, b)
    assert r is a
    op(a, 2)
    return a


@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cupy_allclose()
def test_unary(xp, dtype):
    a = testing.shaped_arange((2, 3), xp, dtype)
    return -a, +a, abs(a)


@testing.for_int_dtypes()
@testing.numpy_cupy_array_equal()
def test_invert(xp, dtype):
    return ~testing.shaped_arange((5,), xp, dtype), ~(testing.shaped_arange((4,), xp, dtype) > 2)


@testing.numpy_cupy_allclose()
def test_divmod_operator(xp):
    a = testing.shaped_arange((4,), xp, numpy.float64)
    return (*divmod(a, 3), *divmod(7, a))


@testing.numpy_cupy_array_equal()
def test_broadcast_row_column(xp):
    return testing.shaped_arange((4, 1), xp) + testing.shaped_arange((1, 5), xp)


@testing.numpy_cupy_allclose()
def test_noncontiguous_operands(xp):
    a = testing.shaped_random((8, 9), xp)
    b = testing.shaped_random((9, 8), xp, seed=1).T
    return a[::2, ::3] * a[1::2, 1::3] + b[::2, ::3], a[::-1] - 1


@testing.numpy_cupy_array_equal()
def test_zero_d_and_empty(xp):
    z = xp.asarray(numpy.float32(3))
    e = xp.zeros((0, 4))
    return z + z, z * 2, e + e, e + xp.ones(4), (z > 1)


@testing.numpy_cupy_allclose(rtol=1e-6)
def test_large(xp):
    a = testing.shaped_random((1 << 22,), xp, numpy.float32)
    return a * a + 1, a[3:] + a[:-3]


def test_eq_with_unrelated_objects():
    a = cuarray.arange(3)
    assert (a == None) is False  # noqa: E711
    assert (a != "x") is True
