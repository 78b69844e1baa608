"""CUDA graphs by stream capture: replayed values, the pool during capture, errors."""
import gc

import numpy
import pytest

import cuarray
from cuarray import cuda

pytestmark = pytest.mark.gpu


def _inputs(seed, shape=(64, 48), dtype=numpy.float32):
    rng = numpy.random.default_rng(seed)
    return rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape).astype(dtype)


def _ops(a, b):
    c = a * 2 + b
    d = cuarray.sin(c).sum(axis=0)
    e = a @ b.T
    f = cuarray.maximum(c, 0).max()
    return c, d, e, f


def _ref(a, b):
    c = a * 2 + b
    return c, numpy.sin(c).sum(axis=0), a @ b.T, numpy.maximum(c, 0).max()


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_graph_replays_ufuncs_reductions_matmul(dtype):
    ha, hb = _inputs(0, dtype=dtype)
    s = cuda.Stream(non_blocking=True)
    with s:
        a, b = cuarray.asarray(ha), cuarray.asarray(hb)
        _ops(a, b)                     # compile kernels, make the cuBLAS handle
        s.synchronize()
        s.begin_capture()
        assert s.is_capturing()
        outs = _ops(a, b)
        g = s.end_capture()
        assert not s.is_capturing()
        assert isinstance(g, cuda.Graph)
        g.upload()
        g.launch()
        s.synchronize()
    tol = 1e-4 if dtype == numpy.float32 else 1e-10
    for got, want in zip(outs, _ref(ha, hb)):
        numpy.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)
    # New inputs written in place: the next launch computes with them.
    ha2, hb2 = _inputs(1, dtype=dtype)
    with s:
        a.set(ha2)
        b.set(hb2)
        g.launch(s)
        s.synchronize()
    for got, want in zip(outs, _ref(ha2, hb2)):
        numpy.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)


def test_graph_memory_is_not_lent_to_eager_arrays():
    ha, hb = _inputs(2, shape=(4096,))
    s = cuda.Stream(non_blocking=True)
    with s:
        a, b = cuarray.asarray(ha), cuarray.asarray(hb)
        (a + b) * a
        s.synchronize()
        s.begin_capture()
        out = (a + b) * a              # the temporary a + b is freed during capture
        g = s.end_capture()
        # Eager arrays of the same size made now must not overlap the graph's memory.
        others = [cuarray.full(4096, 7.0, dtype=numpy.float32) for _ in range(4)]
        g.launch()
        s.synchronize()
    numpy.testing.assert_allclose(out.get(), (ha + hb) * ha, rtol=1e-6)
    for o in others:
        assert (o.get() == 7.0).all()
    ptrs = {o.data.ptr for o in others}
    assert out.data.ptr not in ptrs


def test_graph_outlives_its_arrays_and_memory_returns():
    pool = cuarray.get_default_memory_pool()
    s = cuda.Stream(non_blocking=True)
    with s:
        a = cuarray.arange(1 << 16, dtype=numpy.float32)
        a + 1
        s.begin_capture()
        b = a + 1
        g = s.end_capture()
        del b
        g.launch()
        s.synchronize()
        del g
        gc.collect()
        pool.free_all_blocks()
        # The dead graph's block went back to the stream's free list and was released.
        c = a + 2
        numpy.testing.assert_array_equal(c.get(), numpy.arange(1 << 16, dtype=numpy.float32) + 2)


def test_graph_replay_many_times_matches_eager():
    rng = numpy.random.default_rng(3)
    h = rng.standard_normal(1000).astype(numpy.float32)
    s = cuda.Stream(non_blocking=True)
    with s:
        x = cuarray.asarray(h)
        y = cuarray.zeros_like(x)
        y += x
        s.begin_capture()
        y += x                         # an in-place op: each launch adds x once more
        g = s.end_capture()
        y.fill(0)
        for _ in range(10):
            g.launch()
        s.synchronize()
    numpy.testing.assert_allclose(y.get(), 10 * h, rtol=1e-5)


