"""CuPy's `cupy.cuda.runtime` functions, built on the driver API.

Pointers, streams and events are plain ints, as in CuPy. The driver's error codes for
the failures these calls can hit (invalid value, out of memory, invalid device, invalid
handle, capture errors) have the same numbers as the runtime's, so `CUDARuntimeError`
carries the code a CUDA runtime user expects, with the runtime's name for it.
"""
import ctypes

from cuarray._runtime import device as _device
from cuarray._runtime import driver as _driver
from cuarray._runtime.device import context_driver as _drv
from cuarray._runtime.driver import CUDARuntimeError, _describe

is_hip = False

# cudaMemcpyKind
memcpyHostToHost, memcpyHostToDevice, memcpyDeviceToHost, memcpyDeviceToDevice, memcpyDefault = \
    range(5)
# cudaHostAlloc flags
hostAllocDefault, hostAllocPortable, hostAllocMapped, hostAllocWriteCombined = 0, 1, 2, 4
# cudaMemoryType
memoryTypeUnregistered, memoryTypeHost, memoryTypeDevice, memoryTypeManaged = range(4)
# stream and event flags, special streams
streamDefault, streamNonBlocking = 0, 1
streamLegacy, streamPerThread = 1, 2
eventDefault, eventBlockingSync, eventDisableTiming, eventInterprocess = 0, 1, 2, 4
# capture
streamCaptureModeGlobal, streamCaptureModeThreadLocal, streamCaptureModeRelaxed = 0, 1, 2
streamCaptureStatusNone, streamCaptureStatusActive, streamCaptureStatusInvalidated = 0, 1, 2
# managed memory
cudaMemAttachGlobal, cudaMemAttachHost, cudaMemAttachSingle = 1, 2, 4
# limits
cudaLimitStackSize, cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize = 0, 1, 2
# error codes CuPy names
errorInvalidValue = 1
errorMemoryAllocation = 2
errorInvalidDevice = 101
errorInvalidResourceHandle = 400
errorContextIsDestroyed = 709
errorPeerAccessAlreadyEnabled = 704
errorStreamCaptureUnsupported = 900
errorStreamCaptureInvalidated = 901
# cudaDataType (library_types.h)
CUDA_R_16F, CUDA_C_16F, CUDA_R_32F, CUDA_C_32F, CUDA_R_64F, CUDA_C_64F = 2, 6, 0, 4, 1, 5
CUDA_R_8I, CUDA_C_8I, CUDA_R_8U, CUDA_C_8U, CUDA_R_32I, CUDA_C_32I = 3, 7, 8, 9, 10, 11
CUDA_R_16BF, CUDA_C_16BF = 14, 15


def _fill_attribute_constants(namespace):
    """`cudaDevAttrXxx` constants: the runtime's enum, else derived from the driver's (the
    numbers are the same)."""
    try:
        from cuda.bindings import runtime
        for a in runtime.cudaDeviceAttr:
            if not a.name.endswith("Max"):
                namespace.setdefault(a.name, int(a))
    except Exception:
        pass
    drv = _driver._drv()
    for a in drv.CUdevice_attribute:
        if a.name.endswith("_MAX"):
            continue
        parts = a.name[len("CU_DEVICE_ATTRIBUTE_"):].lower().split("_")
        namespace.setdefault("cudaDevAttr" + "".join(p.capitalize() for p in parts), int(a))


def error_name(status):
    """The runtime's name for an error code (`cudaErrorInvalidDevice`)."""
    try:
        from cuda.bindings import runtime
        return runtime.cudaError_t(status).name
    except Exception:
        return f"cudaError{int(status)}"


def raise_runtime(status, what=None):
    text = _describe(status)
    text = text.split(": ", 1)[-1]
    msg = f"{error_name(status)}: {text}"
    if what:
        msg += f" ({what})"
    raise CUDARuntimeError(status, msg)


