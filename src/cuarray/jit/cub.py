"""Warp- and block-wide reductions in cuarray.jit kernels (cuarray version of
`cupyx.jit.cub`: `WarpReduce`, `BlockReduce`, `Sum`, `Max`, `Min`).

Used as with CUB::

    WarpReduce = jit.cub.WarpReduce[numpy.int32]

    @jit.rawkernel()
    def k(x, out):
        temp = jit.shared_memory(WarpReduce.TempStorage, 1)
        total = WarpReduce(temp[0]).Sum(x[jit.threadIdx.x])   # valid in lane 0
        big = WarpReduce(temp[0]).Reduce(x[jit.threadIdx.x], jit.cub.Max())

`WarpReduce` needs the 32 threads of a full warp; `BlockReduce[T, BLOCK_DIM_X]` a 1-D block
of BLOCK_DIM_X threads, and its result is valid in thread 0, as CUB's. The device code is
cuarray's own (warp shuffles and shared memory), not CUB's headers.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray.jit._builtins import _Func
from cuarray.jit._types import Const, Expr, Keyed, strong, type_of

CODE = r"""template <class T>
__device__ __forceinline__ T _jit_shfl_down(T x, int delta, unsigned int mask = 0xffffffffu) {
  // any trivially copyable T, moved as 32-bit words
  constexpr int W = (sizeof(T) + 3) / 4;
  unsigned int w[W] = {};
  memcpy(w, &x, sizeof(T));
  #pragma unroll
  for (int k = 0; k < W; ++k) w[k] = __shfl_down_sync(mask, w[k], delta);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}
