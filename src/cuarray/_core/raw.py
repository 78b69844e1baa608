"""User kernels written in CUDA C: RawKernel and RawModule (CuPy's API)."""
import struct

import numpy

from cuarray._runtime import compiler as _compiler
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.launch import ArgPacker, KernelAttributes, LaunchPlan
from cuarray._runtime.peer import check_same_device
from cuarray._runtime import stream as _stream
from cuarray._runtime.texture import SurfaceObject, TextureObject

_packers = {}
_SCALAR_KIND = {"?": "?", "b": "b", "B": "B", "h": "h", "H": "H", "i": "i", "I": "I",
                "l": "q", "q": "q", "L": "Q", "Q": "Q", "e": "e", "f": "f", "d": "d",
                "F": "F", "D": "D"}

_CUCOMPLEX = "#include <cuarray/cucomplex.cuh>"


def _marshal(args):
    """(kinds, flat values) for kernel arguments, CuPy's rules: arrays and pointers as
    pointers, NumPy scalars with their own C type, int → long long, float → double."""
    from cuarray._core.ndarray import ndarray
    from cuarray._runtime.memory import MemoryPointer
    kinds, vals = [], []
    for k, a in enumerate(args):
        if isinstance(a, numpy.ndarray):
            a = _host_value(a, k)
        if isinstance(a, ndarray):
            kinds.append("P")
            vals.append(a._ptr)
        elif isinstance(a, numpy.generic):
            dt = a.dtype
            if dt.kind == "V":   # a struct (or raw bytes) by value: its bytes as they lie
                if not dt.isnative:
                    a = numpy.asarray(a).astype(dt.newbyteorder("="))[()]
                kinds.append(("s", dt.itemsize, _struct_alignment(dt)))
                vals.append(a.tobytes())
                continue
            kind = _SCALAR_KIND.get(dt.char)
            if kind is None:
                raise TypeError(f"kernel argument {k}: unsupported NumPy scalar type {dt}")
            kinds.append(kind)
            if kind in "FD":
                vals += [a.real, a.imag]
            else:
                vals.append(a)
        elif isinstance(a, (int, float)):   # bool (an int) as bool, int as long long
            kinds.append("?" if isinstance(a, bool) else "q" if isinstance(a, int) else "d")
            vals.append(a)
        elif isinstance(a, complex):
            kinds.append("D")
            vals += [a.real, a.imag]
        elif isinstance(a, MemoryPointer):
            kinds.append("P")
            vals.append(a.ptr)
        elif isinstance(a, (TextureObject, SurfaceObject)):
            kinds.append("Q")  # cudaTextureObject_t / cudaSurfaceObject_t: 64-bit handles
            vals.append(a.ptr)
        elif a is None:
            kinds.append("P")
            vals.append(0)
        elif hasattr(a, "__cuda_array_interface__"):
            kinds.append("P")
            vals.append(a.__cuda_array_interface__["data"][0])
        else:
            raise TypeError(f"kernel argument {k} has unsupported type {type(a).__name__}: pass "
                            f"cuarray arrays, NumPy scalars, or Python bool/int/float/complex")
    return tuple(kinds), vals


def _host_value(a, k):
    """The NumPy scalar a size-one numpy.ndarray stands for: CuPy passes such arrays by
    value (e.g. `numpy.random.rand(3).astype(numpy.float32).view(float3)` for a float3)."""
    if a.size != 1:
        raise TypeError(f"kernel argument {k} has unsupported type numpy.ndarray of shape "
                        f"{a.shape}: NumPy arrays are passed by value and must have size one; "
                        f"move arrays to the GPU with cuarray.asarray")
    return a.reshape(())[()]


def _struct_alignment(dt):
    """A struct argument's alignment as a C compiler gives it (the largest of its fields',
    whatever NumPy's flag says), except for CUDA's vector types (fields x, y or x, y, z, w
    of one type filling 8 or 16 bytes: float2, int4, double2, ...), which CUDA aligns to
    their size. Raw bytes ('V' without fields) have alignment 1."""
    names = dt.names
    if names is None:
        return max(dt.base.alignment, 1) if dt.kind != "V" else 1
    if names in (("x", "y"), ("x", "y", "z", "w")) and dt.itemsize in (8, 16):
        types = {dt.fields[n][0] for n in names}
        if len(types) == 1 and next(iter(types)).itemsize * len(names) == dt.itemsize:
            return dt.itemsize
    return max(_struct_alignment(dt.fields[n][0].base) for n in names)


def _dims(v, what):
    if isinstance(v, (int, numpy.integer)):
        t = (int(v), 1, 1)
    else:
        t = tuple(int(x) for x in v)
        if not 1 <= len(t) <= 3:
            raise ValueError(f"{what} must be an int or a tuple of 1 to 3 ints, got {v!r}")
        t = t + (1,) * (3 - len(t))
    if any(x < 1 for x in t):
        raise ValueError(f"{what} dimensions must be positive, got {v!r}")
    return t


