"""cuarray.fft.config: the LRU plan cache, plan reuse and N-D planning."""
import threading

import numpy as np
import pytest

import test_fft_emulator as emu

import cuarray.fft as cfft
from cuarray.fft import config
from cuarray.fft.config import PlanCache


class _Plan:
    plan_type = "PlanMany"

    def __init__(self, memsize=0):
        self.memsize = memsize


def _keys(cache):
    return [k for k, _ in cache]


# ---- the cache alone (no GPU) ---------------------------------------------------------------

def test_lru_eviction_and_order():
    c = PlanCache(size=3, dev=0)
    for k in "abcd":
        c[(k,)] = _Plan()
    assert _keys(c) == [("d",), ("c",), ("b",)]  # most recently used first; "a" evicted
    assert c.get(("b",)) is not None  # a hit moves "b" to the front
    c[("e",)] = _Plan()
    assert _keys(c) == [("e",), ("b",), ("d",)]
    assert c.get_curr_size() == 3 and len(c) == 3
    assert (c.hits, c.misses) == (1, 0)
    assert c.get(("a",)) is None and c.misses == 1
    with pytest.raises(KeyError, match="plan not found"):
        c[("a",)]
    del c[("d",)]
    assert _keys(c) == [("e",), ("b",)]


def test_memsize_limit():
    c = PlanCache(size=-1, memsize=100, dev=0)
    c[(1,)] = _Plan(40)
    c[(2,)] = _Plan(40)
    c[(3,)] = _Plan(40)  # 120 > 100: the least recently used goes
    assert _keys(c) == [(3,), (2,)] and c.get_curr_memsize() == 80
    with pytest.raises(RuntimeError, match="memsize is too large"):
        c[(4,)] = _Plan(101)
    c._put((4,), _Plan(101))  # the transforms' path: too big to cache, used uncached
    assert _keys(c) == [(3,), (2,)]
    c.set_memsize(50)
    assert _keys(c) == [(3,)] and c.get_memsize() == 50
    c.set_memsize(-1)
    c.set_size(0)
    assert c.get_curr_size() == 0 and not c.is_enabled


def test_disabled_cache_is_a_no_op():
    c = PlanCache(size=0, dev=0)
    c[(1,)] = _Plan()
    assert c.get((1,)) is None and c.get_curr_size() == 0 and (c.hits, c.misses) == (0, 0)
    c.set_size(2)
    c[(1,)] = _Plan()
    assert c.get_curr_size() == 1


def test_replacing_a_key_keeps_accounts():
    c = PlanCache(size=4, dev=0)
    c[(1,)] = _Plan(10)
    c[(1,)] = _Plan(30)
    assert c.get_curr_size() == 1 and c.get_curr_memsize() == 30


def test_clear_and_limits():
    c = PlanCache(dev=0)
    assert (c.get_size(), c.get_memsize()) == (16, -1)
    c[(1,)] = _Plan(5)
    c.get((1,))
    c.clear()
    assert (c.get_curr_size(), c.get_curr_memsize(), c.hits, c.misses) == (0, 0, 0, 0)
    for bad in (-2, 1.5, "3", True):
        with pytest.raises(ValueError, match="plan cache size"):
            c.set_size(bad)
        with pytest.raises(ValueError, match="plan cache memsize"):
            c.set_memsize(bad)


def test_show_info(capsys):
    c = PlanCache(size=2, dev=0)
    c[(7, (16,))] = _Plan(1024)
    c.get((7, (16,)))
    c.show_info()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "------------------- cuFFT plan cache (device 0) -------------------"
    assert out[1] == "cache enabled? True"
    assert out[2] == "current / max size   : 1 / 2 (counts)"
    assert out[3] == "current / max memsize: 1024 / (unlimited) (bytes)"
    assert out[4] == "hits / misses: 1 / 0 (counts)"
    assert out[6] == "cached plans (most recently used first):"
    assert out[7] == "key: (7, (16,)), plan type: PlanMany, memory usage: 1024"


# ---- the cache in use (fake and GPU backends) -----------------------------------------------

@pytest.fixture(params=["fake", pytest.param("gpu", marks=pytest.mark.gpu)])
def xb(request, monkeypatch):
    b = emu.backend(request.param, monkeypatch)
    yield b
    emu.clear_plan_caches()


def test_repeated_transform_reuses_its_plan(xb):
    cache = config.get_plan_cache()
    x = xb.asarray(np.ones((4, 64), np.complex64))
    cfft.fft(x)
    assert (cache.get_curr_size(), cache.misses, cache.hits) == (1, 1, 0)
    for _ in range(5):
        cfft.fft(x)
    assert (cache.get_curr_size(), cache.misses, cache.hits) == (1, 1, 5)
    cfft.fft(xb.asarray(np.ones((4, 65), np.complex64)))  # another length: another plan
    cfft.rfft(xb.asarray(np.ones((4, 64), np.float32)))  # another type: another plan
    assert (cache.get_curr_size(), cache.misses) == (3, 3)


def test_size_limit_evicts_least_recently_used(xb):
    cache = config.get_plan_cache()
    cache.set_size(2)
    try:
        arrays = [xb.asarray(np.ones(n, np.complex128)) for n in (8, 9, 10)]
        for x in arrays:
            cfft.fft(x)
        assert cache.get_curr_size() == 2
        assert [k[1] for k, _ in cache] == [(10,), (9,)]
        cfft.fft(arrays[0])  # evicted: made again
        assert cache.misses == 4
    finally:
        cache.set_size(16)


