"""Device memory: the caching pool on a fake allocator (CPU), and the real pools and copies (GPU)."""
import ctypes
import gc
import itertools
import os
import pickle
import random
import subprocess
import sys
import textwrap
import threading

import numpy
import pytest

from cuarray._runtime import device as _device
from cuarray._runtime import memory, memory_blocks, memory_pool
from cuarray._runtime.driver import CUDARuntimeError


# ---------------------------------------------------------------- CPU: a fake device

class FakeDevice:
    """Hands out addresses from a counter and tracks what is live; can run out or fail."""

    def __init__(self, capacity=None):
        self.capacity = capacity
        self.live = {}            # ptr -> size
        self.calls = 0
        self.fail = []            # errors to raise on the next calls, in order
        self._next = itertools.count(1)

    def __call__(self, size):
        self.calls += 1
        if self.fail:
            raise self.fail.pop(0)
        if self.capacity is not None and sum(self.live.values()) + size > self.capacity:
            raise CUDARuntimeError(2)  # CUDA_ERROR_OUT_OF_MEMORY
        return memory.MemoryPointer(FakeMemory(self, next(self._next) << 24, size), 0)


class FakeMemory(memory.BaseMemory):
    __slots__ = ("_dev",)

    def __init__(self, dev, ptr, size):
        self.ptr, self.size, self.device_id, self._dev = ptr, size, 0, dev
        dev.live[ptr] = size

    def __del__(self):
        del self._dev.live[self.ptr]


@pytest.fixture
def env(monkeypatch):
    """No driver: device 0, a settable current stream, 1 GiB of device memory."""
    state = {"stream": 0, "device": 0}
    for mod in (memory, memory_blocks, memory_pool):
        monkeypatch.setattr(mod, "get_device_id", lambda: state["device"])
    for mod in (memory_blocks, memory_pool):
        monkeypatch.setattr(mod, "current_stream_ptr", lambda: state["stream"])
    monkeypatch.setattr(memory_pool, "_total_memory", lambda dev: 1 << 30)
    monkeypatch.delenv("CUARRAY_GPU_MEMORY_LIMIT", raising=False)
    return state


@pytest.fixture
def dev():
    return FakeDevice()


@pytest.fixture
def pool(env, dev):
    return memory.MemoryPool(dev)


class S:
    """Stands in for a Stream: only `.ptr` is read."""

    def __init__(self, ptr):
        self.ptr = ptr


def test_round_size():
    assert [memory_pool._round_size(n) for n in (1, 511, 512, 513, 1024, 1025)] == \
        [512, 512, 512, 1024, 1024, 1536]


@pytest.mark.parametrize("size, rounded", [(1, 512), (400, 512), (512, 512), (513, 1024),
                                           (10**6, 1954 * 512)])
def test_malloc_rounds_to_512(pool, dev, size, rounded):
    p = pool.malloc(size)
    assert pool.used_bytes() == pool.total_bytes() == rounded
    assert list(dev.live.values()) == [rounded]
    assert p.mem.size == p.size == rounded
    assert p.ptr % 512 == 0 and p.device_id == 0


def test_malloc_accepts_numpy_int(pool):
    p = pool.malloc(numpy.int64(100))
    assert type(pool.used_bytes()) is int and pool.used_bytes() == 512
    del p


def test_malloc_zero_and_negative(pool, dev):
    p = pool.malloc(0)
    assert p.ptr == 0 and p.size == 0 and dev.calls == 0
    assert pool.used_bytes() == pool.total_bytes() == 0
    assert (p + 16).ptr == 0  # null stays null: views of empty arrays carry no address
    with pytest.raises(ValueError, match="negative"):
        pool.malloc(-1)


def test_freed_memory_is_reused(pool, dev):
    p = pool.malloc(1000)
    ptr = p.ptr
    del p
    assert pool.used_bytes() == 0 and pool.total_bytes() == 1024
    assert pool.n_free_blocks() == 1 and pool.free_bytes() == 1024
    q = pool.malloc(1000)
    assert q.ptr == ptr and dev.calls == 1
    assert pool.n_free_blocks() == 0


