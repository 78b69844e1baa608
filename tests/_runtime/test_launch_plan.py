"""LaunchPlan, the replayed launch every warm path shares (CPU): the arguments a replay
packs (template and slots), its grid, block, shared memory and stream, per-thread
buffers; and, on the emulated device, the warm paths built on it (ufuncs, elementwise
N-d plans, reductions split in two kernels, fused functions, user kernels, gathers)
giving NumPy's values when dtype, layout, alignment, stream or scalars change."""
import ctypes
import threading

import numpy
import pytest

from cuarray._runtime import device as _device
from cuarray._runtime import stream as _stream
from cuarray._runtime.launch import ArgPacker, LaunchPlan


class _Fn:
    """A function whose launches record (grid, block, shared memory, stream, values)."""

    name = "recorded"

    def __init__(self, packer):
        self.kernel = object()
        self.handle = 12345   # what the driver is given (Function.handle)
        self.packer = packer
        self.calls = []

    def _launch(self, kernel, gx, gy, gz, bx, by, bz, shm, sp, address, extra):
        assert kernel == self.handle and extra == 0
        first = (ctypes.c_void_p * 1).from_address(address)[0]
        raw = ctypes.string_at(first, self.packer._struct.size)
        self.calls.append(((gx, gy, gz), (bx, by, bz), shm, sp, self.packer._struct.unpack(raw),
                           address))
        return (0,)


@pytest.fixture
def current(monkeypatch):
    """Device 0 current with its context, no stream set: launches make no driver call."""
    tls = threading.local()
    tls.device_id = tls.ctx_device = 0
    monkeypatch.setattr(_device, "_tls", tls)
    monkeypatch.setattr(_stream._tls, "streams", None)
    return tls


def _recorded(kinds):
    packer = ArgPacker(kinds)
    return _Fn(packer), packer


def test_template_slots_are_filled_and_the_rest_kept(current):
    fn, packer = _recorded(("P", "i", "i", "P", "f", "F", "q", "P"))
    template = [0, 7, -3, 0, 0.0, 0.0, 0.0, 11, 0]
    plan = LaunchPlan(fn, packer, (4, 2), 128, shared_mem=64, vals=template,
                      slots=(0, 3, 4, 5, 6, 8))
    plan.launch([1 << 40, 2 << 40, 1.5, 2.5, -4.0, 3 << 40])
    plan.launch([5 << 40, 6 << 40, -0.5, 1.0, 8.0, 7 << 40])
    (g1, b1, s1, _, v1, _), (g2, b2, s2, _, v2, _) = fn.calls
    assert g1 == g2 == (4, 2, 1) and b1 == b2 == (128, 1, 1) and s1 == s2 == 64
    assert v1 == (1 << 40, 7, -3, 2 << 40, 1.5, 2.5, -4.0, 11, 3 << 40)
    assert v2 == (5 << 40, 7, -3, 6 << 40, -0.5, 1.0, 8.0, 11, 7 << 40)
    assert plan.values([1, 2, 3.0, 4.0, 5.0, 6]) == [1, 7, -3, 2, 3.0, 4.0, 5.0, 11, 6]


def test_without_template_every_value_is_given(current):
    fn, packer = _recorded(("P", "P", "i"))
    plan = LaunchPlan(fn, packer, block=256, per=4 * 256, cap=3)
    for n, grid in ((1, 1), (1024, 1), (1025, 2), (3 * 1024, 3), (10 ** 6, 3)):
        plan.launch([1 << 40, 2 << 40, n], n)
        assert fn.calls[-1][0] == (grid, 1, 1) and fn.calls[-1][4] == (1 << 40, 2 << 40, n)


def test_per_call_overrides(current):
    fn, packer = _recorded(("P",))
    plan = LaunchPlan(fn, packer, 3, 32)
    plan.launch([1], 0, (5, 6, 1), (8, 4, 2), 96, 1234)
    assert fn.calls[-1][:4] == ((5, 6, 1), (8, 4, 2), 96, 1234)
    plan.launch([1])
    assert fn.calls[-1][:4] == ((3, 1, 1), (32, 1, 1), 0, 0)


def test_the_stream_is_read_at_each_launch(current, monkeypatch):
    fn, packer = _recorded(("P",))
    plan = LaunchPlan(fn, packer, 1, 32)

    class S:
        ptr = 0xABC

    plan.launch([1])
    monkeypatch.setattr(_stream._tls, "streams", {0: S(), 1: None})
    plan.launch([1])
    current.device_id = current.ctx_device = 1     # device 1: its own (default) stream
    plan.launch([1])
    assert [c[3] for c in fn.calls] == [0, 0xABC, 0]


