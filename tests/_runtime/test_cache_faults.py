"""The kernel cache under faults, without a GPU (NVRTC runs on the CPU): damaged entries
are detected and rewritten, an unwritable or full cache directory falls back to memory
with one warning, and many processes compiling the same kernels into one cache at once
neither fail nor read a partial file."""
import errno
import multiprocessing
import os
import warnings

import pytest

from cuarray._runtime import compiler

SRC = 'extern "C" __global__ void k(float* a) { a[threadIdx.x] = %d.0f; }\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(compiler, "_memory_cache", {})
    monkeypatch.setattr(compiler, "_warned", False)
    return tmp_path


def _entries(root):
    return sorted(os.path.join(r, f) for r, _, fs in os.walk(root) for f in fs
                  if f.endswith(".cubin"))


@pytest.mark.parametrize("damage", ["truncated", "flipped", "foreign", "empty"])
def test_damaged_entry_is_ignored_and_rewritten(cache, damage):
    cubin, _ = compiler.compile_cubin(SRC % 1, arch="sm_90")
    (path,) = _entries(cache)
    good = open(path, "rb").read()
    bad = {"truncated": good[:len(good) // 2],
           "flipped": good[:-5] + bytes([good[-5] ^ 0xFF]) + good[-4:],
           "foreign": b"CUARRAY-CACHE-v0\n" + good[20:],
           "empty": b""}[damage]
    with open(path, "wb") as f:
        f.write(bad)
    compiler._memory_cache.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")     # a damaged entry is routine: no warning
        assert compiler.compile_cubin(SRC % 1, arch="sm_90")[0] == cubin
    assert open(path, "rb").read() == good, "the damaged entry was not rewritten"


def test_read_only_directory_warns_once_and_compiles(cache, monkeypatch):
    target = cache / "not-a-directory"
    target.write_text("x")
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(target))
    with pytest.warns(RuntimeWarning, match="cannot be cached on disk") as rec:
        for i in range(3):
            assert compiler.compile_cubin(SRC % i, arch="sm_90")[0][:4] == b"\x7fELF"
    assert len([w for w in rec if "cannot be cached" in str(w.message)]) == 1
    # kept in memory: the same source again compiles nothing
    calls = []
    monkeypatch.setattr(compiler, "_compile", lambda *a: calls.append(a))
    compiler.compile_cubin(SRC % 0, arch="sm_90")
    assert calls == []


def test_full_disk_warns_once_and_compiles(cache, monkeypatch):
    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(compiler.os, "replace", full)
    with pytest.warns(RuntimeWarning, match="No space left on device"):
        assert compiler.compile_cubin(SRC % 7, arch="sm_90")[0][:4] == b"\x7fELF"
        assert compiler.compile_cubin(SRC % 8, arch="sm_90")[0][:4] == b"\x7fELF"
    # the failed write left no temporary file behind
    assert [f for r, _, fs in os.walk(cache) for f in fs] == []


def _compile_all(args):
    cache_dir, n = args
    os.environ["CUARRAY_CACHE_DIR"] = cache_dir
    from cuarray._runtime import compiler as c
    out = []
    for i in range(n):
        out.append(c.compile_cubin(SRC % i, arch="sm_90")[0])
    return out


def test_sixteen_processes_compile_into_one_cache(tmp_path, monkeypatch):
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(16) as pool:
        results = pool.map(_compile_all, [(str(tmp_path), 4)] * 16)
    assert all(r == results[0] for r in results)
    entries = _entries(tmp_path)
    assert len(entries) == 4
    assert not [f for r, _, fs in os.walk(tmp_path) for f in fs if f.startswith(".tmp-")]
    # every entry is whole: a fresh process loads each without recompiling
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path))
    for path in entries:
        key = os.path.basename(path)[:-len(".cubin")]
        assert compiler._disk_load(key) is not None
