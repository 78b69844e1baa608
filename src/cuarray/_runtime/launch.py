"""Kernel handles and launches.

Arguments are packed with one `struct.pack_into` into a buffer whose parameter
addresses were computed once per signature, then handed to cuLaunchKernel as its
kernelParams array: one C call to pack, one to launch. `LaunchPlan` is a launch
recorded once and replayed: every warm path (ufuncs, elementwise and reduction
engines, fused functions, user kernels, gathers) keeps one and calls `launch`.
"""
import ctypes
import functools
import struct
import threading

from cuarray._runtime import device as _device
from cuarray._runtime import driver as _driver
from cuarray._runtime import stream as _stream
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.driver import check

_get_ident = threading.get_ident

# Parameter kinds: struct code and C alignment. 'P' is a device pointer.
_KINDS = {
    "P": ("Q", 8), "?": ("?", 1), "b": ("b", 1), "B": ("B", 1), "h": ("h", 2), "H": ("H", 2),
    "i": ("i", 4), "I": ("I", 4), "q": ("q", 8), "Q": ("Q", 8), "e": ("e", 2),
    "f": ("f", 4), "d": ("d", 8), "F": ("ff", 8), "D": ("dd", 16),
}


class ArgPacker:
    """Packs one kernel signature. `kinds` is a tuple of kind codes (see _KINDS) or
    ('s', nbytes, align) tuples for raw structs passed as bytes."""

    __slots__ = ("_struct", "_buf", "_ptrs", "address", "size", "_tid", "_tls", "kinds",
                 "fields", "_pack_into")

    def __init__(self, kinds):
        self.kinds = tuple(kinds)
        fmt = ["<"]
        offsets = []
        self.fields = []   # (byte offset, struct code) of each value pack() takes
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
            if code in ("ff", "dd"):   # complex: two values
                half = size // 2
                self.fields += [(off, code[0]), (off + half, code[0])]
            else:
                self.fields.append((off, code))
            off += size
        self._struct = struct.Struct("".join(fmt))
        self.size = max(off, 1)
        # whole 8-byte words: a LaunchPlan writes pointers into it as words
        self._buf = ctypes.create_string_buffer((self.size + 7) & -8)
        base = ctypes.addressof(self._buf)
        n = max(len(offsets), 1)
        self._ptrs = (ctypes.c_void_p * n)(*[base + o for o in offsets])
        self.address = ctypes.addressof(self._ptrs)
        self._tid = threading.get_ident()
        self._tls = None
        self._pack_into = functools.partial(self._struct.pack_into, self._buf, 0)

    def pack(self, args):
        """Pack `args` (flattened: complex values as two floats) and return kernelParams."""
        if _get_ident() != self._tid:
            return self._other_thread().pack(args)
        self._pack_into(*args)
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

    __slots__ = ("kernel", "name", "_attrs", "_launch", "module", "handle")

    def __init__(self, kernel, name, module=None):
        self.kernel = kernel
        # What cuLaunchKernel is given: the CUkernel's address as an int (the driver takes
        # a CUkernel where a CUfunction goes). cuda-bindings converts a CUkernel object on
        # every call: 0.6 µs of a 4.6 µs launch on an H100 host.
        self.handle = int(kernel)
        self.name = name
        self.module = module  # the loaded library must outlive its kernels
        self._attrs = {}
        self._launch = _driver._drv().cuLaunchKernel

    def launch(self, grid, block, params_address, shared_mem=0, stream_ptr=0):
        """Launch with a kernelParams address from ArgPacker.pack; grid/block are 3-tuples."""
        err = self._launch(self.handle, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                           shared_mem, stream_ptr, params_address, 0)[0]
        if err:
            _raise_launch_error(err, self.name, grid, block, shared_mem)

    def launch1d(self, grid, block, params_address, stream_ptr):
        """The elementwise hot path: 1-D grid, no shared memory."""
        err = self._launch(self.handle, grid, 1, 1, block, 1, 1, 0, stream_ptr, params_address, 0)[0]
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


