"""Zero-copy exchange with other GPU libraries: `__cuda_array_interface__` and DLPack.

Both directions follow the protocols' stream rules: data is handed over on a stream, and
the receiving side's stream is made to wait for the giving side's work with an event,
never with a host synchronisation.

DLPack capsules are built by NumPy's C exporter over a header-only `numpy.ndarray` that
points at device memory (NumPy never reads it), and the device field is then set to
CUDA. The capsule destructor and the tensor deleter are called from C by the consumer,
possibly while an exception is being raised; a Python callback (ctypes) run at that
moment turns the pending exception into a SystemError, while NumPy's C functions save
and restore it (tests/_core/test_interop.py::test_failing_consumer_keeps_its_exception).
NumPy's deleter also takes the GIL itself, so a consumer may free the tensor from any
thread.
"""
import contextlib
import ctypes
import operator
import warnings

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core.ndarray import ndarray
from cuarray._runtime import device as _device
from cuarray._runtime import memory as _memory
from cuarray._runtime import stream as _stream

_LEGACY_STREAM = 1  # CU_STREAM_LEGACY: what protocols call the legacy default stream


# ---- streams --------------------------------------------------------------------------------
def _protocol_stream(ptr):
    # Both protocols forbid 0 (ambiguous); the driver accepts 1 as the legacy stream.
    return _LEGACY_STREAM if ptr == 0 else ptr


def _current_stream(device_id):
    return _protocol_stream(_stream.get_current_stream(device_id).ptr)


def _on_device(device_id):
    if device_id == _device.get_device_id():
        return contextlib.nullcontext()
    return _device.Device(device_id)


def _order_streams(producer, consumer, device_id):
    """Make stream `consumer` wait for the work queued so far on stream `producer`."""
    if producer == consumer:
        return
    with _on_device(device_id):
        event = _stream.Event(disable_timing=True)
        event.record(_stream.ExternalStream(producer, device_id))
        _stream.ExternalStream(consumer, device_id).wait_event(event)


# ---- foreign memory -------------------------------------------------------------------------
def _span(ptr, shape, strides, itemsize):
    """(lowest address, bytes) that a strided array touches; (ptr, 0) when it is empty."""
    lo = hi = 0
    for n, s in zip(shape, strides):
        if n == 0:
            return ptr, 0
        if s < 0:
            lo += (n - 1) * s
        else:
            hi += (n - 1) * s
    return ptr + lo, hi - lo + itemsize


def _wrap(ptr, shape, strides, dtype, owner, device_id):
    """An ndarray over foreign memory; `owner` stays alive as long as any view of it.

    strides None means C-contiguous; device_id -1 asks the driver which device owns ptr.
    """
    if strides is None:
        strides = _sh.contiguous_strides(shape, dtype.itemsize, "C")
    low, nbytes = _span(ptr, shape, strides, dtype.itemsize)
    if nbytes == 0:
        # An empty array touches no memory (its pointer may be NULL): no driver query.
        low = 0
        if device_id < 0:
            device_id = _device.get_device_id()
    mem = _memory.UnownedMemory(low, nbytes, owner, device_id)
    return ndarray(shape, dtype, memptr=_memory.MemoryPointer(mem, ptr - low if low else 0),
                   strides=strides)


# ---- __cuda_array_interface__ ---------------------------------------------------------------
def cuda_array_interface(a):
    """Version 3 of the CUDA Array Interface for `a` (what Numba, PyTorch and CuPy read).

    `stream` is the current stream of a's device: the consumer orders its work after it.
    """
    typestr = a.dtype.str
    return {
        "shape": a._shape,
        "typestr": typestr,
        # structured items: their fields, as NumPy's __array_interface__ gives them
        "descr": a.dtype.descr if a.dtype.names is not None else [("", typestr)],
        "data": (a._ptr if a.size else 0, False),
        "strides": None if a._c_contig else a._strides,
        "stream": _current_stream(a._device_id),
        "version": 3,
    }


def parse_cuda_array_interface(desc):
    """(ptr, shape, strides or None, dtype, stream or None) from an interface dict, v0 to v3."""
    if desc.get("mask") is not None:
        raise ValueError("cuarray does not support masked arrays (__cuda_array_interface__ "
                         "has a mask)")
    dtype = numpy.dtype(desc["typestr"])
    descr = desc.get("descr")
    if dtype.kind == "V" and descr and any(d[0] for d in descr):   # structured: named fields
        fields = numpy.dtype(descr)
        if fields.itemsize != dtype.itemsize:
            raise ValueError(f"__cuda_array_interface__: descr {descr} does not fill typestr "
                             f"{desc['typestr']}")
        dtype = fields
        if not dtype.isnative:
            raise ValueError(f"cuarray does not read structured items of non-native byte order "
                             f"({dtype}) from __cuda_array_interface__")
    if not dtype.isnative:
        # The caller reads the other byte order into a native copy (from_cuda_array_interface).
        r = _parse(desc, dtype.newbyteorder("="))
        return r[:3] + (dtype,) + r[4:]
    return _parse(desc, dtype)


