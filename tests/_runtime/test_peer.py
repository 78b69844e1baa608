"""Copies between devices (cuarray._runtime.peer): a fake two-device driver on the CPU, and
the real thing on machines with two GPUs."""
import contextlib
import ctypes

import numpy
import pytest

from cuarray._runtime import device as _device
from cuarray._runtime import driver as _driver
from cuarray._runtime import peer
from cuarray._runtime import stream as _stream


class FakeDriver:
    """Two devices; records the calls peer.py makes, in order, with the current device."""

    def __init__(self, can_access=True):
        self.can_access = can_access
        self.calls = []
        self.current = 0
        self.events = 0

    def cuDeviceGet(self, d):
        return 0, d

    def cuDeviceCanAccessPeer(self, d, p):
        self.calls.append(("can", d, p))
        return 0, int(self.can_access)

    def cuCtxEnablePeerAccess(self, ctx, flags):
        self.calls.append(("enable", self.current, ctx))
        return (0,)

    def cuEventCreate(self, flags):
        self.events += 1
        return 0, ("event", self.events, self.current)

    def cuEventRecord(self, ev, stream):
        self.calls.append(("record", ev[1], self.current, stream))
        return (0,)

    def cuStreamWaitEvent(self, stream, ev, flags):
        self.calls.append(("wait", ev[1], self.current, stream))
        return (0,)

    def cuEventDestroy(self, ev):
        return (0,)

    def cuMemcpyPeerAsync(self, dst, dctx, src, sctx, n, stream):
        ctypes.memmove(dst, src, n)
        self.calls.append(("copy", self.current, dctx, sctx, stream))
        return (0,)


@pytest.fixture
def fake(monkeypatch):
    drv = FakeDriver()

    @contextlib.contextmanager
    def on(dev):
        prev, drv.current = drv.current, int(dev)
        try:
            yield
        finally:
            drv.current = prev

    monkeypatch.setattr(_driver, "_drv", lambda: drv)
    monkeypatch.setattr(_device, "Device", on)
    monkeypatch.setattr(_device, "ensure_context", lambda: drv.current)
    monkeypatch.setattr(_device, "_primary_context", lambda d: f"ctx{d}")
    streams = {0: _stream.ExternalStream(100, 0), 1: _stream.ExternalStream(111, 1)}
    monkeypatch.setattr(_stream, "get_current_stream", lambda d=None: streams[d])
    monkeypatch.setattr(peer, "_access", {})
    return drv


def test_peer_copy_orders_both_streams_and_enables_access_once(fake):
    src = (ctypes.c_ubyte * 16)(*range(16))
    dst = (ctypes.c_ubyte * 16)()
    peer.copy_async(ctypes.addressof(dst), 1, ctypes.addressof(src), 0, 16)
    assert bytes(dst) == bytes(range(16))
    calls = fake.calls
    # Access in both directions, each enabled in its own device's context.
    assert ("enable", 1, "ctx0") in calls and ("enable", 0, "ctx1") in calls
    copy = calls.index(("copy", 1, "ctx1", "ctx0", 111))
    # Before the copy: an event recorded on device 0's stream, waited for on device 1's.
    rec0 = calls.index(next(c for c in calls if c[0] == "record" and c[2:] == (0, 100)))
    wait1 = calls.index(next(c for c in calls if c[0] == "wait" and c[2:] == (1, 111)))
    assert rec0 < wait1 < copy and calls[rec0][1] == calls[wait1][1]
    # After it: device 0's stream waits for the copy (its memory may be reused there).
    rec1 = calls.index(next(c for c in calls if c[0] == "record" and c[2:] == (1, 111)))
    wait0 = calls.index(next(c for c in calls if c[0] == "wait" and c[2:] == (0, 100)))
    assert copy < rec1 < wait0 and calls[rec1][1] == calls[wait0][1]
    fake.calls.clear()
    peer.copy_async(ctypes.addressof(dst), 1, ctypes.addressof(src), 0, 8, stream_ptr=7)
    assert not any(c[0] in ("can", "enable") for c in fake.calls)   # once per pair
    assert ("copy", 1, "ctx1", "ctx0", 7) in fake.calls


