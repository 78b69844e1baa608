"""Window functions against NumPy (values and float64 dtype) for lengths 0, 1, 2, odd, even
and float lengths; on the GPU and through the host emulation. CPU tests compile each
kernel."""
import numpy
import pytest

from cuarray._routines import window
from _backends import cp  # noqa: F401

NAMES = ["bartlett", "blackman", "hamming", "hanning"]
LENGTHS = [-3, 0, 1, 2, 5, 16, 101, 4.0, 6.5]


def _compile(op):
    pytest.importorskip("cuda.bindings")
    from cuarray._core.elementwise import generate
    from cuarray._runtime.compiler import compile_cubin
    src, _ = generate(op, [p.dtype for p in op.params], [None] * len(op.params), None, 1, False)
    assert compile_cubin(src, op.options, arch="sm_90", name=op.name)[0]


@pytest.mark.parametrize("name", NAMES)
def test_window_kernels_compile(name):
    _compile(window._window_op(name))


def test_kaiser_kernel_compiles():
    _compile(window._kaiser_op())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("M", LENGTHS)
def test_window_matches_numpy(cp, name, M):
    got = getattr(cp, name)(M)
    want = getattr(numpy, name)(M)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("M", LENGTHS)
@pytest.mark.parametrize("beta", [0.0, 5.0, 14.0])
def test_kaiser_matches_numpy(cp, M, beta):
    got = cp.kaiser(M, beta)
    want = numpy.kaiser(M, beta)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-15)


@pytest.mark.gpu
@pytest.mark.parametrize("name", NAMES + ["kaiser"])
def test_window_matches_cupy(name):
    cupy = pytest.importorskip("cupy")
    import cuarray
    args = (33, 8.6) if name == "kaiser" else (33,)
    got = getattr(cuarray, name)(*args)
    want = getattr(cupy, name)(*args)
    assert got.dtype == want.dtype
    numpy.testing.assert_allclose(got.get(), want.get(), rtol=1e-13, atol=1e-15)
