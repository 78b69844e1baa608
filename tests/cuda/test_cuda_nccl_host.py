"""cuarray.cuda.nccl's calls into the bindings, on the CPU: a stand-in for nccl4py 0.6's
`nccl.bindings.nccl`, whose calls take its typed `Comm` and refuse an int handle."""
import types

import pytest

from cuarray._libs import nccl as _nccl
from cuarray.cuda import nccl


class _Comm:
    def __init__(self, handle=0):
        self.handle = int(handle)

    def __int__(self):
        return self.handle


def _fake_bindings(calls):
    def takes_comm(name, result=None):
        def f(*args):
            comm = [a for a in args if not isinstance(a, int)]
            if len(comm) != 1 or not isinstance(comm[0], _Comm):
                raise TypeError(f"Cannot convert int to nccl.bindings.nccl.Comm ({name})")
            calls.append((name, int(comm[0])))
            return result
        return f

    n = types.SimpleNamespace(Comm=_Comm)
    n.comm_init_rank = lambda nranks, uid, rank: _Comm(0xC0FFEE)
    for name in ("all_reduce", "reduce", "broadcast", "bcast", "reduce_scatter", "all_gather",
                 "send", "recv", "comm_destroy", "comm_abort"):
        setattr(n, name, takes_comm(name))
    n.comm_count = takes_comm("comm_count", 1)
    n.comm_user_rank = takes_comm("comm_user_rank", 0)
    n.comm_cu_device = takes_comm("comm_cu_device", 0)
    n.comm_get_async_error = takes_comm("comm_get_async_error", 0)
    return n


@pytest.fixture
def fake(monkeypatch):
    calls = []
    monkeypatch.setattr(_nccl, "_n", _fake_bindings(calls))
    monkeypatch.setattr(_nccl, "unique_id_from", lambda values: (object(), None))
    monkeypatch.setattr(nccl, "ensure_context", lambda: 0)
    monkeypatch.setattr(nccl, "get_device_id", lambda: 0)
    return calls


def test_collectives_pass_the_bindings_comm(fake):
    comm = nccl.NcclCommunicator(1, (0,) * 128, 0)
    assert comm.comm == 0xC0FFEE
    assert comm.size() == 1 and comm.rank_id() == 0 and comm.device_id() == 0
    comm.check_async_error()
    comm.allReduce(16, 32, 4, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, 0)
    comm.reduce(16, 32, 4, nccl.NCCL_FLOAT32, nccl.NCCL_MAX, 0, 0)
    comm.broadcast(16, 32, 4, nccl.NCCL_FLOAT32, 0, 0)
    comm.bcast(16, 4, nccl.NCCL_FLOAT32, 0, 0)
    comm.reduceScatter(16, 32, 4, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, 0)
    comm.allGather(16, 32, 4, nccl.NCCL_FLOAT32, 0)
    comm.send(16, 4, nccl.NCCL_FLOAT32, 0, 0)
    comm.recv(32, 4, nccl.NCCL_FLOAT32, 0, 0)
    comm.destroy()
    assert comm.comm == 0
    names = [c[0] for c in fake]
    assert names[-9:] == ["all_reduce", "reduce", "broadcast", "bcast", "reduce_scatter",
                          "all_gather", "send", "recv", "comm_destroy"]
    assert all(h == 0xC0FFEE for _, h in fake)
    with pytest.raises(RuntimeError, match="destroyed"):
        comm.allReduce(16, 32, 4, nccl.NCCL_FLOAT32, nccl.NCCL_SUM, 0)


def test_as_comm_wraps_ints_once(fake):
    c = _nccl.as_comm(0x1234)
    assert isinstance(c, _Comm) and int(c) == 0x1234
    assert _nccl.as_comm(c) is c


def test_init_all_comms_pass_the_bindings_comm(fake, monkeypatch):
    import contextlib
    made = []

    def init_all(ndev, devlist):
        made.extend(_Comm(0xA000 + d) for d in devlist)
        return list(made)

    monkeypatch.setattr(_nccl._n, "comm_init_all", init_all, raising=False)
    monkeypatch.setattr(nccl, "Device", lambda d: contextlib.nullcontext())
    comms = nccl.NcclCommunicator.initAll([0, 1])
    assert [c.comm for c in comms] == [0xA000, 0xA001]
    for c in comms:
        assert c.size() == 1
        c.send(16, 4, nccl.NCCL_FLOAT32, 0, 0)
        c.destroy()
        assert c.comm == 0
        c.destroy()                       # a second destroy calls NCCL no more
    assert fake == [("comm_count", 0xA000), ("send", 0xA000), ("comm_destroy", 0xA000),
                    ("comm_count", 0xA001), ("send", 0xA001), ("comm_destroy", 0xA001)]


def test_collecting_a_half_made_communicator_calls_nothing(fake):
    c = nccl.NcclCommunicator.__new__(nccl.NcclCommunicator)
    c.__del__()
    assert fake == []
