"""Leaky ReLU on 2^24 float32 values: NumPy, `where`, an ElementwiseKernel and `fuse`.

Writes leaky_relu.png.
"""
import numpy as np

import cuarray as cp
from _common import args, bars, check, cpu_ms, gpu_ms

SLOPE = np.float32(0.01)

kernel = cp.ElementwiseKernel("T x, T slope", "T y", "y = x > 0 ? x : x * slope", "leaky_relu")


@cp.fuse()
def fused(x, slope):
    return cp.where(x > 0, x, x * slope)


def main():
    opts = args(__doc__.splitlines()[0])
    h = np.random.default_rng(0).standard_normal(1 << 24).astype(np.float32)
    d = cp.asarray(h)
    want = np.where(h > 0, h, h * SLOPE)
    variants = {"cuarray where": lambda: cp.where(d > 0, d, d * SLOPE),
                "ElementwiseKernel": lambda: kernel(d, SLOPE),
                "fuse": lambda: fused(d, SLOPE)}
    for name, fn in variants.items():
        check(name, fn(), want)
    results = {"NumPy (CPU)": cpu_ms(lambda: np.where(h > 0, h, h * SLOPE))}
    results.update({name: gpu_ms(fn, opts.repeat) for name, fn in variants.items()})
    for name, ms in results.items():
        print(f"{name:<18} {ms:9.4f} ms  {2 * h.nbytes / ms / 1e6:8.1f} GB/s")
    bars(opts.out, "leaky_relu.png", "leaky ReLU, 2^24 float32", list(results),
         list(results.values()), "ms per call (lower is better)")


if __name__ == "__main__":
    main()
