"""RawKernel and RawModule (CuPy's API)."""
import numpy
import pytest

import cuarray
from cuarray.cuda.compiler import CompileException

pytestmark = pytest.mark.gpu

SAXPY = r'''
extern "C" __global__ void saxpy(float a, const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}'''


def test_raw_kernel_launch_and_attributes():
    k = cuarray.RawKernel(SAXPY, "saxpy")
    x = cuarray.arange(1000, dtype=numpy.float32)
    y = cuarray.ones(1000, numpy.float32)
    k((4,), (256,), (numpy.float32(2), x, y, 1000))
    numpy.testing.assert_array_equal(y.get(), 2 * numpy.arange(1000, dtype=numpy.float32) + 1)
    assert k.max_threads_per_block > 0 and k.num_regs > 0
    assert set(k.attributes) >= {"max_threads_per_block", "num_regs", "shared_size_bytes"}


def test_raw_kernel_scalar_types():
    src = r'''#include <cuarray/core.cuh>
    extern "C" __global__ void f(double* o, long long a, double b, bool c, signed char d,
                                 unsigned short e, float f_, complex<double> z) {
      o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = e; o[5] = f_; o[6] = z.real(); o[7] = z.imag(); }'''
    k = cuarray.RawKernel(src, "f")
    o = cuarray.zeros(8)
    k((1,), (1,), (o, 7, 2.5, True, numpy.int8(-3), numpy.uint16(9), numpy.float32(1.5), 3 + 4j))
    assert o.get().tolist() == [7, 2.5, 1, -3, 9, 1.5, 3, 4]


def test_raw_kernel_struct_argument():
    src = r'''struct P { int a; double b; };
    extern "C" __global__ void f(P p, double* o) { o[0] = p.a; o[1] = p.b; }'''
    dt = numpy.dtype([("a", numpy.int32), ("b", numpy.float64)], align=True)
    s = numpy.array((5, 2.25), dt)[()]
    o = cuarray.zeros(2)
    cuarray.RawKernel(src, "f")((1,), (1,), (s, o))
    assert o.get().tolist() == [5, 2.25]


def test_raw_kernel_bad_arguments():
    k = cuarray.RawKernel(SAXPY, "saxpy")
    with pytest.raises(TypeError):
        k((1,), (1,), (numpy.float32(1), numpy.zeros(3), cuarray.zeros(3), 3))
    with pytest.raises(TypeError):
        k((1,), (1,), (numpy.float32(1), "x", cuarray.zeros(3), 3))
    with pytest.raises(ValueError):
        k((0,), (1,), (numpy.float32(1), cuarray.zeros(3), cuarray.zeros(3), 3))
    y = cuarray.ones(3, numpy.float32)
    k((1,), (32,), (numpy.float32(0), cuarray.zeros(3, numpy.float32), y, 3))
    assert y.get().tolist() == [1, 1, 1]  # the library is still usable after the errors


def test_launch_error_is_raised_and_recoverable():
    k = cuarray.RawKernel(SAXPY, "saxpy")
    with pytest.raises(cuarray.cuda.CUDARuntimeError, match="block"):
        k((1,), (4096,), (numpy.float32(1), cuarray.zeros(3, numpy.float32), cuarray.zeros(3, numpy.float32), 3))
    assert (cuarray.arange(3) * 2).get().tolist() == [0, 2, 4]


def test_compile_error():
    with pytest.raises(CompileException, match="error"):
        cuarray.RawKernel('extern "C" __global__ void f() { nope; }', "f").compile()


def test_shared_memory_and_stream():
    src = r'''extern "C" __global__ void rev(const int* x, int* y, int n) {
      extern __shared__ int s[]; int t = threadIdx.x; s[t] = x[t]; __syncthreads(); y[t] = s[n - 1 - t]; }'''
    x = cuarray.arange(64, dtype=numpy.int32)
    y = cuarray.empty(64, numpy.int32)
    st = cuarray.cuda.Stream()
    cuarray.RawKernel(src, "rev")((1,), (64,), (x, y, numpy.int32(64)), shared_mem=256, stream=st)
    st.synchronize()
    assert y.get().tolist() == list(range(63, -1, -1))


def test_raw_module_templates_and_globals():
    src = r'''
    __device__ float scale = 3.0f;
    template<typename T> __global__ void fill(T* o, T v) { o[threadIdx.x] = v * (T)scale; }
    extern "C" __global__ void plain(int* o) { o[threadIdx.x] = threadIdx.x; }
    '''
    m = cuarray.RawModule(code=src, name_expressions=["fill<float>", "fill<double>"])
    o = cuarray.zeros(4, numpy.float32)
    m.get_function("fill<float>")((1,), (4,), (o, numpy.float32(2)))
    assert o.get().tolist() == [6] * 4
    od = cuarray.zeros(2)
    m.get_function("fill<double>")((1,), (2,), (od, 1.5))
    assert od.get().tolist() == [4.5, 4.5]
    g = m.get_global("scale")
    view = cuarray.ndarray((1,), numpy.float32, g)
    view.fill(1)
    m.get_function("fill<float>")((1,), (4,), (o, numpy.float32(2)))
    assert o.get().tolist() == [2] * 4
    oi = cuarray.zeros(3, numpy.int32)
    m.get_function("plain")((1,), (3,), (oi,))
    assert oi.get().tolist() == [0, 1, 2]
    with pytest.raises(AttributeError):
        m.get_function("missing")


def test_raw_module_from_cubin_file(tmp_path):
    from cuarray._runtime.compiler import compile_cubin, device_arch
    cubin, _ = compile_cubin('extern "C" __global__ void k(int* o) { o[0] = 42; }', arch=device_arch())
    p = tmp_path / "k.cubin"
    p.write_bytes(cubin)
    o = cuarray.zeros(1, numpy.int32)
    cuarray.RawModule(path=str(p)).get_function("k")((1,), (1,), (o,))
    assert int(o[0]) == 42


def test_translate_cucomplex():
    src = r'''#include <cuComplex.h>
    extern "C" __global__ void f(cuFloatComplex* z) { z[0] = cuCmulf(z[0], make_cuFloatComplex(0.f, 1.f)); }'''
    z = cuarray.asarray(numpy.array([1 + 2j], numpy.complex64))
    cuarray.RawKernel(src, "f", translate_cucomplex=True)((1,), (1,), (z,))
    assert z.get().tolist() == [(-2 + 1j)]
