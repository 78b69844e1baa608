"""Page-locked host memory, its pool, and the staged host <-> device copies arrays use.

As in CuPy (`cupy/cuda/pinned_memory.pyx`), the pool keeps blocks in lists by size
(rounded up to 512 bytes). A block handed back while an asynchronous copy may still
read it carries an event recorded on the copy's stream; the pool counts it as free but
lends it again only once that event has completed.
"""
import ctypes
import operator
import os
import threading

import numpy

from cuarray._runtime.device import ensure_context
from cuarray._runtime.driver import check
from cuarray._runtime.memory_blocks import (
    OutOfMemoryError, PointerArithmetic, _call_in_context, _drv, _is_oom)
from cuarray._runtime import memory_blocks as _memory
from cuarray._runtime.stream import Event

_PORTABLE = 1                 # CU_MEMHOSTALLOC_PORTABLE: usable from every context
_MEMORYTYPE_HOST = 1          # CU_MEMORYTYPE_HOST
_STAGE_MAX = 64 << 20         # above this, stream through bounded buffers (2 in, _D2H_BUFFERS out)
_CHUNK = 16 << 20             # size of each of those buffers
_CHECK_PINNED_MIN = 64 << 10  # below this, staging costs less than asking the driver
# Up to this size a synchronous copy from the device into pageable memory goes there
# directly. (Uploads keep staging through the pinned pool as CuPy's do, whose memory page
# shows the pinned block an upload leaves; the driver's own staging was faster for small
# uploads: 8-20 µs against 30-40 on an H100 host.)
_D2H_DIRECT_MAX = 64 << 10


class PinnedMemory:
    """Page-locked host memory from cuMemHostAlloc (cuarray version of `cupy.cuda.PinnedMemory`)."""

    __slots__ = ("ptr", "size", "_device", "__weakref__")

    def __init__(self, size, flags=0):
        self.size = size
        self.ptr = 0
        if size > 0:
            self._device = ensure_context()
            self.ptr = int(check(_drv().cuMemHostAlloc(size, flags)))

    def __int__(self):
        return self.ptr

    def __del__(self):
        if self.ptr and _memory is not None and not _memory._exiting:
            try:
                _call_in_context(self._device, _drv().cuMemFreeHost, self.ptr)
            except Exception:
                pass  # a finalizer must not raise


class PooledPinnedMemory:
    """A pinned block lent by a PinnedMemoryPool; returns to the pool when collected.

    `event`, when set, is a recorded event the pool waits for before lending the block
    again (the transfer helpers set it after queueing an asynchronous copy).
    """

    __slots__ = ("ptr", "size", "pool", "event", "_mem", "__weakref__")

    def __int__(self):
        return self.ptr

    def free(self):
        """Return the block to the pool now."""
        if self.ptr:
            self.ptr = 0
            self.pool._release(self._mem, self.size, self.event)

    def __del__(self):
        if self.ptr and _memory is not None and not _memory._exiting:
            self.ptr = 0
            self.pool._release(self._mem, self.size, self.event)


class _HostView:
    # numpy.asarray() of this keeps `owner` alive as the array's base.
    __slots__ = ("__array_interface__", "owner")