def test_pointer_arithmetic_shares_the_block(pool):
    p = pool.malloc(1024)
    q = p + 100
    assert q.ptr == p.ptr + 100 and q.mem is p.mem and q.size == 924
    assert (100 + p).ptr == q.ptr and (q - 50).ptr == p.ptr + 50 and int(q) == q.ptr
    r = p + 0
    r += 8
    assert r.ptr == p.ptr + 8 and r.mem is p.mem
    r -= 8
    assert r.ptr == p.ptr
    assert (p + numpy.int64(8)).ptr == p.ptr + 8 and (q - numpy.intp(100)).ptr == p.ptr
    with pytest.raises(TypeError):
        p + 1.5
    base = p.ptr
    del p, r
    assert pool.used_bytes() == 1024  # q keeps the block
    assert q.ptr == base + 100
    del q
    assert pool.used_bytes() == 0


def test_best_fit_takes_the_smallest_block_that_fits(pool, dev):
    blocks = [pool.malloc(n) for n in (1024, 4096, 2048)]
    ptrs = [b.ptr for b in blocks]
    del blocks
    p = pool.malloc(1536)
    assert p.ptr == ptrs[2]  # the 2048 block, not the 4096 one
    assert dev.calls == 3
    # the 512-byte remainder is a free chunk right after p
    assert pool.n_free_blocks() == 3 and pool.free_bytes() == 1024 + 4096 + 512
    r = pool.malloc(512)
    assert r.ptr == ptrs[2] + 1536


def test_split_and_merge(pool, dev):
    block = pool.malloc(4096)
    base = block.ptr
    del block
    parts = [pool.malloc(1024) for _ in range(4)]
    assert dev.calls == 1
    assert sorted(p.ptr for p in parts) == [base, base + 1024, base + 2048, base + 3072]
    by_ptr = {p.ptr - base: p for p in parts}
    del parts
    assert pool.n_free_blocks() == 0 and pool.used_bytes() == 4096
    del by_ptr[1024], by_ptr[2048]          # two middle pieces merge
    assert pool.n_free_blocks() == 1 and pool.free_bytes() == 2048
    del by_ptr[0]                           # merges with the following free chunk
    assert pool.n_free_blocks() == 1 and pool.free_bytes() == 3072
    pool.free_all_blocks()                  # split: nothing is released yet
    assert pool.total_bytes() == 4096 and dev.live
    del by_ptr[3072]                        # the whole allocation again
    assert pool.n_free_blocks() == 1 and pool.free_bytes() == 4096
    big = pool.malloc(4096)
    assert big.ptr == base and dev.calls == 1
    del big
    pool.free_all_blocks()
    assert pool.total_bytes() == pool.free_bytes() == pool.n_free_blocks() == 0
    assert dev.live == {}


def test_free_all_blocks_releases_only_whole_blocks(pool, dev):
    keep = pool.malloc(1024)
    other = pool.malloc(2048)
    del other
    pool.free_all_blocks()
    assert pool.total_bytes() == 1024 and list(dev.live.values()) == [1024]
    assert pool.n_free_blocks() == 0
    del keep
    pool.free_all_blocks()
    assert dev.live == {} and pool.total_bytes() == 0


def test_free_lists_are_per_stream(pool, dev, env):
    env["stream"] = 11
    a = pool.malloc(1024)
    ptr_a = a.ptr
    env["stream"] = 22
    del a                                   # freed while stream 22 is current ...
    b = pool.malloc(1024)
    assert b.ptr != ptr_a and dev.calls == 2  # ... but only reused on stream 11
    del b
    env["stream"] = 11
    c = pool.malloc(1024)
    assert c.ptr == ptr_a
    del c
    assert pool.n_free_blocks() == 2
    pool.free_all_blocks(stream=S(11))
    assert pool.n_free_blocks() == 1 and pool.total_bytes() == 1024
    env["stream"] = 22
    assert pool.malloc(1024).ptr not in (ptr_a,) and dev.calls == 2
    pool.free_all_blocks()
    assert pool.total_bytes() == 0 and dev.live == {}


def test_per_thread_default_stream_is_one_stream_per_thread(pool, dev, env):
    env["stream"] = 2  # CU_STREAM_PER_THREAD
    a = pool.malloc(1024)
    ptr_a = a.ptr
    del a
    got = []
    t = threading.Thread(target=lambda: got.append(pool.malloc(1024).ptr))
    t.start()
    t.join()
    assert got[0] != ptr_a and dev.calls == 2
    assert pool.malloc(1024).ptr == ptr_a


