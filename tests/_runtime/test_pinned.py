"""Pinned host memory: the pool and the staged copies on fakes (CPU), and for real (GPU)."""
import ctypes
import sys
import types

import numpy
import pytest

from cuarray._runtime import memory, memory_blocks, memory_pool
from cuarray._runtime import pinned
from cuarray._runtime.driver import CUDARuntimeError


# ---------------------------------------------------------------- CPU: fakes

class FakeHost:
    """Host memory standing in for pinned memory; tracks what is live."""

    def __init__(self, driver=None, fail=()):
        self.live = {}
        self.calls = 0
        self.fail = list(fail)
        self.driver = driver

    def __call__(self, size):
        self.calls += 1
        if self.fail:
            raise self.fail.pop(0)
        return pinned.PinnedMemoryPointer(FakePinned(self, size), 0)


class FakePinned:
    def __init__(self, host, size):
        self.buf = ctypes.create_string_buffer(size)
        self.ptr, self.size, self._host = ctypes.addressof(self.buf), size, host
        host.live[self.ptr] = size
        if host.driver is not None:
            host.driver.pinned.append((self.ptr, self.ptr + size))

    def __del__(self):
        del self._host.live[self.ptr]


class FakeEvent:
    def __init__(self, done=False):
        self.done = done
        self.synced = False

    def synchronize(self):
        self.synced = self.done = True


class QueueDriver:
    """A driver whose streams run their work only when something waits for it.

    "Device" memory is host memory. Work queued on a stream runs when the stream is
    synchronised or an event recorded after it is waited for, so a helper that reuses
    a staging buffer before the copy reading it has run corrupts the data here, as it
    would on a GPU.
    """

    CUpointer_attribute = types.SimpleNamespace(CU_POINTER_ATTRIBUTE_MEMORY_TYPE=2)

    def __init__(self):
        self.ops = {}        # stream -> [callable]
        self.ran = {}        # stream -> how many ops have run
        self.events = {}     # ptr -> event
        self.pinned = []     # (start, end) host ranges that count as pinned
        self.log = []

    def _queue(self, stream, op, name):
        self.ops.setdefault(stream, []).append(op)
        self.log.append((name, stream))
        return (0,)

    def run(self, stream, upto=None):
        ops = self.ops.get(stream, [])
        upto = len(ops) if upto is None else upto
        while self.ran.get(stream, 0) < upto:
            i = self.ran.get(stream, 0)
            self.ran[stream] = i + 1
            ops[i]()

    def _is_pinned(self, ptr):
        return any(a <= ptr < b for a, b in self.pinned)

    def cuMemcpyHtoDAsync(self, dst, src, n, stream):
        if not self._is_pinned(src):
            # as the driver: pageable memory is staged before the call returns
            data = ctypes.string_at(src, n)
            return self._queue(stream, lambda: ctypes.memmove(dst, data, n), ("HtoD", src))
        return self._queue(stream, lambda: ctypes.memmove(dst, src, n), ("HtoD", src))

    def cuMemcpyDtoHAsync(self, dst, src, n, stream):
        r = self._queue(stream, lambda: ctypes.memmove(dst, src, n), ("DtoH", dst))
        if not self._is_pinned(dst):
            self.run(stream)   # as the driver: a copy into pageable memory is done on return
        return r

    def cuMemcpyDtoH(self, dst, src, n):
        # the legacy default stream's synchronous copy: its queue, then the copy
        self.log.append((("DtoH sync", dst), 0))
        self.run(0)
        ctypes.memmove(dst, src, n)
        return (0,)

    def cuStreamSynchronize(self, stream):
        self.log.append(("sync", stream))
        self.run(stream)
        return (0,)

    def cuEventRecord(self, ptr, stream):
        ev = self.events[ptr]
        ev.stream, ev.mark = stream, len(self.ops.get(stream, []))
        return (0,)

    def cuPointerGetAttribute(self, attr, ptr):
        if self._is_pinned(ptr):
            return (0, 1)    # CU_MEMORYTYPE_HOST
        return (1, 0)        # CUDA_ERROR_INVALID_VALUE: pageable


