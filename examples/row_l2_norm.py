"""Row-wise L2 norm of a (8192, 4096) float32 matrix with a ReductionKernel, against
`linalg.norm(axis=1)` and NumPy. Writes row_l2_norm.png.
"""
import numpy as np

import cuarray as cp
from _common import args, bars, check, cpu_ms, gpu_ms

l2norm = cp.ReductionKernel(
    "T x",            # input
    "T y",            # output
    "x * x",          # map
    "a + b",          # reduce
    "y = sqrt(a)",    # post-map
    "0",              # identity
    "l2norm")


def main():
    opts = args(__doc__.splitlines()[0])
    h = np.random.default_rng(0).standard_normal((8192, 4096)).astype(np.float32)
    d = cp.asarray(h)
    want = np.linalg.norm(h.astype(np.float64), axis=1)
    check("ReductionKernel", l2norm(d, axis=1), want, rtol=1e-4)
    check("linalg.norm(axis=1)", cp.linalg.norm(d, axis=1), want, rtol=1e-4)
    results = {"NumPy (CPU)": cpu_ms(lambda: np.linalg.norm(h, axis=1)),
               "ReductionKernel": gpu_ms(lambda: l2norm(d, axis=1), opts.repeat),
               "linalg.norm(axis=1)": gpu_ms(lambda: cp.linalg.norm(d, axis=1), opts.repeat)}
    for name, ms in results.items():
        print(f"{name:<20} {ms:9.4f} ms  {h.nbytes / ms / 1e6:8.1f} GB/s read")
    bars(opts.out, "row_l2_norm.png", "row L2 norm of 8192x4096 float32", list(results),
         list(results.values()), "ms per call (lower is better)")


if __name__ == "__main__":
    main()