def test_the_context_is_made_current_when_it_is_not(current, monkeypatch):
    fn, packer = _recorded(("P",))
    plan = LaunchPlan(fn, packer, 1, 32)
    made = []
    monkeypatch.setattr("cuarray._runtime.launch.ensure_context",
                        lambda: made.append(current.device_id) or current.device_id)
    plan.launch([1])
    current.device_id = 1          # the thread switched device: context 0 is current
    plan.launch([1])
    assert made == [1]


def test_bad_slots_are_refused():
    fn, packer = _recorded(("P", "i"))
    for slots in ((2,), (0, 0), (-1,)):
        with pytest.raises(ValueError, match="slots"):
            LaunchPlan(fn, packer, vals=[0, 1], slots=slots)


def test_other_threads_pack_into_their_own_buffers(current):
    fn, packer = _recorded(("P", "i", "P"))
    plan = LaunchPlan(fn, packer, vals=[0, 42, 0], slots=(0, 2))
    start = threading.Barrier(4)
    errors = []

    def worker(k):
        try:
            _device._tls.device_id = _device._tls.ctx_device = 0
            start.wait()
            for i in range(200):
                plan.launch([(k << 40) + i, (k << 40) + i + 1])
        except Exception as e:   # reported below: an assertion in a thread is lost
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(1, 4)]
    for t in threads:
        t.start()
    start.wait()
    for i in range(200):
        plan.launch([i, i + 1])
    for t in threads:
        t.join()
    assert not errors
    assert len(fn.calls) == 800
    for *_, vals, _ in fn.calls:     # every launch saw its own values, never another's
        assert vals[1] == 42 and vals[2] == vals[0] + 1
    owner = {c[5] for c in fn.calls if c[4][0] < 1 << 40}
    others = {c[5] for c in fn.calls if c[4][0] >= 1 << 40}
    assert len(owner) == 1 and not owner & others


def test_stand_in_functions_launch_through_their_methods(current):
    packer = ArgPacker(("P", "i"))
    seen = []

    class Stub:
        name = "stub"

        def launch(self, grid, block, address, shared_mem, stream_ptr):
            seen.append((grid, block, shared_mem, stream_ptr))

    plan = LaunchPlan(Stub(), packer, 2, 64, vals=[0, 5], slots=(0,))
    plan.launch([1 << 40])
    assert seen == [((2, 1, 1), (64, 1, 1), 0, 0)]


# ---- the warm paths on the emulated device --------------------------------------------------

def test_ufunc_warm_path_by_dtype_alignment_and_scalar(emulated, rng):
    cp = emulated
    for dt in (numpy.float32, numpy.int16, numpy.complex128):
        h = (rng.standard_normal(301) * 50).astype(dt)
        g = rng.standard_normal(301).astype(numpy.float64)
        x, y = cp.asarray(h), cp.asarray(g)
        for _ in range(3):   # general path, then the loop's plans (aligned, then offset)
            numpy.testing.assert_allclose((x + y).get(), h + g, rtol=1e-6)
            numpy.testing.assert_allclose((x[1:] + y[1:]).get(), h[1:] + g[1:], rtol=1e-6)
            numpy.testing.assert_allclose((x[1:] * y[:-1]).get(), h[1:] * g[:-1], rtol=1e-6)
            numpy.testing.assert_allclose(cp.sin(x[1:]).get(), numpy.sin(h[1:]), rtol=1e-5,
                                          atol=1e-6)
            numpy.testing.assert_allclose((x * 2.5).get(), h * 2.5, rtol=1e-6)
            out = cp.empty_like(y)
            cp.add(y, y, out=out)
            numpy.testing.assert_allclose(out.get(), g + g)
    loop = cp.add._loops[("f", "d")]
    assert loop.flat[0] is not loop.flat[1] and None not in loop.flat


def test_ufunc_warm_path_refuses_arrays_of_another_device(emulated):
    cp = emulated
    x, y = cp.ones(64, numpy.float32), cp.ones(64, numpy.float32)
    x + y
    x + y
    y._device_id = 1     # as if it lived on device 1
    with pytest.raises(ValueError, match="device 1"):
        x + y


def test_float32_overflowing_scalar_becomes_inf(emulated):
    cp = emulated
    x = cp.asarray(numpy.arange(8, dtype=numpy.float32))
    with numpy.errstate(over="ignore"):
        want = numpy.arange(8, dtype=numpy.float32) + numpy.float32(1e300)
        for _ in range(2):   # the general path, then the warm path's retry after packing
            numpy.testing.assert_array_equal((x + 1e300).get(), want)