class PinnedMemoryPointer(PointerArithmetic):
    """A position in pinned host memory (cuarray version of `cupy.cuda.PinnedMemoryPointer`).

    `ptr` is the address and `mem` the block it keeps alive; `size()` (a method, as in
    CuPy) gives the bytes from `ptr` to the block's end. It exports the buffer protocol
    on Python 3.12+, so `numpy.frombuffer(p, dtype, count)` works as with CuPy;
    `as_numpy()` works on every Python.
    """

    __slots__ = ("mem", "ptr", "__weakref__")

    def __init__(self, mem, offset):
        self.mem = mem
        self.ptr = mem.ptr + offset

    def __repr__(self):
        return f"<PinnedMemoryPointer {self.ptr:#x} size={self.size()}>"

    def __iadd__(self, offset):
        self.ptr += offset
        return self

    def size(self):
        return self.mem.size - (self.ptr - self.mem.ptr)

    def __buffer__(self, flags):
        n = self.size()
        return memoryview((ctypes.c_char * n).from_address(self.ptr)).cast("B")

    def as_numpy(self, size=None):
        """The first `size` bytes (default: all) as a numpy uint8 array that keeps this pointer alive."""
        n = self.size() if size is None else size
        if not 0 <= n <= self.size():
            raise ValueError(f"as_numpy({size}) asks for more than the {self.size()} bytes here")
        view = _HostView()
        view.__array_interface__ = {"shape": (n,), "typestr": "|u1", "version": 3,
                                    "data": (self.ptr, False)}
        view.owner = self
        return numpy.asarray(view)


_new = object.__new__


class PinnedMemoryPool:
    """Pool of pinned host memory (cuarray version of `cupy.cuda.PinnedMemoryPool`).

    Returned blocks are kept for reuse by requests of the same rounded size;
    `free_all_blocks()` gives them back to the driver. `allocator(size) ->
    PinnedMemoryPointer` supplies new blocks (default: cuMemHostAlloc, portable).
    """

    def __init__(self, allocator=None):
        self._alloc = _malloc if allocator is None else allocator
        self._free = {}       # rounded size -> [block ready for reuse]
        self._waiting = []    # (event, size, block): back, but a copy may still read it
        self._used = 0
        self._total = 0
        self._lock = threading.Lock()
        self._blocks = set()  # every block held, lent or free (see _allocate)
        # Returns that found the lock taken (a finalizer run by the garbage collector
        # while this thread is inside the pool, or another thread's); drained by the
        # next pool operation. list.append is atomic under the GIL.
        self._pending = []

    def malloc(self, size):
        """A PinnedMemoryPointer to `size` bytes (rounded up to 512), reused if a block is free."""
        if size <= 0:
            if size < 0:
                raise ValueError(f"cannot allocate a negative number of bytes ({size})")
            return PinnedMemoryPointer(PinnedMemory(0), 0)
        size = (int(size) + 511) & -512
        mem = None
        with self._lock:
            self._tidy()
            lst = self._free.get(size)
            if lst:
                mem = lst.pop()
                if not lst:
                    del self._free[size]
                self._used += size
        if mem is None:
            mem = self._allocate(size)
        p = _new(PooledPinnedMemory)
        p.ptr = mem.ptr
        p.size = size
        p.pool = self
        p.event = None
        p._mem = mem
        return PinnedMemoryPointer(p, 0)

    def _allocate(self, size):
        try:
            mem = self._alloc(size).mem
        except Exception as e:
            if not _is_oom(e):
                raise
            self.free_all_blocks()
            try:
                mem = self._alloc(size).mem
            except Exception as e2:
                if not _is_oom(e2):
                    raise
                raise OutOfMemoryError(size, self._total, 0, self._used) from e2
        with self._lock:
            self._total += size
            self._used += size
        self._blocks.add(mem)  # reachable from the pool: see memory_pool.SingleDeviceMemoryPool
        return mem

    def _release(self, mem, size, event):
        # Every pinned block's return runs this: the device pool's lock-or-defer, inline.
        item = (event, size, mem)
        if self._lock.acquire(False):
            try:
                self._put(item)
                if self._pending:
                    self._drain()
            finally:
                self._lock.release()
        else:
            self._pending.append(item)

    def _put(self, item):
        event, size, mem = item
        self._used -= size
        if event is None:
            self._free.setdefault(size, []).append(mem)
        else:
            self._waiting.append(item)

    def _drain(self):
        pending = self._pending
        while pending:
            self._put(pending.pop())

    def _tidy(self):
        # Caller holds the lock: take in deferred returns, and make blocks whose copies
        # have finished lendable again.
        if self._pending:
            self._drain()
        if self._waiting:
            still = []
            for item in self._waiting:
                event = item[0]
                if event.done:
                    self._free.setdefault(item[1], []).append(item[2])
                    dev = getattr(event, "device_id", None)
                    if dev is not None:
                        spare = _spare_events.setdefault((_drv(), dev), [])
                        if len(spare) < _SPARE_MAX:
                            spare.append(event)
                else:
                    still.append(item)
            self._waiting = still

    def free_all_blocks(self):
        """Give every free block back to the driver (waiting first for copies still reading them)."""
        with self._lock:
            if self._pending:
                self._drain()
            free, waiting = self._free, self._waiting
            self._free, self._waiting = {}, []
            self._total -= sum(size * len(lst) for size, lst in free.items())
            self._total -= sum(item[1] for item in waiting)
            for lst in free.values():
                for mem in lst:
                    self._blocks.discard(mem)
            for item in waiting:
                self._blocks.discard(item[2])
        for event, _, _ in waiting:
            event.synchronize()
        # `free` and `waiting` are dropped here, outside the lock: cuMemFreeHost is slow.

    def n_free_blocks(self):
        """Blocks held for reuse, including those an unfinished copy still reads."""
        with self._lock:
            if self._pending:
                self._drain()
            return sum(len(lst) for lst in self._free.values()) + len(self._waiting)

    def used_bytes(self):
        """Bytes lent out (sizes rounded up to 512)."""
        with self._lock:
            if self._pending:
                self._drain()
            return self._used

    def total_bytes(self):
        """Bytes of pinned memory the pool holds, lent or free."""
        return self._total


