"""Helpers the examples share: timing on the GPU and the host, result checks, charts."""
import argparse
import time
from pathlib import Path

import numpy as np

import cuarray as cp


def args(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--out", default=".", help="folder for the PNG chart (default: here)")
    p.add_argument("--repeat", type=int, default=20, help="timed calls per measurement")
    return p.parse_args()


def gpu_ms(fn, repeat=20):
    """Median GPU time of one call in ms, from CUDA events, after a warm-up call
    (the first call compiles or loads the kernel)."""
    fn()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(repeat):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    return float(np.median(times))


def cpu_ms(fn, repeat=5):
    """Median host time of one call in ms."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


def check(name, got, want, rtol=1e-5, atol=1e-6):
    """Compare a device result with NumPy's; print and raise on a mismatch."""
    got = cp.asnumpy(got)
    if not np.allclose(got, want, rtol=rtol, atol=atol):
        err = np.max(np.abs(got - want))
        raise SystemExit(f"{name}: DIFFERS from NumPy (max abs error {err:.3g})")
    print(f"{name}: matches NumPy")


def figure():
    """A matplotlib Figure, or None (with a note) when matplotlib is not installed."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        print("matplotlib is not installed (pip install 'cuarray[plot]'): no chart written")
        return None
    return Figure(figsize=(7.5, 4.5), layout="constrained")


def save(fig, out, name):
    path = Path(out) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"chart: {path}")
    return path


def bars(out, name, title, labels, values, xlabel):
    """A horizontal bar chart of one figure per label."""
    fig = figure()
    if fig is None:
        return None
    ax = fig.add_subplot()
    ax.barh(range(len(labels)), values, color="#76b900")
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    positive = [v for v in values if v > 0]
    if positive and max(positive) > 30 * min(positive):
        # NumPy on the CPU next to the GPU's rows: a linear axis hides the GPU's bars
        ax.set_xscale("log")
        xlabel += ", log scale"
    ax.set_xlabel(xlabel)
    ax.set_title(f"{title} ({cp.cuda.Device().name})" if hasattr(cp.cuda.Device(), "name")
                 else title)
    for i, v in enumerate(values):
        ax.text(v, i, f" {v:.3g}", va="center")
    ax.grid(axis="x", alpha=0.3)
    return save(fig, out, name)
