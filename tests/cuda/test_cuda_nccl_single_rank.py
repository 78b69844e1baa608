"""cuarray.cuda.nccl with one rank (needs nccl4py and an NCCL wheel; skipped without)."""
import numpy
import pytest

import cuarray
from cuarray import cuda

pytestmark = pytest.mark.gpu
pytest.importorskip("nccl.bindings.nccl", reason="nccl4py is not installed")

from cuarray.cuda import nccl  # noqa: E402


@pytest.mark.parametrize("dtype,code", [(numpy.float32, nccl.NCCL_FLOAT32),
                                        (numpy.float64, nccl.NCCL_FLOAT64),
                                        (numpy.int32, nccl.NCCL_INT32)])
def test_single_rank_collectives(dtype, code):
    assert nccl.available
    uid = nccl.get_unique_id()
    assert isinstance(uid, tuple) and len(uid) == 128 and all(-128 <= v < 128 for v in uid)
    comm = nccl.NcclCommunicator(1, uid, 0)
    assert comm.size() == 1 and comm.rank_id() == 0 and comm.device_id() == 0
    rng = numpy.random.default_rng(60)
    h = (rng.standard_normal(1000) * 100).astype(dtype)
    x = cuarray.asarray(h)
    y = cuarray.zeros_like(x)
    s = cuda.get_current_stream()
    comm.allReduce(x.data.ptr, y.data.ptr, x.size, code, nccl.NCCL_SUM, s.ptr)
    s.synchronize()
    numpy.testing.assert_array_equal(y.get(), h)
    z = cuarray.zeros_like(x)
    comm.broadcast(x.data.ptr, z.data.ptr, x.size, code, 0, s.ptr)
    comm.reduce(x.data.ptr, y.data.ptr, x.size, code, nccl.NCCL_MAX, 0, s.ptr)
    s.synchronize()
    numpy.testing.assert_array_equal(z.get(), h)
    numpy.testing.assert_array_equal(y.get(), h)
    comm.check_async_error()
    comm.destroy()
    assert comm.comm == 0
    with pytest.raises(RuntimeError, match="destroyed"):
        comm.size()
    assert nccl.get_version() > 0


def test_bad_arguments():
    with pytest.raises(ValueError, match="rank"):
        nccl.NcclCommunicator(1, nccl.get_unique_id(), 1)
    with pytest.raises(ValueError, match="128"):
        nccl.NcclCommunicator(1, (0,) * 5, 0)


def test_init_all_group_and_point_to_point_on_one_device():
    comms = nccl.NcclCommunicator.initAll(1)
    assert len(comms) == 1 and comms[0].size() == 1 and comms[0].device_id() == 0
    comm = comms[0]
    rng = numpy.random.default_rng(61)
    h = rng.standard_normal(64).astype(numpy.float32)
    x = cuarray.asarray(h)
    y = cuarray.zeros_like(x)
    g = cuarray.zeros(64, numpy.float32)
    r = cuarray.zeros(64, numpy.float32)
    s = cuda.get_current_stream()
    # Arrays and Stream objects are accepted where CuPy takes ints.
    nccl.groupStart()
    comm.send(x, x.size, nccl.NCCL_FLOAT32, 0, s)
    comm.recv(y, y.size, nccl.NCCL_FLOAT32, 0, s)
    nccl.groupEnd()
    comm.allGather(x, g, x.size, nccl.NCCL_FLOAT32, s)
    comm.reduceScatter(x, r, x.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, s)
    s.synchronize()
    for out in (y, g, r):
        numpy.testing.assert_array_equal(out.get(), h)
    comm.destroy()
    with pytest.raises(ValueError, match="twice"):
        nccl.NcclCommunicator.initAll([0, 0])
    with pytest.raises(ValueError, match="at least one"):
        nccl.NcclCommunicator.initAll([])


@pytest.mark.gpu
@pytest.mark.multi_gpu(2)
def test_init_all_two_devices_all_reduce():
    comms = nccl.NcclCommunicator.initAll([0, 1])
    assert [c.device_id() for c in comms] == [0, 1] and [c.rank_id() for c in comms] == [0, 1]
    rng = numpy.random.default_rng(62)
    hs = [rng.standard_normal(1000).astype(numpy.float64) for _ in range(2)]
    xs, ys = [], []
    for d, h in enumerate(hs):
        with cuda.Device(d):
            xs.append(cuarray.asarray(h))
            ys.append(cuarray.empty_like(xs[-1]))
    nccl.groupStart()
    for d, c in enumerate(comms):
        with cuda.Device(d):
            c.allReduce(xs[d], ys[d], 1000, nccl.NCCL_FLOAT64, nccl.NCCL_SUM,
                        cuda.get_current_stream())
    nccl.groupEnd()
    for d in range(2):
        with cuda.Device(d):
            cuda.get_current_stream().synchronize()
            numpy.testing.assert_allclose(ys[d].get(), hs[0] + hs[1], rtol=1e-12)
    for c in comms:
        c.destroy()
