"""NCCLBackend: argument checks and the NCCL calls it makes (CPU, a stand-in communicator on
the host emulation), one rank on a real GPU, and two ranks on two GPUs."""
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

from cuarray._core import _copy
from cuarray.distributed import _nccl_backend
from cuarray.distributed._nccl_backend import NCCLBackend

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "src")


class OneRankComm:
    """A communicator of one rank on host memory: records each call and does what NCCL
    does with a single rank (every collective is a copy)."""

    SIZES = {0: 1, 1: 1, 2: 4, 3: 4, 4: 8, 5: 8, 6: 2, 7: 4, 8: 8}

    def __init__(self):
        self.calls = []
        self.pending = []

    def _copy(self, dst, src, count, dt):
        # Device pointers on a GPU (a host memmove of them crashes the process), host
        # memory under the emulation: cuarray's device copy serves both.
        _copy.memcpy(dst, src, count * self.SIZES[dt])

    def allReduce(self, s, r, count, dt, op, stream):
        self.calls.append(("allReduce", count, dt, op, stream))
        self._copy(r, s, count, dt)

    def reduce(self, s, r, count, dt, op, root, stream):
        self.calls.append(("reduce", count, dt, op, root, stream))
        self._copy(r, s, count, dt)

    def broadcast(self, s, r, count, dt, root, stream):
        self.calls.append(("broadcast", count, dt, root, stream))

    def reduceScatter(self, s, r, count, dt, op, stream):
        self.calls.append(("reduceScatter", count, dt, op, stream))
        self._copy(r, s, count, dt)

    def allGather(self, s, r, count, dt, stream):
        self.calls.append(("allGather", count, dt, stream))
        self._copy(r, s, count, dt)

    def send(self, s, count, dt, peer, stream):
        self.calls.append(("send", count, dt, peer, stream))
        self.pending.append((s, count, dt))

    def recv(self, r, count, dt, peer, stream):
        self.calls.append(("recv", count, dt, peer, stream))
        s, n, sdt = self.pending.pop(0)
        assert (n, sdt) == (count, dt)
        self._copy(r, s, count, dt)


@pytest.fixture
def one_rank(monkeypatch):
    from cuarray.cuda import nccl
    monkeypatch.setattr(nccl, "groupStart", lambda: None)
    monkeypatch.setattr(nccl, "groupEnd", lambda: None)
    b = NCCLBackend.__new__(NCCLBackend)
    b._n_devices, b.rank, b._comm = 1, 0, OneRankComm()
    return b


def test_collectives_on_one_rank(cp, one_rank):
    rng = numpy.random.default_rng(5)
    h = rng.standard_normal(24).astype(numpy.float32)
    x = cp.asarray(h)
    y = cp.zeros_like(x)
    one_rank.all_reduce(x, y, op="max")
    numpy.testing.assert_array_equal(y.get(), h)
    assert one_rank._comm.calls[-1] == ("allReduce", 24, 7, 2, 0)
    z = cp.asarray(rng.standard_normal(6) + 1j * rng.standard_normal(6))   # complex128
    w = cp.zeros_like(z)
    one_rank.reduce(z, w, root=0)
    numpy.testing.assert_array_equal(w.get(), z.get())
    assert one_rank._comm.calls[-1][:3] == ("reduce", 12, 8)        # pairs of doubles
    out = cp.zeros(24, numpy.float32)
    one_rank.reduce_scatter(x, out, 24, op="sum")
    one_rank.all_gather(x, out, 24)
    numpy.testing.assert_array_equal(out.get(), h)
    i = cp.asarray(numpy.arange(10, dtype=numpy.int64))
    j = cp.zeros_like(i)
    one_rank.send_recv(i, j, 0)
    numpy.testing.assert_array_equal(j.get(), numpy.arange(10))
    a = cp.asarray(numpy.arange(12, dtype=numpy.int32).reshape(1, 12))
    b = cp.zeros((12,), numpy.int32)
    one_rank.scatter(a, b, root=0)
    numpy.testing.assert_array_equal(b.get(), numpy.arange(12))
    g = cp.zeros((1, 12), numpy.int32)
    one_rank.gather(b, g, root=0)
    numpy.testing.assert_array_equal(g.get(), numpy.arange(12).reshape(1, 12))
    t = cp.zeros((1, 12), numpy.int32)
    one_rank.all_to_all(a, t)
    numpy.testing.assert_array_equal(t.get(), a.get())
    one_rank.broadcast(x, root=0)
    assert one_rank._comm.calls[-1] == ("broadcast", 24, 7, 0, 0)


