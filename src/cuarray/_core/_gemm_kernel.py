"""cuarray's own GEMM, for the integer and bool products cuBLAS does not compute.

NumPy accumulates an integer matmul in the result dtype, wrapping on overflow. The
kernel accumulates in an unsigned type at least as wide (32 or 64 bits) and truncates
at the end: modular arithmetic gives the same bits, without signed-overflow undefined
behaviour. bool products are OR of ANDs, as NumPy's `??->?` loop.

Tiles: 64x64 outputs per block of 256 threads, 4x4 per thread, K in steps of 16 staged
in shared memory. Operands are read through element strides, so transposed and sliced
views need no copy; the output is C-contiguous (batch, m, n).
"""
import numpy

from cuarray._core.raw import RawKernel

_TILE = 64

# (kind, itemsize) -> (C type, accumulator C type)
_CTYPES = {
    ("b", 1): ("bool", "bool"),
    ("i", 1): ("signed char", "unsigned int"), ("u", 1): ("unsigned char", "unsigned int"),
    ("i", 2): ("short", "unsigned int"), ("u", 2): ("unsigned short", "unsigned int"),
    ("i", 4): ("int", "unsigned int"), ("u", 4): ("unsigned int", "unsigned int"),
    ("i", 8): ("long long", "unsigned long long"),
    ("u", 8): ("unsigned long long", "unsigned long long"),
}

_SOURCE = r"""
typedef {ctype} T;
typedef {acc} Acc;
#define BM 64
#define BN 64
#define BK 16

extern "C" __global__ void __launch_bounds__(256) cuarray_igemm(
    const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
    long long m, long long n, long long k, long long batch,
    long long sab, long long sar, long long sac,
    long long sbb, long long sbr, long long sbc)
{{
    __shared__ T As[BK][BM + 1];
    __shared__ T Bs[BK][BN + 1];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const long long row0 = (long long)blockIdx.x * BM;
    const long long ntiles_n = (n + BN - 1) / BN;
    for (long long bz = blockIdx.z; bz < batch; bz += gridDim.z) {{
      const T* Ab = A + bz * sab;
      const T* Bb = B + bz * sbb;
      T* Cb = C + bz * m * n;
      for (long long tn = blockIdx.y; tn < ntiles_n; tn += gridDim.y) {{
        const long long col0 = tn * BN;
        Acc acc[4][4];
        #pragma unroll
        for (int i = 0; i < 4; ++i)
            #pragma unroll
            for (int j = 0; j < 4; ++j) acc[i][j] = Acc(0);
        for (long long k0 = 0; k0 < k; k0 += BK) {{
            for (int e = threadIdx.x; e < BM * BK; e += 256) {{
                const int r = e / BK, kk = e % BK;
                const long long gr = row0 + r, gk = k0 + kk;
                As[kk][r] = (gr < m && gk < k) ? Ab[gr * sar + gk * sac] : T(0);
            }}
            for (int e = threadIdx.x; e < BK * BN; e += 256) {{
                const int kk = e / BN, c = e % BN;
                const long long gk = k0 + kk, gc = col0 + c;
                Bs[kk][c] = (gk < k && gc < n) ? Bb[gk * sbr + gc * sbc] : T(0);
            }}
            __syncthreads();
            #pragma unroll
            for (int kk = 0; kk < BK; ++kk) {{
                T a[4], b[4];
                #pragma unroll
                for (int i = 0; i < 4; ++i) {{ a[i] = As[kk][ty + 16 * i]; b[i] = Bs[kk][tx + 16 * i]; }}
                #pragma unroll
                for (int i = 0; i < 4; ++i)
                    #pragma unroll
                    for (int j = 0; j < 4; ++j) {{ {mac}; }}
            }}
            __syncthreads();
        }}
        #pragma unroll
        for (int i = 0; i < 4; ++i) {{
            const long long r = row0 + ty + 16 * i;
            #pragma unroll
            for (int j = 0; j < 4; ++j) {{
                const long long c = col0 + tx + 16 * j;
                if (r < m && c < n) Cb[r * n + c] = (T)acc[i][j];
            }}
        }}
      }}
    }}
}}
"""

_MAC_INT = "acc[i][j] += (Acc)a[i] * (Acc)b[j]"
_MAC_BOOL = "acc[i][j] = acc[i][j] || (a[i] && b[j])"

_kernels = {}


def supports(dtype):
    return (dtype.kind, dtype.itemsize) in _CTYPES and dtype.kind in "biu"


def source(dtype):
    """The CUDA C source of the GEMM kernel for `dtype` (bool or an integer dtype)."""
    dtype = numpy.dtype(dtype)
    ctype, acc = _CTYPES[(dtype.kind, dtype.itemsize)]
    mac = _MAC_BOOL if dtype.kind == "b" else _MAC_INT
    return _SOURCE.format(ctype=ctype, acc=acc, mac=mac)


def _kernel(dtype):
    key = (dtype.kind, dtype.itemsize)
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = RawKernel(source(dtype), "cuarray_igemm")
    return k


def gemm(a, b, out, m, n, k, batch, a_strides, b_strides):
    """out[z] = a[z] @ b[z] for z < batch.

    `a`, `b`: arrays whose data pointers address element (0, 0) of batch 0; `a_strides`,
    `b_strides`: (batch, row, column) strides in elements (0 broadcasts); `out`: a
    C-contiguous array of `batch * m * n` elements of the same dtype.
    """
    grid = ((m + _TILE - 1) // _TILE, min((n + _TILE - 1) // _TILE, 65535), min(batch, 65535))
    _kernel(out.dtype)(grid, (256,), (a, b, out, m, n, k, batch, *a_strides, *b_strides))
