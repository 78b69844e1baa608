"""CuPy's `cupy.cuda.runtime` names over cuarray's runtime layer."""
from cuarray._runtime import driver as _driver
from cuarray._runtime import device as _device
from cuarray._runtime.driver import CUDARuntimeError  # noqa: F401

is_hip = False


def getDeviceCount():
    return _driver.device_count()


def getDevice():
    return _device.get_device_id()


def setDevice(device):
    _device.set_device_id(device)


def deviceSynchronize():
    _device.Device().synchronize()


def memGetInfo():
    return _device.Device().mem_info


def driverGetVersion():
    return _driver.driver_version()


def runtimeGetVersion():
    from cuarray._runtime.compiler import nvrtc_version
    major, minor = nvrtc_version()
    return major * 1000 + minor * 10


def getDeviceProperties(device):
    """A dict of the device's properties, with CuPy's keys for the common ones."""
    _device._validate(device)
    p = _device.properties(device)
    attrs = _device.Device(device).attributes
    out = {"name": p["name"].encode(), "totalGlobalMem": p["total_memory"],
           "major": p["major"], "minor": p["minor"],
           "multiProcessorCount": p["sm_count"], "maxThreadsPerBlock": p["max_threads_per_block"]}
    for k, v in attrs.items():
        out.setdefault(k[0].lower() + k[1:], v)
    return out
