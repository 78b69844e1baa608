"""Device memory pools: CuPy's caching pool (`MemoryPool`, one `SingleDeviceMemoryPool`
per device) and the driver's stream-ordered pool (`MemoryAsyncPool`).

The caching pool follows CuPy's (`cupy/cuda/memory.pyx`): sizes are rounded up to 512
bytes; free chunks live in per-stream arenas, binned by size; an allocation takes the
best fit found by bisection over the sizes that have free chunks and splits off the
rest; a freed chunk merges with free neighbours cut from the same allocation. A chunk
is only reused on the stream it was allocated on, so reuse is stream-ordered.

The blocks and pointers the pools hand out are in memory_blocks.py; memory.py, the
allocation front end, imports the pools from here and re-exports them.
"""
import bisect
import gc
import operator
import os
import threading

from cuarray._runtime import device as _device
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.driver import CUDARuntimeError, check
from cuarray._runtime.memory_blocks import (_LIMIT_ENV, _OOM, Memory, MemoryAsync, MemoryPointer,
                                            OutOfMemoryError, PooledMemory, _drv, _is_oom, _malloc,
                                            _tls)
from cuarray._runtime.stream import current_stream_ptr, get_current_stream
from cuarray._runtime import graph as _graph
from cuarray._runtime import memory_hooks as _mh

# Both empty unless a stream is capturing a graph / a thread has a memory hook: the
# allocation and free paths test them once each (graph.py, memory_hooks.py).
_captures = _graph.captures
_hook_threads = _mh.threads

_UNIT = 512           # cuMemAlloc aligns to at least 512 bytes, so CuPy rounds to it
_PER_THREAD = 2       # CU_STREAM_PER_THREAD: one handle, a different stream on each thread


def _round_size(size):
    """`size` rounded up to the pool's 512-byte unit."""
    return (size + _UNIT - 1) & -_UNIT


def _stream_ident(ptr):
    # The per-thread default stream has one handle but is a different stream on each
    # thread, so its chunks are kept per thread (as CuPy does, cupy#5069).
    if ptr != _PER_THREAD:
        return ptr
    ident = _tls.ptds_ident
    if ident is None:
        ident = _tls.ptds_ident = -threading.get_ident()
    return ident


def _parse_limit_string(limit=None):
    """`CUARRAY_GPU_MEMORY_LIMIT` ("1073741824" or "50%") as set_limit's keyword arguments."""
    if limit is None:
        limit = os.environ.get(_LIMIT_ENV)
    if limit is None or not limit.strip():
        return {"size": None, "fraction": None}
    text = limit.strip()
    try:
        if text.endswith("%"):
            return {"size": None, "fraction": float(text[:-1]) / 100.0}
        return {"size": int(text), "fraction": None}
    except ValueError:
        raise ValueError(f"{_LIMIT_ENV}={limit!r} is not a byte count (e.g. 1073741824) "
                         f"nor a percentage of device memory (e.g. 50%)") from None


def _total_memory(device_id):
    return _device.properties(device_id)["total_memory"]


def _limit_bytes(size, fraction, device_id):
    if size is None:
        if fraction is None:
            return 0
        if not 0 <= fraction <= 1:
            raise ValueError(f"memory limit fraction out of range [0, 1]: {fraction}")
        return int(fraction * _total_memory(device_id))
    if fraction is not None:
        raise ValueError("set_limit takes size or fraction, not both")
    if size < 0:
        raise ValueError(f"memory limit size out of range: {size} (must be >= 0)")
    return int(size)


class _Chunk:
    """A piece of one allocation; `prev`/`next` link the pieces of that allocation by address."""

    __slots__ = ("mem", "ptr", "offset", "size", "stream", "prev", "next", "free")

    def __init__(self, mem, offset, size, stream):
        self.mem = mem
        self.ptr = mem.ptr + offset
        self.offset = offset
        self.size = size
        self.stream = stream
        self.prev = self.next = None
        self.free = False   # True exactly while the chunk sits in its arena's free lists

    def split(self, size):
        """Keep the first `size` bytes; return the rest as a new chunk."""
        rest = _Chunk(self.mem, self.offset + size, self.size - size, self.stream)
        self.size = size
        rest.next = self.next
        if rest.next is not None:
            rest.next.prev = rest
        rest.prev = self
        self.next = rest
        return rest

    def merge(self, nxt):
        """Absorb the following chunk `nxt`."""
        self.size += nxt.size
        self.next = nxt.next
        if nxt.next is not None:
            nxt.next.prev = self


