"""The one-kernel vector norms run on the CPU stand-in for the GPU ("emu": the block
reduction kernels built for the host, threads and barriers emulated) and on the GPU
("gpu"), against numpy.linalg.norm."""
import numpy
import pytest

from emulation import dtypes, pytest_generate_tests, rand  # noqa: F401  (the hook too)

ORDS = [None, 2, 1, 0, numpy.inf, -numpy.inf, 3, -1, 0.5]


def _check(got, want, dtype):
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
    tol = 2e-5 if numpy.dtype(dtype).char in "fF" else 1e-12
    numpy.testing.assert_allclose(g, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("ord", ORDS)
@dtypes(gpu="fdFD", emu="f")
def test_every_order_both_axes(xp, dtype, rng, ord):
    # (6, 300): axis=1 is the row kernel, axis=0 the column kernel with a split range
    h = rand((6, 300), dtype, rng)
    h[0, ::5] = 0
    d = xp.asarray(h)
    for axis in (0, 1):
        _check(xp.linalg.norm(d, ord, axis=axis), numpy.linalg.norm(h, ord, axis=axis), dtype)


@pytest.mark.parametrize("ord", [None, 1, numpy.inf, 0])
@dtypes(gpu="?bH", emu="Db")
def test_complex_and_integer_inputs(xp, dtype, rng, ord):
    h = rand((4, 100), dtype, rng)
    d = xp.asarray(h)
    for axis, keepdims in ((1, False), (0, True)):
        _check(xp.linalg.norm(d, ord, axis=axis, keepdims=keepdims),
               numpy.linalg.norm(h, ord, axis=axis, keepdims=keepdims), "d")


@dtypes(gpu="f", emu="f")
def test_views_and_vector_norm(xp, dtype, rng):
    h = rand((3, 40, 90), dtype, rng)
    d = xp.asarray(h)
    _check(xp.linalg.norm(d[:, ::3, 1::2], axis=2), numpy.linalg.norm(h[:, ::3, 1::2], axis=2), dtype)
    _check(xp.linalg.vector_norm(d, ord=3, axis=(0, 2), keepdims=True),
           numpy.linalg.vector_norm(h, ord=3, axis=(0, 2), keepdims=True), dtype)
    _check(xp.linalg.norm(d, "fro", axis=(2, 0)), numpy.linalg.norm(h, "fro", axis=(2, 0)), dtype)