def test_set_limit(pool):
    assert pool.get_limit() == 0
    pool.set_limit(size=4096)
    assert pool.get_limit() == 4096
    pool.set_limit(fraction=0.5)
    assert pool.get_limit() == 1 << 29
    pool.set_limit()
    assert pool.get_limit() == 0
    with pytest.raises(ValueError, match="fraction"):
        pool.set_limit(fraction=1.5)
    with pytest.raises(ValueError, match="not both"):
        pool.set_limit(size=1, fraction=0.5)
    with pytest.raises(ValueError, match="size"):
        pool.set_limit(size=-1)


def test_over_the_limit_raises_and_the_pool_still_works(pool):
    pool.set_limit(size=2048)
    a = pool.malloc(1024)
    b = pool.malloc(1024)
    with pytest.raises(memory.OutOfMemoryError) as info:
        pool.malloc(100)
    msg = str(info.value)
    assert isinstance(info.value, MemoryError)
    assert "512 bytes" in msg and "2,048" in msg and "limit" in msg
    assert pool.total_bytes() == 2048 and pool.used_bytes() == 2048
    del a
    c = pool.malloc(1000)
    assert pool.used_bytes() == 2048
    del b, c


def test_limit_releases_cached_blocks_before_giving_up(pool, dev):
    pool.set_limit(size=3072)
    a = pool.malloc(1024)
    b = pool.malloc(1024)
    del a                                   # cached, counts against the limit
    c = pool.malloc(2048)                   # fits only once the cached block is gone
    assert pool.total_bytes() == 3072 and sorted(dev.live.values()) == [1024, 2048]
    del b, c


def test_env_limit(monkeypatch, env, dev):
    monkeypatch.setenv("CUARRAY_GPU_MEMORY_LIMIT", "4096")
    assert memory.MemoryPool(dev).get_limit() == 4096
    monkeypatch.setenv("CUARRAY_GPU_MEMORY_LIMIT", "25%")
    assert memory.MemoryPool(dev).get_limit() == 1 << 28
    monkeypatch.setenv("CUARRAY_GPU_MEMORY_LIMIT", "lots")
    with pytest.raises(ValueError, match="CUARRAY_GPU_MEMORY_LIMIT"):
        memory.MemoryPool(dev).get_limit()


def test_oom_frees_cached_blocks_and_retries(env):
    dev = FakeDevice(capacity=4096)
    pool = memory.MemoryPool(dev)
    a = pool.malloc(2048)
    b = pool.malloc(2048)
    del a, b                                # the device is full of cached blocks
    c = pool.malloc(3072)                   # no free chunk fits; cuMemAlloc fails once
    assert dev.calls == 4 and list(dev.live.values()) == [3072]
    assert pool.total_bytes() == 3072 and pool.n_free_blocks() == 0
    del c


def test_oom_raises_after_retries_and_the_pool_still_works(env):
    dev = FakeDevice(capacity=4096)
    pool = memory.MemoryPool(dev)
    live = pool.malloc(3072)
    with pytest.raises(memory.OutOfMemoryError) as info:
        pool.malloc(2000)
    msg = str(info.value)
    assert "2,048 bytes" in msg and "3,072" in msg
    assert dev.calls == 1 + 3               # the first call, then two retries
    assert pool.total_bytes() == 3072 and pool.used_bytes() == 3072
    small = pool.malloc(512)
    assert pool.used_bytes() == 3584
    del live, small
    pool.free_all_blocks()
    assert pool.total_bytes() == 0 and dev.live == {}


def test_oom_retry_collects_cycles(env):
    dev = FakeDevice(capacity=2048)
    pool = memory.MemoryPool(dev)

    class Holder:
        pass

    h = Holder()
    h.me, h.data = h, pool.malloc(2048)     # a cycle: only the garbage collector frees it
    del h
    gc.disable()
    try:
        p = pool.malloc(2048)
    finally:
        gc.enable()
    assert list(dev.live.values()) == [2048] and pool.used_bytes() == 2048
    del p


def test_other_allocator_errors_propagate(pool, dev):
    dev.fail.append(CUDARuntimeError(1))
    with pytest.raises(CUDARuntimeError) as info:
        pool.malloc(1024)
    assert info.value.status == 1
    assert pool.total_bytes() == 0 and pool.used_bytes() == 0
    assert pool.malloc(1024).ptr


