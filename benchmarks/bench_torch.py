"""PyTorch bodies for rows of the other groups, where PyTorch has the same operation.

Each body mirrors its row's sizes and figure (same bytes or elements counted), so the
table's cuarray/PyTorch column compares like with like. Attached by row name; a row that
was renamed or removed is reported by `missing()` (and its test), not silently skipped.
"""
import numpy

from benchmarks import (bench_compute, bench_fft, bench_foundation, bench_indexing,  # noqa: F401
                        bench_linalg, bench_manipulation, bench_random, bench_sorting)
from benchmarks.harness import GROUPS, device_time, host_time, wall_time

_MISSING = []


def _attach(group, *names):
    """Register the decorated `fn(torch, ctx)` as PyTorch's body of each named row."""
    def register(fn):
        for name in names:
            if any(b.name == name for b in GROUPS[group].rows):
                GROUPS[group].torch(name)(fn)
            else:
                _MISSING.append((group, name))
        return fn
    return register


def missing():
    """(group, row) pairs this file names but no group registers."""
    return list(_MISSING)


def _t(torch, dtype):
    return getattr(torch, numpy.dtype(dtype).name)


def _dev(torch, host):
    return torch.as_tensor(host, device="cuda")


def _uniform(torch, n, seed=0):
    return _dev(torch, numpy.random.default_rng(seed).random(n, dtype=numpy.float32))


def _normal(torch, n, seed=0):
    return _dev(torch, numpy.random.default_rng(seed).standard_normal(n).astype(numpy.float32))


def _ms(fn, torch, ctx):
    return device_time(fn, torch, repeat=ctx.repeat)


# -- compute -------------------------------------------------------------------------------

def _add_bw(dtype):
    def body(torch, ctx):
        n = bench_compute._n(ctx)
        a = torch.ones(n, dtype=_t(torch, dtype), device="cuda")
        b = torch.ones_like(a)
        it = numpy.dtype(dtype).itemsize
        return bench_compute._gbps(3 * n * it, _ms(lambda: a + b, torch, ctx))
    return body


for _dt in ("float32", "float64", "int8", "float16", "complex64"):
    _attach("compute", f"a + b {_dt} 2^28")(_add_bw(_dt))


