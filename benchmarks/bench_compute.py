"""Issue "Compute engine": elementwise bandwidth, reductions, scans, per-call overhead, cold start."""
import os
import subprocess
import sys
import textwrap

import numpy

from benchmarks.harness import Group, Target, device_time, host_time

compute = Group("compute", "Compute engine: ufuncs, reductions, scans")
N = 1 << 28


def _n(ctx):
    return (1 << 24) if ctx.quick else N


def _gbps(nbytes, ms):
    return nbytes / ms / 1e6


def _add_bw(dtype, target):
    def row(xp, ctx):
        n = _n(ctx)
        a = xp.ones(n, dtype=dtype)
        b = xp.ones(n, dtype=dtype)
        it = numpy.dtype(dtype).itemsize
        return _gbps(3 * n * it, device_time(lambda: a + b, xp, repeat=ctx.repeat))
    return row


compute.row("a + b float32 2^28", unit="GB/s", copy_pct=True,
            target=Target.of_copy(">=", 90))(_add_bw(numpy.float32, None))
for _dt in ("float64", "int8", "float16", "complex64"):
    compute.row(f"a + b {_dt} 2^28", unit="GB/s", copy_pct=True,
                target=Target.ratio(">=", 1.0))(_add_bw(getattr(numpy, _dt), None))


