"""Device memory blocks and pointers: what allocators and pools hand out (`Memory`,
`PooledMemory`, `MemoryAsync`, `UnownedMemory`, `MemoryPointer`), plain cuMemAlloc
(`_malloc`), and `OutOfMemoryError`. The pools (memory_pool.py) and the allocation front
end (memory.py) import from here; nothing here imports them.
"""
import atexit
import ctypes
import operator
import threading

from cuarray._runtime import device as _device
from cuarray._runtime import driver as _driver
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.driver import CUDARuntimeError, check
from cuarray._runtime.stream import current_stream_ptr, is_live, stream_serial

_OOM = 2              # CUDA_ERROR_OUT_OF_MEMORY == cudaErrorMemoryAllocation
_INVALID_CONTEXT = 201
_STALE_STREAM = (400, 709)  # CUDA_ERROR_INVALID_HANDLE, CUDA_ERROR_CONTEXT_IS_DESTROYED
_LIMIT_ENV = "CUARRAY_GPU_MEMORY_LIMIT"

_d = None
_exiting = False


@atexit.register
def _at_exit():
    # Frees from finalizers at exit race the driver's teardown; the OS reclaims it all.
    global _exiting
    _exiting = True


def _drv():
    global _d
    if _d is None:
        _d = _driver._drv()
    return _d


class _Local(threading.local):
    allocator = None   # class default: reading it never raises, which keeps alloc() fast
    ptds_ident = None


_tls = _Local()


class OutOfMemoryError(MemoryError):
    """Device memory ran out (cuarray version of `cupy.cuda.memory.OutOfMemoryError`).

    `size` is the request in bytes, `total` what the pool held (-1: unknown), `limit`
    the pool's limit (0: none), `used` the bytes in live arrays (None: unknown).
    """

    def __init__(self, size, total, limit=0, used=None):
        self._size, self._total, self._limit, self._used = size, total, limit, used
        state = []
        if total != -1:
            state.append(f"allocated so far: {total:,} bytes")
        if used is not None:
            state.append(f"in use by arrays: {used:,} bytes")
        if limit:
            state.append(f"limit set to: {limit:,} bytes")
        msg = f"Out of memory allocating {size:,} bytes"
        msg += f" ({', '.join(state)})." if state else "."
        if limit and total != -1 and total + size > limit:
            msg += f" Raise the limit with MemoryPool.set_limit() or {_LIMIT_ENV}."
        super().__init__(msg)

    def __reduce__(self):
        return (type(self), (self._size, self._total, self._limit, self._used))


def _is_oom(e):
    return isinstance(e, MemoryError) or (isinstance(e, CUDARuntimeError) and e.status == _OOM)


def _call_in_context(device_id, fn, *args):
    """Call a driver function that needs a context; push the device's one if none is current.

    Finalizers can run on any thread (the garbage collector picks), often one that never
    touched CUDA; the call is retried there with the primary context pushed and popped.
    """
    (err,) = fn(*args)
    if err == _INVALID_CONTEXT:
        drv = _drv()
        check(drv.cuCtxPushCurrent(_device._primary_context(device_id)))
        try:
            (err,) = fn(*args)
        finally:
            drv.cuCtxPopCurrent()
    return err


class BaseMemory:
    """A block of device memory: `ptr`, `size` (bytes) and `device_id`."""

    __slots__ = ("ptr", "size", "device_id", "__weakref__")

    def __int__(self):
        return self.ptr

    @property
    def device(self):
        return _device.Device(self.device_id)

    def __repr__(self):
        return f"<{type(self).__name__} {self.ptr:#x} size={self.size} device={self.device_id}>"


class Memory(BaseMemory):
    """Device memory from cuMemAlloc, freed when this object is (cuarray version of `cupy.cuda.Memory`)."""

    __slots__ = ()

    def __init__(self, size):
        self.size = size
        self.device_id = get_device_id()
        self.ptr = 0
        if size > 0:
            ensure_context()
            self.ptr = int(check(_drv().cuMemAlloc(size)))

    def __del__(self):
        if self.ptr and _exiting is False:
            try:
                _call_in_context(self.device_id, _drv().cuMemFree, self.ptr)
            except Exception:
                pass  # a finalizer must not raise


