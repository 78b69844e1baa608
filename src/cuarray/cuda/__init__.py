"""CuPy's `cupy.cuda` namespace: devices, streams, events, memory and compilation."""
from cuarray._runtime.driver import is_available, CUDARuntimeError, CUDADriverError  # noqa: F401
from cuarray._runtime.device import Device, get_device_id  # noqa: F401
from cuarray._runtime.stream import (  # noqa: F401
    Stream, ExternalStream, Event, get_current_stream, get_elapsed_time)
from cuarray._runtime.memory import (  # noqa: F401
    MemoryPointer, Memory, UnownedMemory, MemoryPool, MemoryAsyncPool, OutOfMemoryError, alloc,
    set_allocator, get_allocator, using_allocator)
from cuarray._runtime.pinned import (  # noqa: F401
    PinnedMemory, PinnedMemoryPointer, PinnedMemoryPool, alloc_pinned_memory,
    set_pinned_memory_allocator)
from cuarray._runtime import memory, pinned as pinned_memory  # noqa: F401
from cuarray.cuda import runtime, compiler  # noqa: F401
from cuarray.cuda import runtime as driver  # noqa: F401  (CuPy code calls cuda.driver.* too)


def get_cuda_path():
    return None
