"""Timers, the row registry and the runner of `python -m cuarray bench` and `python -m benchmarks`.

A benchmark row is a function `fn(xp, ctx) -> float` written against CuPy's public API,
so the same body measures cuarray (`xp=cuarray`) and CuPy (`xp=cupy`) in one process.
A row may also have a PyTorch body (`@group.torch(name)`), timed by the same timers with
`xp=torch`, where PyTorch has the same operation.
"""
import dataclasses
import statistics
import time

import numpy

GROUPS = {}  # group name -> Group, filled as bench_*.py modules are imported
_LOWER_IS_BETTER = {"µs", "ms", "s"}


def is_torch(xp):
    return getattr(xp, "__name__", "") == "torch"


# -- timers -----------------------------------------------------------------------------

def sync_of(xp):
    """A function that waits until all work queued on the current device is done."""
    if is_torch(xp):
        return xp.cuda.synchronize
    return lambda: xp.cuda.Device().synchronize()


def _events(xp):
    """(start, end, elapsed_ms) for this library's CUDA events."""
    if is_torch(xp):
        start, end = xp.cuda.Event(enable_timing=True), xp.cuda.Event(enable_timing=True)
        return start, end, lambda: start.elapsed_time(end)
    start, end = xp.cuda.Event(), xp.cuda.Event()
    return start, end, lambda: xp.cuda.get_elapsed_time(start, end)


def _event_times(fn, xp, warmup, repeat, calls):
    """Device ms per call of `repeat` runs of `calls` calls each, CUDA events around a run."""
    for _ in range(warmup):
        fn()
    start, end, elapsed = _events(xp)
    times = []
    for _ in range(repeat):
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        times.append(elapsed() / calls)
    return times


def device_time(fn, xp, warmup=3, repeat=20):
    """Median device time of one call, in ms, from CUDA events around each call."""
    return statistics.median(_event_times(fn, xp, warmup, repeat, 1))


def device_time_back_to_back(fn, xp, calls=20, warmup=3, repeat=5):
    """Device time of one call, in ms, as a stream of `calls` calls runs: CUDA events
    around the whole stream, the best of `repeat`. Where the host issues a call faster
    than the GPU runs one, this is the kernels' own time: the launch latency and the
    Python before the first launch, which `device_time` counts in every call, are paid
    once per stream."""
    return min(_event_times(fn, xp, warmup, repeat, calls))


def host_time(fn, sync, n=1000, loops=5):
    """Per-call cost in µs: host clock around `n` calls and one synchronise, median of `loops`.

    This is what a Python loop of small operations pays: launch overhead, or the GPU
    time when that is longer.
    """
    fn()
    sync()
    per_call = []
    for _ in range(loops):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        per_call.append((time.perf_counter() - t0) / n)
    return statistics.median(per_call) * 1e6


def wall_time(fn, sync, warmup=1, repeat=5):
    """Median host wall-clock seconds of one call followed by a synchronise (for transfers)."""
    for _ in range(warmup):
        fn()
        sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def copy_gbps(xp, nbytes, repeat=20):
    """Device-to-device memcpy bandwidth in GB/s, counting read + write bytes."""
    if is_torch(xp):
        a = xp.empty(nbytes, dtype=xp.uint8, device="cuda")
        b = xp.empty_like(a)
        ms = device_time(lambda: b.copy_(a), xp, repeat=repeat)
    else:
        a = xp.empty(nbytes, dtype=numpy.uint8)
        b = xp.empty(nbytes, dtype=numpy.uint8)
        ms = device_time(lambda: b.data.copy_from_device_async(a.data, nbytes), xp,
                         repeat=repeat)
    return 2 * nbytes / (ms * 1e-3) / 1e9


def free_pools(xp):
    """Return cached device and pinned blocks so one row's buffers do not crowd the next."""
    if is_torch(xp):
        xp.cuda.empty_cache()
        return
    for getter in ("get_default_memory_pool", "get_default_pinned_memory_pool"):
        pool = getattr(xp, getter, None)
        if pool is not None:
            pool().free_all_blocks()


class Skip(Exception):
    """Raised by a row that cannot run on this machine (e.g. it needs two GPUs); the row is
    reported as SKIP with the reason, not as a failure."""


# -- registry -----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Target:
    """A goal for a row: on the cuarray/CuPy ratio, or on cuarray's own figure (`absolute`)."""
    op: str          # "<=" or ">="
    value: float
    absolute: bool = False
    copy: bool = False  # value is a % of the device-to-device copy bandwidth

    @classmethod
    def ratio(cls, op, value):
        return cls(op, value, False)

    @classmethod
    def at(cls, op, value):
        return cls(op, value, True)

    @classmethod
    def of_copy(cls, op, percent):
        """A goal on cuarray's figure as a % of this run's device-to-device copy bandwidth."""
        return cls(op, percent, False, True)

    def label(self, unit):
        sign = "≤" if self.op == "<=" else "≥"
        if self.copy:
            return f"{sign}{self.value:g}% of copy"
        return f"{sign}{self.value:g} {unit}" if self.absolute else f"{sign}{self.value:g}×"

    def met(self, figure, ratio, ceiling=None):
        if self.copy:
            x = 100 * figure / ceiling if figure is not None and ceiling else None
        else:
            x = figure if self.absolute else ratio
        if x is None:
            return None
        return x <= self.value if self.op == "<=" else x >= self.value


