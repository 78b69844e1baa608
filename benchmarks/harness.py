"""Timers, the row registry and the report for `python -m benchmarks`.

A benchmark row is a function `fn(xp, ctx) -> float` written against CuPy's public API,
so the same body measures cuarray (`xp=cuarray`) and CuPy (`xp=cupy`) in one process.
"""
import dataclasses
import datetime
import json
import platform
import re
import statistics
import time
from pathlib import Path

import numpy

GROUPS = {}  # group name -> Group, filled as bench_*.py modules are imported
_LOWER_IS_BETTER = {"µs", "ms", "s"}
RESULTS_DIR = Path(__file__).resolve().parent / "results"


# -- timers -----------------------------------------------------------------------------

def sync_of(xp):
    """A function that waits until all work queued on the current device is done."""
    return lambda: xp.cuda.Device().synchronize()


def device_time(fn, xp, warmup=3, repeat=20):
    """Median device time of one call, in ms, from CUDA events around each call."""
    for _ in range(warmup):
        fn()
    start, end = xp.cuda.Event(), xp.cuda.Event()
    times = []
    for _ in range(repeat):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(xp.cuda.get_elapsed_time(start, end))
    return statistics.median(times)


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
    a = xp.empty(nbytes, dtype=numpy.uint8)
    b = xp.empty(nbytes, dtype=numpy.uint8)
    ms = device_time(lambda: b.data.copy_from_device_async(a.data, nbytes), xp, repeat=repeat)
    return 2 * nbytes / (ms * 1e-3) / 1e9


def free_pools(xp):
    """Return cached device and pinned blocks so one row's buffers do not crowd the next."""
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

    def row(self, name, unit, target=None, copy_pct=False):
        def register(fn):
            self.rows.append(Bench(self.name, name, fn, unit, target, copy_pct))
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


# -- running and reporting ----------------------------------------------------------------

@dataclasses.dataclass
class Result:
    bench: Bench
    name: str
    figures: dict     # library label -> float, or None when it failed or is absent
    errors: dict      # library label -> "ExcType: message"
    ceiling: float = None  # copy bandwidth (GB/s), for targets relative to it
    skipped: dict = dataclasses.field(default_factory=dict)  # library label -> reason

    @property
    def ratio(self):
        a, b = self.figures.get("cuarray"), self.figures.get("CuPy")
        return a / b if a is not None and b else None

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


def run_rows(benches, libs, ctx, log=print):
    """Run each row for each library; a failure is recorded in the row, never raised."""
    results = []
    for b in benches:
        name = b.name.format(size=ctx.size)
        figures, errors, skipped = {}, {}, {}
        for label, xp in libs.items():
            if xp is None:
                figures[label] = None
                continue
            try:
                figures[label] = float(b.fn(xp, ctx))
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
        log(f"  {b.group}: {name}: " + ", ".join(
            f"{k} {errors.get(k) or skipped.get(k, 'absent') if v is None else _fmt(v)}"
            for k, v in figures.items()))
    return results


def _fmt(x):
    if x is None:
        return "—"
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def _ceiling(results, ctx, libs):
    """The best device-to-device copy bandwidth of this run (GB/s), measuring it if needed."""
    if not any(r.bench.copy_pct for r in results):
        return None
    best = None
    for xp in libs.values():
        if xp is None:
            continue
        try:
            v = ctx.copy_gbps(xp)
        except Exception:
            continue
        best = v if best is None else max(best, v)
    return best


def _cell(r, label, ceiling):
    v = r.figures.get(label)
    if v is None:
        return "error" if r.errors.get(label) else ("skip" if r.skipped.get(label) else "—")
    if r.bench.copy_pct and ceiling:
        return f"{_fmt(v)} ({100 * v / ceiling:.0f}%)"
    return _fmt(v)


def markdown(results, ceiling):
    """The results as a markdown table (paste into benchmarks/RESULTS.md), then the errors."""
    lines = ["| benchmark | cuarray | CuPy | unit | cuarray/CuPy | better | target | result |",
             "| --- | ---: | ---: | --- | ---: | --- | --- | --- |"]
    for r in results:
        b = r.bench
        unit = b.unit + (" (% of copy)" if b.copy_pct and ceiling else "")
        ratio = f"{r.ratio:.2f}×" if r.ratio is not None else "—"
        target = b.target.label(b.unit) if b.target else ""
        lines.append(f"| {r.name} | {_cell(r, 'cuarray', ceiling)} | {_cell(r, 'CuPy', ceiling)} "
                     f"| {unit} | {ratio} | {b.better} | {target} | {r.status} |")
    errors = [f"- {r.name} ({lib}): {msg}" for r in results for lib, msg in r.errors.items()]
    if errors:
        lines += ["", "Errors:", *errors]
    skipped = sorted({f"- {r.name}: {msg}" for r in results for msg in r.skipped.values()})
    if skipped:
        lines += ["", "Skipped:", *skipped]
    return "\n".join(lines)


def _slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-") or "gpu"


def default_json_path(gpu, now):
    return RESULTS_DIR / f"{now:%Y-%m-%d-%H%M}-{_slug(gpu)}.json"


def report(results, ctx, libs, meta, json_path=None, out=print):
    """Print the table and write the JSON record; return the path written."""
    ceiling = _ceiling(results, ctx, libs)
    now = datetime.datetime.now()
    parts = [f"{now:%Y-%m-%d %H:%M}", str(meta.get("gpu"))]
    parts += [f"{k} {v}" for k, v in meta.items() if k != "gpu" and v is not None]
    parts.append(f"buffers {ctx.size}" + (" (quick)" if ctx.quick else ""))
    out("\n" + ", ".join(parts))
    if ceiling:
        out(f"device-to-device copy ceiling: {_fmt(ceiling)} GB/s (read + write)")
    out("")
    out(markdown(results, ceiling))
    path = Path(json_path) if json_path else default_json_path(meta.get("gpu", "gpu"), now)
    record = {
        "date": now.isoformat(timespec="seconds"),
        "quick": ctx.quick,
        "buffer_bytes": ctx.big,
        "copy_ceiling_gbps": ceiling,
        **meta,
        "python": platform.python_version(),
        "rows": [{
            "group": r.bench.group, "name": r.name, "unit": r.bench.unit,
            "better": r.bench.better, "cuarray": r.figures.get("cuarray"),
            "cupy": r.figures.get("CuPy"), "ratio": r.ratio,
            "pct_of_copy": {k: 100 * v / ceiling for k, v in r.figures.items()
                            if v is not None} if r.bench.copy_pct and ceiling else None,
            "target": r.bench.target.label(r.bench.unit) if r.bench.target else None,
            "status": r.status, "errors": r.errors, "skipped": r.skipped,
        } for r in results],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    out(f"\nJSON: {path}")
    return path
