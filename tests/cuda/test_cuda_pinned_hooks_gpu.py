"""Pinned-array helpers, memory hooks and NVTX on a real device."""
import io
import json

import numpy
import pytest

import cuarray
from cuarray import cuda
from cuarray.cuda import memory_hooks

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex64, numpy.int16, numpy.bool_])
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 0, 4)])
def test_pinned_arrays_round_trip(dtype, shape):
    rng = numpy.random.default_rng(8)
    h = (rng.standard_normal(shape) * 10).astype(dtype)
    p = cuarray.empty_pinned(shape, dtype)
    assert isinstance(p, numpy.ndarray) and p.shape == h.shape and p.dtype == h.dtype
    p[...] = h
    if p.size:
        attrs = cuda.runtime.pointerGetAttributes(p.ctypes.data)
        assert attrs.type == cuda.runtime.memoryTypeHost
    d = cuarray.asarray(p)
    z = cuarray.zeros_like_pinned(p)
    assert (z == 0).all() and z.dtype == p.dtype
    d.get(out=z)
    numpy.testing.assert_array_equal(z, h)
    e = cuarray.empty_like_pinned(h, dtype=numpy.float64)
    assert e.dtype == numpy.float64 and e.shape == h.shape
    zz = cuarray.zeros_pinned(shape, dtype)
    assert (zz == 0).all()


def test_pinned_async_copy_on_stream():
    n = 1 << 22
    rng = numpy.random.default_rng(9)
    p = cuarray.empty_pinned(n, numpy.float32)
    p[:] = rng.standard_normal(n, dtype=numpy.float32)
    s = cuda.Stream(non_blocking=True)
    d = cuarray.empty(n, dtype=numpy.float32)
    with s:
        d.set(p, stream=s)
        d *= 2
        out = cuarray.zeros_pinned(n, numpy.float32)
        d.get(stream=s, out=out)
        s.synchronize()
    numpy.testing.assert_array_equal(out, p * 2)


def test_memory_hooks_see_cuarray_arrays():
    out = io.StringIO()
    pool = cuarray.get_default_memory_pool()
    with memory_hooks.DebugPrintHook(file=out):
        a = cuarray.arange(1000, dtype=numpy.float64)
        del a
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    mallocs = [e for e in events if e["hook"] == "malloc"]
    frees = [e for e in events if e["hook"] == "free"]
    assert any(e["mem_size"] == 8192 for e in mallocs)
    assert {e["pmem_id"] for e in frees} <= {e["pmem_id"] for e in mallocs}
    assert pool.used_bytes() >= 0
    hook = memory_hooks.LineProfileHook()
    with hook:
        b = cuarray.ones((256, 256))
    text = io.StringIO()
    hook.print_report(text)
    assert "test_cuda_pinned_hooks_gpu.py" in text.getvalue()
    del b


def test_nvtx_and_time_range_run():
    from cuarray.profiler import time_range
    cuda.nvtx.RangePush("outer", 1)
    cuda.nvtx.Mark("mark", 2)
    with time_range("block", color_id=3, sync=True):
        cuarray.arange(10).sum()
    cuda.nvtx.RangePop()
    cuda.profiler.start()
    cuda.profiler.stop()
