"""CuPy's `cupy.cuda` namespace: devices, streams, events, memory, graphs and compilation.

The submodules CuPy users import (`cuarray.cuda.runtime`, `.driver`, `.nvtx`, `.cufft`,
`.cublas`, ...) load on first use, so `import cuarray` does not pay for them.
"""
from cuarray._runtime.driver import is_available, CUDARuntimeError, CUDADriverError  # noqa: F401
from cuarray._runtime.device import get_device_id  # noqa: F401
from cuarray._runtime.stream import (  # noqa: F401
    Stream, ExternalStream, Event, get_current_stream, get_elapsed_time)
from cuarray._runtime.memory import (  # noqa: F401
    BaseMemory, MemoryPointer, Memory, UnownedMemory, MemoryPool, MemoryAsyncPool,
    OutOfMemoryError, alloc, malloc_async, set_allocator, get_allocator, using_allocator)
from cuarray._runtime.pinned import (  # noqa: F401
    PinnedMemory, PinnedMemoryPointer, PinnedMemoryPool, alloc_pinned_memory,
    set_pinned_memory_allocator)
from cuarray._runtime.paths import get_cuda_path, get_nvcc_path  # noqa: F401
from cuarray.cuda import memory, pinned_memory, runtime, compiler  # noqa: F401
from cuarray.cuda.device import Device  # noqa: F401

_SUBMODULES = ("device", "driver", "function", "graph", "nvtx", "profiler", "stream",
               "texture", "memory_hook", "memory_hooks", "cublas", "cufft", "curand",
               "cusolver", "cusparse", "nccl")
_LAZY = {"Graph": ("graph", "Graph"), "Module": ("function", "Module"),
         "Function": ("function", "Function"), "MemoryHook": ("memory_hook", "MemoryHook"),
         "compile_with_cache": ("compiler", "compile_with_cache"),
         "profile": ("profiler", "profile")}


def get_local_runtime_version():
    """The version of the CUDA runtime library installed here (as `cupy.cuda.get_local_runtime_version`)."""
    return runtime.get_local_runtime_version()


def __getattr__(name):
    import importlib
    if name in _SUBMODULES:
        return importlib.import_module(f"cuarray.cuda.{name}")
    if name in _LAZY:
        mod, attr = _LAZY[name]
        value = getattr(importlib.import_module(f"cuarray.cuda.{mod}"), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'cuarray.cuda' has no attribute {name!r}")
