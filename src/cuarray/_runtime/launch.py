"""Kernel handles and launches.

Arguments are packed with one `struct.pack_into` into a buffer whose parameter
addresses were computed once per signature, then handed to cuLaunchKernel as its
kernelParams array: one C call to pack, one to launch.
"""
import ctypes
import struct
import threading

from cuarray._runtime import driver as _driver
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.driver import check

# Parameter kinds: struct code and C alignment. 'P' is a device pointer.
_KINDS = {
    "P": ("Q", 8), "?": ("?", 1), "b": ("b", 1), "B": ("B", 1), "h": ("h", 2), "H": ("H", 2),
    "i": ("i", 4), "I": ("I", 4), "q": ("q", 8), "Q": ("Q", 8), "e": ("e", 2),
    "f": ("f", 4), "d": ("d", 8), "F": ("ff", 8), "D": ("dd", 16),
}


class ArgPacker:
    """Packs one kernel signature. `kinds` is a tuple of kind codes (see _KINDS) or
    ('s', nbytes, align) tuples for raw structs passed as bytes."""

    __slots__ = ("_struct", "_buf", "_ptrs", "address", "size", "_tid", "_tls", "kinds")

    def __init__(self, kinds):
        self.kinds = tuple(kinds)
        fmt = ["<"]
        offsets = []
        off = 0
        for k in self.kinds:
            if isinstance(k, tuple):
                code, align = f"{k[1]}s", k[2]
                size = k[1]
            else:
                code, align = _KINDS[k]
                size = struct.calcsize("<" + code)
            pad = (-off) % align
            if pad:
                fmt.append(f"{pad}x")
                off += pad
            offsets.append(off)
            fmt.append(code)
            off += size
        self._struct = struct.Struct("".join(fmt))
        self.size = max(off, 1)
        self._buf = ctypes.create_string_buffer(self.size)
        base = ctypes.addressof(self._buf)
        n = max(len(offsets), 1)
        self._ptrs = (ctypes.c_void_p * n)(*[base + o for o in offsets])
        self.address = ctypes.addressof(self._ptrs)
        self._tid = threading.get_ident()
        self._tls = None

    def pack(self, args):
        """Pack `args` (flattened: complex values as two floats) and return kernelParams."""
        if threading.get_ident() != self._tid:
            return self._other_thread().pack(args)
        self._struct.pack_into(self._buf, 0, *args)
        return self.address

    def _other_thread(self):
        # The driver reads the buffer during cuLaunchKernel, which may release the GIL:
        # every thread packs into its own buffer.
        if self._tls is None:
            self._tls = threading.local()
        p = getattr(self._tls, "p", None)
        if p is None:
            p = self._tls.p = ArgPacker(self.kinds)
        return p


class Function:
    """One kernel of a loaded module (a CUkernel: valid in every context)."""

    __slots__ = ("kernel", "name", "_attrs", "_launch", "module")

    def __init__(self, kernel, name, module=None):
        self.kernel = kernel
        self.name = name
        self.module = module  # the loaded library must outlive its kernels
        self._attrs = {}
        self._launch = _driver._drv().cuLaunchKernel

    def launch(self, grid, block, params_address, shared_mem=0, stream_ptr=0):
        """Launch with a kernelParams address from ArgPacker.pack; grid/block are 3-tuples."""
        err = self._launch(self.kernel, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                           shared_mem, stream_ptr, params_address, 0)[0]
        if err:
            _raise_launch_error(err, self.name, grid, block, shared_mem)

    def launch1d(self, grid, block, params_address, stream_ptr):
        """The elementwise hot path: 1-D grid, no shared memory."""
        err = self._launch(self.kernel, grid, 1, 1, block, 1, 1, 0, stream_ptr, params_address, 0)[0]
        if err:
            _raise_launch_error(err, self.name, (grid, 1, 1), (block, 1, 1), 0)

    def launch_cooperative(self, grid, block, params_address, shared_mem=0, stream_ptr=0):
        drv = _driver._drv()
        func = check(drv.cuKernelGetFunction(self.kernel))  # CUfunction of the current context
        err = drv.cuLaunchCooperativeKernel(func, grid[0], grid[1], grid[2], block[0], block[1],
                                            block[2], shared_mem, stream_ptr, params_address)[0]
        if err:
            _raise_launch_error(err, self.name, grid, block, shared_mem)

    def attribute(self, attr_name):
        dev = get_device_id()
        key = (attr_name, dev)
        v = self._attrs.get(key)
        if v is None:
            drv = _driver._drv()
            ensure_context()
            cudev = check(drv.cuDeviceGet(dev))
            a = getattr(drv.CUfunction_attribute, "CU_FUNC_ATTRIBUTE_" + attr_name.upper())
            v = self._attrs[key] = check(drv.cuKernelGetAttribute(a, self.kernel, cudev))
        return v

    def set_attribute(self, attr_name, value):
        drv = _driver._drv()
        cudev = check(drv.cuDeviceGet(get_device_id()))
        a = getattr(drv.CUfunction_attribute, "CU_FUNC_ATTRIBUTE_" + attr_name.upper())
        check(drv.cuKernelSetAttribute(a, value, self.kernel, cudev))
        self._attrs.pop((attr_name, get_device_id()), None)


_ATTRIBUTE_NAMES = (
    "max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes",
    "num_regs", "ptx_version", "binary_version", "cache_mode_ca", "max_dynamic_shared_size_bytes",
    "preferred_shared_memory_carveout",
)


def function_attributes(fn):
    return {name: fn.attribute(name) for name in _ATTRIBUTE_NAMES}


def _raise_launch_error(err, name, grid, block, shared_mem):
    raise _driver.CUDADriverError(
        err, f"launching kernel {name!r} with grid {tuple(grid)}, block {tuple(block)}, "
             f"shared memory {shared_mem} bytes failed: {_driver._describe(err)}")

