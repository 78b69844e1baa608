"""y = x1 * x2 + B over sizes: NumPy, cuarray routines, and one ElementwiseKernel.

Prints the time per call for each size and writes elementwise_sweep.png (time against
size, log-log). Small sizes show the per-call cost, large ones the memory bandwidth.
"""
import numpy as np

import cuarray as cp
from _common import args, check, cpu_ms, figure, gpu_ms, save

fma = cp.ElementwiseKernel("T x1, T x2, T b", "T y", "y = x1 * x2 + b", "x1_x2_plus_b")


def main():
    opts = args(__doc__.splitlines()[0])
    rng = np.random.default_rng(0)
    b = np.float32(0.5)
    sizes = [1 << k for k in range(10, 27, 2)]
    rows = []
    print(f"{'n':>10} {'NumPy ms':>10} {'cuarray ms':>11} {'kernel ms':>10}")
    for n in sizes:
        h1, h2 = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        d1, d2 = cp.asarray(h1), cp.asarray(h2)
        want = h1 * h2 + b
        check(f"n={n} routines", d1 * d2 + b, want)
        check(f"n={n} ElementwiseKernel", fma(d1, d2, b), want)
        t_np = cpu_ms(lambda: h1 * h2 + b)
        t_cp = gpu_ms(lambda: d1 * d2 + b, opts.repeat)
        t_k = gpu_ms(lambda: fma(d1, d2, b), opts.repeat)
        rows.append((n, t_np, t_cp, t_k))
        print(f"{n:>10} {t_np:>10.4f} {t_cp:>11.4f} {t_k:>10.4f}")
    fig = figure()
    if fig is not None:
        ax = fig.add_subplot()
        for j, (label, colour) in enumerate((("NumPy (CPU)", "#888888"),
                                             ("cuarray: x1 * x2 + B", "#5470c6"),
                                             ("ElementwiseKernel", "#76b900")), start=1):
            ax.plot([r[0] for r in rows], [r[j] for r in rows], "o-", label=label, color=colour)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("elements (float32)")
        ax.set_ylabel("ms per call (GPU: CUDA events)")
        ax.set_title("y = x1 * x2 + B")
        ax.grid(which="both", alpha=0.3)
        ax.legend()
        save(fig, opts.out, "elementwise_sweep.png")


if __name__ == "__main__":
    main()
