"""Edge cases where cuarray once disagreed with NumPy (scalar truth values, empty and 0-d
takes, float-to-int assignment, ddof past the count, integer dtype= of mean/var/std, the
order of non-reorderable reductions), each kept as a test."""

import numpy
import pytest

import emulation  # noqa: E402
from emulation import pytest_generate_tests  # noqa: F401  (the xp fixture's emu/gpu variants)


@pytest.fixture(params=emulation.BACKENDS)
def cp(request, monkeypatch):
    return emulation.backend(request, monkeypatch)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int16", "int64", "float32", "complex128"])
@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
def test_logical_ufuncs_take_the_truth_value_of_any_scalar(cp, dtype, name):
    h = numpy.array([1, 0, 3, 2], dtype)
    a = cp.asarray(h)
    f, g = getattr(numpy, name), getattr(cp, name)
    for s in (200, 0, 1.5, 70000, True, 1 + 2j, -129, float("inf")):
        for want, got in ((f(h, s), g(a, s)), (f(s, h), g(s, a))):
            assert got.dtype == want.dtype
            numpy.testing.assert_array_equal(got.get(), want)


def test_take_from_an_empty_axis_of_an_empty_array(cp):
    h = numpy.zeros((0, 0), numpy.complex64)
    a = cp.asarray(h)
    assert cp.take(a, [1], axis=-1).shape == numpy.take(h, [1], axis=-1).shape == (0, 1)
    assert cp.take(a, 1, axis=-1).shape == numpy.take(h, 1, axis=-1).shape == (0,)
    with pytest.raises(IndexError, match="empty"):
        cp.take(cp.zeros((2, 0)), [1], axis=-1)
    with pytest.raises(IndexError, match="empty"):
        cp.take(cp.zeros((2, 0)), 1, axis=-1)


def test_take_along_axis_0_of_a_0d_array(cp):
    h = numpy.array(5.0)
    a = cp.asarray(h)
    for idx, axis in (([0, 0], 0), ([], 0), (0, -1)):
        want = numpy.take(h, idx, axis=axis)
        got = cp.take(a, cp.asarray(numpy.array(idx, numpy.int64)) if isinstance(idx, list) else idx,
                      axis=axis)
        assert got.shape == want.shape
        numpy.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint32"])
def test_python_float_assigned_to_integers_goes_through_int(cp, dtype):
    for value in (-1.5, 300.5, 7.9, -128.2):
        h = numpy.zeros(3, dtype)
        d = cp.zeros(3, dtype)
        try:
            h[1:] = value
        except OverflowError:
            with pytest.raises(OverflowError, match="out of bounds"):
                d[1:] = value
            continue
        d[1:] = value
        numpy.testing.assert_array_equal(d.get(), h)
    with pytest.raises(ValueError):
        cp.zeros(2, dtype)[0] = float("nan")


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "complex128"])
def test_var_with_ddof_past_the_count_divides_by_zero(xp, name, dtype):
    # NumPy divides by max(N - ddof, 0) (var: inf or NaN) and nanvar gives NaN there, never
    # a negative count's -0.0 or negative variance.
    rng = numpy.random.default_rng(7)
    h = (rng.uniform(-3, 3, (3, 2)) + 1j * rng.uniform(-3, 3, (3, 2))).astype(dtype) \
        if dtype == "complex128" else rng.uniform(-3, 3, (3, 2)).astype(dtype)
    if dtype == "float32":
        h[0, 1] = numpy.nan
    f, g = getattr(numpy, name), getattr(xp, name)
    for x in (h, h[:0], h[:1]):
        for axis in (None, 0, 1):
            for ddof in (0, 2, 7):
                for where in (True, x.real != 1):
                    with numpy.errstate(all="ignore"):
                        want = f(x, axis=axis, ddof=ddof, where=where)
                    got = g(xp.asarray(x), axis=axis, ddof=ddof,
                            where=where if where is True else xp.asarray(where))
                    assert got.dtype == want.dtype and got.shape == want.shape
                    numpy.testing.assert_allclose(got.get(), want, rtol=1e-5)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint64", "int32"])
def test_mean_var_std_with_an_integer_dtype_compile(xp, dtype):
    # dtype= of a C type of two words (unsigned char) was spelt as a functional cast the
    # compiler refuses, and std's sqrt of an integer variance was ambiguous.
    rng = numpy.random.default_rng(11)
    h = rng.integers(0, 6, (3, 4)).astype(numpy.float64) ** 2
    d = xp.asarray(h)
    for name, axes in (("mean", (None, 0, 1)), ("var", (None, 0, 1)), ("std", (None,))):
        for axis in axes:
            want = getattr(numpy, name)(h, axis=axis, dtype=dtype)
            got = getattr(xp, name)(d, axis=axis, dtype=dtype)
            assert got.dtype == want.dtype and got.shape == want.shape
            numpy.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("name", ["subtract", "true_divide", "floor_divide", "copysign"])
def test_reduce_of_a_ufunc_that_is_not_reorderable_runs_in_order(xp, name):
    # subtract.reduce was a tree from the +inf start of max/min (all NaN); NumPy's is
    # ((a0 - a1) - a2) ... along one axis, and refuses several axes.
    rng = numpy.random.default_rng(13)
    f, g = getattr(numpy, name), getattr(xp, name)
    for h in (rng.integers(1, 9, (3, 4)).astype(numpy.int64), rng.uniform(1, 3, (4, 2, 3))[::-1]):
        d = xp.asarray(h)
        for axis, kw in ((0, {}), (-1, {"keepdims": True}), (1, {"initial": 2}), ((), {}),
                         ((), {"initial": 2}), (0, {"dtype": numpy.float32})):
            want = f.reduce(h, axis=axis, **kw)
            got = g.reduce(d, axis=axis, **kw)
            assert got.dtype == want.dtype and got.shape == want.shape
            numpy.testing.assert_allclose(got.get(), want, rtol=1e-6)
        with pytest.raises(ValueError, match="not reorderable"):
            g.reduce(d, axis=(0, 1))