@dataclasses.dataclass
class Bench:
    group: str
    name: str
    fn: object
    unit: str
    target: Target = None
    copy_pct: bool = False  # also report the figure as a % of the device-to-device copy
    size: int = None        # elements, for rows that sweep sizes (the scaling chart)
    torch_fn: object = None  # fn(torch, ctx): the same operation in PyTorch, if it has one

    @property
    def better(self):
        return "lower" if self.unit in _LOWER_IS_BETTER else "higher"


class Group:
    """A named set of rows, e.g. one per issue; `@group.row(...)` registers a row function."""

    def __init__(self, name, title):
        if name in GROUPS:
            raise ValueError(f"benchmark group {name!r} is registered twice")
        self.name, self.title, self.rows = name, title, []
        GROUPS[name] = self

    def row(self, name, unit, target=None, copy_pct=False, size=None):
        def register(fn):
            self.rows.append(Bench(self.name, name, fn, unit, target, copy_pct, size))
            return fn
        return register

    def torch(self, name):
        """Register `fn(torch, ctx)` as PyTorch's body of the row called `name`."""
        def register(fn):
            matches = [b for b in self.rows if b.name == name]
            if not matches:
                raise ValueError(f"group {self.name!r} has no row {name!r} to time in PyTorch")
            matches[0].torch_fn = fn
            return fn
        return register


class Context:
    """What a row needs to know about this run: buffer sizes, repeat counts, the copy ceiling."""

    def __init__(self, quick=False):
        self.quick = quick
        self.big = (64 << 20) if quick else (1 << 30)
        self.size = "64 MiB" if quick else "1 GiB"
        self.calls = 200 if quick else 1000
        self.repeat = 5 if quick else 20
        self._copy = {}

    def sync(self, xp):
        return sync_of(xp)

    def copy_gbps(self, xp):
        """This library's device-to-device copy bandwidth, measured once per run."""
        if xp.__name__ not in self._copy:
            self._copy[xp.__name__] = copy_gbps(xp, self.big, self.repeat)
            free_pools(xp)
        return self._copy[xp.__name__]


# -- running ------------------------------------------------------------------------------

# The libraries a run compares, in column order; rows are written for CuPy's API, and
# PyTorch runs only the rows that have a PyTorch body.
LIBRARIES = ("cuarray", "CuPy", "PyTorch")


@dataclasses.dataclass
class Result:
    bench: Bench
    name: str
    figures: dict     # library label -> float, or None when it failed, is absent or has no body
    errors: dict      # library label -> "ExcType: message"
    ceiling: float = None  # copy bandwidth (GB/s), for targets relative to it
    skipped: dict = dataclasses.field(default_factory=dict)  # library label -> reason

    def ratio_to(self, label):
        a, b = self.figures.get("cuarray"), self.figures.get(label)
        return a / b if a is not None and b else None

    @property
    def ratio(self):
        return self.ratio_to("CuPy")

    @property
    def status(self):
        if self.errors.get("cuarray"):
            return "ERROR"
        if self.skipped.get("cuarray"):
            return "SKIP"
        t = self.bench.target
        if t is None:
            return ""
        met = t.met(self.figures.get("cuarray"), self.ratio, self.ceiling)
        return "n/a" if met is None else ("PASS" if met else "MISS")


def _body(bench, label):
    return bench.torch_fn if label == "PyTorch" else bench.fn


def run_rows(benches, libs, ctx, log=print, progress=None):
    """Run each row for each library; a failure is recorded in the row, never raised.

    `libs` maps a label of LIBRARIES to the module (None when absent); `progress(i, n,
    text)` is called before each row when given.
    """
    results = []
    for i, b in enumerate(benches):
        name = b.name.format(size=ctx.size)
        if progress is not None:
            progress(i, len(benches), f"{b.group}: {name}")
        figures, errors, skipped = {}, {}, {}
        for label, xp in libs.items():
            fn = _body(b, label)
            if xp is None or fn is None:
                figures[label] = None
                continue
            try:
                figures[label] = float(fn(xp, ctx))
            except Skip as e:
                figures[label] = None
                skipped[label] = str(e)
            except Exception as e:
                figures[label] = None
                errors[label] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
            try:
                free_pools(xp)
            except Exception:
                pass  # a library too broken to free its pool already shows in the row
        r = Result(b, name, figures, errors, skipped=skipped)
        if b.target is not None and b.target.copy and libs.get("cuarray") is not None:
            try:
                r.ceiling = ctx.copy_gbps(libs["cuarray"])
            except Exception:
                pass
        results.append(r)
        if log is not None:
            log(f"  {b.group}: {name}: " + ", ".join(
                f"{k} {errors.get(k) or skipped.get(k, '—') if v is None else fmt(v)}"
                for k, v in figures.items() if libs.get(k) is not None))
    if progress is not None:
        progress(len(benches), len(benches), "done")
    return results


def fmt(x):
    if x is None:
        return "—"
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"