@_attach("compute", "a[::2] + b[::2] float32 (2^28 buffers)")
def add_strided(torch, ctx):
    n = bench_compute._n(ctx)
    a, b = torch.ones(n, device="cuda"), torch.ones(n, device="cuda")
    return bench_compute._gbps(3 * (n // 2) * 4, _ms(lambda: a[::2] + b[::2], torch, ctx))


@_attach("compute", "row + column broadcast 16384x16384 float32")
def add_broadcast(torch, ctx):
    m = 4096 if ctx.quick else 16384
    r, c = torch.ones((1, m), device="cuda"), torch.ones((m, 1), device="cuda")
    return bench_compute._gbps(m * m * 4, _ms(lambda: r + c, torch, ctx))


@_attach("compute", "x.sum() float32 2^28")
def full_sum(torch, ctx):
    x = torch.ones(bench_compute._n(ctx), device="cuda")
    return bench_compute._gbps(x.numel() * 4, _ms(lambda: x.sum(), torch, ctx))


def _sum_axis(axis):
    def body(torch, ctx):
        m = 4096 if ctx.quick else 16384
        x = torch.ones((m, m), device="cuda")
        return bench_compute._gbps(m * m * 4, _ms(lambda: x.sum(dim=axis), torch, ctx))
    return body


_attach("compute", "sum(axis=0) 16384x16384 float32")(_sum_axis(0))
_attach("compute", "sum(axis=1) 16384x16384 float32")(_sum_axis(1))


@_attach("compute", "argmax float32 2^28")
def argmax(torch, ctx):
    x = torch.arange(bench_compute._n(ctx), dtype=torch.float32, device="cuda") % 1000
    return bench_compute._gbps(x.numel() * 4, _ms(lambda: x.argmax(), torch, ctx))


@_attach("compute", "var float32 2^28")
def var(torch, ctx):
    x = torch.ones(bench_compute._n(ctx), device="cuda")
    # NumPy's var is the population variance: correction=0
    return bench_compute._gbps(x.numel() * 4, _ms(lambda: x.var(correction=0), torch, ctx))


@_attach("compute", "mean(axis=0) 16384x16384 float32")
def mean0(torch, ctx):
    m = 4096 if ctx.quick else 16384
    x = torch.ones((m, m), device="cuda")
    return bench_compute._gbps(m * m * 4, _ms(lambda: x.mean(dim=0), torch, ctx))


@_attach("compute", "cumsum float32 2^26")
def cumsum(torch, ctx):
    x = torch.ones(1 << (22 if ctx.quick else 26), device="cuda")
    return bench_compute._gbps(2 * x.numel() * 4, _ms(lambda: torch.cumsum(x, 0), torch, ctx))


def _per_call(make):
    def body(torch, ctx):
        a = torch.arange(1000, dtype=torch.float32, device="cuda")
        b = torch.arange(1000, dtype=torch.float32, device="cuda")
        return host_time(make(torch, a, b), ctx.sync(torch), n=ctx.calls)
    return body


_attach("compute", "per call: a + b (1000 float32)")(_per_call(lambda t, a, b: lambda: a + b))
_attach("compute", "per call: a.sum() (1000 float32)")(_per_call(lambda t, a, b: a.sum))
_attach("compute", "per call: sin(a) (1000 float32)")(_per_call(lambda t, a, b: lambda: t.sin(a)))
_attach("compute", "per call: a * 2.0 (1000 float32)")(_per_call(lambda t, a, b: lambda: a * 2.0))
_attach("compute", "per call: add(b, a, out=b) (1000 float32)")(
    _per_call(lambda t, a, b: lambda: t.add(b, a, out=b)))

# -- foundation ----------------------------------------------------------------------------


@_attach("foundation", "zeros(1000) float32")
def zeros_small(torch, ctx):
    return host_time(lambda: torch.zeros(1000, device="cuda"), ctx.sync(torch), n=ctx.calls)


@_attach("foundation", "a[10:20]")
def basic_slice(torch, ctx):
    a = torch.zeros(1000, device="cuda")
    return host_time(lambda: a[10:20], ctx.sync(torch), n=ctx.calls)


@_attach("foundation", "a[5]")
def int_index(torch, ctx):
    a = torch.zeros(1000, device="cuda")
    return host_time(lambda: a[5], ctx.sync(torch), n=ctx.calls)


@_attach("foundation", "float(a.sum()) (1000 float32)")
def scalar_result(torch, ctx):
    a = torch.ones(1000, device="cuda")
    return host_time(lambda: float(a.sum()), ctx.sync(torch), n=ctx.calls)


@_attach("foundation", "asarray(numpy 1000 float32)")
def small_upload(torch, ctx):
    h = numpy.ones(1000, dtype=numpy.float32)
    return host_time(lambda: torch.as_tensor(h, device="cuda"), ctx.sync(torch), n=ctx.calls)


@_attach("foundation", "a.reshape(10, 100)")
def reshape_view(torch, ctx):
    a = torch.zeros(1000, device="cuda")
    return host_time(lambda: a.reshape(10, 100), ctx.sync(torch), n=ctx.calls)


def _host(torch, nbytes, pinned):
    h = torch.empty(nbytes, dtype=torch.uint8, pin_memory=pinned)
    h.fill_(1)  # fault the pages in now, not inside the timed copy
    return h


def _h2d(pinned):
    def body(torch, ctx):
        h, d = _host(torch, ctx.big, pinned), torch.empty(ctx.big, dtype=torch.uint8, device="cuda")
        return ctx.big / wall_time(lambda: d.copy_(h), ctx.sync(torch), repeat=ctx.repeat) / 1e9
    return body


def _d2h(pinned):
    def body(torch, ctx):
        h, d = _host(torch, ctx.big, pinned), torch.zeros(ctx.big, dtype=torch.uint8, device="cuda")
        return ctx.big / wall_time(lambda: h.copy_(d), ctx.sync(torch), repeat=ctx.repeat) / 1e9
    return body


_attach("foundation", "host→device {size}, pageable")(_h2d(False))
_attach("foundation", "host→device {size}, pinned")(_h2d(True))
_attach("foundation", "device→host {size}, pageable")(_d2h(False))
_attach("foundation", "device→host {size}, pinned")(_d2h(True))
_attach("foundation", "device→device copy {size} (memcpy, read + write)")(
    lambda torch, ctx: ctx.copy_gbps(torch))

# -- indexing ------------------------------------------------------------------------------


def _indices(torch, n, m, seed=1):
    return _dev(torch, numpy.random.default_rng(seed).integers(0, m, n, dtype=numpy.int64))


@_attach("indexing", "x[idx] float32 2^26, 2^26 random int64 indices")
def gather(torch, ctx):
    n = bench_indexing._n(ctx)
    x, idx = _uniform(torch, n), _indices(torch, n, n)
    return bench_indexing._rate(n, _ms(lambda: x[idx], torch, ctx))


@_attach("indexing", "x[x > 0.5] float32 2^26")
def boolean_select(torch, ctx):
    x = _uniform(torch, bench_indexing._n(ctx))
    return bench_indexing._rate(x.numel(), _ms(lambda: x[x > 0.5], torch, ctx))


@_attach("indexing", "nonzero(mask) bool 2^26")
def nonzero_mask(torch, ctx):
    m = _uniform(torch, bench_indexing._n(ctx)) > 0.5
    return bench_indexing._rate(m.numel(), _ms(lambda: torch.nonzero(m, as_tuple=True), torch, ctx))


@_attach("indexing", "add.at(x, idx, v) 2^26 into 2^20 float32")
def add_at(torch, ctx):
    n = bench_indexing._n(ctx)
    x, v, idx = _uniform(torch, 1 << 20), _uniform(torch, n, 2), _indices(torch, n, 1 << 20)
    return bench_indexing._rate(n, _ms(lambda: x.index_add_(0, idx, v), torch, ctx))


def _add_at(bins, sort=False):
    def body(torch, ctx):
        n = bench_indexing._n(ctx)
        h = numpy.random.default_rng(1).integers(0, bins, n, dtype=numpy.int64)
        x, v, idx = _uniform(torch, bins), _uniform(torch, n, 2), _dev(torch, numpy.sort(h) if sort else h)
        return bench_indexing._rate(n, _ms(lambda: x.index_add_(0, idx, v), torch, ctx))
    return body


_attach("indexing", "add.at(x, idx, v) 2^26 into 256 float32 (hot bins)")(_add_at(256))
_attach("indexing", "add.at(x, idx, v) 2^26 sorted into 2^20 float32")(_add_at(1 << 20, sort=True))

# -- manipulation, sorting, fft, random, linalg --------------------------------------------


@_attach("manipulation", "a.T.copy() 16384² float32")
def transpose_copy(torch, ctx):
    m = bench_manipulation._side(ctx)
    a = torch.ones((m, m), device="cuda")
    return bench_compute._gbps(2 * m * m * 4, _ms(lambda: a.T.contiguous(), torch, ctx))


@_attach("sorting", "sort 2^26 float32 [own]", "sort 2^26 float32 [cccl]")
def sort_f32(torch, ctx):
    x = _normal(torch, bench_sorting._size(ctx, 26))
    return _ms(lambda: torch.sort(x), torch, ctx)


@_attach("sorting", "argsort 2^26 float32 [own]", "argsort 2^26 float32 [cccl]")
def argsort_f32(torch, ctx):
    x = _normal(torch, bench_sorting._size(ctx, 26))
    return _ms(lambda: torch.argsort(x), torch, ctx)


@_attach("sorting", "median 2^26 float32")
def median_full(torch, ctx):
    x = _normal(torch, bench_sorting._size(ctx, 26))
    # torch.median returns the lower middle value of an even count; the work is the same
    return _ms(lambda: torch.median(x), torch, ctx)


@_attach("fft", "fft complex64 2^24")
def fft_c64(torch, ctx):
    x = _normal(torch, 1 << 24).to(torch.complex64)
    return _ms(lambda: torch.fft.fft(x), torch, ctx)


@_attach("fft", "rfft2 4096×4096 float32")
def rfft2_f32(torch, ctx):
    x = _normal(torch, 4096 * 4096).reshape(4096, 4096)
    return _ms(lambda: torch.fft.rfft2(x), torch, ctx)


def _random(draw, itemsize):
    def body(torch, ctx):
        n = bench_random._n(ctx)
        torch.manual_seed(0)
        return bench_random._gbps(n * itemsize, _ms(lambda: draw(torch, n), torch, ctx))
    return body


_attach("random", "random(2^28, float32)")(
    _random(lambda t, n: t.rand(n, device="cuda"), 4))
_attach("random", "standard_normal(2^28, float32)")(
    _random(lambda t, n: t.randn(n, device="cuda"), 4))
_attach("random", "randint(0, 1000, 2^28) int64")(
    _random(lambda t, n: t.randint(0, 1000, (n,), device="cuda"), 8))


def _matmul(dtype):
    def body(torch, ctx):
        # PyTorch's default keeps float32 matmul in full FP32 (no TF32), as cuarray's
        n = 8192
        rng = numpy.random.default_rng(0)
        a = _dev(torch, rng.random((n, n)).astype(dtype))
        b = _dev(torch, rng.random((n, n)).astype(dtype))
        flops = (8 if numpy.dtype(dtype).kind == "c" else 2) * n ** 3
        return bench_linalg._tflops(flops, _ms(lambda: a @ b, torch, ctx))
    return body


for _dt in ("float32", "float64", "complex64"):
    _attach("linalg", f"matmul 8192² {_dt}")(_matmul(_dt))


def _norm(axis, ord=None, dtype="float32", back_to_back=False):
    def body(torch, ctx):
        a = _dev(torch, bench_linalg._host((4096, 4096), dtype))
        fn = lambda: torch.linalg.vector_norm(a, 2 if ord is None else ord, dim=axis)  # noqa: E731
        ms = bench_linalg._back_to_back(fn, torch, ctx.repeat) if back_to_back else _ms(fn, torch, ctx)
        return a.numel() * a.element_size() / (ms * 1e-3) / 1e9
    return body


for _axis in (1, 0):
    _attach("linalg", f"linalg.norm(a, axis={_axis}) 4096² float32",
            *(f"linalg.norm(a, axis={_axis}) 4096² float32 [unroll {_u}]" for _u in (4, 8)))(
        _norm(_axis))
    _attach("linalg", f"linalg.norm(a, axis={_axis}) 4096² float32, back to back")(
        _norm(_axis, back_to_back=True))
_attach("linalg", "linalg.norm(a, 1, axis=1) 4096² complex64")(_norm(1, 1, "complex64"))
_attach("linalg", "linalg.norm(a, inf, axis=0) 4096² float32")(_norm(0, numpy.inf))