class _Arena:
    """The free chunks of one stream, binned by size.

    `sizes` is the sorted list of the keys of `bins`. A bin that empties stays (listed),
    so a loop that frees and reallocates one size touches neither the list nor the
    bisection; `take` drops the empty bins it steps over.
    """

    __slots__ = ("sizes", "bins")

    def __init__(self):
        self.sizes = []
        self.bins = {}   # size -> {chunk: None}: an ordered set, popped newest first

    def add(self, chunk):
        size = chunk.size
        b = self.bins.get(size)
        if b is None:
            b = self.bins[size] = {}
            bisect.insort(self.sizes, size)
        b[chunk] = None
        chunk.free = True

    def remove(self, chunk):
        del self.bins[chunk.size][chunk]
        chunk.free = False

    def drop(self, size):
        """Forget the (empty) bin of `size`."""
        del self.bins[size]
        del self.sizes[bisect.bisect_left(self.sizes, size)]

    def take(self, size):
        """Best fit: the smallest free chunk of at least `size` bytes, split to `size`."""
        sizes = self.sizes
        i = bisect.bisect_left(sizes, size)
        while i < len(sizes):
            b = self.bins[sizes[i]]
            if b:
                break
            del self.bins[sizes[i]]
            del sizes[i]
        else:
            return None
        chunk = b.popitem()[0]
        chunk.free = False
        if chunk.size > size:
            self.add(chunk.split(size))
        return chunk

    def coalesce(self):
        """Merge every run of adjacent free chunks into one; True if any merged."""
        merged = False
        for size in list(self.sizes):
            for c in list(self.bins.get(size, ())):
                # Start from the first free chunk of each run; merged ones are no longer free.
                if not c.free or (c.prev is not None and c.prev.free):
                    continue
                nxt = c.next
                if nxt is None or not nxt.free:
                    continue
                self.remove(c)
                while nxt is not None and nxt.free:
                    self.remove(nxt)
                    c.merge(nxt)
                    nxt = c.next
                self.add(c)
                merged = True
        return merged

    def n_free(self):
        return sum(len(b) for b in self.bins.values())


_new = object.__new__


