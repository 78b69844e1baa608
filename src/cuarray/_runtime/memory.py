"""Device memory: the allocation front end (`alloc`, `alloc_mem`, the current allocator
and the default pool), CuPy's `cupy.cuda.memory` namespace (`cuarray.cuda.memory`).

The blocks and pointers are in memory_blocks.py, the pools in memory_pool.py; this module
re-exports both.
"""
import contextlib

from cuarray._runtime.device import get_device_id
from cuarray._runtime.memory_blocks import (  # noqa: F401  (re-exported: cupy.cuda.memory)
    BaseMemory, Memory, MemoryAsync, MemoryPointer, OutOfMemoryError, PooledMemory,
    UnownedMemory, _malloc, _sync_current, _tls, malloc_async, memset_zero)
from cuarray._runtime.memory_pool import (  # noqa: F401
    MemoryAsyncPool, MemoryPool, SingleDeviceMemoryPool)

__all__ = [
    "BaseMemory", "Memory", "UnownedMemory", "MemoryAsync", "PooledMemory", "MemoryPointer",
    "OutOfMemoryError", "SingleDeviceMemoryPool", "MemoryPool", "MemoryAsyncPool",
    "get_default_memory_pool", "alloc", "alloc_mem", "malloc_async", "memset_zero",
    "set_allocator", "get_allocator", "using_allocator",
]


_default_pool = MemoryPool()
_current_allocator = _default_malloc = _default_pool.malloc


def get_default_memory_pool():
    """The process's default MemoryPool (cuarray version of `cupy.get_default_memory_pool`)."""
    return _default_pool


def alloc(size):
    """`size` bytes from the current allocator (cuarray version of `cupy.cuda.alloc`)."""
    a = _tls.allocator
    return (_current_allocator if a is None else a)(size)


def alloc_mem(size):
    """The memory block behind `alloc(size)`; skips building a MemoryPointer when the
    default pool is the allocator (the ndarray allocation hot path)."""
    a = _tls.allocator
    if a is None:
        a = _current_allocator
        if a is _default_malloc or a == _default_malloc:   # (`is`: the common case, fast)
            dev = get_device_id()
            p = _default_pool._pools.get(dev)
            if p is None:
                p = _default_pool._create(dev)
            return p.malloc_mem(size)
    return a(size).mem


def set_allocator(allocator=None):
    """Set the allocator for all threads (cuarray version of `cupy.cuda.set_allocator`).

    As in CuPy, None installs plain cuMemAlloc (no pool); restore the pool with
    `set_allocator(get_default_memory_pool().malloc)`.
    """
    global _current_allocator
    if _tls.allocator is not None:
        raise ValueError("cannot change the global allocator inside a using_allocator() block")
    _current_allocator = _malloc if allocator is None else allocator


def get_allocator():
    """The allocator `alloc` uses on this thread."""
    a = _tls.allocator
    return _current_allocator if a is None else a


@contextlib.contextmanager
def using_allocator(allocator=None):
    """Use `allocator` on this thread inside the block (None: cuMemAlloc, no pool)."""
    prev = _tls.allocator
    _tls.allocator = _malloc if allocator is None else allocator
    try:
        yield
    finally:
        _tls.allocator = prev
