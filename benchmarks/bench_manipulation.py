"""Issue "NumPy routines" §1, §2: joins, transposing copies and other data movement.

Bandwidth rows count every byte read plus every byte written by one call (GB/s), timed by
CUDA events; targets are a share of this run's device-to-device copy bandwidth. The
per-call rows (µs) are a Python loop of small calls, where launch overhead dominates.
Inputs are made on the host with NumPy (same values for both libraries) and moved once.
"""
import numpy

from benchmarks.harness import Group, Target, device_time, host_time

manipulation = Group("manipulation", "Manipulation: concatenate, stack, transposes, pad, tile")


def _big(ctx):
    return (1 << 20) if ctx.quick else (1 << 24)


def _side(ctx):
    return 4096 if ctx.quick else 16384


def _gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


def _uniform(xp, shape, seed=0):
    return xp.asarray(numpy.random.default_rng(seed).random(shape, dtype=numpy.float32))


@manipulation.row("concatenate 8 × 2^24 float32", unit="GB/s", copy_pct=True,
                  target=Target.of_copy(">=", 85))
def concatenate_8(xp, ctx):
    parts = [_uniform(xp, _big(ctx), k) for k in range(8)]
    ms = device_time(lambda: xp.concatenate(parts), xp, repeat=ctx.repeat)
    return _gbps(2 * 8 * _big(ctx) * 4, ms)


@manipulation.row("stack 8 × 2^24 float32", unit="GB/s", copy_pct=True, target=Target.of_copy(">=", 85))
def stack_8(xp, ctx):
    parts = [_uniform(xp, _big(ctx), k) for k in range(8)]
    ms = device_time(lambda: xp.stack(parts), xp, repeat=ctx.repeat)
    return _gbps(2 * 8 * _big(ctx) * 4, ms)


@manipulation.row("concatenate 8 × (4096, 512) float32, axis=1", unit="GB/s", copy_pct=True)
def concatenate_axis1(xp, ctx):
    parts = [_uniform(xp, (4096, 512), k) for k in range(8)]
    ms = device_time(lambda: xp.concatenate(parts, axis=1), xp, repeat=ctx.repeat)
    return _gbps(2 * 8 * 4096 * 512 * 4, ms)


@manipulation.row("a.T.copy() 16384² float32", unit="GB/s", copy_pct=True, target=Target.of_copy(">=", 80))
def transpose_copy(xp, ctx):
    n = _side(ctx)
    a = _uniform(xp, (n, n))
    ms = device_time(lambda: a.T.copy(), xp, repeat=ctx.repeat)
    return _gbps(2 * n * n * 4, ms)


@manipulation.row("ascontiguousarray(a.T) 16384² float32", unit="GB/s", copy_pct=True,
                  target=Target.of_copy(">=", 80))
def ascontiguous_transpose(xp, ctx):
    n = _side(ctx)
    a = _uniform(xp, (n, n))
    ms = device_time(lambda: xp.ascontiguousarray(a.T), xp, repeat=ctx.repeat)
    return _gbps(2 * n * n * 4, ms)


@manipulation.row("asfortranarray 16384² float64", unit="GB/s", copy_pct=True)
def to_fortran(xp, ctx):
    n = _side(ctx) // 2
    a = _uniform(xp, (n, n)).astype(numpy.float64)
    ms = device_time(lambda: xp.asfortranarray(a), xp, repeat=ctx.repeat)
    return _gbps(2 * n * n * 8, ms)


@manipulation.row("a.transpose(0, 2, 1).copy() 64 × 1024² float32", unit="GB/s", copy_pct=True)
def batched_transpose(xp, ctx):
    b = 16 if ctx.quick else 64
    a = _uniform(xp, (b, 1024, 1024))
    ms = device_time(lambda: a.transpose(0, 2, 1).copy(), xp, repeat=ctx.repeat)
    return _gbps(2 * b * 1024 * 1024 * 4, ms)


def _tile_row(side, dtype, tile):
    """a.T.copy() with cuarray's transpose tile forced to `tile` (CuPy's figure is the same
    in each), so the default tile can be checked by measurement."""
    def row(xp, ctx):
        n = side // 4 if ctx.quick else side
        a = xp.asarray(numpy.random.default_rng(0).random((n, n)).astype(dtype))
        if xp.__name__ != "cuarray":
            return _gbps(2 * a.nbytes, device_time(lambda: a.T.copy(), xp, repeat=ctx.repeat))
        from cuarray._core import _transpose
        saved, _transpose.TILE_CHOICE = _transpose.TILE_CHOICE, tile
        try:
            return _gbps(2 * a.nbytes, device_time(lambda: a.T.copy(), xp, repeat=ctx.repeat))
        finally:
            _transpose.TILE_CHOICE = saved
    return row


for _dt_name, _side_n in (("float32", 16384), ("float64", 8192), ("float16", 16384)):
    for _t in ("32", "64"):
        manipulation.row(f"a.T.copy() {_side_n}² {_dt_name} [tile {_t}]", unit="GB/s", copy_pct=True)(
            _tile_row(_side_n, _dt_name, _t))


@manipulation.row("tile (4096, 4096) float32 × (2, 2)", unit="GB/s", copy_pct=True)
def tile(xp, ctx):
    a = _uniform(xp, (4096, 4096))
    ms = device_time(lambda: xp.tile(a, (2, 2)), xp, repeat=ctx.repeat)
    return _gbps(4096 * 4096 * 4 * 5, ms)


@manipulation.row("pad (8192, 8192) float32, 16, reflect", unit="GB/s", copy_pct=True)
def pad_reflect(xp, ctx):
    a = _uniform(xp, (8192, 8192))
    ms = device_time(lambda: xp.pad(a, 16, mode="reflect"), xp, repeat=ctx.repeat)
    return _gbps(2 * 8224 * 8224 * 4, ms)


@manipulation.row("linspace(0, 1, 2^26) float64", unit="GB/s", copy_pct=True)
def linspace(xp, ctx):
    n = 1 << (22 if ctx.quick else 26)
    ms = device_time(lambda: xp.linspace(0.0, 1.0, n), xp, repeat=ctx.repeat)
    return _gbps(n * 8, ms)


@manipulation.row("concatenate 2 × 1000 float32 (per call)", unit="µs")
def concatenate_small(xp, ctx):
    a, b = _uniform(xp, 1000), _uniform(xp, 1000, 1)
    return host_time(lambda: xp.concatenate((a, b)), ctx.sync(xp), n=ctx.calls)


@manipulation.row("stack 4 × (32, 32) float32 (per call)", unit="µs")
def stack_small(xp, ctx):
    parts = [_uniform(xp, (32, 32), k) for k in range(4)]
    return host_time(lambda: xp.stack(parts), ctx.sync(xp), n=ctx.calls)


@manipulation.row("moveaxis + reshape view (per call)", unit="µs")
def view_ops(xp, ctx):
    a = _uniform(xp, (4, 8, 16))
    return host_time(lambda: xp.moveaxis(a, 0, -1).reshape(8, -1), ctx.sync(xp), n=ctx.calls)