class SingleDeviceMemoryPool:
    """The caching pool of one device (cuarray version of `cupy.cuda.memory.SingleDeviceMemoryPool`).

    `allocator(size) -> MemoryPointer` gets new blocks (default: cuMemAlloc); the pool
    keeps each block's `.mem` and frees it by dropping it.
    """

    def __init__(self, allocator=None, device_id=None):
        self._allocator = _malloc if allocator is None else allocator
        self._device_id = get_device_id() if device_id is None else device_id
        self._arenas = {}      # stream ident -> _Arena
        self._used = 0         # bytes in chunks lent out
        self._total = 0        # bytes in allocations held (lent or free)
        self._limit = 0
        self._lock = threading.Lock()
        # Every allocation the pool holds, lent or free. Keeping them reachable from the
        # pool means the garbage collector never finalizes (cuMemFree) a block while a
        # collected array's PooledMemory is handing its chunk back for reuse: in a
        # reference cycle both finalizers would otherwise run. Only free_all_blocks
        # (and dropping the pool) lets a block go.
        self._blocks = set()
        # Frees that found the lock taken: a finalizer run by the garbage collector
        # while this thread is inside the pool, or another thread's. Drained under the
        # lock by the next pool operation; list.append is atomic under the GIL.
        self._pending = []
        self.set_limit(**_parse_limit_string())

    def malloc(self, size):
        """A MemoryPointer to `size` bytes (rounded up to 512), from the free lists if possible."""
        mem = self.malloc_mem(size)
        mp = _new(MemoryPointer)
        mp.mem = mem
        mp.ptr = mem.ptr
        mp.device_id = self._device_id
        return mp

    def malloc_mem(self, size):
        """The block itself (no MemoryPointer): what ndarray keeps."""
        if size <= 0:
            if size < 0:
                raise ValueError(f"cannot allocate a negative number of bytes ({size})")
            return Memory(0)
        if type(size) is not int:
            size = operator.index(size)
        asked = size
        size = (size + 511) & -512  # _round_size, inlined for the hot path
        if _hook_threads:
            _mh.malloc_pre(self._device_id, asked, size)
        sid = current_stream_ptr()
        if _captures:
            sid = _captures.get(sid, sid)
        if sid == _PER_THREAD:
            sid = _stream_ident(sid)
        with self._lock:
            if self._pending:
                self._drain()
            arena = self._arenas.get(sid)
            chunk = None
            if arena is not None:
                b = arena.bins.get(size)
                if b:  # exact fit, the steady state of a loop: no bisection
                    chunk = b.popitem()[0]
                    chunk.free = False
                else:
                    chunk = arena.take(size)
                    if chunk is None and arena.coalesce():
                        chunk = arena.take(size)
                if chunk is not None:
                    self._used += size
        if chunk is None:
            chunk = self._new_chunk(size, sid)
        mem = _new(PooledMemory)
        mem.ptr = chunk.ptr
        mem.size = size
        mem.device_id = self._device_id
        mem._chunk = chunk
        mem.pool = self
        if _hook_threads:
            _mh.malloc_post(self._device_id, asked, mem)
        return mem

    def _new_chunk(self, size, sid):
        if _hook_threads:
            _mh.alloc_pre(self._device_id, size)
        mem = self._try_malloc(size)
        if _hook_threads:
            _mh.alloc_post(self._device_id, size, mem.ptr)
        self._blocks.add(mem)
        chunk = _Chunk(mem, 0, size, sid)
        if type(sid) is tuple:  # a capture's arena: the graph keeps the block (graph.py)
            _graph.note_block(self, chunk)
        with self._lock:
            self._used += size
        return chunk

    def _try_malloc(self, size):
        self._reserve(size)
        try:
            return self._allocate(size)
        except BaseException:
            with self._lock:
                self._total -= size
            raise

    def _reserve(self, size):
        # Count the bytes before asking the driver, so that concurrent threads cannot
        # both pass the limit check. Cached free blocks count against the limit; release
        # them once before giving up.
        for attempt in range(2):
            with self._lock:
                limit = self._limit
                if not limit or self._total + size <= limit:
                    self._total += size
                    return
            if attempt == 0:
                self.free_all_blocks()
        raise OutOfMemoryError(size, self._total, limit, self._used)

    def _allocate(self, size):
        # As CuPy: on OOM release the cached blocks and retry, then collect garbage
        # (cycles may hold arrays) and retry once more before giving up.
        for attempt in range(3):
            try:
                return self._allocator(size).mem
            except Exception as e:
                if not _is_oom(e):
                    raise
                if attempt == 2:
                    raise OutOfMemoryError(size, self._total - size, self._limit,
                                           self._used) from e
            if attempt == 1:
                gc.collect()
            self.free_all_blocks()

    def _release(self, chunk):
        # Every array's free runs this: pinned.py's pool repeats the lock-or-defer inline.
        if _hook_threads:
            _mh.free_pre(self._device_id, chunk.size, chunk.ptr, id(chunk))
        if self._lock.acquire(False):
            try:
                # _free_chunk's common case inlined: the chunk's size has a bin already
                arena = self._arenas.get(chunk.stream)
                b = None if arena is None else arena.bins.get(chunk.size)
                if b is not None:
                    self._used -= chunk.size
                    b[chunk] = None
                    chunk.free = True
                else:
                    self._free_chunk(chunk)
                if self._pending:
                    self._drain()
            finally:
                self._lock.release()
        else:
            self._pending.append(chunk)
        if _hook_threads:
            _mh.free_post(self._device_id, chunk.size, chunk.ptr, id(chunk))

    def _drain(self):
        pending = self._pending
        while pending:
            self._free_chunk(pending.pop())

    def _free_chunk(self, chunk):
        # Caller holds the lock. The chunk goes back to its own size's bin, unmerged: a loop
        # that frees and takes one size carved from a larger block then finds it there,
        # where merging at once made every call split and merge again (+0.8 µs per call).
        # Neighbours merge when a request finds no fit (`_Arena.coalesce`) and before
        # blocks are released or counted.
        self._used -= chunk.size
        arena = self._arenas.get(chunk.stream)
        if arena is None:
            arena = self._arenas[chunk.stream] = _Arena()
        b = arena.bins.get(chunk.size)
        if b is not None:  # the bin is listed in `sizes` already
            b[chunk] = None
            chunk.free = True
        else:
            arena.add(chunk)

    def free_all_blocks(self, stream=None):
        """Release the free blocks that are whole allocations (split ones stay until merged back)."""
        released = []
        if _graph._to_retire:
            _graph.retire_pending()
        with self._lock:
            if self._pending:
                self._drain()
            if stream is None:
                # Capture arenas (tuple idents) hold blocks that live graphs write to.
                idents = [s for s in self._arenas if type(s) is not tuple]
            else:
                idents = [_stream_ident(stream.ptr)]
            for sid in idents:
                arena = self._arenas.get(sid)
                if arena is None:
                    continue
                arena.coalesce()
                for size, b in list(arena.bins.items()):
                    for chunk in [c for c in b if c.prev is None and c.next is None]:
                        arena.remove(chunk)
                        self._total -= chunk.size
                        self._blocks.discard(chunk.mem)
                        released.append(chunk)
                    if not b:
                        arena.drop(size)
                if not arena.bins:
                    del self._arenas[sid]
        # `released` is dropped here, outside the lock: cuMemFree may take a while.

    def n_free_blocks(self):
        with self._lock:
            if self._pending:
                self._drain()
            for a in self._arenas.values():
                a.coalesce()   # count merged pieces, as a pool that merges at once would
            return sum(a.n_free() for a in self._arenas.values())

    def used_bytes(self):
        with self._lock:
            if self._pending:
                self._drain()
            return self._used

    def free_bytes(self):
        with self._lock:
            if self._pending:
                self._drain()
            return sum(size * len(b) for a in self._arenas.values() for size, b in a.bins.items())

    def total_bytes(self):
        return self._total

    def set_limit(self, size=None, fraction=None):
        self._limit = _limit_bytes(size, fraction, self._device_id)

    def get_limit(self):
        return self._limit