def test_synchronize_during_capture_raises():
    s = cuda.Stream(non_blocking=True)
    with s:
        a = cuarray.arange(10.0)
        a + 1
        s.begin_capture()
        b = a + 1
        with pytest.raises(cuda.runtime.CUDARuntimeError) as e:
            b.get()                    # reading a value back needs a sync
        assert e.value.status == cuda.runtime.errorStreamCaptureUnsupported
        with pytest.raises(cuda.runtime.CUDARuntimeError):
            s.is_capturing()           # invalidated
        with pytest.raises(cuda.runtime.CUDARuntimeError):
            s.end_capture()
        assert not s.is_capturing()
        # The stream works normally afterwards.
        numpy.testing.assert_array_equal((a * 2).get(), numpy.arange(10.0) * 2)


def test_stream_synchronize_during_capture_raises():
    s = cuda.Stream(non_blocking=True)
    with s:
        s.begin_capture()
        with pytest.raises(cuda.runtime.CUDARuntimeError) as e:
            s.synchronize()
        assert e.value.status == 900
        with pytest.raises(cuda.runtime.CUDARuntimeError):
            s.end_capture()


def test_capture_on_the_null_stream_is_refused():
    with pytest.raises(RuntimeError, match="null stream"):
        cuda.Stream.null.begin_capture()
    s = cuda.Stream()
    with pytest.raises(ValueError, match="capture mode"):
        s.begin_capture(mode=7)
    with pytest.raises(cuda.runtime.CUDARuntimeError):
        s.end_capture()                # not capturing


def test_capture_modes():
    s = cuda.Stream(non_blocking=True)
    x = cuarray.arange(8, dtype=numpy.int64)
    with s:
        x * 3
        s.synchronize()
        for mode in (cuda.runtime.streamCaptureModeGlobal,
                     cuda.runtime.streamCaptureModeThreadLocal,
                     cuda.runtime.streamCaptureModeRelaxed):
            y = cuarray.empty_like(x)  # allocated before the capture: no cuMemAlloc inside
            s.begin_capture(mode)
            cuarray.multiply(x, 3, out=y)
            g = s.end_capture()
            g.launch()
            s.synchronize()
            numpy.testing.assert_array_equal(y.get(), numpy.arange(8) * 3)


def test_debug_dot_str():
    s = cuda.Stream(non_blocking=True)
    with s:
        a = cuarray.ones(16)
        a + 1
        s.begin_capture()
        a + 1
        g = s.end_capture()
    assert g.debug_dot_str().lstrip().startswith("digraph")


def test_against_cupy_graph():
    cupy = pytest.importorskip("cupy")
    ha, hb = _inputs(4, shape=(1000,))
    results = []
    for xp in (cuarray, cupy):
        s = xp.cuda.Stream(non_blocking=True)
        with s:
            a, b = xp.asarray(ha), xp.asarray(hb)
            c = xp.sqrt(a * a + b * b)
            s.begin_capture()
            c = xp.sqrt(a * a + b * b)
            g = s.end_capture()
            g.launch(s)
            s.synchronize()
        results.append(xp.asnumpy(c))
    numpy.testing.assert_allclose(results[0], results[1], rtol=1e-6)


def test_graph_with_scan_replays_correctly():
    rng = numpy.random.default_rng(5)
    h = rng.standard_normal(100000).astype(numpy.float32)
    s = cuda.Stream(non_blocking=True)
    with s:
        x = cuarray.asarray(h)
        cuarray.cumsum(x)
        s.synchronize()
        s.begin_capture()
        y = cuarray.cumsum(x)
        g = s.end_capture()
        for _ in range(3):             # every replay starts from fresh look-back flags
            g.launch()
            s.synchronize()
            numpy.testing.assert_allclose(y.get(), numpy.cumsum(h, dtype=numpy.float64),
                                          rtol=1e-3, atol=1e-2)
