"""Issue "several GPUs": peer copies, NCCL all_reduce, Dask sums over one and two GPUs.

Rows needing two GPUs raise `Skip` on machines with fewer. The NCCL rows need nccl4py
(cuarray) and CuPy's NCCL build (CuPy); the Dask rows need dask.
"""
import time

import numpy

from benchmarks.harness import Group, Skip, Target, device_time

multigpu = Group("multigpu", "Several GPUs: peer copies, NCCL all_reduce, Dask arrays")


def _need_two(xp):
    n = xp.cuda.runtime.getDeviceCount()
    if n < 2:
        raise Skip(f"needs two GPUs; this machine has {n}")


# -- peer copies -------------------------------------------------------------------------

def _peer_buffers(xp, nbytes):
    _need_two(xp)
    with xp.cuda.Device(0):
        a = xp.ones(nbytes, dtype=numpy.uint8)
    with xp.cuda.Device(1):
        b = xp.empty(nbytes, dtype=numpy.uint8)
    for d, p in ((0, 1), (1, 0)):      # CuPy enables peer access for kernels only
        with xp.cuda.Device(d):
            try:
                xp.cuda.runtime.deviceEnablePeerAccess(p)
            except xp.cuda.runtime.CUDARuntimeError:
                pass                       # already enabled (cuarray did it on first copy)
    return a, b


def _peer_gbps(xp, ctx):
    a, b = _peer_buffers(xp, ctx.big)
    with xp.cuda.Device(1):
        ms = device_time(lambda: b.data.copy_from_device_async(a.data, ctx.big), xp,
                         repeat=ctx.repeat)
    return ctx.big / (ms * 1e-3) / 1e9


def _driver_peer_gbps(xp, ctx):
    """cuMemcpyPeerAsync called directly (the C-level figure), on the same buffers."""
    from cuda.bindings import driver as drv
    a, b = _peer_buffers(xp, ctx.big)
    ctxs = []
    for d in (0, 1):
        err, dev = drv.cuDeviceGet(d)
        err, c = drv.cuDevicePrimaryCtxRetain(dev)
        ctxs.append(c)
    with xp.cuda.Device(1):
        s = xp.cuda.get_current_stream().ptr

        def copy():
            (err,) = drv.cuMemcpyPeerAsync(b.data.ptr, ctxs[1], a.data.ptr, ctxs[0], ctx.big, s)
            assert int(err) == 0, err
        ms = device_time(copy, xp, repeat=ctx.repeat)
    return ctx.big / (ms * 1e-3) / 1e9


@multigpu.row("peer copy {size} device 0 → 1", unit="GB/s", target=Target.ratio(">=", 1.0))
def peer_copy(xp, ctx):
    return _peer_gbps(xp, ctx)


@multigpu.row("peer copy {size} 0 → 1 / cuMemcpyPeerAsync called directly", unit="×",
              target=Target.at(">=", 0.9))
def peer_copy_vs_driver(xp, ctx):
    return _peer_gbps(xp, ctx) / _driver_peer_gbps(xp, ctx)


# -- NCCL ----------------------------------------------------------------------------------

def _nccl_module(xp):
    if xp.__name__ == "cuarray":
        from cuarray.cuda import nccl
        if not nccl.available:
            raise Skip("nccl4py is not installed (pip install cuarray[nccl])")
        return nccl
    try:
        from cupy.cuda import nccl
    except ImportError as e:
        raise Skip(f"CuPy has no NCCL here: {e}") from None
    return nccl


def _all_reduce_busbw(xp, ctx, call):
    """Bus bandwidth as nccl-tests reports it: algbw * 2 (n - 1) / n, n = 2."""
    _need_two(xp)
    nccl = _nccl_module(xp)
    n = ctx.big // 4
    comms = nccl.NcclCommunicator.initAll([0, 1])
    bufs = []
    for d in (0, 1):
        with xp.cuda.Device(d):
            bufs.append((xp.ones(n, dtype=numpy.float32), xp.empty(n, dtype=numpy.float32),
                         xp.cuda.get_current_stream().ptr))

    def once():
        nccl.groupStart()
        for d, c in enumerate(comms):
            with xp.cuda.Device(d):
                call(nccl, c, bufs[d], n)
        nccl.groupEnd()

    def sync():
        for d in (0, 1):
            xp.cuda.Device(d).synchronize()
    for _ in range(3):
        once()
    sync()
    times = []
    for _ in range(ctx.repeat):
        t0 = time.perf_counter()
        once()
        sync()
        times.append(time.perf_counter() - t0)
    for c in comms:
        c.destroy()
    t = float(numpy.median(times))
    return ctx.big / t / 1e9 * 2 * (2 - 1) / 2


@multigpu.row("NCCL all_reduce {size} float32, 2 GPUs (bus bandwidth)", unit="GB/s",
              target=Target.ratio(">=", 0.95))
def nccl_all_reduce(xp, ctx):
    def call(nccl, c, buf, n):
        x, y, s = buf
        c.allReduce(x.data.ptr, y.data.ptr, n, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, s)
    return _all_reduce_busbw(xp, ctx, call)