def _call(ret, what=None):
    err = ret[0]
    if err != 0:
        raise_runtime(int(err), what)
    return ret[1] if len(ret) == 2 else (ret[1:] if len(ret) > 2 else None)


# ---- devices ------------------------------------------------------------------------------
def getDeviceCount():
    """cuarray version of `cupy.cuda.runtime.getDeviceCount`."""
    return _driver.device_count()


def getDevice():
    """cuarray version of `cupy.cuda.runtime.getDevice`."""
    return _device.get_device_id()


def _valid(device):
    """`device` checked as the runtime checks it: cudaErrorInvalidDevice (101) otherwise."""
    try:
        return _device._validate(device)
    except CUDARuntimeError as e:
        raise CUDARuntimeError(e.status, f"{error_name(e.status)}: {e}") from None


def setDevice(device):
    """cuarray version of `cupy.cuda.runtime.setDevice`."""
    _valid(device)
    _device.set_device_id(device)


def deviceSynchronize():
    """cuarray version of `cupy.cuda.runtime.deviceSynchronize`."""
    _call(_drv().cuCtxSynchronize())


def _cudevice(device):
    _valid(device)
    return _call(_driver._drv().cuDeviceGet(device))


def deviceGetAttribute(attrib, device):
    """cuarray version of `cupy.cuda.runtime.deviceGetAttribute`."""
    drv = _driver._drv()
    try:
        a = drv.CUdevice_attribute(int(attrib))
    except ValueError:
        raise_runtime(errorInvalidValue, f"unknown device attribute {attrib}")
    return _call(drv.cuDeviceGetAttribute(a, _cudevice(device)))


def deviceGetPCIBusId(device):
    """cuarray version of `cupy.cuda.runtime.deviceGetPCIBusId`."""
    return _device.Device(_valid(device)).pci_bus_id


def deviceGetByPCIBusId(pci_bus_id):
    """cuarray version of `cupy.cuda.runtime.deviceGetByPCIBusId`."""
    drv = _driver._drv()
    _driver.init()
    dev = _call(drv.cuDeviceGetByPCIBusId(pci_bus_id.encode()), f"PCI bus id {pci_bus_id!r}")
    return int(dev)


def deviceCanAccessPeer(device, peerDevice):
    """cuarray version of `cupy.cuda.runtime.deviceCanAccessPeer`."""
    return int(_call(_driver._drv().cuDeviceCanAccessPeer(_cudevice(device),
                                                          _cudevice(peerDevice))))


def deviceEnablePeerAccess(peerDevice):
    """cuarray version of `cupy.cuda.runtime.deviceEnablePeerAccess`."""
    ctx = _device._primary_context(_valid(peerDevice))
    _call(_drv().cuCtxEnablePeerAccess(ctx, 0))


def deviceGetLimit(limit):
    """cuarray version of `cupy.cuda.runtime.deviceGetLimit`."""
    drv = _drv()
    return _call(drv.cuCtxGetLimit(drv.CUlimit(limit)))


def deviceSetLimit(limit, value):
    """cuarray version of `cupy.cuda.runtime.deviceSetLimit`."""
    drv = _drv()
    _call(drv.cuCtxSetLimit(drv.CUlimit(limit), value))


def getDeviceProperties(device):
    """The device's `cudaDeviceProp` as a dict with the runtime's field names (as CuPy's)."""
    _valid(device)
    try:
        from cuda.bindings import runtime
        err, prop = runtime.cudaGetDeviceProperties(device)
    except Exception:  # no libcudart: the driver's attributes, with CuPy's key spelling
        return _properties_from_driver(device)
    if err != 0:
        raise_runtime(int(err))
    out = {}
    for k in dir(prop):
        if k.startswith("_") or k == "getPtr":
            continue
        out[k] = _plain(k, getattr(prop, k))
    return out


