"""Per-call host (Python) cost of cuarray's hot paths, measured without a GPU.

The CUDA driver is replaced by a null driver: allocations hand out fake addresses,
launches, copies and memsets return at once. Kernels are still generated and compiled
by NVRTC (cached on disk), and the real memory pool runs, so what is timed is exactly
the Python between the user's call and cuLaunchKernel. On the GPU a call costs this
plus cuda-bindings' cuLaunchKernel (~3 µs on the H100/H200 hosts) and any allocation
the pool cannot serve from its free lists.

    PYTHONPATH=src python tools/host_overhead.py            # table of µs per call
    python tools/host_overhead.py --profile 'a + b'   # cProfile of one row
"""
import itertools
import threading
import time

from cuarray._runtime.emulator import HostDriver


class NullDriver(HostDriver):
    """A driver whose work is instant: only the Python above it is measured."""

    def __init__(self):
        super().__init__()
        self._next = itertools.count(1 << 40, 1 << 30)

    def cuMemAlloc(self, size):
        return (0, next(self._next))

    def cuMemFree(self, ptr):
        return (0,)

    def cuLaunchKernel(self, *args):
        return (0,)

    def cuMemcpyAsync(self, *args):
        return (0,)

    cuMemcpyHtoDAsync = cuMemcpyDtoHAsync = cuMemcpyPeerAsync = cuMemcpyAsync
    cuMemsetD8Async = cuMemsetD16Async = cuMemsetD32Async = cuMemcpyAsync

    def cuKernelGetFunction(self, kernel):
        return (0, kernel)

    def cuLaunchCooperativeKernel(self, *args):
        return (0,)


def install():
    from cuarray._runtime import compiler, device, driver, memory_blocks
    null = NullDriver()
    driver._drv = lambda: null
    driver._state = None
    memory_blocks._d = null
    device._tls = threading.local()
    device._contexts = {}
    device._props = {}
    compiler._modules = {}
    return null


def rows(cp, np):
    a = cp.ones(1000, np.float32)
    b = cp.ones(1000, np.float32)
    m = cp.ones((64, 64), np.float32)
    t = cp.ones((4, 8, 16), np.float32)
    idx = cp.zeros(100, np.int64)
    k = cp.RawKernel(r'extern "C" __global__ void k(float* x, int n) {}', "k")
    ek = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "host_overhead_add")
    fused = cp.fuse(lambda x, y: (x - y) * (x - y))
    fused_sum = cp.fuse(lambda x, y: cp.sum((x - y) ** 2))
    h = np.ones(1000, np.float32)
    return {
        "a + b": lambda: a + b,
        "a * 2.0": lambda: a * 2.0,
        "add(b, a, out=b)": lambda: cp.add(b, a, out=b),
        "sin(a)": lambda: cp.sin(a),
        "a.sum()": lambda: a.sum(),
        "a.max()": lambda: a.max(),
        "m.sum(axis=0)": lambda: m.sum(axis=0),
        "zeros(1000)": lambda: cp.zeros(1000, np.float32),
        "empty(1000)": lambda: cp.empty(1000, np.float32),
        "RawKernel call": lambda: k((1,), (32,), (a, np.int32(1000))),
        "ElementwiseKernel": lambda: ek(a, b),
        "fused (x - y)*(x - y)": lambda: fused(a, b),
        "fused sum((x - y)**2)": lambda: fused_sum(a, b),
        "a.reshape(10, 100)": lambda: a.reshape(10, 100),
        "moveaxis + reshape": lambda: cp.moveaxis(t, 0, -1).reshape(8, 64),
        "moveaxis": lambda: cp.moveaxis(t, 0, -1),
        "m.T": lambda: m.T,
        "a[10:20]": lambda: a[10:20],
        "a[5]": lambda: a[5],
        "m[1:5, None]": lambda: m[1:5, None],
        "m[3]": lambda: m[3],
        "a[idx]": lambda: a[idx],
        "a.copy()": lambda: a.copy(),
        "a.astype(float64)": lambda: a.astype(np.float64),
        "concatenate 2": lambda: cp.concatenate([a, b]),
        "asarray(numpy 1000)": lambda: cp.asarray(h),
        "float(a.sum())": lambda: float(a.sum()),
        "linalg.norm(m, axis=1)": lambda: cp.linalg.norm(m, axis=1),
        "linalg.norm(m, axis=0)": lambda: cp.linalg.norm(m, axis=0),
    }


def time_row(fn, n=20000):
    for _ in range(200):
        fn()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n // 5):
            fn()
        best = min(best, (time.perf_counter() - t0) / (n // 5))
    return best * 1e6


def main():
    # here, not at the top: tools/cold_start.py installs the null driver in the processes it
    # times
    import argparse
    import cProfile
    import pstats
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", metavar="ROW", help="cProfile one row")
    ap.add_argument("rows", nargs="*", help="rows to time (default: all)")
    args = ap.parse_args()
    install()
    import numpy as np

    import cuarray as cp
    table = rows(cp, np)
    if args.profile:
        fn = table[args.profile]
        time_row(fn, 2000)
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(20000):
            fn()
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(25)
        return
    print(f"| row | µs per call (host only) |\n| --- | --- |")
    for name, fn in table.items():
        if args.rows and name not in args.rows:
            continue
        print(f"| {name} | {time_row(fn):.2f} |", flush=True)


if __name__ == "__main__":
    main()