class LaunchPlan:
    """One kernel launch, recorded to be replayed with new values.

    It holds what a replay needs: the function (`fn`), the packer of its signature, the
    grid and block (3-tuples), the dynamic shared memory, and an argument template
    `vals` whose positions `slots` are filled per call (`vals` None: the call gives every
    value). `per` > 0: the grid follows the call's element count `n`, `per` elements a
    block, at most `cap` blocks (the elementwise kernels' grid-stride loops); otherwise the
    grid is fixed. A launch makes the current device's context current and takes that
    device's current stream (or the one given), so a plan outlives stream and device
    switches: a CUkernel is valid in every context. Callers check that their operands
    live on the current device.

    A plan with a template has a parameter buffer of its own, the template packed into it
    once: a call writes only its slots (pointers as 8-byte words). Other threads pack the
    whole template into their own buffers (the driver may read a buffer after the GIL is
    released).
    """

    __slots__ = ("fn", "packer", "grid", "block", "shared_mem", "vals", "slots", "per", "cap",
                 "cooperative", "_fill", "_own", "_kernel", "_call", "_pack", "_address", "_tid")

    def __init__(self, fn, packer, grid=(1, 1, 1), block=(1, 1, 1), shared_mem=0, vals=None,
                 slots=(), per=0, cap=1 << 24, cooperative=False):
        self.fn = fn
        self.packer = packer
        self.grid = _dim3(grid)
        self.block = _dim3(block)
        self.shared_mem = shared_mem
        self.per = per
        self.cap = cap
        self.cooperative = cooperative
        self.slots = tuple(slots)
        self.vals = self._fill = None
        own = packer
        if vals is not None:
            self.vals = tuple(vals)
            m = len(self.vals)
            if len(set(self.slots)) != len(self.slots) or \
                    any(type(pos) is not int or not 0 <= pos < m for pos in self.slots):
                raise ValueError(f"slots {self.slots} are not distinct positions of the "
                                 f"{m} arguments")
            fields = getattr(packer, "fields", None)
            if fields is not None and len(fields) == m:
                own = ArgPacker(packer.kinds)
                own._struct.pack_into(own._buf, 0, *self.vals)
                self._fill = functools.partial(_filler(tuple([fields[pos] for pos in self.slots])),
                                               memoryview(own._buf).cast("B").cast("Q"), own._buf)
        # the buffer a call on the owning thread packs into, bound once (a partial of
        # pack_into costs half of the method call with its buffer and offset)
        self._own = own   # keeps the buffer and its parameter address array alive
        self._pack = functools.partial(own._struct.pack_into, own._buf, 0)
        self._address = own.address
        self._tid = own._tid
        if vals is not None and self._fill is None:
            self._tid = None   # a packer of another shape: the general packing every time
        call = getattr(fn, "_launch", None)
        if call is None:
            # a stand-in function (tests record launches): its own launch and packing
            self._kernel = None
            self._tid = None
            call = lambda _k, gx, gy, gz, bx, by, bz, shm, sp, address, _e: (
                fn.launch((gx, gy, gz), (bx, by, bz), address, shm, sp) or 0,)
        else:
            self._kernel = fn.handle
        self._call = call

    def launch(self, fill, n=0, grid=None, block=None, shared_mem=None, stream_ptr=None):
        """Launch with `fill` (a sequence) in the template's slots, or as every value when
        there is no template; `n`: the element count a `per` grid follows; grid, block
        (3-tuples), shared_mem and stream_ptr override the recorded ones for this call."""
        if _get_ident() == self._tid:
            f = self._fill
            if f is None:
                self._pack(*fill)
            else:
                f(fill)
            address = self._address
        else:
            address = self.packer.pack(self.values(fill))
        tls = _device._tls   # ensure_context(), inlined
        try:
            dev = tls.device_id
            if tls.ctx_device != dev:
                ensure_context()
        except AttributeError:
            dev = ensure_context()
        if grid is None:
            per = self.per
            if per:
                gx = (n + per - 1) // per
                if gx > self.cap:
                    gx = self.cap
                gy = gz = 1
            else:
                gx, gy, gz = self.grid
        else:
            gx, gy, gz = grid
        bx, by, bz = self.block if block is None else block
        if shared_mem is None:
            shared_mem = self.shared_mem
        if stream_ptr is None:
            streams = _stream._tls.streams   # current_stream_ptr(), inlined
            stream_ptr = 0
            if streams:
                s = streams.get(dev)
                if s is not None:
                    stream_ptr = s.ptr
        if self.cooperative:
            return self.fn.launch_cooperative((gx, gy, gz), (bx, by, bz), address, shared_mem,
                                              stream_ptr)
        err = self._call(self._kernel, gx, gy, gz, bx, by, bz, shared_mem, stream_ptr, address,
                         0)[0]
        if err:
            _raise_launch_error(err, self.fn.name, (gx, gy, gz), (bx, by, bz), shared_mem)

    def values(self, fill):
        """Every argument value of a call with `fill`: the template with its slots filled."""
        if self.vals is None:
            return fill
        vals = list(self.vals)
        for pos, v in zip(self.slots, fill):
            vals[pos] = v
        return vals


