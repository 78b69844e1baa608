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