def _malloc(size):
    """Allocate pinned memory with no pool (what `set_pinned_memory_allocator(None)` installs)."""
    return PinnedMemoryPointer(PinnedMemory(size, _PORTABLE), 0)


_default_pool = PinnedMemoryPool()
_current_allocator = _default_pool.malloc


def get_default_pinned_memory_pool():
    """The process's default PinnedMemoryPool (cuarray version of `cupy.get_default_pinned_memory_pool`)."""
    return _default_pool


def alloc_pinned_memory(size):
    """`size` bytes of pinned memory from the current pinned allocator."""
    return _current_allocator(size)


def set_pinned_memory_allocator(allocator=None):
    """Set the pinned allocator (None: cuMemHostAlloc with no pool, as in CuPy)."""
    global _current_allocator
    _current_allocator = _malloc if allocator is None else allocator


def _host_address(host, nbytes, writing):
    """The address of a contiguous host array (or an int address), checked to hold `nbytes`."""
    if type(host) is int:
        return host
    flags = host.flags
    if not (flags.c_contiguous or flags.f_contiguous):
        raise ValueError("host array for a device transfer must be contiguous; "
                         "copy it with numpy.ascontiguousarray first")
    if host.nbytes < nbytes:
        raise ValueError(f"host array holds {host.nbytes} bytes, the transfer needs {nbytes}")
    if flags.writeable:
        if flags.c_contiguous:
            # A ctypes view of the buffer gives the address in 0.3 µs where
            # __array_interface__ builds a dict (0.8 µs); read-only, F-ordered or
            # unexportable buffers (datetimes) take the dict.
            try:
                return _addressof(_c_char.from_buffer(host))
            except (TypeError, ValueError, BufferError):
                pass
    elif writing:
        raise ValueError("host array to copy into is read-only")
    return host.__array_interface__["data"][0]


_addressof = ctypes.addressof
_c_char = ctypes.c_char


def _is_pinned(ptr):
    drv = _drv()
    err, kind = drv.cuPointerGetAttribute(
        drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr)
    return err == 0 and int(kind) == _MEMORYTYPE_HOST


# Events of staging copies the pool saw finish, per (driver, device): the next staged copy records
# one of them instead of creating an event (a driver call and an object, ~0.8 µs of a
# 6 µs small upload). Only the pool held them; at most _SPARE_MAX are kept per device.
_spare_events = {}
_SPARE_MAX = 32