_sigs = {}       # tuple of argument types -> (packer, converters)
_PACK_ERRORS = (struct.error, OverflowError, TypeError)   # what packing a bad value raises
_dims_cache = {}


def launch_dims(v, what):
    """`_dims(v, what)`, remembered for hashable `v` (launches look it up in `_dims_cache`)."""
    if type(v) is list:
        v = tuple(v)
    try:
        t = _dims_cache.get(v)
    except TypeError:   # unhashable, e.g. a NumPy array of dimensions
        return _dims(v, what)
    if t is None:
        t = _dims(v, what)
        if len(_dims_cache) < 1024:
            _dims_cache[v] = t
    return t


def _signature(args):
    """(packer, per-argument converters, ptrs) for one tuple of argument types; `ptrs`: the
    positions of the cuarray arrays when every other argument is packed as it is, else None."""
    from cuarray._core.ndarray import ndarray
    from cuarray._runtime.memory import MemoryPointer
    kinds, _ = _marshal(args)
    conv = []
    for a in args:
        if isinstance(a, ndarray):
            conv.append(0)
        elif isinstance(a, (complex, numpy.complexfloating)):
            conv.append(2)
        elif isinstance(a, (MemoryPointer, TextureObject, SurfaceObject)):
            conv.append(3)
        elif a is None:
            conv.append(4)
        elif hasattr(a, "__cuda_array_interface__") and not isinstance(a, numpy.generic):
            conv.append(5)
        else:
            conv.append(1)
    ptrs = tuple(i for i, c in enumerate(conv) if c == 0) if set(conv) <= {0, 1} else None
    return ArgPacker(kinds), tuple(conv), ptrs


def _launch(fn, grid, block, args, shared_mem, stream, cooperative, plans=None):
    """Launch `fn` on `args` with CuPy's argument rules. `plans` (a RawKernel's): argument
    types -> (LaunchPlan, converters, pointer positions), replayed by later calls."""
    if not isinstance(args, (tuple, list)):
        raise TypeError("kernel arguments must be given as a tuple or list")
    dev = ensure_context()
    key = tuple(map(type, args))
    entry = None if plans is None else plans.get(key)
    if entry is None:
        sig = _sigs.get(key)
        if sig is None:
            if numpy.void in key or numpy.ndarray in key:  # the type alone does not fix the layout
                kinds, vals = _marshal(args)
                packer = _packers.get(kinds) or _packers.setdefault(kinds, ArgPacker(kinds))
                return _go(fn, packer, vals, grid, block, args, shared_mem, stream, cooperative)
            sig = _sigs[key] = _signature(args)
        entry = sig
        if plans is not None:
            if len(plans) >= 256:
                plans.clear()
            entry = plans[key] = (LaunchPlan(fn, sig[0], cooperative=cooperative),) + sig[1:]
    # (RawKernel.__call__ replays a plan whose arguments are arrays and scalars itself)
    target, conv = entry[0], entry[1]
    vals = []
    for c, a in zip(conv, args):
        if c == 0:
            if a._device_id != dev:
                check_same_device([a], dev)
            vals.append(a._ptr)
        elif c == 1:
            vals.append(a)
        elif c == 2:
            vals.append(a.real)
            vals.append(a.imag)
        elif c == 3:
            vals.append(a.ptr)
        elif c == 4:
            vals.append(0)
        else:
            vals.append(a.__cuda_array_interface__["data"][0])
    return _go(fn, target, vals, grid, block, args, shared_mem, stream, cooperative)


def _go(fn, target, vals, grid, block, args, shared_mem, stream, cooperative):
    """Launch with `target`: a RawKernel's LaunchPlan, or the signature's ArgPacker."""
    try:
        g = _dims_cache[grid]
        b = _dims_cache[block]
    except (KeyError, TypeError):  # a new shape, a list or an array
        g, b = launch_dims(grid, "grid"), launch_dims(block, "block")
    sp = None if stream is None else stream.ptr
    if type(target) is LaunchPlan:
        try:
            return target.launch(vals, 0, g, b, shared_mem, sp)
        except _PACK_ERRORS as e:  # a value does not fit its C type
            raise TypeError(f"cannot pass kernel arguments {args!r}: {e}") from None
    try:
        addr = target.pack(vals)
    except Exception as e:  # struct.error: a value does not fit its C type
        raise TypeError(f"cannot pass kernel arguments {args!r}: {e}") from None
    if sp is None:
        sp = _stream.current_stream_ptr()
    if cooperative:
        fn.launch_cooperative(g, b, addr, shared_mem, sp)
    else:
        fn.launch(g, b, addr, shared_mem, sp)


def _dims_of(v, what):
    """_dims, remembered for hashable `v` (at most 1024 shapes)."""
    if type(v) is list:
        v = tuple(v)
    d = _dims_cache.get(v)
    if d is None:
        d = _dims(v, what)
        if len(_dims_cache) < 1024:
            _dims_cache[v] = d
    return d