@multigpu.row("NCCL all_reduce {size} float32, 2 GPUs, nccl4py bindings called directly",
              unit="GB/s")
def nccl_all_reduce_raw(xp, ctx):
    if xp.__name__ != "cuarray":
        raise Skip("NCCL's own figure (through nccl4py, no cuarray in between): one per run")
    from cuarray._libs import nccl as _libnccl

    def call(nccl, c, buf, n):
        x, y, s = buf
        _libnccl.lib().all_reduce(x.data.ptr, y.data.ptr, n, 7, 0, c.comm, s)
    return _all_reduce_busbw(xp, ctx, call)


# -- Dask ----------------------------------------------------------------------------------

_DASK_CHUNKS = 64


def _dask_sum_seconds(xp, ctx, ngpus):
    try:
        import dask
        import dask.array as da
    except ImportError:
        raise Skip("dask is not installed (pip install cuarray[dask])") from None
    if ngpus > 1:
        _need_two(xp)
    n = ctx.big // 4                       # one chunk: 1 GiB of float32 (64 MiB with --quick)

    def block_sum(block, block_info=None):
        # Each chunk is made and summed on the GPU its index picks; the 4-byte partial
        # comes back to device 0, where the partials are added.
        k = block_info[None]["chunk-location"][0]
        with xp.cuda.Device(k % ngpus):
            part = xp.ones(n, dtype=numpy.float32).sum(keepdims=True)
        with xp.cuda.Device(0):
            return xp.asarray(part)

    with xp.cuda.Device(0):
        meta = xp.empty((0,), dtype=numpy.float32)
    blocks = da.map_blocks(block_sum, da.empty((_DASK_CHUNKS,), chunks=1), dtype=numpy.float32,
                           meta=meta)

    def run():
        with xp.cuda.Device(0):
            total = blocks.sum().compute(scheduler="threads", num_workers=2 * ngpus)
            assert float(total) == float(_DASK_CHUNKS * n)

    run()                                  # compile and warm the pools
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return float(numpy.median(times))


@multigpu.row(f"Dask sum of {_DASK_CHUNKS} × {{size}} float32 chunks, 1 GPU", unit="s")
def dask_sum_one(xp, ctx):
    return _dask_sum_seconds(xp, ctx, 1)


@multigpu.row(f"Dask sum of {_DASK_CHUNKS} × {{size}} float32 chunks, 2 GPUs", unit="s")
def dask_sum_two(xp, ctx):
    return _dask_sum_seconds(xp, ctx, 2)


@multigpu.row("Dask sum: 2-GPU speed-up over 1 GPU", unit="×", target=Target.at(">=", 1.8))
def dask_speedup(xp, ctx):
    return _dask_sum_seconds(xp, ctx, 1) / _dask_sum_seconds(xp, ctx, 2)


def _ones_sum_block(block, block_info=None, n=0):
    # Runs on a cluster worker: the chunk is made and summed on the worker's GPU.
    import cuarray
    return cuarray.ones(n, dtype=numpy.float32).sum(keepdims=True)


def _dask_cluster_seconds(xp, ctx, ngpus):
    if xp.__name__ != "cuarray":
        raise Skip("cuarray's one-worker-per-GPU cluster (CuPy's counterpart is dask-cuda)")
    try:
        import dask.array as da
        from distributed import Client
    except ImportError:
        raise Skip("dask and distributed are not installed (pip install cuarray[dask])") \
            from None
    if ngpus > 1:
        _need_two(xp)
    from cuarray.distributed import dask_cluster
    n = ctx.big // 4
    with dask_cluster.local_cluster(ngpus) as cluster, Client(cluster) as client:
        blocks = da.map_blocks(_ones_sum_block, da.empty((_DASK_CHUNKS,), chunks=1), n=n,
                               dtype=numpy.float32, meta=xp.empty((0,), dtype=numpy.float32))
        total = blocks.sum()

        def run():
            assert float(client.compute(total).result()) == float(_DASK_CHUNKS * n)
        run()
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            run()
            times.append(time.perf_counter() - t0)
    return float(numpy.median(times))


@multigpu.row(f"Dask sum of {_DASK_CHUNKS} × {{size}} float32 chunks, local_cluster(1)",
              unit="s")
def dask_cluster_one(xp, ctx):
    return _dask_cluster_seconds(xp, ctx, 1)


@multigpu.row(f"Dask sum of {_DASK_CHUNKS} × {{size}} float32 chunks, local_cluster(2)",
              unit="s")
def dask_cluster_two(xp, ctx):
    return _dask_cluster_seconds(xp, ctx, 2)


@multigpu.row("Dask sum on local_cluster: 2-GPU speed-up over 1 GPU", unit="×",
              target=Target.at(">=", 1.8))
def dask_cluster_speedup(xp, ctx):
    return _dask_cluster_seconds(xp, ctx, 1) / _dask_cluster_seconds(xp, ctx, 2)
