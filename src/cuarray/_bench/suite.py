"""The groups `python -m cuarray bench` runs: per-call cost, bandwidth, libraries, transfers, scaling.

Each row is written once against CuPy's API (`xp` is cuarray or cupy); where PyTorch has
the same operation, a PyTorch body times it with the same timer.
"""
import numpy

from cuarray._bench.harness import Group, device_time, host_time, wall_time

overhead = Group("overhead", "Per-call cost on 1000-element float32 arrays (µs)")
bandwidth = Group("bandwidth", "Bandwidth of elementwise, reduction, scan and copy kernels")
libraries = Group("libraries", "Library-backed operations: matmul, FFT, sort, random")
transfers = Group("transfers", "Host-device transfers")
scaling = Group("scaling", "a + b float32 across sizes (µs per call)")
GROUP_NAMES = ("overhead", "bandwidth", "libraries", "transfers", "scaling")

_N = 1000


def _small(xp, seed=0):
    rng = numpy.random.default_rng(seed)
    return xp.asarray(rng.random(_N, dtype=numpy.float32))


def _small_torch(torch, seed=0):
    rng = numpy.random.default_rng(seed)
    return torch.as_tensor(rng.random(_N, dtype=numpy.float32), device="cuda")


def _per_call(fn, xp, ctx):
    return host_time(fn, ctx.sync(xp), n=ctx.calls)


# -- per call ----------------------------------------------------------------------------

# name -> (CuPy-API body, PyTorch body); each takes the module and the 1000-element array
_PER_CALL = {
    "a + b": (lambda xp, a: (lambda b: lambda: a + b)(_small(xp, 1)),
              lambda t, a: (lambda b: lambda: a + b)(_small_torch(t, 1))),
    "a * 2.0": (lambda xp, a: lambda: a * 2.0, lambda t, a: lambda: a * 2.0),
    "sin(a)": (lambda xp, a: lambda: xp.sin(a), lambda t, a: lambda: t.sin(a)),
    "a.sum()": (lambda xp, a: a.sum, lambda t, a: a.sum),
    "zeros(1000)": (lambda xp, a: lambda: xp.zeros(_N, dtype=numpy.float32),
                    lambda t, a: lambda: t.zeros(_N, dtype=t.float32, device="cuda")),
    "a[10:20]": (lambda xp, a: lambda: a[10:20], lambda t, a: lambda: a[10:20]),
    "a[5]": (lambda xp, a: lambda: a[5], lambda t, a: lambda: a[5]),
    "a.reshape(10, 100)": (lambda xp, a: lambda: a.reshape(10, 100),
                           lambda t, a: lambda: a.reshape(10, 100)),
    "float(a.sum())": (lambda xp, a: lambda: float(a.sum()), lambda t, a: lambda: float(a.sum())),
    "asarray(numpy 1000)": (
        lambda xp, a: (lambda h: lambda: xp.asarray(h))(numpy.ones(_N, numpy.float32)),
        lambda t, a: (lambda h: lambda: t.as_tensor(h, device="cuda"))(
            numpy.ones(_N, numpy.float32))),
}


def _register_per_call(name, cupy_body, torch_body):
    label = f"{name} ({_N} float32)"
    overhead.row(label, unit="µs")(
        lambda xp, ctx: _per_call(cupy_body(xp, _small(xp)), xp, ctx))
    overhead.torch(label)(
        lambda torch, ctx: _per_call(torch_body(torch, _small_torch(torch)), torch, ctx))


for _name, (_c, _t) in _PER_CALL.items():
    _register_per_call(_name, _c, _t)

_TOUCH = r"""
extern "C" __global__ void touch(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}
"""


@overhead.row("RawKernel launch, 2 args", unit="µs")
def raw_launch(xp, ctx):
    kernel = xp.RawKernel(_TOUCH, "touch")
    a = xp.zeros(32, dtype=numpy.float32)
    args = (a, numpy.int32(32))
    return _per_call(lambda: kernel((1,), (32,), args), xp, ctx)


# -- bandwidth ---------------------------------------------------------------------------

def _gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


def _vector(xp, ctx, dtype, parts):
    """A random vector filling 1/parts of the run's buffer size."""
    return xp.asarray(_host_vector(ctx, dtype, parts))


def _vector_torch(torch, ctx, dtype, parts):
    return torch.as_tensor(_host_vector(ctx, dtype, parts), device="cuda")