struct _jit_cub_sum { template <class T> __device__ T operator()(const T& a, const T& b) const { return T(a + b); } };
struct _jit_cub_max { template <class T> __device__ T operator()(const T& a, const T& b) const { return b > a ? b : a; } };
struct _jit_cub_min { template <class T> __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T> struct _jit_warp_reduce {
  struct TempStorage { unsigned char unused; };
  __device__ _jit_warp_reduce(TempStorage&) {}
  template <class Op> __device__ T Reduce(T x, Op op) {
    #pragma unroll
    for (int d = 16; d > 0; d >>= 1) x = op(x, _jit_shfl_down(x, d));
    return x;
  }
  __device__ T Sum(T x) { return Reduce(x, _jit_cub_sum()); }
};
template <class T, int B> struct _jit_block_reduce {
  struct TempStorage { T warp[(B + 31) / 32]; };
  TempStorage& s;
  __device__ _jit_block_reduce(TempStorage& t) : s(t) {}
  // Reduce the values of lanes [0, n) of this warp into lane 0. `lanes`: how many lanes the
  // warp has (the last warp of a block whose size is not a multiple of 32 has fewer): the
  // shuffles name exactly those.
  template <class Op> __device__ static T warp(T x, Op op, int n, int lanes) {
    const int lane = threadIdx.x & 31;
    const unsigned int mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    #pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
      const T y = _jit_shfl_down(x, d, mask);
      if (lane + d < n) x = op(x, y);
    }
    return x;
  }
  template <class Op> __device__ T Reduce(T x, Op op) {
    const int tid = threadIdx.x, w = tid >> 5;
    constexpr int NW = (B + 31) / 32;
    const int n = B - w * 32 < 32 ? B - w * 32 : 32;
    x = warp(x, op, n, n);
    if (NW == 1) return x;
    if ((tid & 31) == 0) s.warp[w] = x;
    __syncthreads();
    if (w == 0) x = warp((tid < NW) ? s.warp[tid] : x, op, NW, 32);  // NW > 1: B > 32
    __syncthreads();  // TempStorage may be reused right after
    return x;
  }
  __device__ T Sum(T x) { return Reduce(x, _jit_cub_sum()); }
};"""


class _FunctorType:
    def __repr__(self):
        return "cub functor"


FUNCTOR = _FunctorType()


class _Storage:
    """`<Reducer>.TempStorage`: a type for jit.shared_memory."""

    def __init__(self, reducer):
        self.reducer = reducer
        self.cname = f"typename {reducer.cname}::TempStorage"

    def __repr__(self):
        return f"{self.reducer!r}.TempStorage"


class StorageArray(Keyed):
    """The translator type of `jit.shared_memory(R.TempStorage, n)`."""

    __slots__ = ("storage",)

    def __init__(self, storage):
        self.storage = storage

    def _key(self):
        return ("storage", self.storage.cname)

    def subscript(self, tr, base, index, node):
        return Expr(f"{base.code}[{tr.cast(index, numpy.dtype(numpy.int64), node)}]",
                    StorageRef(self.storage))


class StorageRef:
    """One TempStorage element (what a reducer is constructed from)."""

    __slots__ = ("storage",)

    def __init__(self, storage):
        self.storage = storage


class Reducer(_Func):
    """`WarpReduce[T]` or `BlockReduce[T, n]`: construct it from its TempStorage."""

    def __init__(self, name, dtype, cname):
        super().__init__(name, self._construct, f"cuarray version of cub::{name}")
        self.dtype = dtype
        self.cname = cname
        self.TempStorage = _Storage(self)

    def __repr__(self):
        return f"<cuarray.jit.cub.{self.name}>"

    def _construct(self, tr, node, temp_storage):
        t = temp_storage.type if isinstance(temp_storage, Expr) else None
        if not isinstance(t, StorageRef) or t.storage.reducer.cname != self.cname:
            tr.err(node, f"{self.name} is constructed from an element of "
                         f"jit.shared_memory({self.name}.TempStorage, n)")
        tr.gen.add(CODE)
        return Expr(f"{self.cname}({temp_storage.code})", _Instance(self))


class _Instance:
    __slots__ = ("reducer",)

    def __init__(self, reducer):
        self.reducer = reducer

    def attribute(self, tr, base, name, node):
        r = self.reducer
        if name == "Sum":
            return Const(_Func("Sum", lambda tr, node, x: _reduce(tr, node, base, r, x, None),
                               "Sum over the warp or block."))
        if name == "Reduce":
            return Const(_Func("Reduce", lambda tr, node, x, op: _reduce(tr, node, base, r, x, op),
                               "Reduction with a cub functor (jit.cub.Sum(), Max(), Min())."))
        tr.err(node, f"{r.name} has methods Sum and Reduce, not {name!r}", AttributeError)


def _reduce(tr, node, inst, reducer, x, op):
    if type_of(x) is None:
        tr.err(node, f"{reducer.name} reduces numbers")
    v = tr.cast(x, reducer.dtype, node)
    if op is None:
        return Expr(f"{inst.code}.Sum({v})", reducer.dtype)
    if not (isinstance(op, Expr) and op.type is FUNCTOR):
        tr.err(node, f"{reducer.name}.Reduce takes jit.cub.Sum(), jit.cub.Max() or "
                     f"jit.cub.Min() as its operator")
    return Expr(f"{inst.code}.Reduce({v}, {op.code})", reducer.dtype)


class _Template:
    def __init__(self, name, make, doc):
        self.name = name
        self._make = make
        self.__doc__ = doc

    def __getitem__(self, args):
        return self._make(*(args if isinstance(args, tuple) else (args,)))

    def jit_template(self, tr, index, node):
        """`Template[args]` inside a kernel (index: translated constants)."""
        items = index.items if hasattr(index, "items") else (index,)
        if not all(isinstance(i, Const) for i in items):
            tr.err(node, f"{self.name}[...] takes a dtype (and sizes) known when compiling")
        try:
            return Const(self[tuple(i.value for i in items)])
        except (TypeError, ValueError) as e:
            tr.err(node, f"{self.name}[...]: {e}")

    def __repr__(self):
        return f"<cuarray.jit.cub.{self.name}>"


def _dtype(t):
    return _dt.check_dtype(strong(t) if isinstance(t, type) and not issubclass(
        t, numpy.generic) else numpy.dtype(t))


def _warp(T):
    dt = _dtype(T)
    return Reducer("WarpReduce", dt, f"_jit_warp_reduce<{_dt.ctype(dt)}>")


def _block(T, block_dim_x):
    dt = _dtype(T)
    n = int(block_dim_x)
    if not 0 < n <= 1024:
        raise ValueError(f"BlockReduce's BLOCK_DIM_X must be in [1, 1024], got {n}")
    return Reducer("BlockReduce", dt, f"_jit_block_reduce<{_dt.ctype(dt)}, {n}>")


def _functor(cname):
    def emit(tr, node):
        tr.gen.add(CODE)
        return Expr(f"{cname}()", FUNCTOR)
    return emit


WarpReduce = _Template("WarpReduce", _warp, "cub::WarpReduce<T>: `WarpReduce[numpy.float32]`.")
BlockReduce = _Template("BlockReduce", _block,
                        "cub::BlockReduce<T, BLOCK_DIM_X>: `BlockReduce[numpy.float32, 256]`.")
Sum = _Func("cub.Sum", _functor("_jit_cub_sum"), "The cub::Sum functor.")
Max = _Func("cub.Max", _functor("_jit_cub_max"), "The cub::Max functor.")
Min = _Func("cub.Min", _functor("_jit_cub_min"), "The cub::Min functor.")

__all__ = ["WarpReduce", "BlockReduce", "Sum", "Max", "Min"]