class UnownedMemory(BaseMemory):
    """Device memory owned by someone else, kept alive through `owner` (cuarray version of `cupy.cuda.UnownedMemory`)."""

    __slots__ = ("_owner",)

    def __init__(self, ptr, size, owner, device_id=-1):
        if device_id < 0:
            if ptr == 0:
                raise RuntimeError("UnownedMemory needs an explicit device_id for a null pointer")
            ensure_context()
            drv = _drv()
            attr = drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
            device_id = int(check(drv.cuPointerGetAttribute(attr, ptr)))
        self.ptr = int(ptr)
        self.size = size
        self.device_id = device_id
        self._owner = owner


class MemoryAsync(BaseMemory):
    """Stream-ordered device memory (cuMemAllocAsync), freed on the stream it was allocated on.

    cuarray version of `cupy.cuda.memory.MemoryAsync`. `pool` is a CUmemoryPool; None
    uses the device's current pool.
    """

    __slots__ = ("stream", "_serial")

    def __init__(self, size, stream, pool=None):
        self.size = size
        self.device_id = get_device_id()
        self.stream = stream  # an int: the stream may be destroyed before this memory is freed
        self._serial = stream_serial(stream)
        self.ptr = 0
        if size > 0:
            ensure_context()
            drv = _drv()
            if pool is None:
                self.ptr = int(check(drv.cuMemAllocAsync(size, stream)))
            else:
                self.ptr = int(check(drv.cuMemAllocFromPoolAsync(size, pool, stream)))

    def __del__(self):
        # As CuPy: free on the allocation's stream; if that stream is gone, on the current
        # stream (the user has ordered the work); failing that, synchronously.
        if not self.ptr or _exiting is not False:
            return
        try:
            drv = _drv()
            stream = self.stream if is_live(self.stream, self._serial) else current_stream_ptr()
            err = _call_in_context(self.device_id, drv.cuMemFreeAsync, self.ptr, stream)
            if err in _STALE_STREAM:
                err = _call_in_context(self.device_id, drv.cuMemFreeAsync, self.ptr,
                                       current_stream_ptr())
                if err in _STALE_STREAM:
                    _call_in_context(self.device_id, drv.cuMemFree, self.ptr)
        except Exception:
            pass


class PooledMemory(BaseMemory):
    """A chunk lent by a `SingleDeviceMemoryPool`; returns to the pool when collected."""

    __slots__ = ("_chunk", "pool")

    def free(self):
        """Return the chunk to the pool now (the pool keeps it for reuse)."""
        if self.ptr:
            self.ptr = 0
            self.pool._release(self._chunk)

    def __del__(self):
        if self.ptr and _exiting is False:
            self.ptr = 0
            self.pool._release(self._chunk)


def _host_ptr(mem):
    if type(mem) is int:
        return mem
    if isinstance(mem, ctypes.c_void_p):
        return mem.value or 0
    return int(mem)


def _stream_ptr(stream):
    return current_stream_ptr() if stream is None else stream.ptr


def _copy_stream(size, stream):
    """The stream handle a copy or memset of `size` bytes goes to, with the current
    device's context made current; None when there are no bytes."""
    if size <= 0:
        return None
    s = _stream_ptr(stream)
    ensure_context()
    return s


class PointerArithmetic:
    """`p + n`, `n + p`, `p - n` (a pointer n bytes further that keeps the same block
    alive), `p -= n` and `int(p)`, for pointer classes built as `cls(mem, offset)` with
    `mem` and `ptr` attributes and their own `__iadd__` (device and pinned pointers)."""

    __slots__ = ()

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        if type(offset) is not int:
            try:
                offset = operator.index(offset)
            except TypeError:
                return NotImplemented
        return type(self)(self.mem, self.ptr - self.mem.ptr + offset)

    __radd__ = __add__

    def __sub__(self, offset):
        if type(offset) is not int:
            try:
                offset = operator.index(offset)
            except TypeError:
                return NotImplemented
        return self + -offset

    def __isub__(self, offset):
        return self.__iadd__(-offset)


