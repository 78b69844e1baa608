"""cuarray.jit.cg (cooperative groups) and cuarray.jit.cub (WarpReduce, BlockReduce):
generated code compiles with NVRTC (CPU) and kernels give NumPy's results (GPU)."""
import numpy
import pytest

import cuarray
from cuarray import jit
from cuarray._runtime.compiler import compile_cubin
from cuarray.jit._compile import translate_kernel
from cuarray.jit._types import Array

f32, f64, i32, i64, u32 = (numpy.dtype(c) for c in "fdilI")


def build(func, *types):
    src, name = translate_kernel(func, types)
    assert compile_cubin(src, arch="sm_90", name=name)[0]
    return src


def k_grid_sync(x, out, n):
    # two phases separated by a grid-wide barrier: out[i] reads a value another block wrote
    g = jit.cg.this_grid()
    i = numpy.int64(g.thread_rank())  # uint64 - int64 would be float64, as in NumPy
    if i < n:
        x[i] = x[i] * 2
    g.sync()
    if i < n:
        out[i] = x[n - 1 - i] + g.num_blocks() * 0 + g.block_rank() * 0


def k_block_group(out):
    b = jit.cg.this_thread_block()
    smem = jit.shared_memory(numpy.int32, 128)
    t = b.thread_rank()
    smem[t] = t * 3
    jit.cg.sync(b)
    out[jit.blockIdx.x * b.size() + t] = smem[b.num_threads() - 1 - t] + b.group_index().x * 1000 \
        + b.thread_index().x * 0 + b.dim_threads().x * 0


def k_memcpy_async(x, out):
    b = jit.cg.this_thread_block()
    smem = jit.shared_memory(numpy.float32, 256)
    jit.cg.memcpy_async(b, smem, 0, x, 0, 256 * 4)
    jit.cg.wait(b)
    t = jit.threadIdx.x
    out[t] = smem[255 - t]
    jit.cg.wait_prior(b, 0)


WR = jit.cub.WarpReduce[numpy.float64]


def k_warp_reduce(x, out):
    temp = jit.shared_memory(WR.TempStorage, 1)
    t = jit.threadIdx.x
    s = WR(temp[0]).Sum(x[t])
    m = WR(temp[0]).Reduce(x[t], jit.cub.Max())
    lo = WR(temp[0]).Reduce(x[t], jit.cub.Min())
    if jit.laneid() == 0:
        out[0] = s
        out[1] = m
        out[2] = lo


def k_block_reduce(x, out):
    BR = jit.cub.BlockReduce[numpy.int64, 200]
    temp = jit.shared_memory(BR.TempStorage, 1)
    i = jit.blockIdx.x * 200 + jit.threadIdx.x
    v = BR(temp[0]).Sum(x[i])
    if jit.threadIdx.x == 0:
        out[jit.blockIdx.x] = v


def test_cooperative_groups_compile():
    src = build(k_grid_sync, Array(f32, 1), Array(f32, 1), i64)
    assert "_jit_grid_sync();" in src
    src = build(k_block_group, Array(i32, 1))
    assert "__syncthreads();" in src and "_jit_grid_sync" not in src
    src = build(k_memcpy_async, Array(f32, 1), Array(f32, 1))
    assert "unsigned char*" in src


def test_cub_reducers_compile():
    src = build(k_warp_reduce, Array(f64, 1), Array(f64, 1))
    assert "_jit_warp_reduce<double>" in src and "_jit_cub_max()" in src
    src = build(k_block_reduce, Array(i64, 1), Array(i64, 1))
    assert "_jit_block_reduce<long long, 200>" in src
    for dt in (numpy.float32, numpy.int32, numpy.uint64, numpy.complex64, numpy.float16):
        R = jit.cub.WarpReduce[dt]

        def k(x, out):
            temp = jit.shared_memory(R.TempStorage, 1)
            out[0] = R(temp[0]).Sum(x[jit.threadIdx.x])
        k.__globals__["R"] = R
        build(k, Array(numpy.dtype(dt), 1), Array(numpy.dtype(dt), 1))


def test_group_and_reducer_errors():
    def bad_method(x):
        g = jit.cg.this_grid()
        g.barrier()

    def bad_sync(x):
        jit.cg.sync(x)

    def bad_storage(x):
        temp = jit.shared_memory(numpy.float32, 1)
        x[0] = WR(temp[0]).Sum(x[0])

    def bad_op(x):
        temp = jit.shared_memory(WR.TempStorage, 1)
        x[0] = WR(temp[0]).Reduce(x[0], 3)

    with pytest.raises(AttributeError, match="no method 'barrier'"):
        build(bad_method, Array(f32, 1))
    with pytest.raises(TypeError, match="cg.sync takes a group"):
        build(bad_sync, Array(f32, 1))
    with pytest.raises(TypeError, match="TempStorage"):
        build(bad_storage, Array(f32, 1))
    with pytest.raises(TypeError, match=r"jit.cub.Sum\(\)"):
        build(bad_op, Array(f64, 1))
    with pytest.raises(ValueError, match="BLOCK_DIM_X"):
        jit.cub.BlockReduce[numpy.float32, 4096]


# ---- GPU -------------------------------------------------------------------------------------
gpu = pytest.mark.gpu


@gpu
def test_grid_sync_through_cooperative_launch():
    k = jit.rawkernel()(k_grid_sync)
    n = 64 * 256
    xn = numpy.random.default_rng(0).random(n).astype(f32)
    x, out = cuarray.asarray(xn), cuarray.zeros(n, f32)
    k((64,), (256,), (x, out, n))
    numpy.testing.assert_array_equal(out.get(), (xn * 2)[::-1])
    # a second launch reuses the barrier's counter
    k((64,), (256,), (x, out, n))
    numpy.testing.assert_array_equal(out.get(), (xn * 4)[::-1])


@gpu
def test_thread_block_group_and_memcpy_async():
    k = jit.rawkernel()(k_block_group)
    out = cuarray.zeros(3 * 128, i32)
    k((3,), (128,), (out,))
    t = numpy.arange(128)
    want = numpy.concatenate([(127 - t) * 3 + b * 1000 for b in range(3)])
    numpy.testing.assert_array_equal(out.get(), want)
    k2 = jit.rawkernel()(k_memcpy_async)
    xn = numpy.random.default_rng(1).random(256).astype(f32)
    o = cuarray.zeros(256, f32)
    k2((1,), (256,), (cuarray.asarray(xn), o))
    numpy.testing.assert_array_equal(o.get(), xn[::-1])


@gpu
def test_warp_and_block_reduce_against_numpy():
    rng = numpy.random.default_rng(2)
    xn = rng.random(32)
    out = cuarray.zeros(3, f64)
    jit.rawkernel()(k_warp_reduce)((1,), (32,), (cuarray.asarray(xn), out))
    numpy.testing.assert_allclose(out.get(), [xn.sum(), xn.max(), xn.min()], rtol=1e-12)
    yn = rng.integers(-1000, 1000, 5 * 200)
    o = cuarray.zeros(5, i64)
    jit.rawkernel()(k_block_reduce)((5,), (200,), (cuarray.asarray(yn), o))
    numpy.testing.assert_array_equal(o.get(), yn.reshape(5, 200).sum(axis=1))
