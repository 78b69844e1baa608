"""The caching pool's capture arenas and memory hooks, on a fake allocator (CPU)."""
import io
import itertools
import json

import pytest

from cuarray._runtime import memory_blocks, graph, memory, memory_hooks, memory_pool
from cuarray.cuda import memory_hooks as public_hooks
from cuarray.cuda.memory_hook import MemoryHook


class FakeMemory(memory.BaseMemory):
    __slots__ = ("_live",)

    def __init__(self, live, ptr, size):
        self.ptr, self.size, self.device_id, self._live = ptr, size, 0, live
        live[ptr] = size

    def __del__(self):
        del self._live[self.ptr]


class FakeDevice:
    def __init__(self):
        self.live = {}
        self._next = itertools.count(1)

    def __call__(self, size):
        return memory.MemoryPointer(FakeMemory(self.live, next(self._next) << 24, size), 0)


@pytest.fixture
def env(monkeypatch):
    state = {"stream": 0}
    for mod in (memory, memory_blocks, memory_pool):
        for name, value in (("get_device_id", lambda: 0),
                            ("current_stream_ptr", lambda: state["stream"])):
            if hasattr(mod, name):
                monkeypatch.setattr(mod, name, value)
    monkeypatch.setattr(memory_pool, "_total_memory", lambda dev: 1 << 30)
    monkeypatch.delenv("CUARRAY_GPU_MEMORY_LIMIT", raising=False)
    yield state
    graph.captures.clear()


@pytest.fixture
def dev():
    return FakeDevice()


@pytest.fixture
def pool(env, dev):
    return memory.MemoryPool(dev)


def _capture(stream_ptr, n):
    ident = ("capture", n)
    graph.captures[stream_ptr] = ident
    return ident


def test_capture_gets_its_own_blocks(pool, dev, env):
    env["stream"] = 7
    before = pool.malloc(1024)
    p0 = before.ptr
    del before                       # a free chunk of stream 7, possibly still in use there
    ident = _capture(7, 1001)
    a = pool.malloc(1024)
    assert a.ptr != p0               # never hands eager memory to captured work
    pa = a.ptr
    del a                            # a temporary freed during the capture ...
    b = pool.malloc(1024)
    assert b.ptr == pa               # ... is reused by later captured work
    graph.captures.pop(7)
    c = pool.malloc(1024)
    assert c.ptr == p0               # after the capture, eager work gets eager memory
    del b
    d = pool.malloc(1024)
    assert d.ptr not in (pa,)        # the graph's block stays reserved
    assert ident in pool._pool()._arenas


def test_free_all_blocks_keeps_a_live_graphs_blocks(pool, dev, env):
    env["stream"] = 3
    ident = _capture(3, 1002)
    a = pool.malloc(4096)
    graph.captures.pop(3)
    del a
    pool.free_all_blocks()
    assert len(dev.live) == 1 and pool.total_bytes() == 4096
    graph._retire(ident, 3)           # the graph is gone: its block joins stream 3's arena
    assert ident not in pool._pool()._arenas
    b = pool.malloc(4096)
    assert b.ptr in dev.live and len(dev.live) == 1
    del b
    pool.free_all_blocks()
    assert dev.live == {} and pool.total_bytes() == 0


def test_retired_chunk_still_lent_returns_to_the_launch_stream(pool, dev, env):
    env["stream"] = 5
    ident = _capture(5, 1003)
    kept = pool.malloc(2048)          # an output the user keeps after the graph dies
    graph.captures.pop(5)
    graph._retire(ident, 9)
    ptr = kept.ptr
    del kept
    env["stream"] = 9
    again = pool.malloc(2048)
    assert again.ptr == ptr and pool.used_bytes() == 2048


