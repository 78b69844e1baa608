"""CuPy's `cupy.cuda.function`: a loaded module (`Module`) and its kernels (`Function`)."""
import os

from cuarray._core import raw as _raw
from cuarray._runtime import compiler as _compiler
from cuarray._runtime.launch import KernelAttributes


class Function(KernelAttributes):
    """A kernel of a `Module` (cuarray version of `cupy.cuda.function.Function`).

    Called as `f(grid, block, args, shared_mem=0, stream=None)` with CuPy's argument rules
    (arrays and MemoryPointers as pointers, NumPy scalars with their C type, NumPy
    structured scalars as C structs by value).
    """

    def __init__(self, module, funcname):
        self.module = module
        self.name = funcname
        self._fn = module._module().get_function(funcname)

    def __call__(self, grid, block, args, shared_mem=0, stream=None,
                 enable_cooperative_groups=False):
        _raw._launch(self._fn, grid, block, args, shared_mem, stream, enable_cooperative_groups)

    def linear_launch(self, size, args, shared_mem=0, block_max_size=128, stream=None,
                      enable_cooperative_groups=False):
        """Launch over `size` threads in blocks of up to `block_max_size`."""
        if size < 0:
            raise ValueError(f"size must be >= 0, got {size}")
        if size == 0:
            return
        block = min(block_max_size, size)
        grid = (size + block - 1) // block
        _raw._launch(self._fn, grid, block, args, shared_mem, stream, enable_cooperative_groups)

    @property
    def ptr(self):
        """The CUkernel handle as an int."""
        return int(self._fn.kernel)

    _compiled = property(lambda self: self._fn)   # for KernelAttributes


class Module:
    """A cubin, fatbin or PTX image loaded on the device (cuarray version of
    `cupy.cuda.function.Module`): `load_file(path)` or `load(image)`, then
    `get_function(name)` and `get_global_var(name)`."""

    def __init__(self):
        self._mod = None

    def _module(self):
        if self._mod is None:
            raise RuntimeError("this Module has nothing loaded: call load_file() or load() first")
        return self._mod

    def load_file(self, filename):
        if not os.path.isfile(filename):
            raise FileNotFoundError(f"no module file {filename!r}")
        with open(filename, "rb") as f:
            self.load(f.read())

    def load(self, cubin):
        """Load a cubin, fatbin or PTX image (bytes)."""
        image = bytes(cubin)
        if image.lstrip()[:1] in (b".", b"/") and not image.endswith(b"\0"):
            image += b"\0"  # PTX text must be NUL-terminated for the driver
        self._mod = _compiler.Module(image, {})

    def get_function(self, name):
        return Function(self, name)

    def get_global_var(self, name):
        """The __device__ variable `name` as a MemoryPointer."""
        from cuarray._runtime.device import get_device_id
        from cuarray._runtime.memory import MemoryPointer, UnownedMemory
        ptr, size = self._module().get_global(name)
        return MemoryPointer(UnownedMemory(ptr, size, self, get_device_id()), 0)