def test_out_of_memory_error_pickles():
    e = memory.OutOfMemoryError(1024, 2048, 4096, 512)
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is memory.OutOfMemoryError and str(e2) == str(e)
    assert "1,024" in str(e) and "4,096" in str(e)


def test_free_while_pool_is_busy_is_deferred(pool):
    p = pool.malloc(1024)
    single = pool._pools[0]
    with single._lock:                      # as if the collector ran inside malloc
        del p
        assert single._pending
    assert pool.used_bytes() == 0 and pool.n_free_blocks() == 1
    assert not single._pending


def test_pools_are_per_device(pool, env):
    a = pool.malloc(1024)
    env["device"] = 1
    b = pool.malloc(2048)
    assert b.device_id == 1 and pool.used_bytes() == 2048
    env["device"] = 0
    assert pool.used_bytes() == 1024
    del a, b


def test_pool_invariants_under_random_use(pool, dev, env):
    rng = random.Random(0)
    live = []
    for step in range(3000):
        env["stream"] = rng.choice((0, 7, 9))
        if live and rng.random() < 0.45:
            live.pop(rng.randrange(len(live)))
        else:
            live.append(pool.malloc(rng.choice((1, 300, 512, 700, 1500, 4096, 10000))))
        if rng.random() < 0.01:
            pool.free_all_blocks()
        used = sum(p.mem.size for p in live)
        assert pool.used_bytes() == used
        assert pool.total_bytes() == sum(dev.live.values())
        assert pool.free_bytes() == pool.total_bytes() - used
        spans = sorted((p.ptr, p.ptr + p.mem.size) for p in live)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), "overlapping blocks"
        for arena in pool._pool()._arenas.values():
            assert arena.sizes == sorted(arena.bins), "sizes must list exactly the bins"
            assert all(c.free and c.size == size for size, b in arena.bins.items() for c in b)
    del live
    assert pool.used_bytes() == 0
    pool.free_all_blocks()
    assert pool.total_bytes() == 0 and pool.n_free_blocks() == 0 and dev.live == {}


def test_pool_is_thread_safe(pool, dev):
    errors = []

    def work(seed):
        rng = random.Random(seed)
        held = []
        try:
            for _ in range(2000):
                if held and rng.random() < 0.5:
                    held.pop(rng.randrange(len(held)))
                else:
                    held.append(pool.malloc(rng.choice((100, 1000, 5000))))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert pool.used_bytes() == 0
    assert pool.total_bytes() == sum(dev.live.values())
    pool.free_all_blocks()
    assert dev.live == {}


@pytest.fixture
def restore_allocator():
    saved = memory._current_allocator
    yield
    memory._tls.allocator = None
    memory._current_allocator = saved


def test_allocator_switching(env, restore_allocator):
    default = memory.get_default_memory_pool()
    assert isinstance(default, memory.MemoryPool) and default is memory.get_default_memory_pool()
    assert memory.get_allocator() == default.malloc
    seen = []
    mine = lambda size: seen.append(size) or memory.MemoryPointer(memory.Memory(0), 0)  # noqa: E731
    memory.set_allocator(mine)
    assert memory.get_allocator() is mine
    memory.alloc(10)
    assert seen == [10]
    memory.set_allocator(None)              # as CuPy: plain cuMemAlloc, no pool
    assert memory.get_allocator() is memory._malloc


def test_using_allocator_is_per_thread(env, restore_allocator):
    seen = []
    mine = lambda size: seen.append(size) or memory.MemoryPointer(memory.Memory(0), 0)  # noqa: E731
    with memory.using_allocator(mine):
        memory.alloc(3)
        assert memory.get_allocator() is mine
        other = []
        t = threading.Thread(target=lambda: other.append(memory.get_allocator()))
        t.start()
        t.join()
        assert other[0] is not mine
        with pytest.raises(ValueError, match="using_allocator"):
            memory.set_allocator(mine)
    assert seen == [3] and memory.get_allocator() is not mine


def test_alloc_zero(env):
    p = memory.alloc(0)
    assert isinstance(p, memory.MemoryPointer) and p.ptr == 0 and p.size == 0


