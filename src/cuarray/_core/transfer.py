"""Moving data between host and device, and between devices."""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.ndarray import ndarray
from cuarray._runtime import device as _device
from cuarray._runtime import stream as _stream
from cuarray._runtime import syncdetect as _syncdetect


_pinned_module = None


def _pinned():
    # The staging pools load with the first transfer, not with `import cuarray` (the
    # first array operations of a program need not copy; start-up time is measured);
    # then one global read, not an import statement per get() (~0.3 µs).
    global _pinned_module
    if _pinned_module is None:
        from cuarray._runtime import pinned
        _pinned_module = pinned
    return _pinned_module


def _stream_ptr(stream):
    return _stream.current_stream_ptr() if stream is None else stream.ptr


def to_host(a, stream=None, order="C", out=None, blocking=True):
    """numpy copy of `a`; non-contiguous arrays are made contiguous on the device first.
    With `blocking` false the copy is only queued on the stream: the host returns at once
    when `out` is pinned memory (the driver completes copies into pageable memory before
    returning anyway), and the caller synchronizes before reading `out`, as in CuPy."""
    if out is None and order == "C" and stream is None and blocking and a._c_contig and a.size \
            and a._device_id == _device.get_device_id():
        # The common call (get(), float(), item() on the current device): what the general
        # path below does for it, without its checks and device switch.
        host = numpy.empty(a._shape, a.dtype)
        _syncdetect.declare_synchronize()
        _device.ensure_context()
        _pinned().copy_device_to_host(host, a._ptr, a.size * a.dtype.itemsize,
                                      _stream.current_stream_ptr(), True)
        return host
    order = _norm_order(order)
    if order == "A" or order == "K":
        order = "F" if a._f_contig and not a._c_contig else "C"
    src = a
    if not (a._c_contig if order == "C" else a._f_contig):
        src = a.copy(order)
    if out is not None:
        if not isinstance(out, numpy.ndarray):
            raise TypeError("out must be a numpy.ndarray")
        if out.shape != a._shape or out.dtype != a.dtype:
            raise ValueError(f"out has shape {out.shape} and dtype {out.dtype}; expected "
                             f"{a._shape} and {a.dtype}")
        host = out
        if not (out.flags.c_contiguous if order == "C" else out.flags.f_contiguous):
            if out.flags.c_contiguous or out.flags.f_contiguous:
                order = "C" if out.flags.c_contiguous else "F"
                src = a if (a._c_contig if order == "C" else a._f_contig) else a.copy(order)
            else:
                tmp = to_host(a, stream, order)   # a strided `out` needs the host: blocks
                out[...] = tmp
                return out
    else:
        host = numpy.empty(a._shape, a.dtype, order=order)
    if a.size:
        if blocking:
            _syncdetect.declare_synchronize()
        with _device.Device(a._device_id):
            _device.ensure_context()
            _pinned().copy_device_to_host(host, src._ptr, a.nbytes, _stream_ptr(stream), blocking)
    return host


def from_host_into(dst, arr, stream=None):
    """dst[...] = arr for a host array of the same shape (cuarray version of `ndarray.set`)."""
    if not isinstance(arr, numpy.ndarray):
        raise TypeError(f"set() needs a numpy.ndarray, got {type(arr).__name__}")
    if arr.shape != dst._shape:
        raise ValueError(f"shape mismatch: set() got {arr.shape}, array has {dst._shape}")
    if arr.dtype != dst.dtype:
        raise TypeError(f"dtype mismatch: set() got {arr.dtype}, array has {dst.dtype}")
    if not dst.size:
        return
    if dst._c_contig or dst._f_contig:
        order = "C" if dst._c_contig else "F"
        host = numpy.asarray(arr, order=order)
        with _device.Device(dst._device_id):
            _device.ensure_context()
            _pinned().copy_host_to_device(dst._ptr, host, dst.nbytes, _stream_ptr(stream),
                                          stream is None)
    else:
        from cuarray._core import _copy
        _copy.copy_into(dst, _upload(numpy.ascontiguousarray(arr), stream))


def _upload(host, stream=None, order="C"):
    a = ndarray._alloc(host.shape, host.dtype, order)
    if a.size:
        _device.ensure_context()
        _pinned().copy_host_to_device(a._ptr, host, a.nbytes, _stream_ptr(stream), False)
    return a


def to_device(a, device_id):
    """A copy of `a` on another device (peer copy of a contiguous buffer)."""
    if a._c_contig:
        src = a
    else:
        with _device.Device(a._device_id):
            src = a.copy()
    with _device.Device(device_id):
        out = ndarray._alloc(a._shape, a.dtype)
        if a.size:   # on the destination's stream, ordered after the source's
            out.data.copy_from_device_async(src.data, a.nbytes)
    return out