def _host_vector(ctx, dtype, parts, seed=1):
    n = ctx.big // numpy.dtype(dtype).itemsize // parts
    return numpy.random.default_rng(seed).random(n, dtype=numpy.float32).astype(dtype)


def _device_gbps(fn, xp, ctx, nbytes):
    return _gbps(nbytes, device_time(fn, xp, repeat=ctx.repeat))


@bandwidth.row("device→device copy {size}", unit="GB/s", copy_pct=True)
def copy_row(xp, ctx):
    return ctx.copy_gbps(xp)


bandwidth.torch("device→device copy {size}")(lambda torch, ctx: ctx.copy_gbps(torch))

# name -> (dtype, parts of the buffer per operand, bytes moved per element / itemsize,
#          CuPy-API body, PyTorch body); `a + b` adds two distinct arrays (a + a would
#          read memory once and overstate the bandwidth)
_STREAMS = {
    "a + b float32": ("float32", 3, 3, lambda xp, a: (lambda b: lambda: a + b)(a.copy()),
                      lambda t, a: (lambda b: lambda: a + b)(a.clone())),
    "a + b float16": ("float16", 3, 3, lambda xp, a: (lambda b: lambda: a + b)(a.copy()),
                      lambda t, a: (lambda b: lambda: a + b)(a.clone())),
    "sin(a) float32": ("float32", 2, 2, lambda xp, a: lambda: xp.sin(a),
                       lambda t, a: lambda: t.sin(a)),
    "a.sum() float32": ("float32", 1, 1, lambda xp, a: a.sum, lambda t, a: a.sum),
    "cumsum(a) float32": ("float32", 2, 2, lambda xp, a: lambda: xp.cumsum(a),
                          lambda t, a: lambda: t.cumsum(a, 0)),
    "a.astype(float16)": ("float32", 2, 1.5, lambda xp, a: lambda: a.astype(numpy.float16),
                          lambda t, a: lambda: a.to(t.float16)),
}


def _register_stream(name, dtype, parts, moved, cupy_body, torch_body):
    label = f"{name}, {{size}} buffer"

    def run(xp, ctx):
        a = _vector(xp, ctx, dtype, parts)
        return _device_gbps(cupy_body(xp, a), xp, ctx, moved * a.nbytes)

    def run_torch(torch, ctx):
        a = _vector_torch(torch, ctx, dtype, parts)
        nbytes = a.numel() * a.element_size()
        return _device_gbps(torch_body(torch, a), torch, ctx, moved * nbytes)

    bandwidth.row(label, unit="GB/s", copy_pct=True)(run)
    bandwidth.torch(label)(run_torch)


for _name, _spec in _STREAMS.items():
    _register_stream(_name, *_spec)