def test_nd_planning_uses_one_plan(xb, monkeypatch):
    x = xb.asarray(np.ones((4, 6, 8), np.complex64))
    cache = config.get_plan_cache()
    cfft.fftn(x)
    assert cache.get_curr_size() == 1 and len(cache.__iter__().__next__()[0][1]) == 3
    cache.clear()
    monkeypatch.setattr(config, "enable_nd_planning", False)
    cfft.fftn(x)
    assert cache.get_curr_size() == 3


def test_disabled_cache_still_transforms(xb):
    cache = config.get_plan_cache()
    cache.set_size(0)
    try:
        a = np.arange(16, dtype=np.complex64)
        got = xb.asnumpy(cfft.fft(xb.asarray(a)))
        np.testing.assert_allclose(got, np.fft.fft(a), atol=1e-3)
        assert cache.get_curr_size() == 0
    finally:
        cache.set_size(16)


def test_caches_are_per_thread(xb):
    main = config.get_plan_cache()
    seen = []
    t = threading.Thread(target=lambda: seen.append(config.get_plan_cache()))
    t.start()
    t.join()
    assert seen[0] is not main and seen[0].dev == main.dev
    assert config.get_plan_cache() is main


def test_show_plan_cache_info(xb, capsys):
    cfft.fft(xb.asarray(np.ones(32, np.complex64)))
    config.show_plan_cache_info()
    out = capsys.readouterr().out
    assert "cuFFT plan cache info (all devices)" in out and "(device 0)" in out
    assert "plan type: PlanMany" in out and "(32,)" in out


# ---- GPU only: work areas, streams ----------------------------------------------------------

@pytest.mark.gpu
def test_work_areas_come_from_the_pool():
    import cuarray
    emu.clear_plan_caches()
    cache = config.get_plan_cache()
    pool = cuarray.get_default_memory_pool()
    x = cuarray.ones(1_000_003, np.complex64)  # a prime length: Bluestein needs a work area
    before = pool.used_bytes()
    y = cfft.fft(x)
    plan = next(iter(cache))[1].plan
    assert cache.get_curr_memsize() == plan.memsize > 0
    assert plan.work_area is not None and plan.work_area.size >= plan.memsize
    assert pool.used_bytes() >= before + y.nbytes + plan.memsize
    del y
    used, memsize = pool.used_bytes(), plan.memsize
    cache.clear()
    del plan  # the last reference: the plan is destroyed and its work area freed
    assert cache.get_curr_memsize() == 0
    assert pool.used_bytes() <= used - memsize


@pytest.mark.gpu
def test_plans_run_on_the_current_stream():
    import cuarray
    emu.clear_plan_caches()
    a = np.random.RandomState(0).standard_normal((8, 4096)).astype(np.complex64)
    x = cuarray.asarray(a)
    cuarray.cuda.Device().synchronize()
    s = cuarray.cuda.Stream(non_blocking=True)
    with s:
        y = cfft.fft(x)
        plan = next(iter(config.get_plan_cache()))[1].plan
        assert plan._stream == s.ptr
        z = cfft.ifft(y)
    s.synchronize()
    np.testing.assert_allclose(cuarray.asnumpy(y), np.fft.fft(a), atol=1e-2)
    np.testing.assert_allclose(cuarray.asnumpy(z), a, atol=1e-4)
    cfft.fft(x)  # back on the default stream: the same plan, rebound
    assert plan._stream == cuarray.cuda.get_current_stream().ptr


def test_out_of_memory_when_making_a_plan_frees_and_retries(monkeypatch):
    from cuarray._libs import cufft as _cufft
    from cuarray._runtime.memory import OutOfMemoryError
    from cuarray.fft import _fft
    xb = emu.backend("fake", monkeypatch)
    freed = []

    class _Pool:
        def free_all_blocks(self):
            freed.append(True)
    monkeypatch.setattr(_fft, "get_default_memory_pool", lambda: _Pool())
    failures = []

    def plan(key):
        if failures:
            raise failures.pop()
        return emu.FakePlan(key)
    monkeypatch.setattr(_cufft, "Plan", plan)
    cache = config.get_plan_cache()
    cfft.fft(xb.asarray(np.ones(8, np.complex64)))  # a cached plan, dropped by the retry
    failures.append(OutOfMemoryError(1 << 30, 1 << 31))
    a = np.arange(12, dtype=np.complex64)
    got = cfft.fft(xb.asarray(a))
    np.testing.assert_allclose(xb.asnumpy(got), np.fft.fft(a), atol=1e-4)
    assert freed == [True] and cache.get_curr_size() == 1
    failures.append(ValueError("not a memory problem"))
    with pytest.raises(ValueError, match="not a memory problem"):
        cfft.fft(xb.asarray(np.ones(5, np.complex64)))
    emu.clear_plan_caches()


def test_alloc_failure_recognised():
    from cuarray._libs import cufft as _cufft

    class cuFFTError(Exception):
        status = 2
    assert _cufft.is_alloc_failure(cuFFTError())
    assert not _cufft.is_alloc_failure(RuntimeError())
