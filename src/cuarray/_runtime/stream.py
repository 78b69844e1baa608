"""Streams and events, with a current stream per thread and device."""
import ctypes
import threading

from cuarray._runtime import driver as _driver
from cuarray._runtime import syncdetect as _syncdetect
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.driver import check

class _Local(threading.local):
    streams = None  # device id -> current Stream, per thread
    defaults = None  # open `with Stream.null:` blocks of this thread


def _default_stack():
    st = _tls.defaults
    if st is None:
        st = _tls.defaults = []
    return st


_tls = _Local()
_NOT_READY = 600  # CUDA_ERROR_NOT_READY

# Streams this library created and has not destroyed: handle -> serial number. A handle
# of a destroyed stream must never reach the driver again (that is undefined behaviour and
# crashed the process in cuMemFreeAsync), and the driver may hand the same handle value to
# a new stream; the serial tells the two apart.
_owned_streams = {}
_serials = iter(range(1, 1 << 62))


def stream_serial(ptr):
    """The serial of the live stream `ptr` that this library created, else None."""
    return _owned_streams.get(ptr)


def is_live(ptr, serial):
    """Whether `ptr` still names the stream it named when `stream_serial` gave `serial`.
    Streams not created here (null, per-thread, external) count as live."""
    return serial is None or _owned_streams.get(ptr) == serial


def _current_map():
    m = _tls.streams
    if m is None:
        m = _tls.streams = {}
    return m


class _BaseStream:
    __slots__ = ("ptr", "device_id", "_prev", "__weakref__")

    def __repr__(self):
        return f"<{type(self).__name__} {self.ptr:#x} (device {self.device_id})>"

    def __eq__(self, other):
        return isinstance(other, _BaseStream) and other.ptr == self.ptr and \
            other.device_id == self.device_id

    def __hash__(self):
        return hash((self.ptr, self.device_id))

    def __enter__(self):
        m = _current_map()
        self._prev.append(m.get(self.device_id))
        m[self.device_id] = self
        return self

    def __exit__(self, *exc):
        _current_map()[self.device_id] = self._prev.pop()

    def use(self):
        _current_map()[self.device_id] = self
        return self

    def synchronize(self):
        _syncdetect.declare_synchronize()
        ensure_context()
        check(_driver._drv().cuStreamSynchronize(self.ptr))

    @property
    def done(self):
        ensure_context()
        (err,) = _driver._drv().cuStreamQuery(self.ptr)
        if err == _NOT_READY:
            return False
        check((err,))
        return True

    def record(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def wait_event(self, event):
        ensure_context()
        check(_driver._drv().cuStreamWaitEvent(self.ptr, event.ptr, 0))

    def launch_host_func(self, callback, arg):
        """Run `callback(arg)` on a driver thread once the work queued so far is done."""
        ensure_context()
        key = object()

        def trampoline(_):
            try:
                callback(arg)
            finally:
                _pending_host_funcs.pop(key, None)

        cfunc = _HOSTFN(trampoline)
        _pending_host_funcs[key] = cfunc
        fn = _driver._drv().CUhostFn(ctypes.cast(cfunc, ctypes.c_void_p).value)
        check(_driver._drv().cuLaunchHostFunc(self.ptr, fn, 0))

    # CUDA graphs (graph.py)
    def begin_capture(self, mode=None):
        """Record the work queued on this stream instead of running it (relaxed mode by default)."""
        from cuarray._runtime import graph
        graph.begin_capture(self, mode)

    def end_capture(self):
        """End the capture: a `cuarray.cuda.Graph` to `launch()`."""
        from cuarray._runtime import graph
        return graph.end_capture(self)

    def is_capturing(self):
        from cuarray._runtime import graph
        return graph.is_capturing(self)


_HOSTFN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_pending_host_funcs = {}  # keeps callbacks alive until the driver has called them


class Stream(_BaseStream):
    """A CUDA stream (cuarray version of `cupy.cuda.Stream`).

    `Stream.null` is the legacy default stream; `ptds=True` gives the per-thread default
    stream. `with stream:` makes it current for this thread and restores the previous one.
    """

    __slots__ = ("_owned", "non_blocking")
    null = None  # set below

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=0):
        self._prev = []
        self.non_blocking = non_blocking
        self._owned = False
        if null and ptds:
            raise ValueError("a stream cannot be both the null stream and the per-thread stream")
        if null:
            self.ptr, self.device_id = 0, -1
            return
        if ptds:
            self.ptr, self.device_id = 2, -1  # CU_STREAM_PER_THREAD
            return
        self.device_id = ensure_context()
        flags = 1 if non_blocking else 0
        self.ptr = int(check(_driver._drv().cuStreamCreateWithPriority(flags, priority)))
        self._owned = True
        _owned_streams[self.ptr] = next(_serials)

    def __enter__(self):
        if self.device_id == -1:
            # The shared null / per-thread stream objects bind to the current device; the
            # restore information lives per thread, not on the shared object.
            bound = _BoundDefault(self.ptr)
            _default_stack().append(bound)
            return bound.__enter__()
        return super().__enter__()

    def __exit__(self, *exc):
        if self.device_id == -1:
            return _default_stack().pop().__exit__(*exc)
        return super().__exit__(*exc)

    def use(self):
        if self.device_id == -1:
            _current_map()[get_device_id()] = self
            return self
        return super().use()

    def __del__(self):
        if getattr(self, "_owned", False):
            _owned_streams.pop(self.ptr, None)
            try:
                _driver._drv().cuStreamDestroy(self.ptr)
            except Exception:
                pass