def _plain(key, v):
    """A cudaDeviceProp field as CuPy gives it: bytes for names and ids, tuples for arrays."""
    try:
        if key == "name":
            return bytes(v).split(b"\0", 1)[0]
        if key in ("uuid", "luid"):
            raw = v.bytes if hasattr(v, "bytes") else v
            if isinstance(raw, (bytes, bytearray)):
                return bytes(raw)
            return bytes((int(x) & 0xFF) for x in raw)
        if isinstance(v, list):
            return tuple(v)
        if hasattr(v, "value") and not isinstance(v, (int, float)):
            return int(v.value)
    except Exception:
        pass
    return v


def _properties_from_driver(device):
    p = _device.properties(device)
    out = {"name": p["name"].encode(), "totalGlobalMem": p["total_memory"],
           "major": p["major"], "minor": p["minor"]}
    for k, v in _device.Device(device).attributes.items():
        out.setdefault(k[0].lower() + k[1:], v)
    return out


def driverGetVersion():
    """cuarray version of `cupy.cuda.runtime.driverGetVersion`."""
    return _driver.driver_version()


def runtimeGetVersion():
    """The CUDA runtime version cuarray builds for (NVRTC's, as major * 1000 + minor * 10)."""
    from cuarray._runtime.compiler import nvrtc_version
    major, minor = nvrtc_version()
    return major * 1000 + minor * 10


def get_build_version():
    """The CUDA version cuda-bindings was built for (CuPy: the toolkit it was built with)."""
    import cuda.bindings
    major, minor = (int(x) for x in cuda.bindings.__version__.split(".")[:2])
    return major * 1000 + minor * 10


def get_local_runtime_version():
    """The version of the CUDA runtime library installed here (libcudart)."""
    try:
        from cuda.bindings import runtime
        err, v = runtime.cudaRuntimeGetVersion()
        if err == 0:
            return int(v)
    except Exception:
        pass
    return runtimeGetVersion()


# ---- memory -------------------------------------------------------------------------------
def memGetInfo():
    """cuarray version of `cupy.cuda.runtime.memGetInfo`."""
    return tuple(_call(_drv().cuMemGetInfo()))


def malloc(size):
    """cuarray version of `cupy.cuda.runtime.malloc`."""
    return int(_call(_drv().cuMemAlloc(size), f"allocating {size} bytes"))


def mallocManaged(size, flags=cudaMemAttachGlobal):
    """cuarray version of `cupy.cuda.runtime.mallocManaged`."""
    return int(_call(_drv().cuMemAllocManaged(size, flags), f"allocating {size} bytes"))


def mallocAsync(size, stream):
    """cuarray version of `cupy.cuda.runtime.mallocAsync`."""
    return int(_call(_drv().cuMemAllocAsync(size, stream), f"allocating {size} bytes"))


def free(ptr):
    """cuarray version of `cupy.cuda.runtime.free`."""
    _call(_drv().cuMemFree(ptr))


def freeAsync(ptr, stream):
    """cuarray version of `cupy.cuda.runtime.freeAsync`."""
    _call(_drv().cuMemFreeAsync(ptr, stream))


def hostAlloc(size, flags=hostAllocDefault):
    """cuarray version of `cupy.cuda.runtime.hostAlloc`."""
    return int(_call(_drv().cuMemHostAlloc(size, flags), f"allocating {size} pinned bytes"))


def mallocHost(size):
    return hostAlloc(size, hostAllocDefault)


def freeHost(ptr):
    """cuarray version of `cupy.cuda.runtime.freeHost`."""
    _call(_drv().cuMemFreeHost(ptr))


def hostRegister(ptr, size, flags=0):
    """cuarray version of `cupy.cuda.runtime.hostRegister`."""
    _call(_drv().cuMemHostRegister(ptr, size, flags))


def hostUnregister(ptr):
    """cuarray version of `cupy.cuda.runtime.hostUnregister`."""
    _call(_drv().cuMemHostUnregister(ptr))