def _norm_order(order):
    """NumPy accepts 'c'/'f'/'a'/'k' too."""
    if order is None:
        return None
    if not isinstance(order, str) or order.upper() not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return order.upper()


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, blocking=False):
    """cuarray version of `numpy.array`: host data is copied to the current device, on the
    current stream; with `blocking` the host waits for that copy to finish (CuPy's rule)."""
    order = _norm_order(order)
    if isinstance(obj, ndarray):
        a = obj
        if a._device_id != _device.get_device_id():
            a = to_device(a, _device.get_device_id())
            copy = False if dtype is None else copy
        if dtype is not None:
            dt = _dt.check_storage_dtype(dtype)
            if dt != a.dtype:
                if copy is False:
                    raise ValueError("Unable to avoid copy while creating an array as requested.")
                a = a.astype(dt, order=order, copy=True)
                copy = None  # copied already
        if copy:
            a = a.copy(order if order in "CF" else "K")
        elif order in ("C", "F") and not (a._c_contig if order == "C" else a._f_contig):
            a = a.copy(order)
        return _ndmin(a, ndmin)
    ext = _from_protocols(obj)
    if ext is not None:
        return array(ext, dtype=dtype, copy=copy, order=order, ndmin=ndmin)
    if copy is False:
        raise ValueError("Unable to avoid copy while creating an array from host data.")
    copy = True
    if isinstance(obj, (list, tuple)) and any(isinstance(x, ndarray) for x in _flat_items(obj)):
        return _stack_nested(obj, dtype, order, ndmin)
    host = numpy.asarray(obj, dtype=dtype, order=order or "K")
    if not host.dtype.isnative:  # device memory holds the native byte order
        host = host.astype(host.dtype.newbyteorder("="))
    _dt.check_storage_dtype(host.dtype)
    if order in ("K", "A", None):
        order = "F" if host.flags.f_contiguous and not host.flags.c_contiguous else "C"
    host = numpy.asarray(host, order=order)
    out = _upload(host, None, order)
    if blocking:
        _stream.get_current_stream().synchronize()
    return _ndmin(out, ndmin)


def _flat_items(obj):
    for x in obj:
        if isinstance(x, (list, tuple)):
            yield from _flat_items(x)
        else:
            yield x


def _stack_nested(obj, dtype, order, ndmin):
    # Nested sequences holding device arrays are assembled on the device.
    items = [array(x, dtype=dtype) if isinstance(x, (list, tuple, ndarray)) else
             array(numpy.asarray(x, dtype=dtype)) for x in obj]
    dt = numpy.result_type(*[i.dtype for i in items]) if dtype is None else _dt.check_dtype(dtype)
    shape = items[0]._shape
    for i in items:
        if i._shape != shape:
            raise ValueError("setting an array element with a sequence. The requested array has an "
                             "inhomogeneous shape")
    out = ndarray._alloc((len(items),) + shape, dt)
    from cuarray._core import _copy
    for k, i in enumerate(items):
        _copy.copy_into(out[k], i)
    return _ndmin(out, ndmin)


def _ndmin(a, ndmin):
    if a.ndim < ndmin:
        return a.reshape((1,) * (ndmin - a.ndim) + a._shape)
    return a


def _from_protocols(obj):
    """Zero-copy view of an object exposing __cuda_array_interface__ or CUDA __dlpack__."""
    if isinstance(obj, numpy.ndarray):
        return None
    if hasattr(obj, "__dlpack_device__"):
        try:
            dev_type, _ = obj.__dlpack_device__()
        except Exception:
            return None
        if int(dev_type) in (2, 13):  # kDLCUDA, kDLCUDAManaged
            from cuarray._core import interop
            return interop.from_dlpack(obj)
    try:
        cai = hasattr(obj, "__cuda_array_interface__")
    except Exception:  # e.g. PyTorch refuses tensors that require grad
        cai = False
    if cai:
        from cuarray._core import interop
        return interop.from_cuda_array_interface(obj)
    return None


def asarray(a, dtype=None, order=None, *, blocking=False, device=None, copy=None):
    """cuarray version of `numpy.asarray`: no copy when `a` is already a suitable device array.
    `device=` and `copy=` as in the Array API (`copy=False` raises ValueError where a copy is
    needed; host data always needs one)."""
    if device is not None or copy is not None:
        return _asarray_api(a, dtype, order, device, copy)
    order = _norm_order(order)
    if isinstance(a, ndarray) and (dtype is None or _dt.check_storage_dtype(dtype) == a.dtype) and \
            a._device_id == _device.get_device_id():
        if order in (None, "K", "A") or (a._c_contig if order == "C" else a._f_contig):
            return a
    return array(a, dtype=dtype, copy=None, order="K" if order is None else order,
                 blocking=blocking)


def _asarray_api(a, dtype, order, device, copy):
    from cuarray._core.device_arg import device_id, scope
    dev = device_id(device)
    if copy is False:
        if not isinstance(a, ndarray):
            ext = _from_protocols(a)
            if ext is None:
                raise ValueError("Unable to avoid copy while creating an array from host data.")
            a = ext
        if (dtype is not None and _dt.check_dtype(dtype) != a.dtype) or \
                (dev is not None and dev != a._device_id):
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return asarray(a, order=order)
    with scope(device):
        if copy:
            return array(a, dtype=dtype, copy=True, order="K" if order is None else order)
        return asarray(a, dtype=dtype, order=order)


def ascontiguousarray(a, dtype=None):
    """cuarray version of `numpy.ascontiguousarray`."""
    return asarray(a, dtype=dtype, order="C") if not (isinstance(a, ndarray) and a.ndim == 0) \
        else asarray(a, dtype=dtype)


def asfortranarray(a, dtype=None):
    """cuarray version of `numpy.asfortranarray`."""
    return asarray(a, dtype=dtype, order="F")


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """Copy a device array to the host (cuarray version of `cupy.asnumpy`); other inputs pass
    through numpy.asarray."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, order=order, out=out, blocking=blocking)
    if hasattr(a, "__cuda_array_interface__"):
        return _from_protocols(a).get(stream=stream, order=order, out=out, blocking=blocking)
    r = numpy.asarray(a, order=order)
    if out is not None:
        out[...] = r
        return out
    return r
