"""CuPy's `cupy.cuda.pinned_memory`: page-locked host memory and its pool."""
from cuarray._runtime.pinned import (  # noqa: F401
    PinnedMemory, PinnedMemoryPointer, PinnedMemoryPool, alloc_pinned_memory,
    set_pinned_memory_allocator, get_default_pinned_memory_pool)