def test_emptied_bins_stay_listed_until_take_passes_them(pool, dev):
    p = pool.malloc(2048)
    del p
    arena = next(iter(pool._pool()._arenas.values()))
    q = pool.malloc(2048)            # exact fit: its bin empties but stays listed
    assert arena.sizes == [2048] and arena.bins[2048] == {}
    r = pool.malloc(1024)            # best fit steps over the empty bin and drops it
    assert arena.sizes == [] and arena.bins == {}
    assert r.ptr != q.ptr and len(dev.live) == 2
    del q
    assert arena.sizes == [2048] and len(arena.bins[2048]) == 1
    s = pool.malloc(1024)            # best fit splits the free 2048 block
    assert s.ptr == arena_block_ptr(arena, 1024) - 1024


def arena_block_ptr(arena, size):
    (chunk,) = arena.bins[size]
    return chunk.ptr


def test_freed_pieces_wait_in_their_own_bin_until_a_request_needs_them_merged(pool, dev):
    big = pool.malloc(4096)
    base = big.ptr
    del big
    arena = next(iter(pool._pool()._arenas.values()))
    p = pool.malloc(512)                 # split from the free 4096 block
    del p
    (rest,) = arena.bins[3584]
    (piece,) = arena.bins[512]           # not merged back: the next 512 finds it
    q = pool.malloc(512)
    assert q.ptr == base and arena.bins[3584] == {rest: None} and piece.free is False
    del q
    r = pool.malloc(4096)                # no 4096 piece: the run is merged, then taken
    assert r.ptr == base and dev.calls == 1
    del r
    assert pool.n_free_blocks() == 1 and pool.free_bytes() == 4096


def test_malloc_hot_path_is_cheap(pool):
    import timeit
    pool.malloc(8000)
    n = 20000
    t = min(timeit.repeat(lambda: pool.malloc(8000), number=n, repeat=5)) / n
    # malloc + free of a cached block; ~1 us on a 2020s server core. Loose bound: CI
    # machines vary, this catches a regression to something like weakref.finalize.
    assert t < 10e-6, f"pool malloc+free took {t * 1e6:.2f} us"


# ------------------------------------- CPU: MemoryPointer copies through a fake driver

class FakeDriver:
    """Executes copies at once on host memory standing in for device memory; records calls."""

    def __init__(self):
        self.calls = []
        self.synced = []

    def _log(self, *call):
        self.calls.append(call)
        return (0,)

    def cuMemcpyAsync(self, dst, src, n, stream):
        ctypes.memmove(dst, src, n)
        return self._log("DtoD", stream)

    def cuMemcpyPeerAsync(self, dst, dctx, src, sctx, n, stream):
        ctypes.memmove(dst, src, n)
        return self._log("peer", dctx, sctx, stream)

    def cuMemcpyHtoDAsync(self, dst, src, n, stream):
        ctypes.memmove(dst, src, n)
        return self._log("HtoD", stream)

    def cuMemcpyDtoHAsync(self, dst, src, n, stream):
        ctypes.memmove(dst, src, n)
        return self._log("DtoH", stream)

    def cuMemsetD8Async(self, dst, value, n, stream):
        assert 0 <= value <= 255
        ctypes.memset(dst, value, n)
        return self._log("memset", stream)

    def cuStreamSynchronize(self, stream):
        self.synced.append(stream)
        return (0,)


class HostMemory(memory.BaseMemory):
    __slots__ = ("buf",)

    def __init__(self, size, device_id=0):
        self.buf = ctypes.create_string_buffer(size)
        self.ptr, self.size, self.device_id = ctypes.addressof(self.buf), size, device_id


@pytest.fixture
def fake_driver(monkeypatch, env):
    drv = FakeDriver()
    monkeypatch.setattr(memory_blocks, "_d", drv)
    monkeypatch.setattr(memory_blocks, "ensure_context", lambda: 0)
    monkeypatch.setattr(_device, "_primary_context", lambda dev: f"ctx{dev}")
    return drv


def _host(a):
    return a.__array_interface__["data"][0]


def test_copies_move_the_bytes(fake_driver, env):
    env["stream"] = 5
    src = numpy.arange(64, dtype=numpy.uint8)
    d = memory.MemoryPointer(HostMemory(64), 0)
    d.copy_from_host(_host(src), 64)
    d2 = memory.MemoryPointer(HostMemory(64), 0)
    d2.copy_from_device(d + 8, 32)
    out = numpy.zeros(64, numpy.uint8)
    d2.copy_to_host(ctypes.c_void_p(_host(out)), 32)
    numpy.testing.assert_array_equal(out[:32], src[8:40])
    (d2 + 4).memset(0x1FF, 4)               # the low byte, as cudaMemset
    d2.copy_to_host_async(_host(out), 8, stream=S(9))
    assert list(out[:8]) == [8, 9, 10, 11, 255, 255, 255, 255]
    assert ("HtoD", 5) in fake_driver.calls and ("DtoH", 9) in fake_driver.calls
    assert fake_driver.synced == [5, 5, 5, 5]  # each sync variant synchronises the current stream