@pytest.fixture
def drv(monkeypatch):
    d = QueueDriver()

    class Event:
        def __init__(self, disable_timing=False):
            self.ptr = id(self)
            self.stream, self.mark = None, 0
            d.events[self.ptr] = self

        @property
        def done(self):
            return self.stream is None or d.ran.get(self.stream, 0) >= self.mark

        def synchronize(self):
            if self.stream is not None:
                d.run(self.stream, self.mark)

    monkeypatch.setattr(memory_blocks, "_d", d)
    monkeypatch.setattr(pinned, "ensure_context", lambda: 0)
    monkeypatch.setattr(pinned, "Event", Event)
    # Small thresholds so that small arrays take every path.
    monkeypatch.setattr(pinned, "_STAGE_MAX", 8192)
    monkeypatch.setattr(pinned, "_CHUNK", 2048)
    monkeypatch.setattr(pinned, "_CHECK_PINNED_MIN", 1024)
    monkeypatch.setattr(pinned, "_D2H_DIRECT_MAX", 512)
    return d


@pytest.fixture
def use_pool():
    """Install a pool on a given fake allocator as the pinned allocator, then restore."""
    saved = pinned._current_allocator

    def install(allocator):
        p = pinned.PinnedMemoryPool(allocator)
        pinned.set_pinned_memory_allocator(p.malloc)
        return p

    yield install
    pinned._current_allocator = saved


def test_pool_rounds_and_reuses():
    host = FakeHost()
    pool = pinned.PinnedMemoryPool(host)
    p = pool.malloc(400)
    assert p.size() == 512 and pool.used_bytes() == pool.total_bytes() == 512
    ptr = p.ptr
    del p
    assert pool.used_bytes() == 0 and pool.total_bytes() == 512 and pool.n_free_blocks() == 1
    q = pool.malloc(500)
    assert q.ptr == ptr and host.calls == 1
    r = pool.malloc(513)                    # another size: another block
    assert r.ptr != ptr and r.size() == 1024 and host.calls == 2
    del q, r
    assert pool.n_free_blocks() == 2 and pool.total_bytes() == 1536
    pool.free_all_blocks()
    assert pool.n_free_blocks() == pool.total_bytes() == pool.used_bytes() == 0
    assert host.live == {}


def test_pool_zero_and_negative():
    pool = pinned.PinnedMemoryPool(FakeHost())
    p = pool.malloc(0)
    assert p.ptr == 0 and p.size() == 0 and pool.total_bytes() == 0
    assert p.as_numpy().shape == (0,)
    with pytest.raises(ValueError, match="negative"):
        pool.malloc(-5)


def test_block_with_pending_copy_is_not_lent_again():
    host = FakeHost()
    pool = pinned.PinnedMemoryPool(host)
    p = pool.malloc(100)
    first = p.ptr
    ev = FakeEvent(done=False)
    p.mem.event = ev                        # an async copy still reads it
    del p
    assert pool.n_free_blocks() == 1 and pool.used_bytes() == 0
    q = pool.malloc(100)
    assert q.ptr != first and host.calls == 2
    ev.done = True
    r = pool.malloc(100)
    assert r.ptr == first and host.calls == 2
    del q, r


def test_free_all_blocks_waits_for_pending_copies():
    host = FakeHost()
    pool = pinned.PinnedMemoryPool(host)
    p = pool.malloc(100)
    ev = FakeEvent()
    p.mem.event = ev
    del p
    pool.free_all_blocks()
    assert ev.synced and host.live == {} and pool.n_free_blocks() == 0


def test_pool_oom_frees_cached_blocks_then_raises():
    host = FakeHost()
    pool = pinned.PinnedMemoryPool(host)
    pool.malloc(1024)                       # returned at once: cached
    host.fail = [CUDARuntimeError(2)]
    p = pool.malloc(4096)
    assert list(host.live.values()) == [4096] and pool.total_bytes() == 4096
    host.fail = [CUDARuntimeError(2), CUDARuntimeError(2)]
    with pytest.raises(memory.OutOfMemoryError, match="8,192 bytes"):
        pool.malloc(8192)
    host.fail = [CUDARuntimeError(3)]
    with pytest.raises(CUDARuntimeError):
        pool.malloc(8192)
    assert pool.used_bytes() == 4096 and pool.total_bytes() == 4096
    del p


def test_release_while_pool_is_busy_is_deferred():
    pool = pinned.PinnedMemoryPool(FakeHost())
    p = pool.malloc(100)
    with pool._lock:
        del p
        assert pool._pending
    assert pool.n_free_blocks() == 1 and pool.used_bytes() == 0