def _record(stream_ptr, event=None):
    if event is None:
        try:
            event = _spare_events[_drv(), ensure_context()].pop()
        except (KeyError, IndexError):
            event = Event(disable_timing=True)
    check(_drv().cuEventRecord(event.ptr, stream_ptr))
    return event


def _hand_back(buf, event):
    """Let the pool have `buf` back once `event` is done; False when its allocator cannot wait."""
    mem = buf.mem
    if isinstance(mem, PooledPinnedMemory):
        mem.event = event
        return True
    return False


def copy_host_to_device(dst_ptr, host, nbytes, stream_ptr, sync):
    """Copy `nbytes` from a contiguous host array (or host address) to device address `dst_ptr`.

    Pageable memory is staged through a pooled pinned buffer, so with `sync` false the
    copy runs asynchronously and the buffer goes back to the pool once the stream has
    read it. Above 64 MiB the copy streams through two 16 MiB buffers so that filling
    one overlaps the transfer of the other. Pinned memory is copied directly.
    """
    if nbytes <= 0:
        return
    src = _host_address(host, nbytes, False)
    ensure_context()
    drv = _drv()
    if nbytes >= _CHECK_PINNED_MIN and _is_pinned(src):
        check(drv.cuMemcpyHtoDAsync(dst_ptr, src, nbytes, stream_ptr))
    elif nbytes <= _STAGE_MAX:
        buf = alloc_pinned_memory(nbytes)
        ctypes.memmove(buf.ptr, src, nbytes)
        check(drv.cuMemcpyHtoDAsync(dst_ptr, buf.ptr, nbytes, stream_ptr))
        if not sync and not _hand_back(buf, _record(stream_ptr)):
            sync = True
    else:
        bufs = (alloc_pinned_memory(_CHUNK), alloc_pinned_memory(_CHUNK))
        events = [None, None]
        for i, off in enumerate(range(0, nbytes, _CHUNK)):
            k = i & 1
            n = min(_CHUNK, nbytes - off)
            if events[k] is not None:
                events[k].synchronize()  # the copy that last read this buffer is done
            ctypes.memmove(bufs[k].ptr, src + off, n)
            check(drv.cuMemcpyHtoDAsync(dst_ptr + off, bufs[k].ptr, n, stream_ptr))
            events[k] = _record(stream_ptr, events[k])
        if not sync:
            for buf, event in zip(bufs, events):
                if not _hand_back(buf, event):
                    sync = True
    if sync:
        check(drv.cuStreamSynchronize(stream_ptr))


def copy_device_to_host(host, src_ptr, nbytes, stream_ptr, sync):
    """Copy `nbytes` from device address `src_ptr` into a contiguous host array (or host address).

    With `sync`, up to 64 KiB go straight into the destination; above, pageable memory is
    staged through pooled pinned memory: up to 64 MiB
    through one buffer; above, through `_D2H_BUFFERS` buffers of 16 MiB in a pipeline
    (see _d2h_pipelined). Without `sync`, or for pinned memory, the copy goes straight to
    the destination on the stream; the driver finishes a copy into pageable memory
    before returning.
    """
    if nbytes <= 0:
        return
    dst = _host_address(host, nbytes, True)
    ensure_context()
    drv = _drv()
    if not sync or (nbytes > _STAGE_MAX and not D2H_PIPELINE) or \
            (nbytes >= _CHECK_PINNED_MIN and _is_pinned(dst)):
        check(drv.cuMemcpyDtoHAsync(dst, src_ptr, nbytes, stream_ptr))
        if sync:
            check(drv.cuStreamSynchronize(stream_ptr))
        return
    if nbytes <= _D2H_DIRECT_MAX:
        # straight into the destination, then the stream's end: 30 µs for a float(a.sum())
        # on an H100 host against 37 through a pinned buffer (the sync also covers a
        # pinned destination, which the driver would not wait for). On the legacy default
        # stream the driver's synchronous copy is both in one call.
        if stream_ptr == 0:
            check(drv.cuMemcpyDtoH(dst, src_ptr, nbytes))
            return
        check(drv.cuMemcpyDtoHAsync(dst, src_ptr, nbytes, stream_ptr))
        check(drv.cuStreamSynchronize(stream_ptr))
        return
    if nbytes <= _STAGE_MAX:
        buf = alloc_pinned_memory(nbytes)
        check(drv.cuMemcpyDtoHAsync(buf.ptr, src_ptr, nbytes, stream_ptr))
        check(drv.cuStreamSynchronize(stream_ptr))
        ctypes.memmove(dst, buf.ptr, nbytes)
        return
    _d2h_pipelined(drv, dst, src_ptr, nbytes, stream_ptr)