def test_bad_arguments(cp, one_rank):
    x = cp.zeros(8, numpy.float32)
    with pytest.raises(RuntimeError, match="Unknown op 'mean'"):
        one_rank.all_reduce(x, cp.zeros_like(x), op="mean")
    with pytest.raises(ValueError, match="must match"):
        one_rank.all_reduce(x, cp.zeros(4, numpy.float32))
    with pytest.raises(TypeError, match="numpy.ndarray|ndarray"):
        one_rank.all_reduce(numpy.zeros(8, numpy.float32), x)
    with pytest.raises(RuntimeError, match="c- or f-contiguous"):
        one_rank.broadcast(cp.zeros((4, 4), numpy.float32)[:, ::2])
    with pytest.raises(TypeError, match="int16"):
        one_rank.broadcast(cp.zeros(4, numpy.int16))
    with pytest.raises(ValueError, match="'max' is not defined for complex"):
        one_rank.all_reduce(cp.zeros(2, numpy.complex64), cp.zeros(2, numpy.complex64), op="max")
    with pytest.raises(TypeError, match="Unknown dtype bool"):
        one_rank.all_reduce(cp.zeros(2, bool), cp.zeros(2, bool))
    f = cp.zeros((3, 4), numpy.float32, order="F")
    one_rank.broadcast(f)                                   # F order is accepted
    with pytest.raises(ValueError, match="root must be a rank in 0..0"):
        one_rank.reduce(x, cp.zeros_like(x), root=1)
    with pytest.raises(ValueError, match="peer must be"):
        one_rank.send(x, 3)
    with pytest.raises(ValueError, match="too small"):
        one_rank.all_gather(x, cp.zeros(4, numpy.float32), 8)
    with pytest.raises(ValueError, match="first axis is n_devices"):
        one_rank.all_to_all(cp.zeros((2, 3), numpy.float32), cp.zeros((2, 3), numpy.float32))
    with pytest.raises(ValueError, match="n_devices"):
        NCCLBackend(0, 0)
    with pytest.raises(ValueError, match="rank must be in 0..1"):
        NCCLBackend(2, 2)
    with pytest.raises(ValueError, match="MPI"):
        NCCLBackend(1, 0, use_mpi=True)


def test_dtype_table():
    for ch, code in [("f", 7), ("d", 8), ("e", 6), ("b", 0), ("B", 1), ("i", 2), ("I", 3),
                     ("q", 4), ("Q", 5)]:
        class A:
            dtype = numpy.dtype(ch)
            size = 3
        assert _nccl_backend._dtype_and_count(A()) == (code, 3)


# --------------------------------------------------------------- GPUs with NCCL

def _nccl():
    pytest.importorskip("nccl.bindings.nccl", reason="nccl4py is not installed")


@pytest.mark.gpu
def test_one_rank_process_group():
    _nccl()
    import cuarray
    from cuarray import distributed
    comm = distributed.init_process_group(1, 0, port=0)
    try:
        rng = numpy.random.default_rng(8)
        h = rng.standard_normal(1000).astype(numpy.float32)
        x = cuarray.asarray(h)
        y = cuarray.empty_like(x)
        comm.all_reduce(x, y, "sum")
        out = cuarray.empty((1, 1000), numpy.float32)
        comm.gather(x, out, root=0)
        z = cuarray.empty_like(x)
        comm.scatter(out, z, root=0)
        comm.barrier()
        cuarray.cuda.get_current_stream().synchronize()
        numpy.testing.assert_array_equal(y.get(), h)
        numpy.testing.assert_array_equal(z.get(), h)
    finally:
        comm.stop()


_TWO_RANKS = textwrap.dedent("""
    import numpy, cuarray
    from cuarray import distributed
    comm = distributed.init_process_group()
    r, n = comm.rank, 2
    assert cuarray.cuda.Device().id == r
    x = cuarray.arange(8, dtype=numpy.float32) + r
    y = cuarray.empty_like(x)
    comm.all_reduce(x, y, "sum")
    comm.broadcast(x, root=1)
    big = cuarray.empty(16, numpy.float32)
    comm.all_gather(cuarray.full(8, r, numpy.float32), big, 8)
    part = cuarray.empty(4, numpy.float32)
    comm.reduce_scatter(cuarray.arange(8, dtype=numpy.float32), part, 4)
    got = cuarray.empty(3, numpy.int64)
    comm.send_recv(cuarray.full(3, 10 + r, numpy.int64), got, 1 - r)
    a2a = cuarray.empty((2, 2), numpy.int32)
    comm.all_to_all(cuarray.asarray([[r * 10, r * 10 + 1], [r * 10 + 2, r * 10 + 3]],
                                    dtype=numpy.int32), a2a)
    comm.barrier()
    cuarray.cuda.get_current_stream().synchronize()
    assert (y.get() == 2 * numpy.arange(8) + 1).all()
    assert (x.get() == numpy.arange(8) + 1).all()
    assert (big.get() == numpy.repeat([0, 1], 8)).all()
    assert (part.get() == 2 * numpy.arange(8)[4 * r:4 * r + 4]).all()
    assert (got.get() == 11 - r).all()
    # Rank r receives block r of every rank p in a2a[p].
    assert (a2a.get() == [[2 * r, 2 * r + 1], [10 + 2 * r, 11 + 2 * r]]).all()
    comm.stop()
""")


@pytest.mark.gpu
@pytest.mark.multi_gpu(2)
def test_two_processes_two_gpus(tmp_path):
    _nccl()
    script = tmp_path / "two_ranks.py"
    script.write_text(_TWO_RANKS)
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "cuarray.distributed.launch", "--nproc-per-node",
                        "2", str(script)], env=env, timeout=300)
    assert r.returncode == 0
