"""The CUDA names a cuarray.jit kernel can use: thread indices, synchronisation, shared
memory, atomics and warp shuffles (CuPy's `cupyx.jit` names).

Each is a Python object that only means something inside a translated kernel; its
`emit(tr, args, kwargs, node)` returns the translated value (see _compile.Translator).
Called from ordinary Python code they raise a TypeError saying so.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray.jit._types import INT32, UINT32, UNKNOWN, Array, Const, Expr, Shared, Tuple, strong, type_of


class _Builtin:
    name = "builtin"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"cuarray.jit.{self.name} can only be used inside a kernel compiled by "
                        f"cuarray.jit.rawkernel")

    def __repr__(self):
        return f"<cuarray.jit.{self.name}>"


class Dim3(_Builtin):
    """A CUDA dim3 built-in (threadIdx, blockIdx, blockDim, gridDim): `.x`, `.y`, `.z` are
    unsigned 32-bit integers."""

    def __init__(self, name):
        self.name = name
        self.__doc__ = f"dim3 {name}"

    def attribute(self, tr, attr, node):
        if attr not in ("x", "y", "z"):
            tr.err(node, f"{self.name} has no attribute {attr!r} (use .x, .y or .z)")
        return Expr(f"{self.name}.{attr}", UINT32)


class Special(_Builtin):
    """A device value with no arguments (warpSize)."""

    def __init__(self, name, cname, dtype, doc):
        self.name, self.cname, self.dtype, self.__doc__ = name, cname, dtype, doc

    def value(self):
        return Expr(self.cname, self.dtype)


class _Func(_Builtin):
    def __init__(self, name, emit, doc):
        self.name = name
        self._emit = emit
        self.__doc__ = doc

    def emit(self, tr, args, kwargs, node):
        return self._emit(tr, node, *args, **kwargs)


def _builtin(doc):
    def deco(fn):
        return _Func(fn.__name__.lstrip("_"), fn, doc)
    return deco


def _const_int(tr, node, v, what):
    if not isinstance(v, Const) or not isinstance(v.value, (int, numpy.integer)) \
            or isinstance(v.value, bool):
        tr.err(node, f"{what} must be an integer known when the kernel is compiled")
    return int(v.value)


# ---- indices and synchronisation ------------------------------------------------------------
_AXES = "xyz"


@_builtin("Compute the thread index in the grid: `jit.grid(1)` is "
          "`blockIdx.x * blockDim.x + threadIdx.x`; `jit.grid(2)` and `jit.grid(3)` return tuples.")
def _grid(tr, node, ndim):
    return _per_axis(tr, node, ndim, "grid", "(blockIdx.{a} * blockDim.{a} + threadIdx.{a})")


@_builtin("Compute the grid size: `jit.gridsize(1)` is `blockDim.x * gridDim.x`; "
          "`jit.gridsize(2)` and `jit.gridsize(3)` return tuples.")
def _gridsize(tr, node, ndim):
    return _per_axis(tr, node, ndim, "gridsize", "(blockDim.{a} * gridDim.{a})")


def _per_axis(tr, node, ndim, name, template):
    """`template` on axis x (ndim 1), or a tuple of it on the first `ndim` axes (2 or 3)."""
    n = _const_int(tr, node, ndim, f"jit.{name}'s ndim")
    if n not in (1, 2, 3):
        tr.err(node, f"jit.{name}(ndim) takes ndim 1, 2 or 3, got {n}")
    items = [Expr(template.format(a=a), UINT32) for a in _AXES[:n]]
    return items[0] if n == 1 else Tuple(items)


_LANEID = ("__device__ __forceinline__ unsigned int _jit_laneid() {\n"
           "  unsigned int r; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); return r;\n}")


@_builtin("Returns the lane ID of the calling thread, in [0, jit.warpsize).")
def _laneid(tr, node):
    tr.gen.add(_LANEID)
    return Expr("_jit_laneid()", UINT32)


@_builtin("Calls __syncthreads(): waits until every thread of the block reaches it.")
def _syncthreads(tr, node):
    return Expr("__syncthreads()", None)


@_builtin("Calls __syncwarp(mask) (default: the full warp, 0xffffffff).")
def _syncwarp(tr, node, *, mask=None):
    m = "0xffffffffu" if mask is None else tr.cast(mask, UINT32, node)
    return Expr(f"__syncwarp({m})", None)


@_builtin("Allocates shared memory and returns it as a 1-D array: "
          "`jit.shared_memory(dtype, size)`; `size=None` uses the dynamic shared memory given "
          "at launch (`shared_mem=` bytes).")
def _shared_memory(tr, node, dtype, size, alignment=None):
    if not isinstance(dtype, Const):
        tr.err(node, "jit.shared_memory's dtype must be known when the kernel is compiled")
    if hasattr(dtype.value, "reducer"):  # a jit.cub reducer's TempStorage
        from cuarray.jit import cub  # imports this module
        n = _const_int(tr, node, size, "jit.shared_memory's size")
        name = tr.fresh("_smem")
        tr.gen.add(cub.CODE)
        tr.pending.append(f"__shared__ {dtype.value.cname} {name}[{n}];")
        return Expr(name, cub.StorageArray(dtype.value))
    try:
        dt = _dt.check_dtype(numpy.dtype(dtype.value))
    except TypeError as e:
        tr.err(node, f"jit.shared_memory: {e}")
    align = ""
    if alignment is not None:
        a = _const_int(tr, node, alignment, "jit.shared_memory's alignment")
        if a <= 0 or a & (a - 1):
            tr.err(node, f"jit.shared_memory's alignment must be a power of two, got {a}")
        align = f"__align__({a}) "
    name = tr.fresh("_smem")
    c = _dt.ctype(dt)
    if isinstance(size, Const) and size.value is None:
        tr.gen.add("extern __shared__ __align__(16) unsigned char _jit_dynamic_smem[];")
        tr.pending.append(f"{c}* const {name} = reinterpret_cast<{c}*>(_jit_dynamic_smem);")
    else:
        n = _const_int(tr, node, size, "jit.shared_memory's size")
        if n <= 0:
            tr.err(node, f"jit.shared_memory's size must be positive, got {n}")
        tr.pending.append(f"__shared__ {align}{c} {name}[{n}];")
    return Expr(name, Shared(dt))


# ---- atomics ----------------------------------------------------------------------------------
# Per operation: the dtypes CUDA has it for, and the C type the pointer is cast to for the
# types it reaches through another one of the same size (int64 add wraps the same as uint64).
_ATOMIC = {
    "atomic_add": ("atomicAdd", {"i": None, "I": None, "q": "unsigned long long", "Q": None,
                                 "e": "half", "f": None, "d": None}),
    "atomic_sub": ("atomicSub", {"i": None, "I": None}),
    "atomic_exch": ("atomicExch", {"i": None, "I": None, "q": "unsigned long long", "Q": None,
                                   "f": None}),
    "atomic_min": ("atomicMin", {"i": None, "I": None, "q": None, "Q": None}),
    "atomic_max": ("atomicMax", {"i": None, "I": None, "q": None, "Q": None}),
    "atomic_inc": ("atomicInc", {"I": None}),
    "atomic_dec": ("atomicDec", {"I": None}),
    "atomic_and": ("atomicAnd", {"i": None, "I": None, "q": "unsigned long long", "Q": None}),
    "atomic_or": ("atomicOr", {"i": None, "I": None, "q": "unsigned long long", "Q": None}),
    "atomic_xor": ("atomicXor", {"i": None, "I": None, "q": "unsigned long long", "Q": None}),
    "atomic_cas": ("atomicCAS", {"H": None, "i": None, "I": None, "q": "unsigned long long",
                                 "Q": None}),
}


def _atomic_target(tr, node, name, array, index):
    t = array.type if isinstance(array, Expr) else None
    if not isinstance(t, (Array, Shared)):
        tr.err(node, f"jit.{name}'s first argument must be an array or shared memory")
    cfunc, kinds = _ATOMIC[name]
    ch = "q" if t.dtype.char == "l" else ("Q" if t.dtype.char == "L" else t.dtype.char)
    if ch not in kinds:
        allowed = ", ".join(str(numpy.dtype(c)) for c in kinds)
        tr.err(node, f"jit.{name} does not support {t.dtype} arrays (CUDA has it for {allowed})")
    ref = tr.element(array, index, node)
    via = kinds[ch]
    c = _dt.ctype(t.dtype)
    ptr = f"&{ref}" if via in (None, "half") else f"reinterpret_cast<{via}*>(&{ref})"
    return cfunc, ptr, t.dtype, via, c


# float16 addition as CUDA's atomicAdd(__half*) does it: a compare-and-swap loop on the
# 16-bit word (sm_70+), rounding the float sum once, as NumPy's float16 add.
_HALF_ADD = r"""__device__ __forceinline__ half _jit_atomic_add_half(half* p, const half v) {
  unsigned short* a = reinterpret_cast<unsigned short*>(p);
  unsigned short old = *a, assumed;
  do {
    assumed = old;
    const half r((float)cuarray_half_bits(assumed) + (float)v);
    old = atomicCAS(a, assumed, r.x);
  } while (assumed != old);
  return cuarray_half_bits(old);
}"""


def _atomic(name, doc):
    def emit(tr, node, array, index, value, alt_op=None):
        if alt_op is not None:
            tr.err(node, f"jit.{name}: alt_op is not supported")
        cfunc, ptr, dt, via, c = _atomic_target(tr, node, name, array, index)
        v = tr.cast(value, dt, node)
        if via == "half":
            tr.gen.add(_HALF_ADD)
            return Expr(f"_jit_atomic_add_half({ptr}, {v})", dt)
        if via is not None:
            return Expr(f"(({c}){cfunc}({ptr}, ({via}){v}))", dt)
        return Expr(f"{cfunc}({ptr}, {v})", dt)
    return _Func(name, emit, doc)


def _atomic_cas_emit(tr, node, array, index, cmp, val):
    cfunc, ptr, dt, via, c = _atomic_target(tr, node, "atomic_cas", array, index)
    a, b = tr.cast(cmp, dt, node), tr.cast(val, dt, node)
    if via is not None:
        return Expr(f"(({c}){cfunc}({ptr}, ({via}){a}, ({via}){b}))", dt)
    return Expr(f"{cfunc}({ptr}, {a}, {b})", dt)


_ATOMIC_DOCS = {
    "atomic_add": "Calls atomicAdd: adds `value` to `array[index]`; returns the old value.",
    "atomic_sub": "Calls atomicSub: subtracts `value` from `array[index]`; returns the old value.",
    "atomic_exch": "Calls atomicExch: stores `value` in `array[index]`; returns the old value.",
    "atomic_min": "Calls atomicMin on `array[index]`; returns the old value.",
    "atomic_max": "Calls atomicMax on `array[index]`; returns the old value.",
    "atomic_inc": "Calls atomicInc: `old >= value ? 0 : old + 1`; returns the old value.",
    "atomic_dec": "Calls atomicDec: `(old == 0 or old > value) ? value : old - 1`; returns the "
                  "old value.",
    "atomic_and": "Calls atomicAnd on `array[index]`; returns the old value.",
    "atomic_or": "Calls atomicOr on `array[index]`; returns the old value.",
    "atomic_xor": "Calls atomicXor on `array[index]`; returns the old value.",
}
ATOMICS = {n: _atomic(n, d) for n, d in _ATOMIC_DOCS.items()}
ATOMICS["atomic_cas"] = _Func(
    "atomic_cas", _atomic_cas_emit,
    "Calls atomicCAS: stores `val` in `array[index]` if it equals `cmp`; returns the old value.")


# ---- warp shuffles -------------------------------------------------------------------------
_SHFL_TYPES = "iIlqLQfd"


def _shfl(name, cname, lane_kind, doc):
    def emit(tr, node, mask, var, val_id, *, width=Const(32)):
        t = type_of(var)
        if t is None:
            tr.err(node, f"jit.{name} shuffles a number, not {var!r}")
        if t is UNKNOWN:
            return Expr("0", UNKNOWN)
        t = strong(t)
        if t.char not in _SHFL_TYPES:
            tr.err(node, f"jit.{name} does not support {t} (it takes 32/64-bit integers and "
                         f"floats)")
        w = tr.cast(width, INT32, node)
        lane = tr.cast(val_id, lane_kind, node)
        return Expr(f"{cname}({tr.cast(mask, UINT32, node)}, {tr.cast(var, t, node)}, {lane}, {w})",
                    t)
    return _Func(name, emit, doc)


SHUFFLES = {
    "shfl_sync": _shfl("shfl_sync", "__shfl_sync", INT32,
                       "Calls __shfl_sync(mask, var, src_lane, width=32)."),
    "shfl_up_sync": _shfl("shfl_up_sync", "__shfl_up_sync", UINT32,
                          "Calls __shfl_up_sync(mask, var, delta, width=32)."),
    "shfl_down_sync": _shfl("shfl_down_sync", "__shfl_down_sync", UINT32,
                            "Calls __shfl_down_sync(mask, var, delta, width=32)."),
    "shfl_xor_sync": _shfl("shfl_xor_sync", "__shfl_xor_sync", INT32,
                           "Calls __shfl_xor_sync(mask, var, lane_mask, width=32)."),
}


class Range(_Builtin):
    """`jit.range(start, stop, step, unroll=None)`: `range` with loop unrolling
    (`unroll=True`: `#pragma unroll`; an int: that factor; False: no unrolling)."""

    name = "range"


threadIdx = Dim3("threadIdx")
blockIdx = Dim3("blockIdx")
blockDim = Dim3("blockDim")
gridDim = Dim3("gridDim")
warpsize = Special("warpsize", "warpSize", INT32, "The number of threads in a warp.")
grid = _grid
gridsize = _gridsize
laneid = _laneid
syncthreads = _syncthreads
syncwarp = _syncwarp
shared_memory = _shared_memory
range = Range()
range.__doc__ = ("cuarray version of `cupyx.jit.range`: `range(start, stop, step, unroll=None)` "
                 "in a kernel, unrolled as `unroll` asks.")