def _parse(desc, dtype):
    dtype = _dt.check_dtype(dtype)
    shape = tuple(operator.index(n) for n in desc["shape"])
    strides = desc.get("strides")
    if strides is not None:
        strides = tuple(operator.index(s) for s in strides)
        if len(strides) != len(shape):
            raise ValueError(f"__cuda_array_interface__ has shape {shape} but strides {strides}")
    stream = desc.get("stream") if desc.get("version", 0) >= 3 else None
    if stream is not None:
        # Version 3 forbids 0; producers that send it mean the legacy stream, as CuPy reads it.
        stream = _protocol_stream(operator.index(stream))
    return operator.index(desc["data"][0] or 0), shape, strides, dtype, stream


def from_cuda_array_interface(obj):
    """A zero-copy cuarray view of an object exposing `__cuda_array_interface__` (v0 to v3).

    The view keeps `obj` alive. When the interface names a stream, the current stream
    waits for it (an event, no host synchronisation).
    """
    ptr, shape, strides, dtype, stream = parse_cuda_array_interface(obj.__cuda_array_interface__)
    native = dtype.newbyteorder("=")
    a = _wrap(ptr, shape, strides, native, obj, -1)
    if stream is not None:
        _order_streams(stream, _current_stream(a._device_id), a._device_id)
    if native != dtype:
        # The other byte order: a native copy (the one case that cannot be a view).
        from cuarray._core.byteorder import swapped
        return swapped(a)
    return a


# ---- DLPack structures (dlpack.h, ABI version 1) -----------------------------------------------
kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13
kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool = 0, 1, 2, 4, 5, 6
DLPACK_FLAG_BITMASK_READ_ONLY = 1
DLPACK_FLAG_BITMASK_IS_COPIED = 2


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_NAME, _USED = b"dltensor", b"used_dltensor"
_NAME_V, _USED_V = b"dltensor_versioned", b"used_dltensor_versioned"

# A private handle: argtypes set on ctypes.pythonapi's functions would change them for
# every other user of ctypes in the process.
_capi = ctypes.PyDLL(ctypes.pythonapi._name, handle=ctypes.pythonapi._handle)
_capi.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capi.PyCapsule_GetPointer.restype = ctypes.c_void_p
_capi.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_PyCapsule_Type = type(numpy.empty(0).__dlpack__())

_DL_CODE = {"b": kDLBool, "i": kDLInt, "u": kDLUInt, "f": kDLFloat, "c": kDLComplex}
_FROM_DL = {(_DL_CODE[dt.kind], dt.itemsize * 8): dt for dt in _dt.SUPPORTED}
_DL_CODE_NAMES = {
    kDLInt: "int", kDLUInt: "uint", kDLFloat: "float", 3: "opaque handle", kDLBfloat: "bfloat",
    kDLComplex: "complex", kDLBool: "bool", 7: "float8_e3m4", 8: "float8_e4m3",
    9: "float8_e4m3b11fnuz", 10: "float8_e4m3fn", 11: "float8_e4m3fnuz", 12: "float8_e5m2",
    13: "float8_e5m2fnuz", 14: "float8_e8m0fnu", 15: "float6_e2m3fn", 16: "float6_e3m2fn",
    17: "float4_e2m1fn"}


def dlpack_dtype(dtype):
    """(code, bits, lanes) of a cuarray dtype in DLPack."""
    dtype = numpy.dtype(dtype)
    return _DL_CODE[dtype.kind], dtype.itemsize * 8, 1


def dtype_from_dlpack(code, bits, lanes=1):
    """The numpy.dtype of a DLPack type; TypeError for those cuarray lacks (bfloat16, fp8, ...)."""
    dt = _FROM_DL.get((code, bits)) if lanes == 1 else None
    if dt is None:
        name = _DL_CODE_NAMES.get(code, f"type code {code}")
        name = f"{name}{bits}" if code in (kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex) \
            else name
        raise TypeError(f"cuarray cannot import DLPack dtype {name}"
                        f"{f' x{lanes} lanes' if lanes != 1 else ''}: it supports bool, "
                        "int8-64, uint8-64, float16/32/64 and complex64/128")
    return dt


# ---- DLPack export ----------------------------------------------------------------------------
class _Header:
    """What NumPy needs to build an array header over device memory; keeps the array alive."""

    __slots__ = ("__array_interface__", "array")

    def __init__(self, a):
        self.array = a
        self.__array_interface__ = {"shape": a._shape, "typestr": a.dtype.str,
                                    "data": (a._ptr, False), "strides": a._strides, "version": 3}