def test_split_chunks_of_a_capture_move_together(pool, dev, env):
    env["stream"] = 4
    ident = _capture(4, 1004)
    big = pool.malloc(8192)
    del big
    small = pool.malloc(1024)         # split from the capture's block
    graph.captures.pop(4)
    graph._retire(ident, 4)
    del small
    arena = pool._pool()._arenas[4]
    assert sum(len(b) * s for s, b in arena.bins.items()) == 8192
    pool.free_all_blocks()
    assert dev.live == {}


# ---------------------------------------------------------------- memory hooks

class Recorder(MemoryHook):
    name = "Recorder"

    def __init__(self, name=None):
        if name:
            self.name = name
        self.calls = []

    def alloc_preprocess(self, **kw):
        self.calls.append(("alloc_pre", kw))

    def alloc_postprocess(self, **kw):
        self.calls.append(("alloc_post", kw))

    def malloc_preprocess(self, **kw):
        self.calls.append(("malloc_pre", kw))

    def malloc_postprocess(self, **kw):
        self.calls.append(("malloc_post", kw))

    def free_preprocess(self, **kw):
        self.calls.append(("free_pre", kw))

    def free_postprocess(self, **kw):
        self.calls.append(("free_post", kw))


def test_hooks_see_alloc_malloc_and_free(pool, dev):
    h = Recorder()
    with h:
        p = pool.malloc(100)
        ptr = p.ptr
        del p
    assert [c[0] for c in h.calls] == ["malloc_pre", "alloc_pre", "alloc_post", "malloc_post",
                                      "free_pre", "free_post"]
    kw = dict(h.calls)
    assert kw["malloc_pre"] == {"device_id": 0, "size": 100, "mem_size": 512}
    assert kw["alloc_pre"] == {"device_id": 0, "mem_size": 512}
    assert kw["alloc_post"] == {"device_id": 0, "mem_size": 512, "mem_ptr": ptr}
    assert kw["malloc_post"]["mem_ptr"] == ptr and kw["malloc_post"]["size"] == 100
    assert kw["free_pre"]["pmem_id"] == kw["malloc_post"]["pmem_id"]
    assert kw["free_post"] == kw["free_pre"]
    assert memory_hooks.threads == {}
    pool.malloc(100)                  # no hook: nothing recorded
    assert len(h.calls) == 6


def test_reuse_calls_malloc_hooks_only(pool, dev):
    del pool.malloc(512).mem
    h = Recorder()
    with h:
        q = pool.malloc(512)
    assert [c[0] for c in h.calls] == ["malloc_pre", "malloc_post"]
    del q


def test_hooks_nest_and_names_must_differ(pool):
    outer, inner = Recorder("outer"), Recorder("inner")
    with outer:
        with inner:
            assert set(memory_hooks.get_memory_hooks()) == {"outer", "inner"}
            pool.malloc(10)
        pool.malloc(10)
        with pytest.raises(RuntimeError, match="already active"):
            with Recorder("outer"):
                pass
    assert sum(c[0] == "malloc_post" for c in outer.calls) == 2
    assert sum(c[0] == "malloc_post" for c in inner.calls) == 1


def test_debug_print_hook_prints_json_lines(pool):
    out = io.StringIO()
    with public_hooks.DebugPrintHook(file=out):
        p = pool.malloc(24)
        del p
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [x["hook"] for x in lines] == ["alloc", "malloc", "free"]
    assert lines[1]["size"] == 24 and lines[1]["mem_size"] == 512
    assert lines[2]["pmem_id"] == lines[1]["pmem_id"]


def _allocate_here(pool):
    return pool.malloc(1000)


def test_line_profile_hook_attributes_bytes_to_lines(pool):
    hook = public_hooks.LineProfileHook()
    with hook:
        keep = _allocate_here(pool)
    out = io.StringIO()
    hook.print_report(out)
    text = out.getvalue()
    assert text.startswith("_root (1.00KB, 1.00KB)")
    assert "_allocate_here (1.00KB, 1.00KB)" in text
    assert "test_capture_arena_hooks.py" in text
    del keep
    with pytest.raises(ValueError):
        public_hooks.LineProfileHook(max_depth=-1)
