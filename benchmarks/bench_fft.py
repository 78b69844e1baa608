"""Issue 5 §2: `fft` on cuFFT, against CuPy, and the plan cache at work.

The timed rows reuse a cached plan (the warm-up calls make it), as a program that
transforms the same shape repeatedly does. The plan rows show what the cache saves: a
first call makes a plan (cache cleared before each call), a repeated call finds it, and
100 repeated calls make one plan and hit it 99 times (read from the cache's `show_info`
text, which CuPy's cache prints in the same form).
"""
import re

import numpy

from benchmarks.harness import Group, Target, device_time, wall_time

fft = Group("fft", "FFT: cuFFT plans, layouts and the plan cache")


def _random(xp, shape, dtype):
    rs = numpy.random.RandomState(0)
    a = rs.standard_normal(shape).astype(numpy.float32)
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * rs.standard_normal(shape).astype(numpy.float32)
    return xp.asarray(a.astype(dtype))


@fft.row("fft complex64 2^24", unit="ms", target=Target.ratio("<=", 1.05))
def fft_c64(xp, ctx):
    x = _random(xp, 1 << 24, numpy.complex64)
    return device_time(lambda: xp.fft.fft(x), xp, repeat=ctx.repeat)


@fft.row("rfft2 4096×4096 float32", unit="ms", target=Target.ratio("<=", 1.05))
def rfft2_f32(xp, ctx):
    x = _random(xp, (4096, 4096), numpy.float32)
    return device_time(lambda: xp.fft.rfft2(x), xp, repeat=ctx.repeat)


@fft.row("ifft complex64 2^24 (with 1/n scaling)", unit="ms")
def ifft_c64(xp, ctx):
    x = _random(xp, 1 << 24, numpy.complex64)
    return device_time(lambda: xp.fft.ifft(x), xp, repeat=ctx.repeat)


@fft.row("fft axis 0 of 4096×4096 complex64 (strided)", unit="ms")
def fft_axis0(xp, ctx):
    x = _random(xp, (4096, 4096), numpy.complex64)
    return device_time(lambda: xp.fft.fft(x, axis=0), xp, repeat=ctx.repeat)


@fft.row("fftn complex64 256^3", unit="ms")
def fftn_c64(xp, ctx):
    x = _random(xp, (256, 256, 256), numpy.complex64)
    return device_time(lambda: xp.fft.fftn(x), xp, repeat=ctx.repeat)


def _plan_row(xp, ctx, clear):
    x = _random(xp, 1 << 20, numpy.complex64)
    cache = xp.fft.config.get_plan_cache()

    def call():
        if clear:
            cache.clear()
        xp.fft.fft(x)
    ms = wall_time(call, ctx.sync(xp), repeat=ctx.repeat) * 1e3
    cache.clear()
    return ms


@fft.row("fft complex64 2^20, first call: plan made", unit="ms")
def first_call(xp, ctx):
    return _plan_row(xp, ctx, clear=True)


@fft.row("fft complex64 2^20, repeated call: plan reused", unit="ms")
def repeated_call(xp, ctx):
    return _plan_row(xp, ctx, clear=False)


@fft.row("plan cache hits in 100 calls of one fft", unit="hits", target=Target.at(">=", 99))
def cache_hits(xp, ctx):
    x = _random(xp, 1 << 16, numpy.complex64)
    cache = xp.fft.config.get_plan_cache()
    cache.clear()
    for _ in range(100):
        xp.fft.fft(x)
    hits, misses = map(int, re.search(r"hits / misses: (\d+) / (\d+)", str(cache)).groups())
    size = cache.get_curr_size()
    cache.clear()
    if (misses, size) != (1, 1):
        raise AssertionError(f"100 identical calls made {misses} plans ({size} cached)")
    return hits
