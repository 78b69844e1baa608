"""Issue "cuarray.random": bulk random-number throughput against CuPy (cuRAND underneath).

Throughput is output bytes written per second; a Philox kernel that stores 16 bytes per
thread per block approaches the device's write bandwidth.
"""
import numpy

from benchmarks.harness import Group, Target, device_time

random_group = Group("random", "cuarray.random: uniform, normal and integer throughput")
N = 1 << 28


def _n(ctx):
    return (1 << 24) if ctx.quick else N


def _gbps(nbytes, ms):
    return nbytes / ms / 1e6


def _row(draw, itemsize):
    def row(xp, ctx):
        n = _n(ctx)
        xp.random.seed(0)
        return _gbps(n * itemsize, device_time(lambda: draw(xp, n), xp, repeat=ctx.repeat))
    return row


random_group.row("random(2^28, float32)", unit="GB/s", copy_pct=True,
                 target=Target.ratio(">=", 5))(
    _row(lambda xp, n: xp.random.random(n, dtype=numpy.float32), 4))
random_group.row("standard_normal(2^28, float32)", unit="GB/s", copy_pct=True,
                 target=Target.ratio(">=", 3))(
    _row(lambda xp, n: xp.random.standard_normal(n, dtype=numpy.float32), 4))
random_group.row("randint(0, 1000, 2^28) int64", unit="GB/s", copy_pct=True,
                 target=Target.ratio(">=", 2))(
    _row(lambda xp, n: xp.random.randint(0, 1000, n), 8))
random_group.row("random(2^28, float64)", unit="GB/s", copy_pct=True)(
    _row(lambda xp, n: xp.random.random(n), 8))
random_group.row("standard_normal(2^28, float64)", unit="GB/s", copy_pct=True)(
    _row(lambda xp, n: xp.random.standard_normal(n), 8))


@random_group.row("Generator.random(2^28, float32)", unit="GB/s", copy_pct=True)
def generator_random(xp, ctx):
    n, g = _n(ctx), xp.random.default_rng(0)
    return _gbps(4 * n, device_time(lambda: g.random(n, dtype=numpy.float32), xp,
                                    repeat=ctx.repeat))
