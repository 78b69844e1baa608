"""Dask arrays with cuarray chunks: the registration and Dask's plumbing on the host
emulation (CPU), values on one GPU with several chunks, and two GPUs."""
import subprocess
import sys

import numpy
import pytest

da = pytest.importorskip("dask.array", reason="dask is not installed (pip install cuarray[dask])")
import dask  # noqa: E402


def test_registered_with_dask():
    import cuarray
    from dask.array import chunk_types, dispatch
    assert chunk_types.is_valid_chunk_type(cuarray.ndarray)
    assert dispatch.concatenate_lookup.dispatch(cuarray.ndarray) is cuarray.concatenate
    assert dispatch.tensordot_lookup.dispatch(cuarray.ndarray) is cuarray.tensordot


def test_import_cuarray_does_not_import_dask_and_registers_later():
    code = ("import sys, cuarray; assert 'dask' not in sys.modules; import dask.array; "
            "from dask.array import chunk_types; "
            "assert chunk_types.is_valid_chunk_type(cuarray.ndarray); print('ok')")
    import os
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "src")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=src), timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_chunks_meta_map_blocks_and_elementwise(cp):
    # Reductions run block-cooperative kernels the host emulation cannot: GPU tests below.
    rng = numpy.random.default_rng(31)
    h = rng.standard_normal((40, 12)).astype(numpy.float32)
    x = cp.asarray(h)
    d = da.from_array(x, chunks=(10, 6), asarray=False)
    assert d.numblocks == (4, 2)
    assert isinstance(d._meta, cp.ndarray) and d._meta.dtype == numpy.float32
    with dask.config.set(scheduler="synchronous"):
        blocks = d.blocks[1, 1].compute()
        assert isinstance(blocks, cp.ndarray)
        numpy.testing.assert_array_equal(blocks.get(), h[10:20, 6:12])
        y = (2 * d + 1).compute()
        assert isinstance(y, cp.ndarray)
        numpy.testing.assert_allclose(y.get(), 2 * h + 1, rtol=1e-6)
        m = d.map_blocks(lambda b: b * b, dtype=numpy.float32).compute()
        numpy.testing.assert_allclose(m.get(), h * h, rtol=1e-6)
        t = d.T.compute()
        numpy.testing.assert_array_equal(t.get(), h.T)
        c = da.concatenate([d, d], axis=0).compute()
        numpy.testing.assert_array_equal(c.get(), numpy.concatenate([h, h]))


def test_empty_and_one_chunk(cp):
    with dask.config.set(scheduler="synchronous"):
        e = da.from_array(cp.zeros((0, 3), numpy.float64), chunks=(2, 3), asarray=False)
        assert e.compute().shape == (0, 3)
        one = da.from_array(cp.asarray(numpy.arange(5.0)), chunks=5)   # dask's default asarray
        assert isinstance(one._meta, cp.ndarray)
        assert one.numblocks == (1,)
        numpy.testing.assert_array_equal((one - 1).compute().get(), numpy.arange(5.0) - 1)


# ------------------------------------------------------------------ one GPU

@pytest.mark.gpu
def test_tall_skinny_qr_and_svd_on_one_gpu():
    import cuarray
    rng = numpy.random.default_rng(32)
    h = rng.standard_normal((4000, 20))
    d = da.from_array(cuarray.asarray(h), chunks=(500, 20), asarray=False)
    q, r = da.linalg.tsqr(d)
    q, r = q.compute(), r.compute()
    assert isinstance(q, cuarray.ndarray) and isinstance(r, cuarray.ndarray)
    numpy.testing.assert_allclose((q @ r).get(), h, atol=1e-10)
    numpy.testing.assert_allclose((q.T @ q).get(), numpy.eye(20), atol=1e-10)
    u, s, v = da.linalg.svd(d)
    numpy.testing.assert_allclose(s.compute().get(), numpy.linalg.svd(h, compute_uv=False),
                                  rtol=1e-10)
    rec = (u.compute() * s.compute()) @ v.compute()
    numpy.testing.assert_allclose(rec.get(), h, atol=1e-9)