def _numpy_capsule(host, versioned):
    if versioned:
        try:
            return host.__dlpack__(max_version=(1, 0)), True
        except TypeError:  # NumPy < 2.1 exports the legacy struct only
            pass
    return host.__dlpack__(), False


def _tensor(capsule, versioned):
    """(managed struct, its DLTensor) of an unconsumed capsule."""
    if versioned:
        m = DLManagedTensorVersioned.from_address(_capi.PyCapsule_GetPointer(capsule, _NAME_V))
    else:
        m = DLManagedTensor.from_address(_capi.PyCapsule_GetPointer(capsule, _NAME))
    return m, m.dl_tensor


def _export(a, versioned, copied):
    """A DLPack capsule viewing `a` on its CUDA device."""
    capsule, versioned = _numpy_capsule(numpy.asarray(_Header(a)), versioned)
    m, t = _tensor(capsule, versioned)
    t.device.device_type, t.device.device_id = kDLCUDA, a._device_id
    # NumPy puts a placeholder host address in empty arrays; DLPack wants NULL there.
    t.data = a._ptr if a.size else None
    if versioned and copied:
        m.flags |= DLPACK_FLAG_BITMASK_IS_COPIED
    return capsule


def _export_host(a, versioned):
    capsule, versioned = _numpy_capsule(a.get(), versioned)
    if versioned:
        _tensor(capsule, True)[0].flags |= DLPACK_FLAG_BITMASK_IS_COPIED
    return capsule


def to_dlpack(a, stream=None, max_version=None, dl_device=None, copy=None):
    """`a.__dlpack__()`: a DLPack capsule for `a` (cuarray version of `cupy.ndarray.__dlpack__`).

    `stream` is the consumer's stream (None or 1: legacy default, 2: per-thread default,
    -1: do not order); it is made to wait for the current stream. A versioned capsule is
    returned when `max_version` allows DLPack 1. `dl_device=(kDLCPU, 0)` exports a host
    copy (synchronises); copy=True exports a device copy.
    """
    dev = a._device_id
    versioned = max_version is not None and max_version[0] >= 1
    if dl_device is not None:
        dl_device = (int(dl_device[0]), int(dl_device[1]))
        if dl_device == (kDLCPU, 0):
            if copy is False:
                raise BufferError("exporting a cuarray array to the CPU needs a copy, and "
                                  "copy=False was given")
            with _on_device(dev):
                return _export_host(a, versioned)
        if dl_device != (kDLCUDA, dev):
            raise BufferError(f"cuarray can export this array only to (kDLCUDA, {dev}) or "
                              f"(kDLCPU, 0), not to DLPack device {dl_device}")
    if stream is not None:
        stream = operator.index(stream)
        if stream == 0 or stream < -1:
            raise ValueError(f"stream={stream} is not a valid DLPack stream for CUDA: use None "
                             "or 1 for the legacy default stream, 2 for the per-thread one, "
                             "-1 for no ordering, or a stream handle")
    with _on_device(dev):
        if copy:
            a = a.copy()
        if stream != -1:
            _order_streams(_current_stream(dev), _LEGACY_STREAM if stream is None else stream,
                           dev)
    return _export(a, versioned, bool(copy))


# ---- DLPack import ----------------------------------------------------------------------------
class _DLPackOwner:
    """Owns a consumed DLPack tensor; calls the producer's deleter when the last view dies."""

    __slots__ = ("_addr", "_deleter", "__weakref__")

    def __init__(self, addr, deleter):
        self._addr, self._deleter = addr, deleter

    def __del__(self):
        try:
            _release(self._addr, self._deleter)
        except Exception:
            pass  # a finalizer must not raise


def _release(addr, deleter):
    if deleter:  # dlpack.h allows a NULL deleter
        _DELETER(deleter)(addr)


def _check_device_type(dev_type):
    if dev_type == kDLCPU:
        raise TypeError("cuarray.from_dlpack takes GPU arrays; this one is in host memory. "
                        "Copy it to the GPU explicitly with cuarray.asarray(numpy.from_dlpack(x))")
    if dev_type not in (kDLCUDA, kDLCUDAManaged):
        raise TypeError(f"cuarray.from_dlpack cannot import arrays on DLPack device type "
                        f"{dev_type}; it takes kDLCUDA (2) and kDLCUDAManaged (13)")
    return dev_type