@bandwidth.row("a.T.copy() float32 square, {size} buffer", unit="GB/s", copy_pct=True)
def transpose_copy(xp, ctx):
    side = int((ctx.big // 8) ** 0.5)
    a = xp.ones((side, side), dtype=numpy.float32)
    return _device_gbps(lambda: a.T.copy(), xp, ctx, 2 * a.nbytes)


@bandwidth.torch("a.T.copy() float32 square, {size} buffer")
def transpose_copy_torch(torch, ctx):
    side = int((ctx.big // 8) ** 0.5)
    a = torch.ones((side, side), dtype=torch.float32, device="cuda")
    return _device_gbps(lambda: a.T.contiguous(), torch, ctx, 2 * a.numel() * 4)


# -- libraries ---------------------------------------------------------------------------

def _matmul_side(ctx):
    return 2048 if ctx.quick else 8192


@libraries.row("matmul float32 square", unit="TFLOP/s")
def matmul(xp, ctx):
    n = _matmul_side(ctx)
    a = xp.ones((n, n), dtype=numpy.float32)
    return 2 * n ** 3 / (device_time(lambda: a @ a, xp, repeat=ctx.repeat) * 1e-3) / 1e12


@libraries.torch("matmul float32 square")
def matmul_torch(torch, ctx):
    # PyTorch's default allows no TF32 in matmul, as cuarray's default (full FP32)
    n = _matmul_side(ctx)
    a = torch.ones((n, n), dtype=torch.float32, device="cuda")
    return 2 * n ** 3 / (device_time(lambda: a @ a, torch, repeat=ctx.repeat) * 1e-3) / 1e12


@libraries.row("fft complex64, {size} buffer", unit="ms")
def fft(xp, ctx):
    a = _vector(xp, ctx, "complex64", 2)
    return device_time(lambda: xp.fft.fft(a), xp, repeat=ctx.repeat)


@libraries.torch("fft complex64, {size} buffer")
def fft_torch(torch, ctx):
    a = _vector_torch(torch, ctx, "complex64", 2)
    return device_time(lambda: torch.fft.fft(a), torch, repeat=ctx.repeat)


@libraries.row("sort float32, {size} buffer / 4", unit="ms")
def sort(xp, ctx):
    a = _vector(xp, ctx, "float32", 4)
    return device_time(lambda: xp.sort(a), xp, repeat=ctx.repeat)


@libraries.torch("sort float32, {size} buffer / 4")
def sort_torch(torch, ctx):
    a = _vector_torch(torch, ctx, "float32", 4)
    return device_time(lambda: torch.sort(a), torch, repeat=ctx.repeat)


@libraries.row("random normal float32, {size} buffer", unit="GB/s", copy_pct=True)
def normal(xp, ctx):
    n = ctx.big // 4
    rng = xp.random.default_rng(0)
    return _device_gbps(lambda: rng.standard_normal(n, dtype=numpy.float32), xp, ctx, 4 * n)


@libraries.torch("random normal float32, {size} buffer")
def normal_torch(torch, ctx):
    n = ctx.big // 4
    gen = torch.Generator(device="cuda").manual_seed(0)
    return _device_gbps(lambda: torch.randn(n, generator=gen, device="cuda"), torch, ctx, 4 * n)


# -- transfers ---------------------------------------------------------------------------

def _host(nbytes):
    h = numpy.empty(nbytes, numpy.uint8)
    h.fill(1)  # fault the pages in now, not inside the timed copy
    return h


@transfers.row("host→device {size}, pageable", unit="GB/s")
def h2d(xp, ctx):
    h, d = _host(ctx.big), xp.empty(ctx.big, dtype=numpy.uint8)
    return ctx.big / wall_time(lambda: d.set(h), ctx.sync(xp), repeat=ctx.repeat) / 1e9


@transfers.torch("host→device {size}, pageable")
def h2d_torch(torch, ctx):
    h = torch.from_numpy(_host(ctx.big))
    d = torch.empty(ctx.big, dtype=torch.uint8, device="cuda")
    return ctx.big / wall_time(lambda: d.copy_(h), ctx.sync(torch), repeat=ctx.repeat) / 1e9


@transfers.row("device→host {size}, pageable", unit="GB/s")
def d2h(xp, ctx):
    h, d = _host(ctx.big), xp.ones(ctx.big, dtype=numpy.uint8)
    return ctx.big / wall_time(lambda: d.get(out=h), ctx.sync(xp), repeat=ctx.repeat) / 1e9


@transfers.torch("device→host {size}, pageable")
def d2h_torch(torch, ctx):
    h = torch.from_numpy(_host(ctx.big))
    d = torch.ones(ctx.big, dtype=torch.uint8, device="cuda")
    return ctx.big / wall_time(lambda: h.copy_(d), ctx.sync(torch), repeat=ctx.repeat) / 1e9


# -- scaling -----------------------------------------------------------------------------

def _sizes():
    return [1 << k for k in range(10, 27, 2)]  # up to 256 MiB per operand


def _calls(ctx, n):
    """Enough calls to time small sizes well, few enough that large ones stay quick."""
    return max(5, min(ctx.calls, (1 << 26) // n))


def _register_scaling(n):
    label = f"a + b float32, n=2^{n.bit_length() - 1}"

    def run(xp, ctx):
        a, b = xp.ones(n, dtype=numpy.float32), xp.ones(n, dtype=numpy.float32)
        return host_time(lambda: a + b, ctx.sync(xp), n=_calls(ctx, n), loops=3)

    def run_torch(torch, ctx):
        a, b = torch.ones(n, device="cuda"), torch.ones(n, device="cuda")
        return host_time(lambda: a + b, ctx.sync(torch), n=_calls(ctx, n), loops=3)

    scaling.row(label, unit="µs", size=n)(run)
    scaling.torch(label)(run_torch)


for _n in _sizes():
    _register_scaling(_n)
