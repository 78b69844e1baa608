"""Driver initialisation and error handling.

`import cuarray` must work on a machine with no driver, so nothing here touches the
driver until a device is first used.
"""
import threading

_lock = threading.Lock()
_state = None  # None: not tried; True: initialised; an exception: the reason it failed


class CUDARuntimeError(RuntimeError):
    """A CUDA driver or runtime call failed (cuarray version of `cupy.cuda.runtime.CUDARuntimeError`)."""

    def __init__(self, status, message=None):
        self.status = int(status) if status is not None else -1
        super().__init__(message if message is not None else _describe(status))


class CUDADriverError(CUDARuntimeError):
    """A CUDA driver call failed (cuarray version of `cupy.cuda.driver.CUDADriverError`)."""


# Errors after which the driver refuses every further call in the context: a kernel that
# trapped, asserted or touched memory it must not. Saying so at once spares the user a
# hunt for the unrelated call that fails next.
_STICKY = {
    214: "CUDA_ERROR_ECC_UNCORRECTABLE", 700: "CUDA_ERROR_ILLEGAL_ADDRESS",
    710: "CUDA_ERROR_ASSERT", 714: "CUDA_ERROR_HARDWARE_STACK_ERROR",
    715: "CUDA_ERROR_ILLEGAL_INSTRUCTION", 716: "CUDA_ERROR_MISALIGNED_ADDRESS",
    717: "CUDA_ERROR_INVALID_ADDRESS_SPACE", 718: "CUDA_ERROR_INVALID_PC",
    719: "CUDA_ERROR_LAUNCH_FAILED",
}
_lost = None  # the first sticky error of this process, once one happened


def _context_lost(status):
    global _lost
    if _lost is None:
        _lost = _describe(status)
        return (f"{_lost}. A kernel faulted (a trap, a failed assert or an out-of-bounds "
                "access); the CUDA context of this process is now unusable, and every "
                "later GPU call will fail: restart the process")
    return (f"{_describe(status)}: the CUDA context was lost earlier ({_lost}); restart "
            "the process")


def _describe(status):
    try:
        from cuda.bindings import driver
        err, name = driver.cuGetErrorName(status)
        err2, text = driver.cuGetErrorString(status)
        if err == 0 and err2 == 0:
            return f"{name.decode()}: {text.decode()}"
    except Exception:
        pass
    return f"CUDA error {int(status)}"


_bindings = None


def _drv():
    # Imported on first use, not with cuarray (cold start); then one global read, where an
    # import statement per call cost ~0.3 µs on every copy, memset and sync.
    global _bindings
    if _bindings is None:
        from cuda.bindings import driver
        _bindings = driver
    return _bindings


def init():
    """cuInit once; raise CUDARuntimeError with one clear sentence when no driver or GPU exists."""
    global _state
    if _state is True:
        return
    with _lock:
        if _state is None:
            _state = _try_init()
    if _state is not True:
        raise CUDARuntimeError(100, str(_state)) from _state


def _try_init():
    try:
        driver = _drv()
        (err,) = driver.cuInit(0)
        if err != 0:
            return RuntimeError(
                f"no CUDA driver or device was found: cuInit failed with {_describe(err)}")
        err, count = driver.cuDeviceGetCount()
        if err != 0 or count == 0:
            return RuntimeError("no CUDA driver or device was found: the driver reports no GPU")
        return True
    except Exception as e:  # the driver library itself is missing
        return RuntimeError(f"no CUDA driver or device was found ({type(e).__name__}: {e})")


def is_available():
    """True when a CUDA driver and at least one device are present."""
    try:
        init()
    except CUDARuntimeError:
        return False
    return True


def check(ret):
    """Unpack a cuda.bindings result tuple: raise on error, return the value(s)."""
    err = ret[0]
    if err != 0:
        err = int(err)
        if err in _STICKY:
            raise CUDADriverError(err, _context_lost(err))
        raise CUDADriverError(err)
    n = len(ret)
    if n == 1:
        return None
    if n == 2:
        return ret[1]
    return ret[1:]


def driver_version():
    init()
    return check(_drv().cuDriverGetVersion())


def device_count():
    init()
    return check(_drv().cuDeviceGetCount())