# Large device -> pageable host copies. The driver stages pageable copies itself, one
# host memcpy thread behind the DMA: 20 GB/s on an H200 host, against 10.6 GB/s for one
# staging buffer copied out by one ctypes.memmove. The pipeline keeps the DMA busy
# (`_D2H_BUFFERS` chunks queued, each with an event) while the host copies finished
# chunks out with `_D2H_THREADS` threads (ctypes.memmove releases the GIL), so its rate
# is that of pinned DMA while the threads' memcpy keeps up: pinned DMA ran at 55 GB/s
# on the H100/H200 hosts, about five or six memcpy threads' worth (~10 GB/s each).
# CUARRAY_D2H_PIPELINE=0 selects the driver's own path (for measurement).
D2H_PIPELINE = os.environ.get("CUARRAY_D2H_PIPELINE", "1") != "0"
_D2H_BUFFERS = 4
_D2H_THREADS = max(1, min(6, os.cpu_count() or 1))
_D2H_SPLIT_MIN = 1 << 20      # below this a chunk is copied out by one thread
_executor = None              # (pid, ThreadPoolExecutor): made on first use, again after fork


def _d2h_pipelined(drv, dst, src_ptr, nbytes, stream_ptr):
    spans = [(off, min(_CHUNK, nbytes - off)) for off in range(0, nbytes, _CHUNK)]
    nb = min(_D2H_BUFFERS, len(spans))
    bufs = [alloc_pinned_memory(_CHUNK) for _ in range(nb)]
    events = [Event(disable_timing=True) for _ in range(nb)]

    def issue(i):
        k = i % nb
        off, n = spans[i]
        check(drv.cuMemcpyDtoHAsync(bufs[k].ptr, src_ptr + off, n, stream_ptr))
        _record(stream_ptr, events[k])

    for i in range(nb):
        issue(i)
    for i, (off, n) in enumerate(spans):
        k = i % nb
        events[k].synchronize()
        _parallel_memmove(dst + off, bufs[k].ptr, n)
        if i + nb < len(spans):
            issue(i + nb)   # the buffer is copied out: refill it
    # every event has been waited for: the buffers go back to the pool free to lend


def _parallel_memmove(dst, src, n):
    """memmove of `n` bytes split over `_D2H_THREADS` threads (this one included)."""
    t = _D2H_THREADS
    if t <= 1 or n < _D2H_SPLIT_MIN:
        ctypes.memmove(dst, src, n)
        return
    part = ((n + t - 1) // t + 4095) & -4096
    pool = _thread_pool()
    futures = [pool.submit(ctypes.memmove, dst + off, src + off, min(part, n - off))
               for off in range(part, n, part)]
    ctypes.memmove(dst, src, min(part, n))
    for f in futures:
        f.result()


def _thread_pool():
    global _executor
    pid = os.getpid()
    if _executor is None or _executor[0] != pid:
        from concurrent.futures import ThreadPoolExecutor   # only large copies need it
        _executor = (pid, ThreadPoolExecutor(max_workers=max(1, _D2H_THREADS - 1),
                                             thread_name_prefix="cuarray-d2h"))
    return _executor[1]