def _check_kind(kind):
    if kind not in (0, 1, 2, 3, 4):
        raise_runtime(errorInvalidValue, f"invalid cudaMemcpyKind {kind}")


def memcpy(dst, src, size, kind):
    """Copy `size` bytes; with unified addressing the driver tells the direction itself."""
    _check_kind(kind)
    drv = _drv()
    if kind == memcpyHostToHost:
        ctypes.memmove(dst, src, size)
        return
    _call(drv.cuMemcpy(dst, src, size))


def memcpyAsync(dst, src, size, kind, stream):
    """cuarray version of `cupy.cuda.runtime.memcpyAsync`."""
    _check_kind(kind)
    _call(_drv().cuMemcpyAsync(dst, src, size, stream))


def memcpyPeer(dst, dstDevice, src, srcDevice, size):
    """cuarray version of `cupy.cuda.runtime.memcpyPeer`."""
    ctx = _device._primary_context
    _call(_drv().cuMemcpyPeer(dst, ctx(dstDevice), src, ctx(srcDevice), size))


def memcpyPeerAsync(dst, dstDevice, src, srcDevice, size, stream):
    """cuarray version of `cupy.cuda.runtime.memcpyPeerAsync`."""
    ctx = _device._primary_context
    _call(_drv().cuMemcpyPeerAsync(dst, ctx(dstDevice), src, ctx(srcDevice), size, stream))


def memset(ptr, value, size):
    """cuarray version of `cupy.cuda.runtime.memset`."""
    _call(_drv().cuMemsetD8(ptr, value & 0xFF, size))


def memsetAsync(ptr, value, size, stream):
    """cuarray version of `cupy.cuda.runtime.memsetAsync`."""
    _call(_drv().cuMemsetD8Async(ptr, value & 0xFF, size, stream))


def memPrefetchAsync(devPtr, count, dstDevice, stream):
    """cuarray version of `cupy.cuda.runtime.memPrefetchAsync`."""
    drv = _drv()
    loc = drv.CUmemLocation()
    if dstDevice == -1:  # cudaCpuDeviceId
        loc.type = drv.CUmemLocationType.CU_MEM_LOCATION_TYPE_HOST
    else:
        loc.type = drv.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
        loc.id = dstDevice
    _call(drv.cuMemPrefetchAsync(devPtr, count, loc, 0, stream))


class PointerAttributes:
    """What `pointerGetAttributes` returns: `type`, `device`, `devicePointer`, `hostPointer`."""

    __slots__ = ("type", "device", "devicePointer", "hostPointer")

    def __init__(self, type_, device, device_pointer, host_pointer):
        self.type, self.device = type_, device
        self.devicePointer, self.hostPointer = device_pointer, host_pointer

    def __repr__(self):
        return (f"PointerAttributes(type={self.type}, device={self.device}, "
                f"devicePointer={self.devicePointer:#x}, hostPointer={self.hostPointer:#x})")


def pointerGetAttributes(ptr):
    """cuarray version of `cupy.cuda.runtime.pointerGetAttributes`."""
    drv = _drv()
    A = drv.CUpointer_attribute
    attrs = [A.CU_POINTER_ATTRIBUTE_MEMORY_TYPE, A.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
             A.CU_POINTER_ATTRIBUTE_DEVICE_POINTER, A.CU_POINTER_ATTRIBUTE_HOST_POINTER,
             A.CU_POINTER_ATTRIBUTE_IS_MANAGED]
    vals = _call(drv.cuPointerGetAttributes(len(attrs), attrs, ptr))
    mtype, dev, dptr, hptr, managed = vals
    mtype = int(mtype) if mtype else 0
    # CU_MEMORYTYPE_HOST = 1, DEVICE = 2 match cudaMemoryTypeHost/Device; managed memory
    # reports DEVICE with the IS_MANAGED flag.
    if managed:
        mtype = memoryTypeManaged
    return PointerAttributes(mtype, int(dev) if dev is not None else -2,
                             int(dptr or 0), int(hptr or 0))


