"""Synchronization detection (cuarray version of `cupyx.allow_synchronize` and
`cupyx.DeviceSynchronized`): inside `allow_synchronize(False)`, any operation that makes the
host wait for the device raises `DeviceSynchronized` before it waits.

The points that declare a synchronization are the host-side waits a program asks for:
reading device data on the host (`get`, `item`, printing, `bool`), `Stream.synchronize` and
`Device.synchronize`. Event waits are not declared: uploads wait on events internally to
reuse pinned staging buffers.
"""
import contextlib
import threading

__all__ = ["allow_synchronize", "DeviceSynchronized"]

_state = threading.local()


class DeviceSynchronized(RuntimeError):
    """Raised when the device synchronizes inside `allow_synchronize(False)`."""

    def __init__(self, message=None):
        super().__init__(message or "Device synchronization was detected while disallowed.")


@contextlib.contextmanager
def allow_synchronize(allow):
    """A context manager that allows (`True`) or forbids (`False`) device synchronization
    in this thread; forbidden ones raise `DeviceSynchronized`. Nests; restores on exit."""
    old = getattr(_state, "allowed", True)
    _state.allowed = bool(allow)
    try:
        yield
    finally:
        _state.allowed = old


def declare_synchronize():
    """Called before every host wait on the device: raises when forbidden in this thread."""
    if not getattr(_state, "allowed", True):
        raise DeviceSynchronized()
