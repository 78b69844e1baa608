"""CuPy's `cupy.cuda.memory_hook`: the base class of memory hooks."""
from cuarray._runtime.memory_hooks import MemoryHook, get_memory_hooks  # noqa: F401