def _consume(capsule):
    """A cuarray view of the tensor in a DLPack capsule; the capsule is marked used."""
    if _capi.PyCapsule_IsValid(capsule, _NAME_V):
        versioned = True
    elif _capi.PyCapsule_IsValid(capsule, _NAME):
        versioned = False
    else:
        raise ValueError("A DLPack tensor object cannot be consumed multiple times (or the "
                         f"object was not a DLPack capsule); got {capsule!r}")
    m, t = _tensor(capsule, versioned)
    if versioned and m.version.major > 1:
        # dlpack.h: on a major-version mismatch the consumer calls the deleter at once.
        version = f"{m.version.major}.{m.version.minor}"
        _capi.PyCapsule_SetName(capsule, _USED_V)
        _release(ctypes.addressof(m), m.deleter)
        raise BufferError(f"the producer exported DLPack {version}; cuarray reads DLPack 1.x")
    dev_type = _check_device_type(t.device.device_type)
    dtype = dtype_from_dlpack(t.dtype.code, t.dtype.bits, t.dtype.lanes)
    ndim = t.ndim
    shape = tuple(t.shape[i] for i in range(ndim))
    strides = tuple(t.strides[i] * dtype.itemsize for i in range(ndim)) \
        if ndim and t.strides else None
    ptr = (t.data or 0) + t.byte_offset
    # Managed memory may report device 0 whichever device holds it: ask the driver.
    dev = t.device.device_id if dev_type == kDLCUDA else -1
    # From here on the deleter is ours to call; the capsule's destructor will not.
    _capi.PyCapsule_SetName(capsule, _USED_V if versioned else _USED)
    owner = _DLPackOwner(ctypes.addressof(m), m.deleter)
    # Versioned read-only tensors are imported writable, as CuPy does: cuarray has no
    # read-only arrays.
    return _wrap(ptr, shape, strides, dtype, owner, dev)


def _device_id_arg(device):
    if isinstance(device, tuple):
        if int(device[0]) not in (kDLCUDA, kDLCUDAManaged):
            raise ValueError(f"cuarray arrays live on CUDA devices; got DLPack device {device}")
        return int(device[1])
    if isinstance(device, _device.Device):
        return device.id
    if isinstance(device, str) and device == "cpu":
        raise ValueError("cuarray arrays live on CUDA devices; for a host array use "
                         "numpy.from_dlpack(x, device='cpu')")
    return operator.index(device)


def _request(x, stream, copy):
    """The producer's capsule, and whether the producer made the copy asked for."""
    if copy is not None:
        try:
            return x.__dlpack__(stream=stream, max_version=(1, 0), copy=copy), copy
        except TypeError:  # no `copy` before DLPack 1: zero-copy, and copy here if asked
            pass
        except BufferError:
            if not copy:
                raise
    try:
        return x.__dlpack__(stream=stream, max_version=(1, 0)), False
    except TypeError:  # a producer older than DLPack 1
        return x.__dlpack__(stream=stream), False


def from_dlpack(x, *, device=None, copy=None):
    """A cuarray array from a DLPack producer, zero-copy (cuarray version of `cupy.from_dlpack`).

    `x` is an object with `__dlpack__`/`__dlpack_device__` (PyTorch, JAX, CuPy, ...) or,
    for CuPy's legacy API, a DLPack capsule. The producer makes the current stream wait
    for its work. copy=True returns a copy; `device` (a Device, an id or a DLPack
    `(2, id)`) copies to another GPU when it differs from x's.
    """
    target = None if device is None else _device_id_arg(device)
    if isinstance(x, _PyCapsule_Type):
        # A bare capsule carries no stream: ordering is the caller's job, as in CuPy.
        a, copied = _consume(x), False
    elif not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack needs an object with __dlpack__ or a DLPack capsule, "
                        f"not {type(x).__name__}")
    else:
        dev_type, dev_id = (int(v) for v in x.__dlpack_device__())
        # Checked before asking for the capsule: a host producer refuses a CUDA stream.
        if _check_device_type(dev_type) == kDLCUDAManaged:
            dev_id = _device.get_device_id()
        capsule, copied = _request(x, _current_stream(dev_id), copy)
        a = _consume(capsule)
    if target is not None and target != a._device_id:
        if copy is False:
            raise ValueError(f"the array is on device {a._device_id}; moving it to device "
                             f"{target} needs a copy, and copy=False was given")
        from cuarray._core import transfer
        return transfer.to_device(a, target)  # synchronises before `a` is released
    if copy and not copied:
        with _on_device(a._device_id):
            out = a.copy()
            # The producer may reuse its memory once `a` is released: finish the copy first.
            _stream.get_current_stream().synchronize()
        return out
    return a


def fromDlpack(capsule):
    """cuarray version of `cupy.fromDlpack` (deprecated there): a view of a DLPack capsule."""
    warnings.warn("fromDlpack is deprecated in favor of from_dlpack", DeprecationWarning,
                  stacklevel=2)
    return from_dlpack(capsule)
