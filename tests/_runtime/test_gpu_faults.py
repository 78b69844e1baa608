"""Faults on the GPU leave the library usable: out of memory, a memory limit, threads with
their own streams, compile and launch errors, a kernel that traps, and an interrupted
synchronize."""
import os
import signal
import subprocess
import sys
import textwrap
import threading

import numpy
import pytest

import cuarray

pytestmark = pytest.mark.gpu
SRC = os.path.join(os.path.dirname(__file__), "..", "..", "src")


def _python(code, **env):
    e = dict(os.environ, **env)
    e["PYTHONPATH"] = os.path.abspath(SRC) + os.pathsep + e.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300, env=e)


# ---- out of memory ------------------------------------------------------------------------------
def test_out_of_memory_names_the_request_and_leaves_the_pool_working():
    pool = cuarray.get_default_memory_pool()
    keep = cuarray.arange(1000, dtype=cuarray.float64)
    free, total = cuarray.cuda.Device().mem_info
    with pytest.raises(cuarray.cuda.OutOfMemoryError) as e:
        cuarray.empty(2 * total, dtype=cuarray.uint8)
    msg = str(e.value)
    assert f"{2 * total:,}" in msg and "allocated so far" in msg
    # everything that existed still works, and new work fits
    assert float(keep.sum()) == 999 * 1000 / 2
    pool.free_all_blocks()
    big = cuarray.ones(free // 4 // 4, dtype=cuarray.float32)
    assert int(big.size) == free // 4 // 4 and float(big[-1]) == 1.0
    del big
    pool.free_all_blocks()
    assert pool.total_bytes() <= keep.nbytes + (1 << 20)


def test_memory_limit_is_honoured_exactly():
    out = _python("""
        import cuarray
        pool = cuarray.get_default_memory_pool()
        assert pool.get_limit() == 64 << 20, pool.get_limit()
        a = cuarray.empty(64 << 20, dtype=cuarray.uint8)      # exactly the limit fits
        try:
            cuarray.empty(512, dtype=cuarray.uint8)           # one block more does not
        except cuarray.cuda.OutOfMemoryError as e:
            print("OOM", "limit set to: 67,108,864 bytes" in str(e))
        del a
        b = cuarray.empty(32 << 20, dtype=cuarray.uint8)      # freed memory is reused
        print("OK", int(b.size))
    """, CUARRAY_GPU_MEMORY_LIMIT=str(64 << 20))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["OOM", "True", "OK", str(32 << 20)]


# ---- threads ------------------------------------------------------------------------------------
def _work(seed):
    rng = numpy.random.default_rng(seed)
    h = rng.standard_normal((257, 129)).astype(numpy.float32)
    a = cuarray.asarray(h)
    r = ((a * 2 + 1).sum(axis=0), cuarray.sort(a, axis=1)[:, ::7], (a @ a.T)[::31, ::17],
         cuarray.cumsum(a.ravel())[::1000], a[a > 0.5].size)
    return [x.get() if hasattr(x, "get") else x for x in r]


def test_eight_threads_with_their_own_streams_match_serial_results():
    serial = [_work(s) for s in range(8)]
    got, errors, streams = [None] * 8, [], [None] * 8

    def run(i):
        try:
            s = cuarray.cuda.Stream(non_blocking=True)
            with s:
                assert cuarray.cuda.get_current_stream() == s
                for _ in range(3):
                    got[i] = _work(i)
                s.synchronize()
            streams[i] = cuarray.cuda.get_current_stream()
        except BaseException as e:  # reported below with the thread's index
            errors.append((i, repr(e)))
    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=240)
    assert not any(t.is_alive() for t in threads), "a thread deadlocked"
    assert errors == []
    for s, g in zip(serial, got):
        for x, y in zip(s, g):
            numpy.testing.assert_allclose(y, x, rtol=1e-5, atol=1e-4)
    # leaving `with s:` restored each thread's own default stream, not another thread's
    assert all(s == streams[0] for s in streams)
    assert cuarray.cuda.get_current_stream() == streams[0]


# ---- compile and launch errors ------------------------------------------------------------------
def test_compile_error_has_the_log_and_the_kernel_name():
    k = cuarray.RawKernel('extern "C" __global__ void broken(float* x) { x[0] = y; }', "broken")
    with pytest.raises(cuarray.cuda.compiler.CompileException) as e:
        k((1,), (1,), (cuarray.zeros(1, cuarray.float32),))
    assert "identifier \"y\" is undefined" in str(e.value)
    # the library compiles and runs the next kernel
    assert float(cuarray.arange(4.0).sum()) == 6.0


def test_bad_launch_configuration_is_a_clear_error():
    k = cuarray.RawKernel('extern "C" __global__ void fill(float* x) { x[threadIdx.x] = 1; }',
                          "fill")
    x = cuarray.zeros(4096, cuarray.float32)
    with pytest.raises(cuarray.cuda.CUDARuntimeError, match="INVALID_VALUE|invalid argument"):
        k((1,), (4096,), (x,))          # more threads per block than any GPU allows
    k((1,), (1024,), (x,))
    assert float(x.sum()) == 1024.0


def test_a_trapping_kernel_says_the_context_is_lost():
    out = _python("""
        import cuarray
        k = cuarray.RawKernel('extern "C" __global__ void t(int* x) { if (x[0] == 0) __trap(); }', "t")
        x = cuarray.zeros(1, cuarray.int32)
        try:
            k((1,), (1,), (x,))
            cuarray.cuda.Device().synchronize()
        except cuarray.cuda.CUDARuntimeError as e:
            print("FIRST", e)
        try:
            cuarray.ones(3).sum().get()
        except cuarray.cuda.CUDARuntimeError as e:
            print("LATER", e)
    """)
    lines = out.stdout.splitlines()
    assert out.returncode == 0, out.stderr
    assert lines[0].startswith("FIRST") and "context of this process is now unusable" in lines[0]
    assert lines[1].startswith("LATER") and "lost earlier" in lines[1]


def test_interrupted_synchronize_leaves_the_library_usable():
    spin = cuarray.RawKernel(r'''
    extern "C" __global__ void spin(long long cycles, int* done) {
        long long t0 = clock64();
        while (clock64() - t0 < cycles) {}
        *done = 1;
    }''', "spin")
    done = cuarray.zeros(1, cuarray.int32)
    rate = cuarray.cuda.Device().attributes.get("ClockRate", 2_000_000) * 1000  # cycles per s
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    # A process started in the background of a shell ignores SIGINT: restore Python's handler.
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    spin((1,), (1,), (numpy.int64(rate), done))                      # about a second
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        cuarray.cuda.get_current_stream().synchronize()
        for _ in range(100):      # the signal arrives while Python runs, at the latest
            threading.Event().wait(0.05)
    timer.cancel()
    signal.signal(signal.SIGINT, old)
    cuarray.cuda.get_current_stream().synchronize()
    assert int(done[0]) == 1
    assert float(cuarray.arange(10.0).sum()) == 45.0
