"""cuarray.jit launches and specialisation: stream= and shared_mem=, one kernel per argument
types, jit.range with steps and unrolling, math/cupy functions, and the error for a kernel
whose source cannot be read. CPU: translation and NVRTC; GPU: values against NumPy."""
import math


import numpy
import pytest

import cuarray
from cuarray import jit
from cuarray._runtime.compiler import compile_cubin
from cuarray.jit._compile import translate_kernel
from cuarray.jit._types import Array

import emulation  # noqa: E402

f32, f64, i32, i64 = (numpy.dtype(c) for c in "fdil")


@jit.rawkernel()
def k_ranges(out, n):
    t = jit.threadIdx.x
    acc = 0
    for i in jit.range(n, 0, -3, unroll=4):
        acc += i
    for j in jit.range(0, 16, 5, unroll=True):
        acc += j * 100
    for k in range(t, 10, 4):
        acc += k * 10000
    out[t] = acc


@jit.rawkernel()
def k_generic(x, y, s):
    i = jit.grid(1)
    if i < x.size:
        y[i] = x[i] * s + abs(x[i])


@jit.rawkernel()
def k_math(x, y):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        y[i] = math.sin(v) + math.exp(v / 4) + cuarray.tanh(v) + numpy.hypot(v, 2.0) \
            + math.floor(v) + cuarray.sqrt(abs(v)) + math.pi


@jit.rawkernel()
def k_tuple(x, y):
    i, j = jit.grid(2)
    h, w = x.shape
    if i < h and j < w:
        pair = (x[i, j], i * w + j)
        a, b = pair
        y[i, j] = a + b


def test_translation_and_compile():
    for func, types in ((k_ranges._func, (Array(i64, 1), i64)),
                        (k_generic._func, (Array(f32, 1), Array(f32, 1), f32)),
                        (k_generic._func, (Array(i64, 1, False), Array(f64, 1), i32)),
                        (k_math._func, (Array(f64, 1), Array(f64, 1))),
                        (k_tuple._func, (Array(f32, 2), Array(f64, 2)))):
        src, name = translate_kernel(func, types)
        assert compile_cubin(src, arch="sm_90", name=name)[0]
    src, _ = translate_kernel(k_ranges._func, (Array(i64, 1), i64))
    assert "#pragma unroll 4" in src and "#pragma unroll" in src


@jit.rawkernel()
def k_saxpy(a, x, y, out, size):
    tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
    for i in range(tid, size, jit.gridDim.x * jit.blockDim.x):
        out[i] = a * x[i] + y[i]


@jit.rawkernel()
def k_strided_sum(x, out, size, step):
    acc = x[0] * 0
    for i in range(jit.threadIdx.x, size, step):
        acc += x[i]
    out[jit.threadIdx.x] = acc


def test_grid_stride_loops_are_lean():
    src, name = translate_kernel(k_saxpy._func, (f32, Array(f32, 1), Array(f32, 1),
                                                 Array(f32, 1), i64))
    assert compile_cubin(src, arch="sm_90", name=name)[0]
    loop = src[src.index("for (long long"):]
    # an unsigned step (grid size) counts up; a loop storing to an argument is not unrolled
    assert "? " not in loop.split("{")[0] and "#pragma unroll 1\n" in src
    src, _ = translate_kernel(k_strided_sum._func, (Array(f32, 1), Array(f32, 1), i64, i64))
    head = src[src.index("for (long long"):].split("{")[0]
    assert "> 0 ?" in head           # a signed step may count down
    assert "#pragma unroll" not in src  # loads alone: NVRTC may unroll and batch them


def test_grid_stride_loops_against_numpy(cp):
    rng = numpy.random.default_rng(4)
    xn, yn = rng.random(1000, dtype=f32), rng.random(1000, dtype=f32)
    out = cp.zeros(1000, f32)
    k_saxpy((3,), (64,), (numpy.float32(2.5), cp.asarray(xn), cp.asarray(yn), out, 1000))
    numpy.testing.assert_allclose(out.get(), numpy.float32(2.5) * xn + yn, rtol=1e-6)
    out2 = cp.zeros(1000, f32)   # grid and block as a list, an int and a NumPy array
    k_saxpy([2], numpy.array([32]), (numpy.float32(2.5), cp.asarray(xn), cp.asarray(yn), out2,
                                     1000))
    k_saxpy(1, 64, (numpy.float32(1), cp.asarray(xn), cp.asarray(yn), out, 1000))
    numpy.testing.assert_allclose(out2.get(), numpy.float32(2.5) * xn + yn, rtol=1e-6)
    numpy.testing.assert_allclose(out.get(), xn + yn, rtol=1e-6)
    with pytest.raises(ValueError, match="block"):
        k_saxpy(1, (0,), (numpy.float32(1), cp.asarray(xn), cp.asarray(yn), out, 1000))
    sums = cp.zeros(8, f32)
    k_strided_sum((1,), (8,), (cp.asarray(xn), sums, 1000, 8))
    numpy.testing.assert_allclose(sums.get(), [xn[t::8].sum() for t in range(8)], rtol=1e-5)
    k_strided_sum((1,), (8,), (cp.asarray(xn), sums, 1000, -1))   # counts down: no iteration
    numpy.testing.assert_array_equal(sums.get(), numpy.zeros(8, f32))