def test_no_peer_access_still_copies(fake):
    fake.can_access = False
    src = (ctypes.c_ubyte * 4)(9, 8, 7, 6)
    dst = (ctypes.c_ubyte * 4)()
    peer.copy_async(ctypes.addressof(dst), 0, ctypes.addressof(src), 1, 4)
    assert list(dst) == [9, 8, 7, 6]
    assert not any(c[0] == "enable" for c in fake.calls)
    assert peer.enable_peer_access(0, 1) is False
    assert peer.enable_peer_access(1, 1) is False      # a device and itself: nothing to enable


def test_zero_bytes_does_nothing(fake):
    peer.copy_async(0, 1, 0, 0, 0)
    assert fake.calls == []


def test_check_same_device_names_both_devices():
    class A:
        _device_id = 1
    peer.check_same_device([A()], 1)
    with pytest.raises(ValueError, match=r"device 0 was given an array on device 1.*Device\(0\)"):
        peer.check_same_device([numpy.float32(1), A()], 0)


# ------------------------------------------------------------------ two GPUs

@pytest.mark.gpu
@pytest.mark.multi_gpu(2)
def test_asarray_copies_between_devices_peer_to_peer():
    import cuarray
    from cuarray import cuda
    rng = numpy.random.default_rng(21)
    h = rng.standard_normal((257, 33)).astype(numpy.float32)
    with cuda.Device(0):
        x = cuarray.asarray(h)
        xt = x.T                              # non-contiguous source
    with cuda.Device(1):
        y = cuarray.asarray(x)
        yt = cuarray.asarray(xt)
        assert y.device.id == 1 and yt.device.id == 1
        numpy.testing.assert_array_equal(y.get(), h)
        numpy.testing.assert_array_equal(yt.get(), h.T)
        z = (y * 2).sum(axis=0)               # kernels and reductions on device 1
        numpy.testing.assert_allclose(z.get(), (h * 2).sum(axis=0), rtol=1e-5)
        with pytest.raises(ValueError, match="device 1 was given an array on device 0"):
            x + 1
        with pytest.raises(ValueError, match="on device 0"):
            x.sum()
        m = cuarray.matmul(y, y.T)            # cuBLAS on device 1
        assert m.device.id == 1
        numpy.testing.assert_allclose(m.get(), h @ h.T, rtol=1e-4, atol=1e-3)
        ft = cuarray.fft.fft(y, axis=0)        # cuFFT on device 1
        assert ft.device.id == 1
        numpy.testing.assert_allclose(ft.get(), numpy.fft.fft(h, axis=0), rtol=1e-3, atol=1e-3)
        sq = cuarray.asarray(h[:33, :33] + 33 * numpy.eye(33, dtype=numpy.float32))
        sol = cuarray.linalg.solve(sq, cuarray.ones(33, dtype=numpy.float32))   # cuSOLVER
        assert sol.device.id == 1
        numpy.testing.assert_allclose((sq @ sol).get(), numpy.ones(33), rtol=1e-3, atol=1e-3)
        r = cuarray.random.default_rng(5).standard_normal(1000)                  # cuRAND
        assert r.device.id == 1 and abs(float(r.mean())) < 0.2
    assert cuda.runtime.deviceCanAccessPeer(0, 1) in (0, 1)
    with cuda.Device(0):
        back = cuarray.asarray(z)
        numpy.testing.assert_allclose(back.get(), z.get())
        y[...] = x * 2          # device 1's array written from device 0: the copy runs there
    numpy.testing.assert_array_equal(y.get(), 2 * h)


@pytest.mark.gpu
@pytest.mark.multi_gpu(2)
def test_streams_events_and_pools_are_per_device():
    import cuarray
    from cuarray import cuda
    with cuda.Device(1):
        s = cuda.Stream(non_blocking=True)
        e = cuda.Event()
        assert s.device_id == 1 and e.device_id == 1
        with s:
            a = cuarray.arange(1000, dtype=numpy.float64)
            e.record()
        e.synchronize()
        assert a.data.device_id == 1
        pool1 = cuarray.get_default_memory_pool().used_bytes()
        assert float(a.sum()) == 499500.0
    with cuda.Device(0):
        assert cuda.get_current_stream().device_id == 0
        pool0 = cuarray.get_default_memory_pool().used_bytes()
    assert pool1 >= a.nbytes and pool0 >= 0