class MemoryPointer(PointerArithmetic):
    """A position in device memory that keeps its block alive (cuarray version of `cupy.cuda.MemoryPointer`).

    `ptr` is the address, `mem` the block, `device_id` its device, `size` the bytes from
    `ptr` to the end of the block. `mp + n` points n bytes further and shares `mem`.
    Copies and memsets go to the current stream; the variants without `_async`
    then synchronise that stream.
    """

    __slots__ = ("mem", "ptr", "device_id")

    def __init__(self, mem, offset):
        self.mem = mem
        # A size-0 block has ptr 0; its pointers stay null whatever the offset, so
        # views of empty arrays never carry a made-up address.
        self.ptr = mem.ptr + offset if mem.ptr else 0
        self.device_id = mem.device_id

    def __repr__(self):
        return f"<MemoryPointer {self.ptr:#x} device={self.device_id} mem={self.mem!r}>"

    @property
    def device(self):
        return _device.Device(self.device_id)

    @property
    def size(self):
        mem = self.mem
        return mem.size - (self.ptr - mem.ptr) if mem.ptr else 0

    def __iadd__(self, offset):
        if self.ptr:
            self.ptr += offset
        return self

    def copy_from_device_async(self, src, size, stream=None):
        """Copy `size` bytes from the device pointer `src`, possibly on another device."""
        s = _copy_stream(size, stream)
        if s is None:
            return
        if src.device_id == self.device_id:
            check(_drv().cuMemcpyAsync(self.ptr, src.ptr, size, s))
        else:
            from cuarray._runtime import peer
            peer.copy_async(self.ptr, self.device_id, src.ptr, src.device_id, size,
                            None if stream is None else s)

    # The blocking forms stay spelled out: CuPy names their first argument src, mem or value.
    def copy_from_device(self, src, size):
        self.copy_from_device_async(src, size)
        _sync_current()

    def copy_from_host_async(self, mem, size, stream=None):
        """Copy `size` bytes from host address `mem` (int or ctypes.c_void_p); async only if it is pinned."""
        s = _copy_stream(size, stream)
        if s is None:
            return
        check(_drv().cuMemcpyHtoDAsync(self.ptr, _host_ptr(mem), size, s))

    def copy_from_host(self, mem, size):
        self.copy_from_host_async(mem, size)
        _sync_current()

    def copy_from_async(self, mem, size, stream=None):
        """Copy from a MemoryPointer (device) or a host address."""
        if isinstance(mem, MemoryPointer):
            self.copy_from_device_async(mem, size, stream)
        else:
            self.copy_from_host_async(mem, size, stream)

    def copy_from(self, mem, size):
        self.copy_from_async(mem, size)
        _sync_current()

    def copy_to_host_async(self, mem, size, stream=None):
        """Copy `size` bytes to host address `mem` (int or ctypes.c_void_p)."""
        s = _copy_stream(size, stream)
        if s is None:
            return
        check(_drv().cuMemcpyDtoHAsync(_host_ptr(mem), self.ptr, size, s))

    def copy_to_host(self, mem, size):
        self.copy_to_host_async(mem, size)
        _sync_current()

    def memset_async(self, value, size, stream=None):
        """Set `size` bytes to the low byte of `value`."""
        s = _copy_stream(size, stream)
        if s is None:
            return
        check(_drv().cuMemsetD8Async(self.ptr, value & 0xFF, size, s))

    def memset(self, value, size):
        self.memset_async(value, size)
        _sync_current()


def memset_zero(ptr, nbytes):
    """Zero `nbytes` at `ptr` on the current stream (32-bit words when the size allows)."""
    drv = _d if _d is not None else _drv()
    tls = _device._tls   # ensure_context(), inlined: zeros() is a per-call hot path
    try:
        if tls.ctx_device != tls.device_id:
            ensure_context()
    except AttributeError:
        ensure_context()
    s = current_stream_ptr()
    if nbytes & 3 == 0 and ptr & 3 == 0:
        err = drv.cuMemsetD32Async(ptr, 0, nbytes >> 2, s)[0]
    else:
        err = drv.cuMemsetD8Async(ptr, 0, nbytes, s)[0]
    if err:
        check((err,))


def memset_words(ptr, word, itemsize, count):
    """Set `count` elements of `itemsize` (1, 2 or 4) bytes at `ptr` (aligned to it) to the
    bit pattern `word`, on the current stream: a fill without a kernel."""
    drv = _drv()
    ensure_context()
    fn = drv.cuMemsetD32Async if itemsize == 4 else (
        drv.cuMemsetD16Async if itemsize == 2 else drv.cuMemsetD8Async)
    err = fn(ptr, word, count, current_stream_ptr())[0]
    if err:
        check((err,))


def _sync_current():
    check(_drv().cuStreamSynchronize(current_stream_ptr()))


def _malloc(size):
    """Allocate with cuMemAlloc, no pool (the allocator `set_allocator(None)` installs)."""
    return MemoryPointer(Memory(size), 0)


def malloc_async(size):
    """Allocate from the device's current stream-ordered pool on the current stream."""
    return MemoryPointer(MemoryAsync(size, current_stream_ptr()), 0)
