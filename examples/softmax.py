"""Row-wise softmax of a (4096, 1024) float32 matrix: NumPy, cuarray routines, and a fused kernel.

The fused version computes exp(x - max) and its row sums with one `fuse` function (the
elementwise part feeds the reduction, no temporary array). Writes softmax.png.
"""
import numpy as np

import cuarray as cp
from _common import args, bars, check, cpu_ms, gpu_ms


def softmax(xp, x):
    e = xp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@cp.fuse()
def _exp_shifted_sum(x, m):
    return cp.sum(cp.exp(x - m), axis=1, keepdims=True)


@cp.fuse()
def _exp_shifted_div(x, m, s):
    return cp.exp(x - m) / s


def softmax_fused(x):
    m = x.max(axis=1, keepdims=True)
    return _exp_shifted_div(x, m, _exp_shifted_sum(x, m))


def main():
    opts = args(__doc__.splitlines()[0])
    h = np.random.default_rng(0).standard_normal((4096, 1024)).astype(np.float32)
    d = cp.asarray(h)
    want = softmax(np, h)
    check("cuarray routines", softmax(cp, d), want, rtol=1e-5, atol=1e-7)
    check("fused", softmax_fused(d), want, rtol=1e-5, atol=1e-7)
    results = {"NumPy (CPU)": cpu_ms(lambda: softmax(np, h)),
               "cuarray routines": gpu_ms(lambda: softmax(cp, d), opts.repeat),
               "cuarray fuse": gpu_ms(lambda: softmax_fused(d), opts.repeat)}
    for name, ms in results.items():
        print(f"{name:<18} {ms:9.4f} ms")
    bars(opts.out, "softmax.png", "softmax of 4096x1024 float32", list(results),
         list(results.values()), "ms per call (lower is better)")


if __name__ == "__main__":
    main()
