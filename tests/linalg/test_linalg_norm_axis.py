"""Vector norms along axes (one reduction kernel) against numpy.linalg.norm, on the GPU:
every order family, dtype, axis, keepdims and the row, column and split layouts."""
import numpy
import pytest

import cuarray
from cuarray import linalg

pytestmark = pytest.mark.gpu

ORDS = [None, 2, 1, 0, numpy.inf, -numpy.inf, 3, -1, 0.5]
DTYPES = ["float16", "float32", "float64", "complex64", "complex128", "int8", "int64",
          "uint16", "bool"]


def _host(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        x = rng.integers(-5 if dt.kind == "i" else 0, 6, size=shape).astype(dt)
        return x
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dt)
    x.flat[::7] = 0   # zeros for ord=0 and negative orders
    return x


def _close(got, ref, dtype):
    got = cuarray.asnumpy(got)
    ref = numpy.asarray(ref)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    c = numpy.dtype(dtype).char
    # float16: NumPy sums in float16 (ours in float32, rounded once), and ord=0.5 squares the gap
    tol = 2e-2 if c == "e" else 2e-5 if c in "fF" else 1e-11
    numpy.testing.assert_allclose(got.astype(numpy.float64), ref.astype(numpy.float64),
                                  rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", ORDS)
def test_axes_of_2d(dtype, ord):
    # (300, 257): axis=1 is the row kernel, axis=0 the column kernel split in two passes
    x = _host((300, 257), dtype)
    d = cuarray.asarray(x)
    for axis in (0, 1, -1):
        for keepdims in (False, True):
            _close(linalg.norm(d, ord, axis=axis, keepdims=keepdims),
                   numpy.linalg.norm(x, ord, axis=axis, keepdims=keepdims), dtype)


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
@pytest.mark.parametrize("ord", ORDS)
def test_layouts(dtype, ord):
    x = _host((4, 33, 70), dtype, seed=1)
    d = cuarray.asarray(x)
    for axis in (0, 1, 2):
        _close(linalg.norm(d, ord, axis=axis), numpy.linalg.norm(x, ord, axis=axis), dtype)
    # non-contiguous views, a 1-D input, a short axis (fewer than 64: the column kernel)
    _close(linalg.norm(d[:, ::2, 1::3], ord, axis=2),
           numpy.linalg.norm(x[:, ::2, 1::3], ord, axis=2), dtype)
    _close(linalg.norm(d.transpose(2, 0, 1), ord, axis=0),
           numpy.linalg.norm(x.transpose(2, 0, 1), ord, axis=0), dtype)
    _close(linalg.norm(d[1, 2], ord), numpy.linalg.norm(x[1, 2], ord), dtype)
    _close(linalg.norm(d[:, :, :5], ord, axis=2), numpy.linalg.norm(x[:, :, :5], ord, axis=2), dtype)
    # few outputs, a long reduced axis: the split row kernel
    y = _host((3, 50000), dtype, seed=2)
    _close(linalg.norm(cuarray.asarray(y), ord, axis=1), numpy.linalg.norm(y, ord, axis=1), dtype)


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64"])
def test_large_rows_and_columns(dtype):
    x = _host((1024, 1024), dtype, seed=3)
    d = cuarray.asarray(x)
    for ord in (None, 1, numpy.inf):
        for axis in (0, 1):
            _close(linalg.norm(d, ord, axis=axis), numpy.linalg.norm(x, ord, axis=axis), dtype)


def test_nan_inf_and_sizes():
    x = _host((5, 6), "float64", seed=4)
    x[1, 2] = numpy.nan
    x[3, 0] = numpy.inf
    d = cuarray.asarray(x)
    for ord in ORDS:
        for axis in (0, 1):
            _close(linalg.norm(d, ord, axis=axis), numpy.linalg.norm(x, ord, axis=axis), "float64")
    # size-1, empty reduced axis (sums give 0), empty kept axis, 0-d
    for shape, axis in [((1, 1), 1), ((4, 0), 1), ((0, 4), 1), ((3, 1), 0)]:
        h = _host(shape, "float32")
        for ord in (None, 1, 0, 3):
            with numpy.errstate(divide="ignore"):
                ref = numpy.linalg.norm(h, ord, axis=axis)
            _close(linalg.norm(cuarray.asarray(h), ord, axis=axis), ref, "float32")
    z = numpy.array(3.0, numpy.float32)
    _close(linalg.norm(cuarray.asarray(z)), numpy.linalg.norm(z), "float32")


def test_full_and_frobenius_and_vector_norm():
    for dtype in ("float32", "complex128", "int32", "float16"):
        x = _host((6, 7, 8), dtype, seed=5)
        d = cuarray.asarray(x)
        _close(linalg.norm(d), numpy.linalg.norm(x), dtype)
        _close(linalg.norm(d, keepdims=True), numpy.linalg.norm(x, keepdims=True), dtype)
        _close(linalg.norm(d, "fro", axis=(0, 2)), numpy.linalg.norm(x, "fro", axis=(0, 2)), dtype)
        _close(linalg.norm(d, None, axis=(2, 1), keepdims=True),
               numpy.linalg.norm(x, None, axis=(2, 1), keepdims=True), dtype)
        for ord in (2, 1, numpy.inf, 0, 3):
            for axis in (None, (0, 2), 1):
                for keepdims in (False, True):
                    _close(linalg.vector_norm(d, ord=ord, axis=axis, keepdims=keepdims),
                           numpy.linalg.vector_norm(x, ord=ord, axis=axis, keepdims=keepdims),
                           dtype)


def test_errors():
    d = cuarray.asarray(_host((3, 0), "float32"))
    for ord in (numpy.inf, -numpy.inf):
        with pytest.raises(ValueError, match="zero-size array"):
            linalg.norm(d, ord, axis=1)
    v = cuarray.asarray(_host((5,), "float32"))
    with pytest.raises(ValueError, match="Invalid norm order"):
        linalg.norm(v, "fro", axis=0)
    with pytest.raises(ValueError, match="Invalid norm order"):
        linalg.norm(v, "nuc")
    with pytest.raises(numpy.exceptions.AxisError):
        linalg.norm(v, 2, axis=1)
    with pytest.raises(TypeError):
        linalg.norm(v, axis="x")
    with pytest.raises(TypeError):
        linalg.norm(numpy.ones(3))


def test_against_cupy():
    cupy = pytest.importorskip("cupy")
    x = _host((64, 100), "complex64", seed=6)
    for ord in ORDS:
        for axis in (0, 1):
            ref = cupy.linalg.norm(cupy.asarray(x), ord, axis=axis)
            _close(linalg.norm(cuarray.asarray(x), ord, axis=axis), ref.get(), "complex64")