class MemoryPool:
    """Caching pool of device memory for every device (cuarray version of `cupy.cuda.MemoryPool`).

    Freed arrays leave their memory in the pool for reuse; `free_all_blocks()` gives the
    unsplit free blocks back to the driver. The methods act on the current device.
    `allocator(size) -> MemoryPointer` supplies new blocks (default: cuMemAlloc).
    The limit starts at `CUARRAY_GPU_MEMORY_LIMIT` (bytes, or "50%" of the device).
    """

    def __init__(self, allocator=None):
        self._allocator = allocator
        self._pools = {}
        self._lock = threading.Lock()

    def _pool(self):
        dev = get_device_id()
        p = self._pools.get(dev)
        return p if p is not None else self._create(dev)

    def _create(self, dev):
        with self._lock:
            p = self._pools.get(dev)
            if p is None:
                p = self._pools[dev] = SingleDeviceMemoryPool(self._allocator, dev)
        return p

    def malloc(self, size):
        """A MemoryPointer to `size` bytes on the current device; use as `set_allocator(pool.malloc)`."""
        dev = get_device_id()
        p = self._pools.get(dev)
        if p is None:
            p = self._create(dev)
        return p.malloc(size)

    def free_all_blocks(self, stream=None):
        """Release free blocks (of all streams, or of `stream`'s arena)."""
        self._pool().free_all_blocks(stream)

    def n_free_blocks(self):
        return self._pool().n_free_blocks()

    def used_bytes(self):
        """Bytes lent to live arrays (sizes rounded up to 512)."""
        return self._pool().used_bytes()

    def free_bytes(self):
        """Bytes held by the pool but not lent."""
        return self._pool().free_bytes()

    def total_bytes(self):
        """Bytes the pool holds from the driver."""
        return self._pool().total_bytes()

    def set_limit(self, size=None, fraction=None):
        """Cap the bytes the pool may hold on the current device; 0 or no arguments removes the cap."""
        self._pool().set_limit(size, fraction)

    def get_limit(self):
        return self._pool().get_limit()