def _prepare(code, translate_cucomplex):
    if translate_cucomplex:
        code = code.replace("#include <cuComplex.h>", _CUCOMPLEX).replace(
            '#include "cuComplex.h"', _CUCOMPLEX)
        if _CUCOMPLEX not in code:
            code = _CUCOMPLEX + "\n" + code
    return code


def _check_backend(backend):
    if backend != "nvrtc":
        raise ValueError(f"backend {backend!r} is not available: cuarray compiles with NVRTC "
                         f"(backend='nvrtc')")


class RawKernel(KernelAttributes):
    """A CUDA C kernel given as source (cuarray version of `cupy.RawKernel`).

    `jitify=True` is accepted for CuPy compatibility; NVRTC's own header search is used.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False):
        _check_backend(backend)
        self.code = code
        self.name = name
        self.options = tuple(options)
        self.backend = backend
        self.translate_cucomplex = translate_cucomplex
        self.enable_cooperative_groups = enable_cooperative_groups
        self.jitify = jitify
        self._fn = None
        self._plans = {}   # argument types -> (LaunchPlan, converters, pointer positions)

    @property
    def kernel(self):
        if self._fn is None:
            mod = _compiler.compile_module(_prepare(self.code, self.translate_cucomplex),
                                           self.options, name=self.name)
            self._fn = mod.get_function(self.name)
        return self._fn

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        fn = self._fn
        if fn is not None and type(args) is tuple:
            # The warm path: arrays and scalars of types seen before, grid and block seen
            # before: the pointers go in place of the arrays and the plan is replayed.
            entry = self._plans.get(tuple(map(type, args)))
            if entry is not None and entry[2] is not None:
                try:
                    g = _dims_cache[grid]
                    b = _dims_cache[block]
                except (KeyError, TypeError):
                    pass
                else:
                    plan, _, ptrs = entry
                    dev = get_device_id()
                    vals = list(args)
                    for i in ptrs:
                        a = args[i]
                        if a._device_id != dev:
                            check_same_device([a], dev)
                        vals[i] = a._ptr
                    try:
                        return plan.launch(vals, 0, g, b, shared_mem,
                                           None if stream is None else stream.ptr)
                    except _PACK_ERRORS as e:  # a value does not fit its C type
                        raise TypeError(f"cannot pass kernel arguments {args!r}: {e}") from None
        _launch(self.kernel if fn is None else fn, grid, block, args, shared_mem, stream,
                self.enable_cooperative_groups, self._plans)

    def compile(self, log_stream=None):
        self.kernel

    _compiled = property(lambda self: self.kernel)   # for KernelAttributes

    @property
    def max_dynamic_shared_size_bytes(self):
        return self.kernel.attribute("max_dynamic_shared_size_bytes")

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, value):
        self.kernel.set_attribute("max_dynamic_shared_size_bytes", value)


class _ModuleFunction(RawKernel):
    def __init__(self, fn, name, cooperative):
        self._fn = fn
        self._plans = {}
        self.name = name
        self.enable_cooperative_groups = cooperative


class RawModule:
    """A CUDA C module given as source or a cubin/PTX file (cuarray version of `cupy.RawModule`).

    C++ templates are reached through `name_expressions`, e.g.
    `RawModule(code=src, name_expressions=['f<float>']).get_function('f<float>')`.
    """

    def __init__(self, code=None, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 *, enable_cooperative_groups=False, name_expressions=None, jitify=False):
        _check_backend(backend)
        if (code is None) == (path is None):
            raise TypeError("RawModule needs exactly one of code= or path=")
        self.code = code
        self.path = path
        self.options = tuple(options)
        self.backend = backend
        self.translate_cucomplex = translate_cucomplex
        self.enable_cooperative_groups = enable_cooperative_groups
        self.name_expressions = tuple(name_expressions or ())
        self._mod = None

    @property
    def module(self):
        if self._mod is None:
            if self.code is not None:
                self._mod = _compiler.compile_module(
                    _prepare(self.code, self.translate_cucomplex), self.options,
                    self.name_expressions, name="raw_module")
            else:
                with open(self.path, "rb") as f:
                    image = f.read()
                if self.path.endswith(".ptx"):
                    image = image + b"\0"
                self._mod = _compiler.Module(image, {})
        return self._mod

    def compile(self, log_stream=None):
        self.module

    def get_function(self, name):
        return _ModuleFunction(self.module.get_function(name), name, self.enable_cooperative_groups)

    def get_global(self, name):
        """The __device__ variable `name` as a MemoryPointer."""
        from cuarray._runtime.memory import MemoryPointer, UnownedMemory
        from cuarray._runtime.device import get_device_id
        ptr, size = self.module.get_global(name)
        return MemoryPointer(UnownedMemory(ptr, size, self, get_device_id()), 0)

    def get_texref(self, name):
        raise AttributeError("texture references were removed in CUDA 12; use texture objects")