def test_copy_from_picks_host_or_device(fake_driver):
    src = numpy.arange(16, dtype=numpy.uint8)
    d = memory.MemoryPointer(HostMemory(16), 0)
    d.copy_from(_host(src), 16)
    e = memory.MemoryPointer(HostMemory(16), 0)
    e.copy_from_async(d, 16)
    kinds = [c[0] for c in fake_driver.calls]
    assert kinds == ["HtoD", "DtoD"]
    out = numpy.zeros(16, numpy.uint8)
    e.copy_to_host(_host(out), 16)
    numpy.testing.assert_array_equal(out, src)


def test_copy_between_devices_uses_peer_copy(fake_driver, monkeypatch):
    from cuarray._runtime import peer

    def copy_async(dst, dst_dev, src, src_dev, n, stream):
        ctypes.memmove(dst, src, n)
        fake_driver.calls.append(("peer", dst_dev, src_dev, stream))
    monkeypatch.setattr(peer, "copy_async", copy_async)
    a = memory.MemoryPointer(HostMemory(8, device_id=0), 0)
    b = memory.MemoryPointer(HostMemory(8, device_id=1), 0)
    a.memset(7, 8)
    b.copy_from_device(a, 8)
    assert fake_driver.calls[-1] == ("peer", 1, 0, None)   # None: the destination's stream
    assert bytes(b.mem.buf) == b"\x07" * 8


def test_zero_size_copies_do_nothing(fake_driver):
    d = memory.MemoryPointer(HostMemory(8), 0)
    d.copy_from_host(0, 0)
    d.copy_to_host_async(0, 0)
    d.memset_async(1, 0)
    assert fake_driver.calls == []


# ------------------------------------------------------------------------ GPU

@pytest.fixture
def gpu_pool():
    pool = memory.MemoryPool()
    yield pool
    pool.set_limit()
    gc.collect()
    pool.free_all_blocks()


@pytest.mark.gpu
def test_gpu_memory_round_trip():
    from cuarray._runtime.stream import Stream
    n = 1 << 20
    src = numpy.random.default_rng(0).integers(0, 255, n, dtype=numpy.uint8)
    out = numpy.zeros(n, numpy.uint8)
    a = memory.alloc(n)
    b = memory.alloc(n)
    a.copy_from_host(_host(src), n)
    b.copy_from_device(a, n)
    b.memset(3, 16)
    b.copy_to_host(_host(out), n)
    assert (out[:16] == 3).all()
    numpy.testing.assert_array_equal(out[16:], src[16:])
    s = Stream(non_blocking=True)
    with s:
        (a + 100).memset_async(9, 10)
        a.copy_to_host_async(_host(out), 200)
    s.synchronize()
    assert (out[100:110] == 9).all() and (out[110:200] == src[110:200]).all()


@pytest.mark.gpu
def test_gpu_raw_memory_and_unowned():
    mem = memory.Memory(4096)
    assert mem.ptr and mem.device_id == _device.get_device_id()
    u = memory.UnownedMemory(mem.ptr, 4096, mem)
    assert u.device_id == mem.device_id
    p = memory.MemoryPointer(u, 512)
    p.memset(1, 8)
    out = numpy.zeros(8, numpy.uint8)
    p.copy_to_host(_host(out), 8)
    assert (out == 1).all()


@pytest.mark.gpu
def test_gpu_pool_reuses_freed_memory(gpu_pool):
    p = gpu_pool.malloc(10000)
    ptr = p.ptr
    assert gpu_pool.used_bytes() == 10240
    del p
    assert gpu_pool.used_bytes() == 0 and gpu_pool.total_bytes() == 10240
    assert gpu_pool.malloc(10000).ptr == ptr