@pytest.mark.gpu
@pytest.mark.parametrize("scheduler", ["threads", "synchronous"])
def test_reductions_many_chunks_on_one_gpu(scheduler):
    import cuarray
    rng = numpy.random.default_rng(33)
    h = rng.standard_normal((1000, 64)).astype(numpy.float32)
    d = da.from_array(cuarray.asarray(h), chunks=(100, 32), asarray=False)
    with dask.config.set(scheduler=scheduler):
        s = d.sum(axis=0).compute()
        assert isinstance(s, cuarray.ndarray)
        numpy.testing.assert_allclose(s.get(), h.sum(axis=0), rtol=1e-4, atol=1e-4)
        numpy.testing.assert_allclose(float(d.sum().compute()), h.sum(), rtol=1e-3, atol=1e-2)
        numpy.testing.assert_array_equal(d.max(axis=1).compute().get(), h.max(axis=1))
        numpy.testing.assert_allclose(d.mean(axis=0).compute().get(), h.mean(axis=0), rtol=1e-4,
                                      atol=1e-6)
        numpy.testing.assert_allclose(d.std().compute().get(), h.std(), rtol=1e-4)
        numpy.testing.assert_allclose((d @ d.T).compute().get(), h @ h.T, rtol=1e-4, atol=1e-3)
        numpy.testing.assert_array_equal(d.argmax(axis=0).compute().get(), h.argmax(axis=0))


# ------------------------------------------------------------------ two GPUs

def test_cluster_layout_one_process_per_gpu():
    # Real worker processes on the CPU: each one sees "its" GPU first.
    pytest.importorskip("distributed")
    from distributed import Client
    from cuarray.distributed import dask_cluster
    assert dask_cluster.visible_devices_order(2, 4) == "2,3,0,1"
    with pytest.raises(ValueError, match="n_gpus"):
        dask_cluster.local_cluster(0)
    with dask_cluster.local_cluster(2) as cluster, Client(cluster) as client:
        seen = client.run(lambda: __import__("os").environ["CUDA_VISIBLE_DEVICES"])
        assert sorted(seen.values()) == ["0,1", "1,0"]


@pytest.mark.gpu
@pytest.mark.multi_gpu(2)
def test_local_cluster_one_worker_per_gpu():
    pytest.importorskip("distributed")
    from distributed import Client
    import cuarray
    from cuarray.distributed import dask_cluster
    with dask_cluster.local_cluster(2) as cluster, Client(cluster) as client:
        # Lambdas travel by value: the workers cannot import this test module.
        buses = client.run(lambda: __import__("cuarray").cuda.Device().pci_bus_id)
        assert len(set(buses.values())) == 2          # two different GPUs
        rng = numpy.random.default_rng(34)
        h = rng.standard_normal((8, 1 << 16)).astype(numpy.float32)
        d = da.from_array(h, chunks=(1, 1 << 16)).map_blocks(
            cuarray.asarray, dtype=numpy.float32, meta=cuarray.empty((0, 0), numpy.float32))
        total = d.sum(axis=1).compute()
        assert isinstance(total, cuarray.ndarray)
        numpy.testing.assert_allclose(total.get(), h.sum(axis=1), rtol=1e-4)


def test_cuarray_array_backend(cp):
    with dask.config.set({"array.backend": "cuarray"}, scheduler="synchronous"):
        d = da.ones((6, 4), chunks=(3, 2), dtype=numpy.float32)
        assert isinstance(d._meta, cp.ndarray)
        z = da.zeros((5,), chunks=2)
        f = da.full((4,), 2.5, chunks=2)
        r = da.arange(0, 10, 2, chunks=2)
        for x, want in ((d, numpy.ones((6, 4), numpy.float32)), (z, numpy.zeros(5)),
                        (f, numpy.full(4, 2.5)), (r, numpy.arange(0, 10, 2))):
            got = x.compute()
            assert isinstance(got, cp.ndarray)
            numpy.testing.assert_array_equal(got.get(), want)
        moved = da.from_array(numpy.arange(6.0), chunks=3).to_backend("cuarray")
        assert isinstance(moved.compute(), cp.ndarray)
        numpy.testing.assert_array_equal(moved.compute().get(), numpy.arange(6.0))
