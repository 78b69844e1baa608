"""Command line: `python -m cuarray info` (what cuarray runs on), `demo` and `bench`.

`python -m cuarray bench [--quick] [--plot DIR] [--json FILE] [GROUP ...]` times the
package's benchmark groups on this GPU against CuPy and PyTorch where installed.
"""
import argparse
import sys

import numpy

import cuarray as cp
from cuarray import _info
from cuarray._runtime import device, driver

_SAXPY = r"""
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out,
                                 unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}
"""


def _per_call_us(fn, n=200):
    """Mean device time per call over `n` back-to-back calls, measured with CUDA events."""
    fn()  # the first call compiles or loads the kernel
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(n):
        fn()
    end.record()
    end.synchronize()
    return cp.cuda.get_elapsed_time(start, end) * 1000.0 / n


def _show(out, label, same, fn):
    us = _per_call_us(fn)
    print(f"{label:<40}{'matches' if same else 'DIFFERS FROM'} NumPy  {us:8.1f} us/call",
          file=out)
    return bool(same)


def demo(out=None, err=None):
    """Run a few operations on the GPU, check them against NumPy and print their time per call."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        driver.init()
    except driver.CUDARuntimeError as e:
        print(_info.no_gpu_sentence(e), file=err)
        return 1
    dev = device.get_device_id()
    p = device.properties(dev)
    print(f"device {dev}: {p['name']} (compute capability {p['major']}.{p['minor']})", file=out)

    n = 1 << 20
    random = getattr(getattr(cp, "random", None), "random_sample", None)
    if random is not None:
        x, made = random(n, dtype=numpy.float32), "cuarray.random.random_sample"
    else:
        x, made = cp.arange(n, dtype=numpy.float32), "cuarray.arange"
    y = cp.arange(n, dtype=numpy.float32)
    print(f"x: {n} float32 from {made}; y: cuarray.arange({n}, dtype=float32)", file=out)
    hx, hy = cp.asnumpy(x), cp.asnumpy(y)

    saxpy = cp.RawKernel(_SAXPY, "saxpy")
    z = cp.empty_like(x)
    a = numpy.float32(2.0)
    launch = lambda: saxpy(((n + 255) // 256,), (256,), (a, x, y, z, numpy.uint32(n)))
    launch()
    # NVRTC fuses a * x + y into one FMA, so the last bit may differ from NumPy's
    ok = _show(out, f"RawKernel saxpy: z[:3] = {cp.asnumpy(z[:3])}",
               numpy.allclose(cp.asnumpy(z), a * hx + hy, rtol=1e-6), launch)
    if hasattr(cp.ndarray, "__add__"):
        ok &= _show(out, "x + y", numpy.array_equal(cp.asnumpy(x + y), hx + hy), lambda: x + y)
    if hasattr(cp.ndarray, "sum"):
        total = float(cp.asnumpy(y.sum()))
        ok &= _show(out, f"y.sum() = {total:.6g}",
                    numpy.isclose(total, hy.sum(dtype=numpy.float64), rtol=1e-5), y.sum)
    return 0 if ok else 1


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m cuarray", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="print versions, the kernel cache and the GPUs; exit 1 with no GPU")
    sub.add_parser("demo", help="run a short GPU demo and time it; exit 1 with no GPU")
    sub.add_parser("bench", add_help=False,
                   help="time cuarray against CuPy and PyTorch on this GPU (bench --help)")
    args, rest = parser.parse_known_args(argv)
    if args.command == "bench":
        return bench(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return _info.info() if args.command == "info" else demo()


def bench(argv):
    """`python -m cuarray bench`: the package's benchmark groups through the shared harness."""
    from cuarray._bench import cli, harness, suite
    return cli.main(argv, prog="python -m cuarray bench",
                    groups={n: harness.GROUPS[n] for n in suite.GROUP_NAMES},
                    default=list(suite.GROUP_NAMES), description=BENCH_HELP)


BENCH_HELP = """Time cuarray on this GPU, beside CuPy and PyTorch when they are installed.

Groups: overhead (per-call cost of small operations), bandwidth (elementwise, reduction,
scan and copy kernels, as GB/s and % of the measured copy bandwidth), libraries (matmul,
FFT, sort, random), transfers (host<->device), scaling (a + b from 1 KiB to 256 MiB).
Ratios are cuarray's figure over the other library's; the "better" column says whether
lower or higher wins. `--quick` takes about a minute; the full run several minutes.
"""


if __name__ == "__main__":
    sys.exit(main())
