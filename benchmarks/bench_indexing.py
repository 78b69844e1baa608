"""Issue "NumPy routines" §3: advanced and boolean indexing, nonzero, scatter.

Figures are elements processed per second (G/s): the index or mask length divided by the
device time of one call. Boolean selection and nonzero read their result size on the host
once, in both libraries; the device time between the events includes that wait.
Inputs are made on the host with NumPy (same values for both libraries) and moved once.
"""
import numpy

from benchmarks.harness import Group, Target, device_time

indexing = Group("indexing", "Indexing: gather, boolean selection, nonzero, scatter")
N = 1 << 26


def _n(ctx):
    return (1 << 22) if ctx.quick else N


def _rate(n, ms):
    return n / ms / 1e6   # G elements / s


def _uniform(xp, n, seed=0):
    return xp.asarray(numpy.random.default_rng(seed).random(n, dtype=numpy.float32))


def _indices(xp, n, m, seed=1):
    return xp.asarray(numpy.random.default_rng(seed).integers(0, m, n, dtype=numpy.int64))


@indexing.row("x[idx] float32 2^26, 2^26 random int64 indices", unit="G/s", target=Target.ratio(">=", 1.0))
def gather(xp, ctx):
    n = _n(ctx)
    x, idx = _uniform(xp, n), _indices(xp, n, n)
    return _rate(n, device_time(lambda: x[idx], xp, repeat=ctx.repeat))


@indexing.row("x[idx] (n, 64) float32 rows, n = 2^20", unit="G/s", target=Target.ratio(">=", 1.0))
def gather_rows(xp, ctx):
    n = _n(ctx) // 64
    x, idx = _uniform(xp, n * 64).reshape(n, 64), _indices(xp, n, n)
    return _rate(n * 64, device_time(lambda: x[idx], xp, repeat=ctx.repeat))


@indexing.row("x[x > 0.5] float32 2^26", unit="G/s", target=Target.ratio(">=", 1.0))
def boolean_select(xp, ctx):
    x = _uniform(xp, _n(ctx))
    return _rate(x.size, device_time(lambda: x[x > 0.5], xp, repeat=ctx.repeat))


@indexing.row("nonzero(x) float32 2^26, half zeros", unit="G/s", target=Target.ratio(">=", 1.0))
def nonzero_float(xp, ctx):
    u = _uniform(xp, _n(ctx))
    x = xp.where(u > 0.5, u, xp.float32(0))
    return _rate(x.size, device_time(lambda: xp.nonzero(x), xp, repeat=ctx.repeat))


@indexing.row("nonzero(mask) bool 2^26", unit="G/s", target=Target.ratio(">=", 1.0))
def nonzero_mask(xp, ctx):
    m = _uniform(xp, _n(ctx)) > 0.5
    return _rate(m.size, device_time(lambda: xp.nonzero(m), xp, repeat=ctx.repeat))


@indexing.row("x[idx] = v float32 2^26 random", unit="G/s", target=Target.ratio(">=", 1.0))
def scatter(xp, ctx):
    n = _n(ctx)
    x, v, idx = _uniform(xp, n), _uniform(xp, n, 2), _indices(xp, n, n)

    def run():
        x[idx] = v
    return _rate(n, device_time(run, xp, repeat=ctx.repeat))


@indexing.row("add.at(x, idx, v) 2^26 into 2^20 float32", unit="G/s", target=Target.ratio(">=", 1.0))
def add_at(xp, ctx):
    n = _n(ctx)
    x, v, idx = _uniform(xp, 1 << 20), _uniform(xp, n, 2), _indices(xp, n, 1 << 20)
    return _rate(n, device_time(lambda: xp.add.at(x, idx, v), xp, repeat=ctx.repeat))


def _add_at_row(bins, update=None, sort=False):
    """add.at of 2^26 float32 values into `bins` slots; `update` forces cuarray's kernel
    variant (CuPy's figure is the same in each), so the default can be checked."""
    def row(xp, ctx):
        n = _n(ctx)
        x, v = _uniform(xp, bins), _uniform(xp, n, 2)
        h = numpy.random.default_rng(1).integers(0, bins, n, dtype=numpy.int64)
        idx = xp.asarray(numpy.sort(h) if sort else h)

        def run():
            return _rate(n, device_time(lambda: xp.add.at(x, idx, v), xp, repeat=ctx.repeat))
        if update is None or xp.__name__ != "cuarray":
            return run()
        from cuarray._core import _ufunc_at
        saved, _ufunc_at.AT_UPDATE = _ufunc_at.AT_UPDATE, update
        try:
            return run()
        finally:
            _ufunc_at.AT_UPDATE = saved
    return row


for _u in ("vector", "aggregate", "prefetch", "plain"):
    indexing.row(f"add.at(x, idx, v) 2^26 into 2^20 float32 [{_u}]", unit="G/s")(_add_at_row(1 << 20, _u))
indexing.row("add.at(x, idx, v) 2^26 into 256 float32 (hot bins)", unit="G/s",
             target=Target.ratio(">=", 1.0))(_add_at_row(256))
indexing.row("add.at(x, idx, v) 2^26 sorted into 2^20 float32", unit="G/s",
             target=Target.ratio(">=", 1.0))(_add_at_row(1 << 20, sort=True))
for _u in ("vector", "aggregate", "plain"):
    indexing.row(f"add.at(x, idx, v) 2^26 into 256 float32 [{_u}]", unit="G/s")(_add_at_row(256, _u))
for _u in ("vector", "aggregate"):
    indexing.row(f"add.at(x, idx, v) 2^26 sorted into 2^20 float32 [{_u}]", unit="G/s")(
        _add_at_row(1 << 20, _u, sort=True))


@indexing.row("x[mask] = 0 float32 2^26", unit="G/s", target=Target.ratio(">=", 1.0))
def mask_fill(xp, ctx):
    x = _uniform(xp, _n(ctx))
    m = x > 0.5

    def run():
        x[m] = 0
    return _rate(x.size, device_time(run, xp, repeat=ctx.repeat))
