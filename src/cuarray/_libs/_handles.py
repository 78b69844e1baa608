"""Library handles kept per (thread, device), bound to the current stream at every use.

cuBLAS, cuSOLVER, cuSPARSE and cusolverSp handles are not safe to share between threads
that run at once, and each is tied to the context it was made in. Handles live as long
as their thread's locals; they are not destroyed at thread exit because the owning
context may no longer be current there.
"""
import threading

from cuarray._runtime.device import ensure_context
from cuarray._runtime.stream import current_stream_ptr


class PerThread:
    """`get()` returns this thread's handle for the current device, made by `create()` on
    first use and passed to `bind(handle, stream)` whenever the current stream changed."""

    def __init__(self, create, bind):
        self._create = create
        self._bind = bind
        self._tls = threading.local()

    def get(self, purpose=None):
        """`purpose` names a separate handle of the same device."""
        dev = ensure_context()
        try:
            table = self._tls.table
        except AttributeError:
            table = self._tls.table = {}
        key = dev if purpose is None else (dev, purpose)
        entry = table.get(key)
        if entry is None:
            entry = table[key] = [self._create(), None]
        s = current_stream_ptr()
        if s != entry[1]:
            self._bind(entry[0], s)
            entry[1] = s
        return entry[0]