def test_pointer_arithmetic_and_numpy_view():
    pool = pinned.PinnedMemoryPool(FakeHost())
    p = pool.malloc(1024)
    q = p + 100
    assert q.ptr == p.ptr + 100 and q.mem is p.mem and q.size() == 924
    assert (100 + p).ptr == q.ptr and (q - 100).ptr == p.ptr and int(q) == q.ptr
    assert (p + numpy.int32(4)).ptr == p.ptr + 4
    q += 4
    assert q.ptr == p.ptr + 104
    a = p.as_numpy(16)
    assert a.dtype == numpy.uint8 and a.shape == (16,)
    a[:] = numpy.arange(16)
    assert ctypes.string_at(p.ptr, 16) == bytes(range(16))
    whole = p.as_numpy().view(numpy.float32)
    assert whole.shape == (256,)
    with pytest.raises(ValueError):
        p.as_numpy(2000)
    del p, q, whole
    assert pool.used_bytes() == 512 * 2     # the view keeps its block
    del a
    assert pool.used_bytes() == 0


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the buffer protocol from Python needs 3.12")
def test_numpy_frombuffer_as_in_cupy():
    pool = pinned.PinnedMemoryPool(FakeHost())
    p = pool.malloc(64)
    a = numpy.frombuffer(p, numpy.float32, 16)
    a[:] = 1.5
    assert numpy.frombuffer(ctypes.string_at(p.ptr, 64), numpy.float32).tolist() == [1.5] * 16
    del p
    assert pool.used_bytes() == 512
    del a
    assert pool.used_bytes() == 0


def test_default_pool_and_allocator(use_pool):
    pool = pinned.get_default_pinned_memory_pool()
    assert isinstance(pool, pinned.PinnedMemoryPool)
    assert pool is pinned.get_default_pinned_memory_pool()
    fake = use_pool(FakeHost())
    p = pinned.alloc_pinned_memory(10)
    assert fake.used_bytes() == 512
    pinned.set_pinned_memory_allocator(None)
    assert pinned._current_allocator is pinned._malloc
    del p


def _ptr(a):
    return a.__array_interface__["data"][0]


@pytest.mark.parametrize("nbytes", [1, 400, 5000, 8192, 8193, 20000])
@pytest.mark.parametrize("sync", [True, False])
def test_host_to_device(drv, use_pool, nbytes, sync):
    fake = FakeHost(drv)
    pool = use_pool(fake)
    src = numpy.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=numpy.uint8)
    dst = numpy.zeros(nbytes, numpy.uint8)  # the "device"
    expect = src.copy()
    pinned.copy_host_to_device(_ptr(dst), src, nbytes, 7, sync)
    src[:] = 0                              # the caller may reuse its array at once
    assert (("sync", 7) in drv.log) == sync
    drv.run(7)
    numpy.testing.assert_array_equal(dst, expect)
    assert pool.used_bytes() == 0           # staging blocks went back to the pool
    n = 1 if nbytes <= 8192 else 2
    assert pool.n_free_blocks() == n
    assert pool.total_bytes() == (memory_pool._round_size(nbytes) if n == 1 else 2 * 2048)


def test_host_to_device_async_keeps_block_until_copy_runs(drv, use_pool):
    fake = FakeHost(drv)
    pool = use_pool(fake)
    src = numpy.arange(600, dtype=numpy.uint16).view(numpy.uint8)[:600]
    dst = numpy.zeros(600, numpy.uint8)
    pinned.copy_host_to_device(_ptr(dst), src, 600, 7, False)
    assert pool.n_free_blocks() == 1 and pool.used_bytes() == 0
    blk = pinned.alloc_pinned_memory(600)   # the copy has not run: a new block
    assert fake.calls == 2
    del blk
    drv.run(7)
    blk = pinned.alloc_pinned_memory(600)
    assert fake.calls == 2 and blk.size() == 1024  # now reused
    numpy.testing.assert_array_equal(dst, src)


def test_host_to_device_from_pinned_memory_is_direct(drv, use_pool):
    fake = FakeHost(drv)
    pool = use_pool(fake)
    host = pinned.PinnedMemoryPool(fake).malloc(4096)
    src = host.as_numpy()
    src[:] = numpy.arange(4096) % 251
    dst = numpy.zeros(4096, numpy.uint8)
    pinned.copy_host_to_device(_ptr(dst), src, 4096, 3, True)
    assert drv.log[0] == (("HtoD", host.ptr), 3)
    numpy.testing.assert_array_equal(dst, src)
    assert pool.total_bytes() == 0          # no staging