@pytest.mark.gpu
def test_gpu_limit_raises_and_pool_recovers(gpu_pool):
    gpu_pool.set_limit(size=1 << 20)
    with pytest.raises(memory.OutOfMemoryError, match="2,097,152 bytes"):
        gpu_pool.malloc(2 << 20)
    p = gpu_pool.malloc(1 << 19)
    p.memset(0, 1 << 19)
    assert gpu_pool.used_bytes() == 1 << 19


@pytest.mark.gpu
def test_gpu_real_oom_raises_and_pool_recovers(gpu_pool):
    total = _device.properties(_device.get_device_id())["total_memory"]
    too_much = 2 * total
    with pytest.raises(memory.OutOfMemoryError, match=f"{too_much:,} bytes"):
        gpu_pool.malloc(too_much)
    assert gpu_pool.total_bytes() == 0
    p = gpu_pool.malloc(1 << 20)
    p.memset(1, 1 << 20)
    assert gpu_pool.used_bytes() == 1 << 20


@pytest.mark.gpu
def test_gpu_env_limit_fraction(monkeypatch):
    monkeypatch.setenv("CUARRAY_GPU_MEMORY_LIMIT", "50%")
    pool = memory.MemoryPool()
    total = _device.properties(_device.get_device_id())["total_memory"]
    assert pool.get_limit() == total // 2


@pytest.mark.gpu
def test_gpu_memory_async_pool():
    from cuarray._runtime.stream import Stream
    pool = memory.MemoryAsyncPool()
    n = 8 << 20
    _device.Device().synchronize()          # frees queued by earlier tests have landed
    before = pool.used_bytes()
    s = Stream()
    with s:
        p = pool.malloc(n)
        assert isinstance(p.mem, memory.MemoryAsync) and p.mem.stream == s.ptr
        p.memset_async(5, n)
        out = numpy.zeros(16, numpy.uint8)
        (p + n - 16).copy_to_host_async(_host(out), 16)
        s.synchronize()
        assert (out == 5).all()
        assert pool.used_bytes() >= before + n
        assert pool.total_bytes() >= pool.used_bytes()
        del p
        pool.free_all_blocks()
    assert pool.used_bytes() == before
    old = pool.get_limit()
    try:
        pool.set_limit(size=1 << 30)
        assert pool.get_limit() == 1 << 30
        with pytest.raises(memory.OutOfMemoryError):
            pool.malloc(2 << 30)
    finally:
        pool.set_limit(size=old)


@pytest.mark.gpu
def test_gpu_memory_async_pool_as_allocator():
    pool = memory.MemoryAsyncPool()
    with memory.using_allocator(pool.malloc):
        p = memory.alloc(1000)
    assert isinstance(p.mem, memory.MemoryAsync) and p.mem.size == 1024
    p.memset(0, 1000)


@pytest.mark.gpu
@pytest.mark.multi_gpu(2)
def test_gpu_copy_between_devices():
    src = numpy.arange(256, dtype=numpy.uint8)
    with _device.Device(0):
        a = memory.alloc(256)
        a.copy_from_host(_host(src), 256)
    with _device.Device(1):
        b = memory.alloc(256)
        b.copy_from_device(a, 256)
        out = numpy.zeros(256, numpy.uint8)
        b.copy_to_host(_host(out), 256)
    numpy.testing.assert_array_equal(out, src)


_DOC_EXAMPLE = """
import numpy, cuarray
mempool = cuarray.get_default_memory_pool()
pinned_mempool = cuarray.get_default_pinned_memory_pool()
a_cpu = numpy.arange(100, dtype=numpy.float32)
a = cuarray.asarray(a_cpu)
print(a.nbytes, mempool.used_bytes(), mempool.total_bytes(), pinned_mempool.n_free_blocks())
del a
print(mempool.used_bytes(), mempool.total_bytes(), pinned_mempool.n_free_blocks())
mempool.free_all_blocks()
pinned_mempool.free_all_blocks()
print(mempool.used_bytes(), mempool.total_bytes(), pinned_mempool.n_free_blocks())
"""


@pytest.mark.gpu
def test_gpu_cupy_memory_doc_example():
    """CuPy's memory-management page, run in a fresh process so no other array interferes."""
    import cuarray
    env = dict(os.environ)
    src = os.path.dirname(os.path.dirname(cuarray.__file__))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    env.pop("CUARRAY_GPU_MEMORY_LIMIT", None)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(_DOC_EXAMPLE)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:3] == ["400 512 512 1", "0 512 1", "0 0 0"]
