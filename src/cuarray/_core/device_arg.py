"""The `device=` argument of creation functions and `to_device` (Array API): a
`cuarray.cuda.Device`, a device number, "cuda"/"gpu" (the current device), or None."""
import contextlib
import operator

from cuarray._runtime.device import Device


def device_id(device):
    """The device number `device` names; None for the current device."""
    if device is None or isinstance(device, str) and device in ("cuda", "gpu"):
        return None
    if isinstance(device, Device):
        return device.id
    if isinstance(device, str) and device == "cpu":
        raise ValueError("cuarray arrays live on CUDA devices; use x.get() for host memory")
    try:
        return operator.index(device)
    except TypeError:
        raise ValueError(f"unsupported device {device!r}: expected a cuarray.cuda.Device, a "
                         f"device number or None") from None


def scope(device):
    """A context making `device` current while an array is created on it."""
    dev = device_id(device)
    return contextlib.nullcontext() if dev is None else Device(dev)