@pytest.mark.parametrize("nbytes", [1, 400, 8192, 8193, 20000])
def test_device_to_host(drv, use_pool, nbytes):
    fake = FakeHost(drv)
    pool = use_pool(fake)
    dev = numpy.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=numpy.uint8)
    out = numpy.zeros(nbytes, numpy.uint8)
    pinned.copy_device_to_host(out, _ptr(dev), nbytes, 5, True)
    numpy.testing.assert_array_equal(out, dev)
    assert pool.used_bytes() == 0
    # A synchronous copy into pageable memory goes there directly up to _D2H_DIRECT_MAX,
    # then stages through pinned memory: one buffer up to _STAGE_MAX, a pipeline of up
    # to _D2H_BUFFERS chunk buffers above.
    if nbytes <= pinned._D2H_DIRECT_MAX:
        assert drv.log[:2] == [(("DtoH", _ptr(out)), 5), ("sync", 5)]
        assert pool.total_bytes() == 0
        return
    nb = min(pinned._D2H_BUFFERS, -(-nbytes // pinned._CHUNK))
    assert pool.total_bytes() == (((nbytes + 511) & -512) if nbytes <= pinned._STAGE_MAX
                                  else nb * pinned._CHUNK)


def test_small_download_on_the_legacy_stream_is_one_synchronous_copy(drv, use_pool):
    # work queued on stream 0 (an upload into the "device" buffer) runs before the copy
    pool = use_pool(FakeHost(drv))
    dev = numpy.zeros(300, numpy.uint8)
    src = numpy.arange(300, dtype=numpy.uint16).view(numpy.uint8)[:300].copy()
    pinned.copy_host_to_device(_ptr(dev), src, 300, 0, False)
    out = numpy.zeros(300, numpy.uint8)
    drv.log.clear()
    pinned.copy_device_to_host(out, _ptr(dev), 300, 0, True)
    assert drv.log == [(("DtoH sync", _ptr(out)), 0)]
    numpy.testing.assert_array_equal(out, src)
    assert pool.used_bytes() == 0


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("nbytes", [8193, 3 * 2048, 2048 * 9 + 5, 100_000])
def test_device_to_host_pipeline(drv, use_pool, monkeypatch, threads, nbytes):
    monkeypatch.setattr(pinned, "_D2H_THREADS", threads)
    monkeypatch.setattr(pinned, "_D2H_SPLIT_MIN", 1000)
    monkeypatch.setattr(pinned, "_STAGE_MAX", 4096)
    monkeypatch.setattr(pinned, "_executor", None)
    pool = use_pool(FakeHost(drv))
    dev = numpy.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=numpy.uint8)
    out = numpy.zeros(nbytes, numpy.uint8)
    # the queue driver runs a copy only when its event is waited for: a chunk copied out
    # of its buffer before its copy ran, or a buffer refilled too early, shows here
    pinned.copy_device_to_host(out, _ptr(dev), nbytes, 5, True)
    numpy.testing.assert_array_equal(out, dev)
    copies = [e for e in drv.log if e[0][0] == "DtoH"]
    assert len(copies) == -(-nbytes // 2048)
    assert len({e[0][1] for e in copies}) == min(pinned._D2H_BUFFERS, len(copies))
    assert pool.used_bytes() == 0 and pool.n_free_blocks() == len({e[0][1] for e in copies})


def test_device_to_host_pipeline_off_goes_direct(drv, use_pool, monkeypatch):
    monkeypatch.setattr(pinned, "D2H_PIPELINE", False)
    pool = use_pool(FakeHost(drv))
    dev = numpy.arange(20000, dtype=numpy.uint32).view(numpy.uint8)[:20000]
    out = numpy.zeros(20000, numpy.uint8)
    pinned.copy_device_to_host(out, _ptr(dev), 20000, 5, True)
    assert drv.log[0] == (("DtoH", _ptr(out)), 5) and pool.total_bytes() == 0
    numpy.testing.assert_array_equal(out, dev)


def test_parallel_memmove_parts(monkeypatch):
    monkeypatch.setattr(pinned, "_D2H_THREADS", 4)
    monkeypatch.setattr(pinned, "_D2H_SPLIT_MIN", 0)
    monkeypatch.setattr(pinned, "_executor", None)
    for n in (1, 4095, 4096 * 4, 4096 * 4 + 1, 123457):
        src = numpy.random.default_rng(n).integers(0, 256, n, dtype=numpy.uint8)
        dst = numpy.zeros(n + 16, numpy.uint8)
        pinned._parallel_memmove(_ptr(dst), _ptr(src), n)
        numpy.testing.assert_array_equal(dst[:n], src)
        assert not dst[n:].any()
    pool = pinned._thread_pool()
    assert pinned._thread_pool() is pool   # one pool per process


def test_device_to_host_without_sync_goes_direct(drv, use_pool):
    pool = use_pool(FakeHost(drv))
    dev = numpy.arange(100, dtype=numpy.uint8)
    out = numpy.zeros(100, numpy.uint8)
    pinned.copy_device_to_host(out, _ptr(dev), 100, 5, False)
    assert drv.log == [(("DtoH", _ptr(out)), 5)] and pool.total_bytes() == 0
    drv.run(5)
    numpy.testing.assert_array_equal(out, dev)


def test_unpooled_allocator_makes_async_copies_synchronous(drv):
    saved = pinned._current_allocator
    pinned.set_pinned_memory_allocator(FakeHost(drv))   # blocks that cannot wait for events
    try:
        src = numpy.arange(600, dtype=numpy.uint16).view(numpy.uint8)[:600]
        dst = numpy.zeros(600, numpy.uint8)
        pinned.copy_host_to_device(_ptr(dst), src, 600, 9, False)
        assert ("sync", 9) in drv.log
        numpy.testing.assert_array_equal(dst, src)
    finally:
        pinned._current_allocator = saved


def test_copy_argument_checks(drv, use_pool):
    use_pool(FakeHost(drv))
    a = numpy.zeros((8, 8), numpy.uint8)
    with pytest.raises(ValueError, match="contiguous"):
        pinned.copy_host_to_device(0, a[:, ::2], 32, 0, True)
    with pytest.raises(ValueError, match="holds 64 bytes"):
        pinned.copy_host_to_device(0, a, 65, 0, True)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        pinned.copy_device_to_host(a, 0, 64, 0, True)
    pinned.copy_host_to_device(0, a, 0, 0, True)   # nothing to do
    assert drv.log == []


# ------------------------------------------------------------------------ GPU

@pytest.mark.gpu
def test_gpu_pinned_memory_round_trip():
    p = pinned.alloc_pinned_memory(4096)
    a = p.as_numpy().view(numpy.float32)
    a[:] = numpy.arange(1024, dtype=numpy.float32)
    d = memory.alloc(4096)
    d.copy_from_host_async(p.ptr, 4096)
    q = pinned.alloc_pinned_memory(4096)
    d.copy_to_host_async(q, 4096)
    memory._sync_current()
    numpy.testing.assert_array_equal(q.as_numpy().view(numpy.float32), a)


@pytest.mark.gpu
def test_gpu_raw_pinned_memory():
    mem = pinned.PinnedMemory(1000, pinned._PORTABLE)
    assert mem.ptr and pinned._is_pinned(mem.ptr) and pinned._is_pinned(mem.ptr + 999)
    assert not pinned._is_pinned(_ptr(numpy.zeros(10)))


@pytest.mark.gpu
@pytest.mark.parametrize("nbytes", [1, 400, 100_000, 3 << 20, 80 << 20, (150 << 20) + 7])
@pytest.mark.parametrize("sync", [True, False])
def test_gpu_staged_copies(nbytes, sync):
    from cuarray._runtime.stream import Stream
    src = numpy.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=numpy.uint8)
    out = numpy.zeros(nbytes, numpy.uint8)
    d = memory.alloc(nbytes)
    s = Stream(non_blocking=True)
    pinned.copy_host_to_device(d.ptr, src, nbytes, s.ptr, sync)
    src_copy = src.copy()
    src[:] = 0                              # staged: the caller's array is free at once
    pinned.copy_device_to_host(out, d.ptr, nbytes, s.ptr, sync)
    s.synchronize()
    numpy.testing.assert_array_equal(out, src_copy)


@pytest.mark.gpu
def test_gpu_copy_from_pinned_host_is_direct():
    n = 1 << 20
    p = pinned.alloc_pinned_memory(n)
    host = p.as_numpy()
    host[:] = numpy.arange(n) % 253
    pool = pinned.get_default_pinned_memory_pool()
    before = pool.total_bytes()
    d = memory.alloc(n)
    pinned.copy_host_to_device(d.ptr, host, n, 0, True)
    assert pool.total_bytes() == before
    out = numpy.zeros(n, numpy.uint8)
    pinned.copy_device_to_host(out, d.ptr, n, 0, True)
    numpy.testing.assert_array_equal(out, host)


@pytest.mark.gpu
def test_gpu_async_staging_block_counts_as_free():
    saved = pinned._current_allocator
    pool = pinned.PinnedMemoryPool()
    pinned.set_pinned_memory_allocator(pool.malloc)
    try:
        src = numpy.arange(100, dtype=numpy.float32)
        d = memory.alloc(400)
        pinned.copy_host_to_device(d.ptr, src, 400, 0, False)
        assert pool.n_free_blocks() == 1 and pool.used_bytes() == 0
        assert pool.total_bytes() == 512
        memory._sync_current()
        pool.free_all_blocks()
        assert pool.n_free_blocks() == pool.total_bytes() == 0
    finally:
        pinned._current_allocator = saved
