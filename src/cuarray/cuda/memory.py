"""CuPy's `cupy.cuda.memory`: device memory, pointers, pools and the allocator."""
from cuarray._runtime.memory import *  # noqa: F401,F403
from cuarray._runtime.memory import (  # noqa: F401
    BaseMemory, Memory, UnownedMemory, MemoryAsync, PooledMemory, MemoryPointer,
    OutOfMemoryError, SingleDeviceMemoryPool, MemoryPool, MemoryAsyncPool,
    get_default_memory_pool, alloc, malloc_async, set_allocator, get_allocator, using_allocator)
from cuarray._runtime.memory import _malloc as malloc  # noqa: F401  (cuMemAlloc, no pool)
