"""Stacks of small float and complex matrix products (m, n, k <= 32) in one kernel.

cuBLAS's strided-batched GEMM spends most of a 10,000 x 16x16 stack on per-matrix
tiling overhead; here a block stages whole matrices in shared memory (coalesced reads
through element strides, so views need no copy) and each thread computes whole output
elements. float16 accumulates in float32, as cuBLAS's GemmEx path does.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._runtime.compiler import compile_module
from cuarray._runtime.device import ensure_context
from cuarray._runtime.launch import ArgPacker
from cuarray._runtime import stream as _stream

MAX_DIM = 32
_THREADS = 256
_OUTPUTS_PER_BLOCK = 1024
_SMEM_BUDGET = 32 * 1024

_SOURCE = r"""
#include <cuarray/core.cuh>
typedef {T} T;
typedef {Acc} Acc;
extern "C" __global__ void __launch_bounds__(256) cuarray_small_gemm(
    const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
    const int m, const int n, const int k, const long long count, const int G,
    const long long sab, const long long sar, const long long sac,
    const long long sbb, const long long sbr, const long long sbc)
{{
    extern __shared__ __align__(16) unsigned char s_raw[];
    const int na = m * k, nb = k * n, nc = m * n;
    T* As = (T*)s_raw;
    T* Bs = As + G * na;
    const long long g0 = (long long)blockIdx.x * G;
    const int ga = count - g0 < G ? (int)(count - g0) : G;
    #pragma unroll 4
    for (int e = threadIdx.x; e < ga * na; e += blockDim.x) {{
        const int g = e / na, r = e - g * na, i = r / k, kk = r - i * k;
        As[e] = A[(g0 + g) * sab + i * sar + kk * sac];
    }}
    #pragma unroll 4
    for (int e = threadIdx.x; e < ga * nb; e += blockDim.x) {{
        const int g = e / nb, r = e - g * nb, kk = r / n, j = r - kk * n;
        Bs[e] = B[(g0 + g) * sbb + kk * sbr + j * sbc];
    }}
    __syncthreads();
    T* Cb = C + g0 * nc;
    for (int e = threadIdx.x; e < ga * nc; e += blockDim.x) {{
        const int g = e / nc, r = e - g * nc, i = r / n, j = r - i * n;
        const T* a = As + g * na + i * k;
        const T* b = Bs + g * nb + j;
        Acc acc = Acc(0);
        for (int kk = 0; kk < k; ++kk)
            acc = acc + cuarray_cast<Acc>(a[kk]) * cuarray_cast<Acc>(b[kk * n]);
        Cb[e] = cuarray_cast<T>(acc);
    }}
}}
"""

_kernels = {}


def source(dtype):
    """The CUDA C source of the kernel for a float or complex `dtype`."""
    dtype = numpy.dtype(dtype)
    acc = numpy.dtype(numpy.float32) if dtype.char == "e" else dtype
    return _SOURCE.format(T=_dt.ctype(dtype), Acc=_dt.ctype(acc))


def _kernel(dtype):
    entry = _kernels.get(dtype.char)
    if entry is None:
        fn = compile_module(source(dtype), (), name="cuarray_small_gemm").get_function("cuarray_small_gemm")
        entry = _kernels[dtype.char] = (fn, ArgPacker(["P", "P", "P", "i", "i", "i", "q", "i"] + ["q"] * 6))
    return entry


def gemm(a, b, out, m, n, k, count, a_strides, b_strides):
    """out[z] = a[z] @ b[z] for z < count; arguments as for `_gemm_kernel.gemm`."""
    ensure_context()
    it = out.dtype.itemsize
    G = max(1, _OUTPUTS_PER_BLOCK // max(m * n, 1))
    G = max(1, min(G, _SMEM_BUDGET // ((m * k + k * n) * it)))
    fn, packer = _kernel(out.dtype)
    grid = (count + G - 1) // G
    vals = [a.data.ptr, b.data.ptr, out.data.ptr, m, n, k, count, G, *a_strides, *b_strides]
    fn.launch((grid, 1, 1), (_THREADS, 1, 1), packer.pack(vals), G * (m * k + k * n) * it,
              _stream.current_stream_ptr())