def test_nd_plans_with_scalars_and_strides(emulated, rng):
    cp = emulated
    k = cp.ElementwiseKernel("T x, T s", "T y", "y = x * s + (T)1", "plan_scale")
    h = rng.standard_normal((6, 10)).astype(numpy.float32)
    x = cp.asarray(h)
    for s in (2.0, -0.5, 3.0):     # one plan, the scalar filled in per call
        got = k(x[:, ::3], numpy.float32(s))
        numpy.testing.assert_allclose(got.get(), h[:, ::3] * numpy.float32(s) + 1, rtol=1e-6)
    got = k(x.T[::2], numpy.float32(4))      # other strides: another plan
    numpy.testing.assert_allclose(got.get(), h.T[::2] * 4 + 1, rtol=1e-6)


def test_split_reduction_replays_both_kernels(emulated, rng):
    cp = emulated
    h = rng.standard_normal((3, 5000)).astype(numpy.float64)
    x = cp.asarray(h)
    for _ in range(3):   # general, then warm: the partial buffer is a slot of both kernels
        numpy.testing.assert_allclose(x.sum(axis=1).get(), h.sum(axis=1), rtol=1e-10)
        numpy.testing.assert_allclose(x[:, ::2].max(axis=1).get(), h[:, ::2].max(axis=1))
        numpy.testing.assert_allclose(float(x.var()), h.var(), rtol=1e-10)


def test_fused_and_user_kernels_and_gathers(emulated, rng):
    cp = emulated
    h, g = rng.standard_normal(500).astype(numpy.float32), rng.standard_normal(500).astype(
        numpy.float32)
    x, y = cp.asarray(h), cp.asarray(g)
    f = cp.fuse(lambda a, b: (a - b) * (a - b))
    fs = cp.fuse(lambda a, b: cp.sum((a - b) ** 2))
    raw = cp.RawKernel(r'''extern "C" __global__ void axpy(const float* x, float* y, float a,
                                                         int n) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
            y[i] += a * x[i]; }''', "axpy")
    idx_h = rng.integers(0, 500, 77)
    idx = cp.asarray(idx_h)
    want_y = g.copy()
    for k in range(3):
        numpy.testing.assert_allclose(f(x, y).get(), (h - want_y) ** 2, rtol=1e-5)
        numpy.testing.assert_allclose(float(fs(x, y)), ((h - want_y) ** 2).sum(), rtol=1e-5)
        raw((k + 1,), (32,), (x, y, numpy.float32(k), numpy.int32(500)))
        want_y += numpy.float32(k) * h
        numpy.testing.assert_allclose(y.get(), want_y, rtol=1e-5)
        numpy.testing.assert_array_equal(x[idx].get(), h[idx_h])
    for n in (500, 2 ** 70):   # a Python int is a long long: the second does not fit
        if n > 2 ** 63:
            with pytest.raises(TypeError, match="cannot pass kernel arguments"):
                raw((1,), (32,), (x, y, numpy.float32(0), n))
        else:
            raw((1,), (32,), (x, y, numpy.float32(0), n))


def test_raw_kernel_plans_by_argument_types(emulated):
    cp = emulated
    k = cp.RawKernel(r'''extern "C" __global__ void fill_n(float* y, long long v, int n) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
            y[i] = (float)v; }''', "fill_n")
    y = cp.zeros(100, numpy.float32)
    k((1,), (32,), (y, 3, numpy.int32(100)))
    plan = k._plans[(cp.ndarray, int, numpy.int32)][0]
    k((2,), (64,), (y, 4, numpy.int32(100)))               # other grid: the same plan
    assert k._plans[(cp.ndarray, int, numpy.int32)][0] is plan and len(k._plans) == 1
    numpy.testing.assert_array_equal(y.get(), numpy.full(100, 4, numpy.float32))
    k((1,), (32,), (y, numpy.int64(5), numpy.int32(50)))   # other types: another plan
    assert len(k._plans) == 2
    numpy.testing.assert_array_equal(y.get()[:50], numpy.full(50, 5, numpy.float32))


def test_reduction_warm_path_refuses_arrays_of_another_device(emulated):
    cp = emulated
    x = cp.ones((4, 8), numpy.float32)
    for _ in range(2):
        assert float(x.sum()) == 32.0
    x._device_id = 1     # as if it lived on device 1
    with pytest.raises(ValueError, match="device 1"):
        x.sum()


def test_fillers_are_shared_per_slot_layout(current):
    from cuarray._runtime import launch
    fn, packer = _recorded(("P", "i", "P", "d"))
    a = LaunchPlan(fn, packer, vals=[0, 1, 0, 2.0], slots=(0, 2))
    b = LaunchPlan(fn, packer, vals=[0, 7, 0, -1.0], slots=(0, 2))
    c = LaunchPlan(fn, packer, vals=[0, 7, 0, -1.0], slots=(0, 3))
    assert a._fill.func is b._fill.func and c._fill.func is not a._fill.func
    assert len(launch._fillers) <= 1024
    c.launch([9, 0.25])
    assert fn.calls[-1][4] == (9, 7, 0, 0.25)