class _BoundDefault:
    """`with Stream.null:` binds the shared null-stream object to the current device."""

    def __init__(self, ptr):
        self.ptr = ptr

    def __enter__(self):
        dev = get_device_id()
        m = _current_map()
        self._dev, self._prev = dev, m.get(dev)
        m[dev] = Stream.null if self.ptr == 0 else Stream.ptds
        return m[dev]

    def __exit__(self, *exc):
        _current_map()[self._dev] = self._prev


Stream.null = Stream(null=True)
Stream.ptds = Stream(ptds=True)


class ExternalStream(_BaseStream):
    """A stream created elsewhere (e.g. by PyTorch), wrapped by its CUstream pointer."""

    __slots__ = ()

    def __init__(self, ptr, device_id=-1):
        self._prev = []
        self.ptr = int(ptr)
        self.device_id = get_device_id() if device_id < 0 else device_id


def get_current_stream(device_id=None):
    """The current stream of this thread for a device (default: the current device)."""
    if device_id is None:
        device_id = get_device_id()
    s = _current_map().get(device_id)
    return Stream.null if s is None else s


def current_stream_ptr():
    """The current stream's handle as an int, for hot paths."""
    m = _tls.streams
    if not m:
        return 0
    s = m.get(get_device_id())
    return 0 if s is None else s.ptr


class Event:
    """A CUDA event (cuarray version of `cupy.cuda.Event`)."""

    __slots__ = ("ptr", "device_id", "_owned", "__weakref__")

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._owned = False
        if interprocess and not disable_timing:
            raise ValueError("an interprocess event must have disable_timing=True")
        flags = (1 if block else 0) | (2 if disable_timing else 0) | (4 if interprocess else 0)
        self.device_id = ensure_context()
        self.ptr = int(check(_driver._drv().cuEventCreate(flags)))
        self._owned = True

    def __repr__(self):
        return f"<Event {self.ptr:#x} (device {self.device_id})>"

    def record(self, stream=None):
        if stream is None:
            stream = get_current_stream()
        ensure_context()
        check(_driver._drv().cuEventRecord(self.ptr, stream.ptr))

    def synchronize(self):
        check(_driver._drv().cuEventSynchronize(self.ptr))

    @property
    def done(self):
        (err,) = _driver._drv().cuEventQuery(self.ptr)
        if err == _NOT_READY:
            return False
        check((err,))
        return True

    def __del__(self):
        if getattr(self, "_owned", False):
            try:
                _driver._drv().cuEventDestroy(self.ptr)
            except Exception:
                pass


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events (synchronises on `end_event`)."""
    end_event.synchronize()
    return check(_driver._drv().cuEventElapsedTime(start_event.ptr, end_event.ptr))