_fillers = {}   # ((offset, struct code) per slot) -> function writing a call's slot values


def _filler(fields):
    """A function `fill(words, buf, values)` writing `values` at the slots' offsets of a
    parameter buffer (`words`: the buffer as 8-byte words). Generated once per slot layout:
    a loop over the slots cost more than packing the whole template again."""
    fn = _fillers.get(fields)
    if fn is None:
        ns, lines = {}, []
        for i, (off, code) in enumerate(fields):
            if code == "Q" and off % 8 == 0:    # pointers and unsigned 64-bit values
                lines.append(f"    words[{off // 8}] = values[{i}]")
            else:
                ns[f"pack{i}"] = struct.Struct("<" + code).pack_into
                lines.append(f"    pack{i}(buf, {off}, values[{i}])")
        exec("def fill(words, buf, values):\n" + ("\n".join(lines) or "    pass"), ns)
        fn = ns["fill"]
        if len(_fillers) >= 1024:
            _fillers.clear()
        _fillers[fields] = fn
    return fn


def _dim3(v):
    if type(v) is int:
        return (v, 1, 1)
    v = tuple(v)
    return v + (1,) * (3 - len(v))


_ATTRIBUTE_NAMES = (
    "max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes",
    "num_regs", "ptx_version", "binary_version", "cache_mode_ca", "max_dynamic_shared_size_bytes",
    "preferred_shared_memory_carveout",
)


def function_attributes(fn):
    return {name: fn.attribute(name) for name in _ATTRIBUTE_NAMES}


def _attribute(name):
    return property(lambda self: self._compiled.attribute(name))


class KernelAttributes:
    """CuPy's read-only kernel attributes as properties (`attributes`, `num_regs`, ...),
    for a kernel class whose `_compiled` is its compiled function."""

    __slots__ = ()
    attributes = property(lambda self: function_attributes(self._compiled))


# CuPy's properties: the attributes up to binary_version (RawKernel adds the settable
# max_dynamic_shared_size_bytes).
for _name in _ATTRIBUTE_NAMES[:_ATTRIBUTE_NAMES.index("binary_version") + 1]:
    setattr(KernelAttributes, _name, _attribute(_name))
del _name


def _raise_launch_error(err, name, grid, block, shared_mem):
    raise _driver.CUDADriverError(
        err, f"launching kernel {name!r} with grid {tuple(grid)}, block {tuple(block)}, "
             f"shared memory {shared_mem} bytes failed: {_driver._describe(err)}")

