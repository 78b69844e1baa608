"""Test arrays and assertions that accept cuarray and NumPy arrays alike.

Inputs are made on the host with NumPy and moved with `xp.asarray`: an explicit
transfer, so the same values reach both sides of a NumPy/cuarray comparison.
"""
import math

import numpy

import cuarray  # a partly initialised module is fine: attributes are read at call time


def _to_numpy(x):
    """A host copy of a cuarray array; anything else is returned unchanged."""
    if isinstance(x, (numpy.ndarray, numpy.generic)):
        return x
    return cuarray.asnumpy(x) if isinstance(x, cuarray.ndarray) else x


def _host_values(values, dtype):
    # bool takes the parity of the counter so both values occur; complex gets an
    # imaginary part equal to the real one, as CuPy's helpers do.
    if dtype == numpy.bool_:
        return values % 2 == 0
    if dtype.kind == "c":
        return values + values * 1j
    return values


def shaped_arange(shape, xp=cuarray, dtype=numpy.float32, order="C"):
    """An array of `shape` holding 1, 2, ..., size in C order (cuarray version of
    `cupy.testing.shaped_arange`).

    Bool arrays alternate False/True; complex ones hold k + kj.
    """
    dtype = numpy.dtype(dtype)
    a = _host_values(numpy.arange(1, math.prod(_shape(shape)) + 1), dtype)
    return xp.asarray(a.astype(dtype).reshape(shape), order=order)


def shaped_reverse_arange(shape, xp=cuarray, dtype=numpy.float32):
    """An array of `shape` holding size, ..., 2, 1 in C order (cuarray version of
    `cupy.testing.shaped_reverse_arange`)."""
    dtype = numpy.dtype(dtype)
    a = _host_values(numpy.arange(math.prod(_shape(shape)), 0, -1), dtype)
    return xp.asarray(a.astype(dtype).reshape(shape))


def shaped_random(shape, xp=cuarray, dtype=numpy.float32, scale=10, seed=0, order="C"):
    """Uniform random values in [0, scale) (cuarray version of `cupy.testing.shaped_random`).

    Drawn on the host from `numpy.random.RandomState(seed)`, so the values equal CuPy's
    (which seeds NumPy's global generator with the same stream) without touching
    NumPy's global random state. Integers are the truncated floats; bool is 0 or 1.
    """
    shape = _shape(shape)
    dtype = numpy.dtype(dtype)
    rs = numpy.random.RandomState(seed)
    if dtype == numpy.bool_:
        a = rs.randint(2, size=shape)
    elif dtype.kind == "c":
        a = rs.rand(*shape) + 1j * rs.rand(*shape)
        a *= scale
    else:
        a = rs.rand(*shape) * scale
    return xp.asarray(numpy.asarray(a).astype(dtype), order=order)


def _shape(shape):
    return (shape,) if isinstance(shape, (int, numpy.integer)) else tuple(shape)


def assert_allclose(actual, desired, rtol=1e-7, atol=0, equal_nan=True, err_msg="",
                    verbose=True, *, strict=False):
    """cuarray version of `numpy.testing.assert_allclose`: either side may be a cuarray array."""
    numpy.testing.assert_allclose(
        _to_numpy(actual), _to_numpy(desired), rtol=rtol, atol=atol, equal_nan=equal_nan,
        err_msg=err_msg, verbose=verbose, strict=strict)


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    """cuarray version of `numpy.testing.assert_array_almost_equal`."""
    numpy.testing.assert_array_almost_equal(
        _to_numpy(x), _to_numpy(y), decimal=decimal, err_msg=err_msg, verbose=verbose)


def assert_array_equal(x, y, err_msg="", verbose=True, strides_check=False, **kwargs):
    """cuarray version of `numpy.testing.assert_array_equal`.

    `strides_check=True` also requires equal strides (as CuPy's); `kwargs` (`strict`)
    go to NumPy.
    """
    numpy.testing.assert_array_equal(
        _to_numpy(x), _to_numpy(y), err_msg=err_msg, verbose=verbose, **kwargs)
    if strides_check and x.strides != y.strides:
        msg = ["Strides are not equal:" + (" " + err_msg if err_msg else "")]
        if verbose:
            msg += [f" x: {x.strides}", f" y: {y.strides}"]
        raise AssertionError("\n".join(msg))


def assert_array_less(x, y, err_msg="", verbose=True):
    """cuarray version of `numpy.testing.assert_array_less`."""
    numpy.testing.assert_array_less(
        _to_numpy(x), _to_numpy(y), err_msg=err_msg, verbose=verbose)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """Compare two lists (or two tuples) of arrays pairwise with `assert_array_equal`
    (cuarray version of `cupy.testing.assert_array_list_equal`)."""
    if type(xlist) is not type(ylist):
        raise AssertionError(
            "Matching types of list or tuple are expected, but were different types "
            f"(xlist:{type(xlist)} ylist:{type(ylist)})")
    if type(xlist) not in (list, tuple):
        raise AssertionError(f"List or tuple is expected, but was {type(xlist)}")
    if len(xlist) != len(ylist):
        raise AssertionError(f"List size is different: {len(xlist)} != {len(ylist)}")
    for i, (x, y) in enumerate(zip(xlist, ylist)):
        numpy.testing.assert_array_equal(
            _to_numpy(x), _to_numpy(y), verbose=verbose,
            err_msg=f"item {i} differs" + (f": {err_msg}" if err_msg else ""))