def test_one_kernel_per_argument_types():
    k = jit.rawkernel()(k_generic._func)
    a = k._source((Array(f32, 1), Array(f32, 1), f32))[0]
    b = k._source((Array(i32, 1), Array(f64, 1), i64))[0]
    assert a != b and "float* _ja_x" in a and "int* _ja_x" in b
    assert len(k.cached_codes) == 2


def test_source_not_available_is_explained():
    ns = {"jit": jit}
    exec("def made_at_prompt(x):\n    x[0] = 1\n", ns)
    k = jit.rawkernel()(ns["made_at_prompt"])
    with pytest.raises(TypeError, match="define kernels in a file"):
        k._source((Array(f32, 1),))


@pytest.fixture(params=emulation.BACKENDS)
def cp(request, monkeypatch):
    """cuarray on the GPU, or through the host emulation (threads of 1-D launches one
    after another: exact for these kernels, whose threads never talk to each other)."""
    return emulation.backend(request, monkeypatch)


# ---- values: on the GPU, and through the host emulation where it can run them ---------
gpu = pytest.mark.gpu


def _ranges_numpy(t, n):
    acc = sum(range(n, 0, -3)) + sum(j * 100 for j in range(0, 16, 5))
    return acc + sum(k * 10000 for k in range(t, 10, 4))


def test_ranges_against_python(cp):
    out = cp.zeros(8, i64)
    k_ranges((1,), (8,), (out, 17))
    assert out.get().tolist() == [_ranges_numpy(t, 17) for t in range(8)]


@pytest.mark.parametrize("dt", [numpy.float32, numpy.float64, numpy.int32, numpy.int64,
                                numpy.complex64])
def test_templates_by_argument_dtype(cp, dt):
    rng = numpy.random.default_rng(3)
    xn = (rng.random(300) * 20 - 10).astype(dt)
    y = cp.zeros(300, dt)
    s = dt(3)
    k_generic((2,), (256,), (cp.asarray(xn), y, s))
    numpy.testing.assert_allclose(y.get(), xn * s + abs(xn), rtol=1e-6)


def test_math_functions_against_numpy(cp):
    xn = numpy.linspace(-3, 3, 257)
    y = cp.zeros(257, f64)
    k_math((2,), (256,), (cp.asarray(xn), y))
    want = numpy.sin(xn) + numpy.exp(xn / 4) + numpy.tanh(xn) + numpy.hypot(xn, 2.0) \
        + numpy.floor(xn) + numpy.sqrt(abs(xn)) + math.pi
    numpy.testing.assert_allclose(y.get(), want, rtol=1e-12)


@gpu
def test_tuples_and_2d_grid():
    xn = numpy.arange(35, dtype=f32).reshape(5, 7)
    y = cuarray.zeros((5, 7), f64)
    k_tuple((1, 1), (8, 8), (cuarray.asarray(xn), y))
    numpy.testing.assert_array_equal(y.get(), xn + numpy.arange(35).reshape(5, 7))


@gpu
def test_stream_and_shared_mem_at_launch():
    @jit.rawkernel()
    def rotate(x, y):
        buf = jit.shared_memory(numpy.float32, None)
        t = jit.threadIdx.x
        buf[t] = x[t]
        jit.syncthreads()
        y[t] = buf[(t + 1) % jit.blockDim.x]

    xn = numpy.arange(128, dtype=f32)
    x, y = cuarray.asarray(xn), cuarray.zeros(128, f32)
    s = cuarray.cuda.Stream(non_blocking=True)
    rotate((1,), (128,), (x, y), shared_mem=128 * 4, stream=s)
    s.synchronize()
    numpy.testing.assert_array_equal(y.get(), numpy.roll(xn, -1))
    y2 = cuarray.zeros(128, f32)
    rotate[1, 128, s, 128 * 4](x, y2)
    s.synchronize()
    numpy.testing.assert_array_equal(y2.get(), numpy.roll(xn, -1))