class MemoryAsyncPool:
    """The driver's stream-ordered allocator (cuarray version of `cupy.cuda.MemoryAsyncPool`).

    Memory comes from cuMemAllocFromPoolAsync on the current stream and is freed on the
    stream current at allocation. `pool_handles`: 'default' (the device's default pool),
    'current' (its current pool), an int CUmemoryPool handle, or a list of those, one
    per device. `set_limit` sets the pool's release threshold, as CuPy does, and
    cuarray also refuses allocations that would take the pool's used bytes past it.
    """

    def __init__(self, pool_handles="default"):
        if isinstance(pool_handles, (list, tuple)):
            for h in pool_handles:
                _check_pool_handle(h)
        else:
            _check_pool_handle(pool_handles)
        self._handles = pool_handles
        self._pools = {}    # device -> CUmemoryPool
        self._limits = {}   # device -> bytes (0: none)
        self._lock = threading.Lock()

    def _pool(self, dev=None):
        if dev is None:
            dev = get_device_id()
        p = self._pools.get(dev)
        if p is None:
            with self._lock:
                p = self._pools.get(dev)
                if p is None:
                    p = self._open(dev)
        return p

    def _open(self, dev):
        drv = _drv()
        ensure_context()
        cudev = check(drv.cuDeviceGet(dev))
        supported = check(drv.cuDeviceGetAttribute(
            drv.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, cudev))
        if not supported:
            raise RuntimeError(f"device {dev} does not support the stream-ordered allocator "
                               f"(cuMemAllocAsync); use MemoryPool instead")
        h = self._handles
        if isinstance(h, (list, tuple)):
            if len(h) <= dev:
                raise ValueError(f"pool_handles has {len(h)} entries; device {dev} has none")
            h = h[dev]
        if h == "default":
            pool = check(drv.cuDeviceGetDefaultMemPool(cudev))
        elif h == "current":
            pool = check(drv.cuDeviceGetMemPool(cudev))
        else:
            pool = drv.CUmemoryPool(h)
        self._pools[dev] = pool
        limit = _parse_limit_string()
        self._apply_limit(pool, dev, _limit_bytes(limit["size"], limit["fraction"], dev))
        return pool

    def malloc(self, size):
        """A MemoryPointer to `size` bytes (rounded up to 512) allocated on the current stream."""
        size = _round_size(size)
        dev = get_device_id()
        pool = self._pool(dev)
        limit = self._limits.get(dev, 0)
        if limit and self.used_bytes() + size > limit:
            raise OutOfMemoryError(size, self.total_bytes(), limit, self.used_bytes())
        stream = current_stream_ptr()
        # As CuPy: memory freed asynchronously becomes reusable once the stream has
        # reached the free, so synchronise and retry before giving up.
        for attempt in range(3):
            try:
                return MemoryPointer(MemoryAsync(size, stream, pool), 0)
            except CUDARuntimeError as e:
                if e.status != _OOM:
                    raise
                if attempt == 2:
                    raise OutOfMemoryError(size, -1, limit) from e
            if attempt == 0:
                check(_drv().cuStreamSynchronize(stream))
            else:
                gc.collect()
                check(_drv().cuCtxSynchronize())

    def _attr(self, name):
        drv = _drv()
        return int(check(drv.cuMemPoolGetAttribute(
            self._pool(), getattr(drv.CUmemPool_attribute, name))))

    def used_bytes(self):
        """Bytes of the pool in live allocations (the driver's count, all users of the pool)."""
        return self._attr("CU_MEMPOOL_ATTR_USED_MEM_CURRENT")

    def total_bytes(self):
        """Bytes the pool has reserved from the device."""
        return self._attr("CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT")

    def free_bytes(self):
        return self.total_bytes() - self.used_bytes()

    def free_all_blocks(self, stream=None):
        """Synchronise `stream` (default: current) so its frees land, then trim the pool to 0."""
        s = get_current_stream() if stream is None else stream
        s.synchronize()
        check(_drv().cuMemPoolTrimTo(self._pool(), 0))

    def set_limit(self, size=None, fraction=None):
        dev = get_device_id()
        self._apply_limit(self._pool(dev), dev, _limit_bytes(size, fraction, dev))

    def _apply_limit(self, pool, dev, size):
        drv = _drv()
        check(drv.cuMemPoolSetAttribute(
            pool, drv.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, drv.cuuint64_t(size)))
        self._limits[dev] = size

    def get_limit(self):
        return self._attr("CU_MEMPOOL_ATTR_RELEASE_THRESHOLD")


def _check_pool_handle(h):
    if h in ("default", "current") or (isinstance(h, int) and not isinstance(h, bool)):
        return
    raise ValueError(f"pool handle must be 'default', 'current' or an int CUmemoryPool, not {h!r}")
