"""A shared-memory tiled matrix product, written as a RawKernel (CUDA C) and with cuarray.jit
(Python), against cuBLAS and NumPy. Writes tiled_matmul.png.

Each 16x16 thread block computes a 16x16 tile of C; for every step along k it loads one
tile of A and one of B into shared memory, synchronises, and accumulates from there, so
each value read from global memory is used 16 times.
"""
import numpy as np

import cuarray as cp
from cuarray import jit
from _common import args, bars, check, gpu_ms

TILED = cp.RawKernel(r"""
#define TILE 16
extern "C" __global__ void tiled(const float* a, const float* b, float* c, int n) {
    __shared__ float sa[TILE][TILE];
    __shared__ float sb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + tx, kb = t * TILE + ty;
        sa[ty][tx] = (row < n && ka < n) ? a[row * n + ka] : 0.0f;
        sb[ty][tx] = (kb < n && col < n) ? b[kb * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += sa[ty][k] * sb[k][tx];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = acc;
}""", "tiled")


@jit.rawkernel()
def tiled_jit(a, b, c, n):
    # a, b, c are 2-D arrays (indexed [row, col]); shared memory is 1-D in cuarray.jit
    # (as in cupyx.jit): index it [row * 16 + col]
    sa = jit.shared_memory(np.float32, 256)
    sb = jit.shared_memory(np.float32, 256)
    tx = jit.threadIdx.x
    ty = jit.threadIdx.y
    row = jit.blockIdx.y * 16 + ty
    col = jit.blockIdx.x * 16 + tx
    acc = np.float32(0)
    for t in range((n + 15) // 16):
        ka = t * 16 + tx
        kb = t * 16 + ty
        sa[ty * 16 + tx] = a[row, ka] if row < n and ka < n else np.float32(0)
        sb[ty * 16 + tx] = b[kb, col] if kb < n and col < n else np.float32(0)
        jit.syncthreads()
        for k in range(16):
            acc += sa[ty * 16 + k] * sb[k * 16 + tx]
        jit.syncthreads()
    if row < n and col < n:
        c[row, col] = acc


def run(kernel, a, b):
    n = a.shape[0]
    c = cp.empty((n, n), dtype=cp.float32)
    grid = ((n + 15) // 16, (n + 15) // 16)
    kernel(grid, (16, 16), (a, b, c, np.int32(n)))
    return c


def main():
    opts = args(__doc__.splitlines()[0])
    n = 2000  # not a multiple of 16: the edge tiles are padded with zeros
    rng = np.random.default_rng(0)
    ha, hb = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    a, b = cp.asarray(ha), cp.asarray(hb)
    want = ha.astype(np.float64) @ hb.astype(np.float64)
    check("RawKernel tiled", run(TILED, a, b), want, rtol=1e-4, atol=1e-3)
    check("cuarray.jit tiled", run(tiled_jit, a, b), want, rtol=1e-4, atol=1e-3)
    check("a @ b (cuBLAS)", a @ b, want, rtol=1e-4, atol=1e-3)
    flops = 2 * n ** 3
    results = {"RawKernel tiled": gpu_ms(lambda: run(TILED, a, b), opts.repeat),
               "cuarray.jit tiled": gpu_ms(lambda: run(tiled_jit, a, b), opts.repeat),
               "a @ b (cuBLAS)": gpu_ms(lambda: a @ b, opts.repeat)}
    for name, ms in results.items():
        print(f"{name:<18} {ms:8.3f} ms  {flops / ms / 1e9:7.2f} TFLOP/s")
    bars(opts.out, "tiled_matmul.png", f"{n}x{n} float32 tiled matrix product", list(results),
         [flops / ms / 1e9 for ms in results.values()], "TFLOP/s (higher is better)")


if __name__ == "__main__":
    main()
