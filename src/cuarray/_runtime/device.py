"""Devices, their primary contexts, and the per-thread current device."""
import threading

from cuarray._runtime import driver as _driver
from cuarray._runtime import syncdetect as _syncdetect
from cuarray._runtime.driver import CUDARuntimeError, check

_tls = threading.local()
_contexts = {}      # device id -> CUcontext of its retained primary context
_ctx_lock = threading.Lock()
_props = {}         # device id -> dict of cached properties (read once per process)


def _primary_context(device_id):
    ctx = _contexts.get(device_id)
    if ctx is None:
        with _ctx_lock:
            ctx = _contexts.get(device_id)
            if ctx is None:
                drv = _driver._drv()
                dev = check(drv.cuDeviceGet(device_id))
                ctx = check(drv.cuDevicePrimaryCtxRetain(dev))
                _contexts[device_id] = ctx
    return ctx


def _validate(device_id):
    n = _driver.device_count()
    if not isinstance(device_id, int) or isinstance(device_id, bool):
        raise TypeError(f"device id must be an int, not {type(device_id).__name__}")
    if not 0 <= device_id < n:
        raise CUDARuntimeError(
            101, f"invalid device id {device_id}: this machine has {n} CUDA device"
            f"{'s' if n != 1 else ''} (valid ids: 0..{n - 1})")
    return device_id


def get_device_id():
    """The current device of this thread (cuarray version of `cupy.cuda.get_device_id`)."""
    try:
        return _tls.device_id
    except AttributeError:
        _driver.init()
        _tls.device_id = 0
        return 0


def ensure_context():
    """Make the current device's primary context current on this thread; cheap when it is."""
    dev = get_device_id()
    if getattr(_tls, "ctx_device", -1) != dev:
        _set_context(dev)
    return dev


def context_driver():
    """The driver bindings, the current device's context made current first (what the
    runtime-API style functions call through)."""
    ensure_context()
    return _driver._drv()


def _set_context(dev):
    ctx = _primary_context(dev)
    check(_driver._drv().cuCtxSetCurrent(ctx))
    _tls.ctx_device = dev


def set_device_id(device_id):
    _driver.init()
    _validate(device_id)
    _tls.device_id = device_id
    _set_context(device_id)


def properties(device_id):
    """Attributes of a device that never change, read once (name, cc, SM count, ...)."""
    p = _props.get(device_id)
    if p is None:
        drv = _driver._drv()
        dev = check(drv.cuDeviceGet(device_id))
        A = drv.CUdevice_attribute
        attr = lambda a: check(drv.cuDeviceGetAttribute(a, dev))
        p = {
            "name": check(drv.cuDeviceGetName(256, dev)).split(b"\0", 1)[0].decode(),
            "major": attr(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            "minor": attr(A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
            "sm_count": attr(A.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
            "max_threads_per_block": attr(A.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
            "total_memory": check(drv.cuDeviceTotalMem(dev)),
        }
        _props[device_id] = p
    return p


def _camel(name):
    parts = name[len("CU_DEVICE_ATTRIBUTE_"):].lower().split("_")
    return "".join(w.capitalize() for w in parts)


class Device:
    """A CUDA device (cuarray version of `cupy.cuda.Device`).

    `with Device(1):` makes device 1 current on this thread and restores the previous
    device on exit; `use()` makes it current without restoring.
    """

    __slots__ = ("id", "_stack")

    def __init__(self, device=None):
        if device is None:
            device = get_device_id()
        elif isinstance(device, Device):
            device = device.id
        else:
            device = _validate(device)
        self.id = device
        self._stack = []

    def __int__(self):
        return self.id

    __index__ = __int__

    def __repr__(self):
        return f"<CUDA Device {self.id}>"

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("cuarray.Device", self.id))

    def __enter__(self):
        self._stack.append(get_device_id())
        if self.id != self._stack[-1]:
            set_device_id(self.id)
        return self

    def __exit__(self, *exc):
        prev = self._stack.pop()
        if prev != get_device_id():
            set_device_id(prev)

    def use(self):
        set_device_id(self.id)

    def synchronize(self):
        _syncdetect.declare_synchronize()
        with self:
            ensure_context()
            check(_driver._drv().cuCtxSynchronize())

    @property
    def compute_capability(self):
        p = properties(self.id)
        return f"{p['major']}{p['minor']}"

    @property
    def name(self):
        return properties(self.id)["name"]

    @property
    def mem_info(self):
        """(free, total) bytes on this device."""
        with self:
            ensure_context()
            return tuple(check(_driver._drv().cuMemGetInfo()))

    @property
    def pci_bus_id(self):
        drv = _driver._drv()
        bus = check(drv.cuDeviceGetPCIBusId(32, check(drv.cuDeviceGet(self.id))))
        return bus.split(b"\0", 1)[0].decode()

    @property
    def attributes(self):
        """Every device attribute, keyed by CuPy's CamelCase names."""
        drv = _driver._drv()
        dev = check(drv.cuDeviceGet(self.id))
        out = {}
        for a in drv.CUdevice_attribute:
            if a.name.endswith("_MAX") or "DEPRECATED" in a.name:
                continue
            err, v = drv.cuDeviceGetAttribute(a, dev)
            if err == 0:
                out[_camel(a.name)] = v
        return out
