"""Issue "NumPy routines" §4 and §5: sorting, searching, sets and order statistics against CuPy.

Rows that sort run once per radix backend (`CUARRAY_SORT_BACKEND`, see
`cuarray/_libs/cccl.py`): `[own]` is cuarray's LSD kernels, `[cccl]` CUB through
cuda.compute. Compare the two to pick the default; CuPy is measured in both rows alike.
"""
import contextlib
import os

import numpy

from benchmarks.harness import Group, Target, device_time

group = Group("sorting", "NumPy routines: sorting, searching, sets, order statistics")
_ENV = "CUARRAY_SORT_BACKEND"
_BACKENDS = ("own", "cccl")


@contextlib.contextmanager
def _backend(xp, name):
    """Select cuarray's radix backend for the duration of a row (CuPy ignores it)."""
    if xp.__name__ != "cuarray":
        yield
        return
    old = os.environ.get(_ENV)
    os.environ[_ENV] = name
    try:
        yield
    finally:
        if old is None:
            del os.environ[_ENV]
        else:
            os.environ[_ENV] = old


def _size(ctx, log2):
    return 1 << (log2 - 4 if ctx.quick else log2)


def _normal(xp, n, dtype, seed=0):
    return xp.asarray(numpy.random.default_rng(seed).standard_normal(n).astype(dtype))


def _time(xp, ctx, fn):
    return device_time(fn, xp, repeat=ctx.repeat)


def _rows(name, unit, target=None):
    """Register the decorated `body(xp, ctx)` once per radix backend."""
    def register(body):
        for b in _BACKENDS:
            def fn(xp, ctx, b=b):
                with _backend(xp, b):
                    return body(xp, ctx)
            group.row(f"{name} [{b}]", unit=unit, target=target)(fn)
        return body
    return register


def _rows_of(xp, ctx, rows):
    return _normal(xp, _size(ctx, 26), numpy.float32).reshape(rows if not ctx.quick else rows // 16, -1)


@_rows("sort 2^26 float32", "ms", Target.ratio("<=", 1.0))
def sort_f32(xp, ctx):
    x = _normal(xp, _size(ctx, 26), numpy.float32)
    return _time(xp, ctx, lambda: xp.sort(x))


@_rows("argsort 2^26 float32", "ms", Target.ratio("<=", 1.2))
def argsort_f32(xp, ctx):
    x = _normal(xp, _size(ctx, 26), numpy.float32)
    return _time(xp, ctx, lambda: xp.argsort(x))


@_rows("sort 2^26 int64", "ms")
def sort_i64(xp, ctx):
    x = xp.asarray(numpy.random.default_rng(1).integers(-2**40, 2**40, _size(ctx, 26)))
    return _time(xp, ctx, lambda: xp.sort(x))


@_rows("sort (4096, 16384) float32 along axis -1", "ms")
def sort_rows(xp, ctx):
    x = _rows_of(xp, ctx, 4096)
    return _time(xp, ctx, lambda: xp.sort(x, axis=-1))


@_rows("sort (2^21, 32) float32 along axis -1 (short rows)", "ms")
def sort_short_rows(xp, ctx):
    x = _rows_of(xp, ctx, 1 << 21)
    return _time(xp, ctx, lambda: xp.sort(x, axis=-1))


@_rows("unique 2^24 int32 (2^20 distinct)", "ms", Target.ratio("<=", 1.2))
def unique_i32(xp, ctx):
    x = xp.asarray(numpy.random.default_rng(2).integers(0, 1 << 20, _size(ctx, 24)).astype(numpy.int32))
    return _time(xp, ctx, lambda: xp.unique(x))


@_rows("unique 2^24 float32, return_counts", "ms")
def unique_counts(xp, ctx):
    x = xp.asarray(numpy.random.default_rng(3).standard_normal(_size(ctx, 24)).astype(numpy.float32).round(2))
    return _time(xp, ctx, lambda: xp.unique(x, return_counts=True))


@_rows("median (4096, 16384) float32 along axis 1", "ms")
def median_rows(xp, ctx):
    x = _rows_of(xp, ctx, 4096)
    return _time(xp, ctx, lambda: xp.median(x, axis=1))


@group.row("median 2^26 float32", unit="ms", target=Target.ratio("<=", 1.0))
def median_full(xp, ctx):
    x = _normal(xp, _size(ctx, 26), numpy.float32)
    return _time(xp, ctx, lambda: xp.median(x))


@group.row("percentile [25, 50, 75] of 2^26 float32", unit="ms", target=Target.ratio("<=", 1.0))
def percentile_full(xp, ctx):
    x = _normal(xp, _size(ctx, 26), numpy.float32)
    return _time(xp, ctx, lambda: xp.percentile(x, [25.0, 50.0, 75.0]))


@group.row("histogram 2^26 float32, 256 bins, range given", unit="Gsamples/s", target=Target.ratio(">=", 1.0))
def histogram_range(xp, ctx):
    n = _size(ctx, 26)
    x = _normal(xp, n, numpy.float32)
    return n / _time(xp, ctx, lambda: xp.histogram(x, bins=256, range=(-4.0, 4.0))) / 1e6


@group.row("histogram 2^26 float32, 256 bins, range from data", unit="Gsamples/s")
def histogram_auto(xp, ctx):
    n = _size(ctx, 26)
    x = _normal(xp, n, numpy.float32)
    return n / _time(xp, ctx, lambda: xp.histogram(x, bins=256)) / 1e6


@group.row("bincount 2^26 int32, 1024 bins", unit="Gsamples/s")
def bincount(xp, ctx):
    n = _size(ctx, 26)
    x = xp.asarray(numpy.random.default_rng(3).integers(0, 1024, n).astype(numpy.int32))
    return n / _time(xp, ctx, lambda: xp.bincount(x)) / 1e6


@group.row("searchsorted 2^20 float32 queries into 2^24", unit="ms")
def searchsorted(xp, ctx):
    a = xp.sort(_normal(xp, _size(ctx, 24), numpy.float32))
    v = _normal(xp, _size(ctx, 20), numpy.float32, seed=4)
    return _time(xp, ctx, lambda: xp.searchsorted(a, v))


@group.row("isin 2^24 int32 in 2^16", unit="ms")
def isin(xp, ctx):
    rng = numpy.random.default_rng(5)
    a = xp.asarray(rng.integers(0, 1 << 20, _size(ctx, 24)).astype(numpy.int32))
    b = xp.asarray(rng.integers(0, 1 << 20, 1 << 16).astype(numpy.int32))
    return _time(xp, ctx, lambda: xp.isin(a, b))
