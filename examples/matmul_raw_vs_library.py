"""Matrix product: a naive RawKernel (one thread per output) against the library (cuBLAS).

Prints TFLOP/s for each and writes matmul_raw_vs_library.png.
"""
import numpy as np

import cuarray as cp
from _common import args, bars, check, gpu_ms

NAIVE = cp.RawKernel(r"""
extern "C" __global__ void matmul(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
        c[row * n + col] = acc;
    }
}""", "matmul")


def naive(a, b):
    n = a.shape[0]
    c = cp.empty((n, n), dtype=cp.float32)
    NAIVE(((n + 15) // 16, (n + 15) // 16), (16, 16), (a, b, c, np.int32(n)))
    return c


def main():
    opts = args(__doc__.splitlines()[0])
    n = 2048
    rng = np.random.default_rng(0)
    ha, hb = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    a, b = cp.asarray(ha), cp.asarray(hb)
    want = ha.astype(np.float64) @ hb.astype(np.float64)
    check("naive RawKernel", naive(a, b), want, rtol=1e-4, atol=1e-3)
    check("a @ b (cuBLAS)", a @ b, want, rtol=1e-4, atol=1e-3)
    flops = 2 * n ** 3
    results = {"naive RawKernel": gpu_ms(lambda: naive(a, b), opts.repeat),
               "a @ b (cuBLAS)": gpu_ms(lambda: a @ b, opts.repeat)}
    for name, ms in results.items():
        print(f"{name:<18} {ms:8.3f} ms  {flops / ms / 1e9:7.2f} TFLOP/s")
    bars(opts.out, "matmul_raw_vs_library.png", f"{n}x{n} float32 matrix product",
         list(results), [flops / ms / 1e9 for ms in results.values()], "TFLOP/s (higher is better)")


if __name__ == "__main__":
    main()
