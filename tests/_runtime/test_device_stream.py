"""Devices, streams and events (CuPy's cupy.cuda names)."""
import threading

import numpy
import pytest

import cuarray
from cuarray import cuda

pytestmark = pytest.mark.gpu


def test_device_basics():
    d = cuda.Device()
    assert d.id == cuda.runtime.getDevice() == cuda.get_device_id() == 0
    assert d.compute_capability.isdigit() and int(d.compute_capability) >= 70
    free, total = d.mem_info
    assert 0 < free <= total
    assert ":" in d.pci_bus_id
    attrs = d.attributes
    assert attrs["MaxThreadsPerBlock"] == 1024 and attrs["MultiprocessorCount"] > 0
    d.synchronize()
    assert cuda.runtime.getDeviceCount() >= 1
    props = cuda.runtime.getDeviceProperties(0)
    assert props["totalGlobalMem"] == total and isinstance(props["name"], bytes)


def test_invalid_device():
    with pytest.raises(cuda.runtime.CUDARuntimeError, match="invalid device id"):
        cuda.Device(1000)
    with pytest.raises(cuda.runtime.CUDARuntimeError):
        cuda.runtime.setDevice(-1)


def test_device_context_manager_restores():
    with cuda.Device(0) as d:
        assert cuda.Device().id == d.id
        cuda.runtime.setDevice(0)
    assert cuda.runtime.getDevice() == 0


def test_current_device_is_per_thread():
    seen = []

    def work():
        seen.append(cuda.get_device_id())
        a = cuarray.arange(4)  # a fresh thread gets a context on first use
        seen.append(a.sum().item())

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen == [0, 6]


def test_stream_context_and_use():
    null = cuda.get_current_stream()
    assert null.ptr == 0 and null == cuda.Stream.null
    s = cuda.Stream()
    assert s.ptr != 0
    with s:
        assert cuda.get_current_stream() is s
        with cuda.Stream.null:
            assert cuda.get_current_stream().ptr == 0
        assert cuda.get_current_stream() is s
    assert cuda.get_current_stream().ptr == 0
    s.use()
    assert cuda.get_current_stream() is s
    cuda.Stream.null.use()
    assert cuda.get_current_stream().ptr == 0


def test_stream_current_per_thread():
    s = cuda.Stream(non_blocking=True)
    other = []
    with s:
        t = threading.Thread(target=lambda: other.append(cuda.get_current_stream().ptr))
        t.start()
        t.join()
    assert other == [0]


def test_work_on_stream_and_events():
    s = cuda.Stream()
    with s:
        a = cuarray.arange(1 << 20, dtype=numpy.float32)
        start = s.record()
        b = a * 2
        end = cuda.Event()
        end.record(s)
    end.synchronize()
    assert end.done and s.done
    assert cuda.get_elapsed_time(start, end) >= 0
    assert float(b[-1]) == 2 * ((1 << 20) - 1)
    s2 = cuda.Stream()
    s2.wait_event(end)
    s2.synchronize()


def test_event_flags():
    e = cuda.Event(block=True, disable_timing=True)
    e.record()
    e.synchronize()
    assert e.done and e.ptr
    with pytest.raises(ValueError):
        cuda.Event(interprocess=True)


def test_ptds_and_external_stream():
    p = cuda.Stream(ptds=True)
    assert p.ptr == 2
    with p:
        numpy.testing.assert_array_equal((cuarray.arange(3) + 1).get(), [1, 2, 3])
    s = cuda.Stream()
    ext = cuda.ExternalStream(s.ptr)
    with ext:
        assert cuda.get_current_stream().ptr == s.ptr
        x = cuarray.ones(5)
    ext.synchronize()
    assert x.sum().item() == 5


def test_launch_host_func():
    s = cuda.Stream()
    got = []
    done = threading.Event()
    s.launch_host_func(lambda arg: (got.append(arg), done.set()), 42)
    s.synchronize()
    assert done.wait(5) and got == [42]
