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
from cuarray.cuda import memory  # noqa: F401
from cuarray.cuda.device import Device  # noqa: F401

# `runtime` (with its texture constants), `compiler`, pinned memory and the CUDA path
# helpers are not needed by a program's first array operations: they load on first use.
_SUBMODULES = ("device", "driver", "function", "graph", "nvtx", "profiler", "stream",
               "texture", "memory_hook", "memory_hooks", "cublas", "cufft", "curand",
               "cusolver", "cusparse", "nccl", "runtime", "compiler", "pinned_memory")
_LAZY = {"Graph": ("graph", "Graph"), "Module": ("function", "Module"),
         "Function": ("function", "Function"), "MemoryHook": ("memory_hook", "MemoryHook"),
         "compile_with_cache": ("compiler", "compile_with_cache"),
         "profile": ("profiler", "profile")}
_LAZY_RUNTIME = {"get_cuda_path": "cuarray._runtime.paths", "get_nvcc_path": "cuarray._runtime.paths"}
# Page-locked memory loads with the first host transfer or first use of these names.
_LAZY_RUNTIME.update(dict.fromkeys(
    ("PinnedMemory", "PinnedMemoryPointer", "PinnedMemoryPool", "alloc_pinned_memory",
     "set_pinned_memory_allocator"), "cuarray._runtime.pinned"))


def get_local_runtime_version():
    """The version of the CUDA runtime library installed here (as `cupy.cuda.get_local_runtime_version`)."""
    from cuarray.cuda import runtime
    return runtime.get_local_runtime_version()


def __getattr__(name):
    import importlib
    if name in _SUBMODULES:
        return importlib.import_module(f"cuarray.cuda.{name}")
    if name in _LAZY or name in _LAZY_RUNTIME:
        if name in _LAZY:
            mod, attr = _LAZY[name]
            mod = f"cuarray.cuda.{mod}"
        else:
            mod, attr = _LAZY_RUNTIME[name], name
        value = getattr(importlib.import_module(mod), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'cuarray.cuda' has no attribute {name!r}")


def __dir__():
    # The names loaded on first use too; listing them loads nothing.
    return sorted(set(globals()) | set(_SUBMODULES) | _LAZY.keys() | _LAZY_RUNTIME.keys())
