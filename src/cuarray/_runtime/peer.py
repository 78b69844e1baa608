"""Copies between devices: peer access enabled once per pair, stream order kept on both sides.

`cuMemcpyPeerAsync` runs on the destination's stream. Without peer access the driver
stages the copy through host memory; with it the copy engines move the data over NVLink
or PCIe directly, so access is enabled in both directions the first time a pair meets.
The copy must not start before work queued on the source device's stream (which may
still be writing the source), and the source's memory must not be reused by that stream
(the pool frees in its order) before the copy has read it: an event on each side orders
the two streams.
"""
import threading

from cuarray._runtime import device as _device
from cuarray._runtime import driver as _driver
from cuarray._runtime import stream as _stream
from cuarray._runtime.driver import check

_PEER_ACCESS_ALREADY_ENABLED = 704
_EVENT_DISABLE_TIMING = 2
_lock = threading.Lock()
_access = {}    # (device, peer) -> whether `device`'s context may address `peer`'s memory


def can_access_peer(device, peer):
    """Whether `device` can address memory of `peer` (cuDeviceCanAccessPeer)."""
    drv = _driver._drv()
    return bool(check(drv.cuDeviceCanAccessPeer(check(drv.cuDeviceGet(device)),
                                                check(drv.cuDeviceGet(peer)))))


def enable_peer_access(device, peer):
    """Let `device`'s context address `peer`'s memory; once per ordered pair. Returns False
    where the hardware cannot (copies then go through host memory)."""
    key = (device, peer)
    ok = _access.get(key)
    if ok is not None:
        return ok
    with _lock:
        ok = _access.get(key)
        if ok is None:
            ok = device != peer and can_access_peer(device, peer)
            if ok:
                drv = _driver._drv()
                with _device.Device(device):
                    _device.ensure_context()
                    (err,) = drv.cuCtxEnablePeerAccess(_device._primary_context(peer), 0)
                if err and int(err) != _PEER_ACCESS_ALREADY_ENABLED:
                    check((err,))
            _access[key] = ok
    return ok


def _order(wait_dev, wait_stream, after_dev, after_stream):
    """Make `wait_stream` (of `wait_dev`) wait for the work queued so far on `after_stream`."""
    drv = _driver._drv()
    with _device.Device(after_dev):
        _device.ensure_context()
        ev = check(drv.cuEventCreate(_EVENT_DISABLE_TIMING))
        try:
            check(drv.cuEventRecord(ev, after_stream))
            with _device.Device(wait_dev):
                _device.ensure_context()
                check(drv.cuStreamWaitEvent(wait_stream, ev, 0))
        finally:
            # Destroying a recorded event is safe: the driver releases it once it completes.
            check(drv.cuEventDestroy(ev))


def copy_async(dst_ptr, dst_dev, src_ptr, src_dev, nbytes, stream_ptr=None):
    """Copy `nbytes` from `src_ptr` on `src_dev` to `dst_ptr` on `dst_dev`, on `stream_ptr`
    (a stream of `dst_dev`; None: its current stream), ordered after the source device's
    current stream and before that stream's later work."""
    if nbytes <= 0:
        return
    if stream_ptr is None:
        stream_ptr = _stream.get_current_stream(dst_dev).ptr
    src_stream = _stream.get_current_stream(src_dev).ptr
    enable_peer_access(dst_dev, src_dev)
    enable_peer_access(src_dev, dst_dev)
    _order(dst_dev, stream_ptr, src_dev, src_stream)
    ctx = _device._primary_context
    with _device.Device(dst_dev):
        _device.ensure_context()
        check(_driver._drv().cuMemcpyPeerAsync(dst_ptr, ctx(dst_dev), src_ptr, ctx(src_dev),
                                               nbytes, stream_ptr))
    _order(src_dev, src_stream, dst_dev, stream_ptr)


def check_same_device(arrays, device_id, what="a kernel"):
    """Raise ValueError naming the first array of `arrays` that lives on another device."""
    for a in arrays:
        dev = getattr(a, "_device_id", device_id)
        if dev != device_id:
            raise ValueError(
                f"{what} on device {device_id} was given an array on device {dev}: kernels "
                f"read arrays of the current device only; copy it over with "
                f"cuarray.asarray(x) inside `with cuarray.cuda.Device({device_id}):`, or "
                f"run the operation inside `with cuarray.cuda.Device({dev}):`")