@compute.row("a[::2] + b[::2] float32 (2^28 buffers)", unit="GB/s", copy_pct=True, target=Target.ratio(">=", 1.0))
def add_strided(xp, ctx):
    n = _n(ctx)
    a, b = xp.ones(n, numpy.float32), xp.ones(n, numpy.float32)
    return _gbps(3 * (n // 2) * 4, device_time(lambda: a[::2] + b[::2], xp, repeat=ctx.repeat))


@compute.row("row + column broadcast 16384x16384 float32", unit="GB/s", copy_pct=True,
             target=Target.ratio(">=", 1.0))
def add_broadcast(xp, ctx):
    m = 4096 if ctx.quick else 16384
    r, c = xp.ones((1, m), numpy.float32), xp.ones((m, 1), numpy.float32)
    return _gbps(m * m * 4, device_time(lambda: r + c, xp, repeat=ctx.repeat))


@compute.row("x.sum() float32 2^28", unit="GB/s", copy_pct=True, target=Target.ratio(">=", 0.95))
def full_sum(xp, ctx):
    x = xp.ones(_n(ctx), numpy.float32)
    return _gbps(x.nbytes, device_time(lambda: x.sum(), xp, repeat=ctx.repeat))


def _sum_axis(axis):
    def row(xp, ctx):
        m = 4096 if ctx.quick else 16384
        x = xp.ones((m, m), numpy.float32)
        return _gbps(x.nbytes, device_time(lambda: x.sum(axis=axis), xp, repeat=ctx.repeat))
    return row


compute.row("sum(axis=0) 16384x16384 float32", unit="GB/s", copy_pct=True,
            target=Target.of_copy(">=", 85))(_sum_axis(0))
compute.row("sum(axis=1) 16384x16384 float32", unit="GB/s", copy_pct=True,
            target=Target.of_copy(">=", 85))(_sum_axis(1))


@compute.row("argmax float32 2^28", unit="GB/s", copy_pct=True, target=Target.ratio(">=", 1.0))
def argmax(xp, ctx):
    x = xp.arange(_n(ctx), dtype=numpy.float32) % 1000
    return _gbps(x.nbytes, device_time(lambda: x.argmax(), xp, repeat=ctx.repeat))


@compute.row("var float32 2^28", unit="GB/s", copy_pct=True, target=Target.ratio(">=", 1.0))
def var(xp, ctx):
    x = xp.ones(_n(ctx), numpy.float32)
    return _gbps(x.nbytes, device_time(lambda: x.var(), xp, repeat=ctx.repeat))


@compute.row("mean(axis=0) 16384x16384 float32", unit="GB/s", copy_pct=True, target=Target.ratio(">=", 1.0))
def mean0(xp, ctx):
    m = 4096 if ctx.quick else 16384
    x = xp.ones((m, m), numpy.float32)
    return _gbps(x.nbytes, device_time(lambda: x.mean(axis=0), xp, repeat=ctx.repeat))


@compute.row("cumsum float32 2^26", unit="GB/s", copy_pct=True, target=Target.ratio(">=", 2.5))
def cumsum(xp, ctx):
    x = xp.ones(1 << (22 if ctx.quick else 26), numpy.float32)
    return _gbps(2 * x.nbytes, device_time(lambda: xp.cumsum(x), xp, repeat=ctx.repeat))


def _per_call(make):
    def row(xp, ctx):
        a = xp.arange(1000, dtype=numpy.float32)
        b = xp.arange(1000, dtype=numpy.float32)
        return host_time(make(xp, a, b), ctx.sync(xp), n=ctx.calls)
    return row


compute.row("per call: a + b (1000 float32)", unit="µs", target=Target.ratio("<=", 1.0))(
    _per_call(lambda xp, a, b: (lambda: a + b)))
compute.row("per call: a.sum() (1000 float32)", unit="µs", target=Target.ratio("<=", 1.0))(
    _per_call(lambda xp, a, b: (lambda: a.sum())))
compute.row("per call: sin(a) (1000 float32)", unit="µs", target=Target.ratio("<=", 1.0))(
    _per_call(lambda xp, a, b: (lambda: xp.sin(a))))
compute.row("per call: a * 2.0 (1000 float32)", unit="µs", target=Target.ratio("<=", 1.0))(
    _per_call(lambda xp, a, b: (lambda: a * 2.0)))
compute.row("per call: add(b, a, out=b) (1000 float32)", unit="µs", target=Target.ratio("<=", 1.0))(
    _per_call(lambda xp, a, b: (lambda: xp.add(b, a, out=b))))

_COLD = textwrap.dedent("""
    import time
    t = time.perf_counter()
    import {mod} as xp
    a = xp.arange(1000, dtype=xp.float32)
    (a + 1).sum()
    xp.sin(a)
    a.sum()
    xp.cuda.Device().synchronize()
    print(time.perf_counter() - t)
""")


def _fresh_runs(xp, code, runs, bytecode):
    """Times printed by `code` in `runs` fresh processes, the first untimed (it fills the
    kernel cache). bytecode: Python's bytecode cache on for both libraries alike, written
    under one temporary prefix by the first run, read by the later ones (under
    PYTHONDONTWRITEBYTECODE a library run from its source tree compiles every module in
    every process, where an installed one reads the .pyc files its installer wrote)."""
    import tempfile
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix=f"pyc-{xp.__name__}-") as prefix:
        if bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = prefix
        times = []
        for k in range(runs):
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 env=env, check=True).stdout
            if k:
                times.append(float(out.split()[-1]))
    return min(times)


def _mod(xp):
    return "cuarray" if xp.__name__ == "cuarray" else "cupy"


@compute.row("fresh process, warm disk cache: import + a+1, a.sum(), sin(a)", unit="s",
             target=Target.ratio("<=", 0.5))
def cold_start(xp, ctx):
    return _fresh_runs(xp, _COLD.format(mod=_mod(xp)), 3, False)


@compute.row("fresh process, warm disk and bytecode caches: import + a+1, a.sum(), sin(a)", unit="s",
             target=Target.ratio("<=", 0.4))
def cold_start_bytecode(xp, ctx):
    return _fresh_runs(xp, _COLD.format(mod=_mod(xp)), 3, True)


_IMPORT_ONLY = """
import time
t = time.perf_counter()
import {mod}
print(time.perf_counter() - t)
"""


@compute.row("fresh process: import only", unit="s")
def import_only(xp, ctx):
    return _fresh_runs(xp, _IMPORT_ONLY.format(mod=_mod(xp)), 6, False)


@compute.row("fresh process: import only, warm bytecode cache", unit="s")
def import_only_bytecode(xp, ctx):
    return _fresh_runs(xp, _IMPORT_ONLY.format(mod=_mod(xp)), 6, True)
