"""NVRTC compilation and the kernel cache: runs without a GPU (NVRTC runs on the CPU)."""
import os
import threading

import pytest

from cuarray._runtime import compiler

SRC = 'extern "C" __global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(compiler, "_memory_cache", {})
    return tmp_path


def _files(root):
    return [os.path.join(r, f) for r, _, fs in os.walk(root) for f in fs]


def test_compile_and_disk_cache(cache):
    cubin, lowered = compiler.compile_cubin(SRC, arch="sm_90")
    assert cubin[:4] == b"\x7fELF" and lowered == {}
    files = _files(cache)
    assert len(files) == 1
    compiler._memory_cache.clear()
    again, _ = compiler.compile_cubin(SRC, arch="sm_90")
    assert again == cubin
    assert compiler.cache_size() == os.path.getsize(files[0])


def test_key_covers_options_and_arch(cache):
    compiler.compile_cubin(SRC, arch="sm_90")
    compiler.compile_cubin(SRC, options=("-DX=1",), arch="sm_90")
    compiler.compile_cubin(SRC, arch="sm_80")
    assert len(_files(cache)) == 3


def test_corrupt_cache_entry_is_recompiled(cache):
    cubin, _ = compiler.compile_cubin(SRC, arch="sm_90")
    (path,) = _files(cache)
    for damage in (b"", b"garbage", open(path, "rb").read()[:-10]):
        with open(path, "wb") as f:
            f.write(damage)
        compiler._memory_cache.clear()
        assert compiler.compile_cubin(SRC, arch="sm_90")[0] == cubin


def test_concurrent_writers_never_expose_half_files(cache):
    errors = []

    def work(i):
        try:
            src = SRC.replace("1.0f", f"{i % 3}.0f")
            for _ in range(3):
                compiler._memory_cache.pop(compiler._key(src, (), (), "sm_90"), None)
                compiler.compile_cubin(src, arch="sm_90")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert not [f for f in _files(cache) if os.path.basename(f).startswith(".tmp-")]


def test_compile_error_has_log_and_numbered_source(cache):
    bad = 'extern "C" __global__ void k() {\n  int x = ;\n}\n'
    with pytest.raises(compiler.CompileException) as e:
        compiler.compile_cubin(bad, arch="sm_90")
    msg = str(e.value)
    assert "error" in msg and "   2   int x = ;" in msg
    from cuarray.cuda.compiler import CompileException
    assert isinstance(e.value, CompileException)


def test_name_expressions_lowered(cache):
    src = "template<typename T> __global__ void f(T* a) { a[0] = T(1); }\n"
    _, lowered = compiler.compile_cubin(src, name_expressions=("f<float>", "f<int>"), arch="sm_90")
    assert set(lowered) == {"f<float>", "f<int>"}
    assert all(v.startswith("_Z") for v in lowered.values())


def test_unwritable_cache_dir_still_compiles(monkeypatch, tmp_path):
    target = tmp_path / "file"
    target.write_text("not a directory")
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(target))
    monkeypatch.setattr(compiler, "_memory_cache", {})
    monkeypatch.setattr(compiler, "_warned", False)
    with pytest.warns(RuntimeWarning, match="kept in memory"):
        assert compiler.compile_cubin(SRC, arch="sm_90")[0][:4] == b"\x7fELF"


def test_default_cache_dir(monkeypatch):
    monkeypatch.delenv("CUARRAY_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/x/y")
    assert compiler.cache_dir() == "/x/y/cuarray"