# ---- streams and events -------------------------------------------------------------------
def streamCreate():
    """cuarray version of `cupy.cuda.runtime.streamCreate`."""
    return int(_call(_drv().cuStreamCreate(streamDefault)))


def streamCreateWithFlags(flags):
    """cuarray version of `cupy.cuda.runtime.streamCreateWithFlags`."""
    return int(_call(_drv().cuStreamCreate(flags)))


def streamDestroy(stream):
    """cuarray version of `cupy.cuda.runtime.streamDestroy`."""
    _call(_drv().cuStreamDestroy(stream))


def streamSynchronize(stream):
    """cuarray version of `cupy.cuda.runtime.streamSynchronize`."""
    _call(_drv().cuStreamSynchronize(stream))


def streamQuery(stream):
    """0 when the stream's work is done, else the code (600: not ready), as CuPy returns it."""
    return int(_drv().cuStreamQuery(stream)[0])


def streamWaitEvent(stream, event, flags=0):
    """cuarray version of `cupy.cuda.runtime.streamWaitEvent`."""
    _call(_drv().cuStreamWaitEvent(stream, event, flags))


def streamBeginCapture(stream, mode=streamCaptureModeRelaxed):
    drv = _drv()
    _call(drv.cuStreamBeginCapture(stream, drv.CUstreamCaptureMode(mode)))


def streamEndCapture(stream):
    """The captured CUgraph handle as an int."""
    return int(_call(_drv().cuStreamEndCapture(stream)))


def streamIsCapturing(stream):
    return int(_call(_drv().cuStreamIsCapturing(stream)))


def eventCreate():
    """cuarray version of `cupy.cuda.runtime.eventCreate`."""
    return int(_call(_drv().cuEventCreate(eventDefault)))


def eventCreateWithFlags(flags):
    """cuarray version of `cupy.cuda.runtime.eventCreateWithFlags`."""
    return int(_call(_drv().cuEventCreate(flags)))


def eventDestroy(event):
    """cuarray version of `cupy.cuda.runtime.eventDestroy`."""
    _call(_drv().cuEventDestroy(event))


def eventRecord(event, stream):
    """cuarray version of `cupy.cuda.runtime.eventRecord`."""
    _call(_drv().cuEventRecord(event, stream))


def eventSynchronize(event):
    """cuarray version of `cupy.cuda.runtime.eventSynchronize`."""
    _call(_drv().cuEventSynchronize(event))


def eventQuery(event):
    """cuarray version of `cupy.cuda.runtime.eventQuery`."""
    return int(_drv().cuEventQuery(event)[0])


def eventElapsedTime(start, end):
    """cuarray version of `cupy.cuda.runtime.eventElapsedTime`."""
    return float(_call(_drv().cuEventElapsedTime(start, end)))


# ---- graphs -------------------------------------------------------------------------------
def graphInstantiate(graph):
    """cuarray version of `cupy.cuda.runtime.graphInstantiate`."""
    return int(_call(_drv().cuGraphInstantiate(graph, 0)))


def graphLaunch(graphExec, stream):
    """cuarray version of `cupy.cuda.runtime.graphLaunch`."""
    _call(_drv().cuGraphLaunch(graphExec, stream))


def graphUpload(graphExec, stream):
    """cuarray version of `cupy.cuda.runtime.graphUpload`."""
    _call(_drv().cuGraphUpload(graphExec, stream))


def graphDestroy(graph):
    """cuarray version of `cupy.cuda.runtime.graphDestroy`."""
    _call(_drv().cuGraphDestroy(graph))


def graphExecDestroy(graphExec):
    """cuarray version of `cupy.cuda.runtime.graphExecDestroy`."""
    _call(_drv().cuGraphExecDestroy(graphExec))
