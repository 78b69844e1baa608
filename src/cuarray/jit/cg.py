"""Cooperative groups in cuarray.jit kernels (cuarray version of `cupyx.jit.cg`).

`cg.this_thread_block()` and `cg.this_grid()` return group handles whose methods are
CuPy's (`sync`, `thread_rank`, `num_threads`, ...); `cg.sync(group)`,
`cg.memcpy_async(...)`, `cg.wait(group)` and `cg.wait_prior(group, n)` take one.

The device code is cuarray's own (no CUDA toolkit headers): a grid-wide `sync()` is a
barrier on a counter in the kernel's module, and a kernel that uses it is launched with
cuLaunchCooperativeKernel, which refuses grids larger than can be resident at once (the
condition under which a grid barrier cannot deadlock). One kernel launched on two streams
at once shares that counter, so such launches must not overlap. `memcpy_async` copies
with the group's threads at the call, so `wait` only has to synchronise the group.
"""
import numpy

from cuarray.jit._builtins import Dim3, _Func
from cuarray.jit._types import UINT32, Const, Expr, Keyed

_U64 = numpy.dtype(numpy.uint64)

GRID_SYNC = r"""__device__ unsigned int _jit_gbar_count;
__device__ volatile unsigned int _jit_gbar_gen;
// All blocks of a cooperative launch wait here: each block's thread 0 reads the generation,
// arrives on the counter, and the last to arrive resets it and publishes a new generation.
__device__ __noinline__ void _jit_grid_sync() {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const unsigned int nblocks = gridDim.x * gridDim.y * gridDim.z;
    const unsigned int gen = _jit_gbar_gen;
    __threadfence();
    if (atomicAdd(&_jit_gbar_count, 1u) == nblocks - 1) {
      atomicExch(&_jit_gbar_count, 0u);
      __threadfence();
      atomicAdd((unsigned int*)&_jit_gbar_gen, 1u);
    } else {
      while (_jit_gbar_gen == gen) { }
    }
    __threadfence();
  }
  __syncthreads();
}"""

_BLOCK_RANK = "((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x)"
_THREAD_RANK = "((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)"
_BLOCK_SIZE = "(blockDim.x * blockDim.y * blockDim.z)"
_NUM_BLOCKS = "(gridDim.x * gridDim.y * gridDim.z)"


class _Method(_Func):
    """A method of a group handle: `emit(tr, node, *args)`."""


class Group(Keyed):
    """The translator type of a group handle (`thread_block` or `grid_group`)."""

    __slots__ = ("kind",)

    def __init__(self, kind):
        self.kind = kind

    def _key(self):
        return ("cg", self.kind)

    def __repr__(self):
        return f"cg.{self.kind}"

    def attribute(self, tr, base, name, node):
        table = _GRID if self.kind == "grid_group" else _BLOCK
        m = table.get(name)
        if m is None:
            tr.err(node, f"{self.kind} has no method {name!r} (it has {', '.join(sorted(table))})",
                   AttributeError)
        return Const(m)


def _sync_code(tr, kind):
    if kind == "grid_group":
        tr.gen.add(GRID_SYNC)
        return Expr("_jit_grid_sync()", None)
    return Expr("__syncthreads()", None)


def _m(name, fn, doc):
    return _Method(name, lambda tr, node, *a, **k: fn(tr, node, *a, **k), doc)


def _value(code, dtype):
    return lambda tr, node: Expr(code, dtype)


def _dim3(name):
    return lambda tr, node: Const(Dim3(name))


_BLOCK = {
    "sync": _m("sync", lambda tr, node: _sync_code(tr, "thread_block"),
               "Synchronize the threads of the block."),
    "thread_rank": _m("thread_rank", _value(_THREAD_RANK, UINT32),
                      "Rank of the calling thread within [0, num_threads)."),
    "group_index": _m("group_index", _dim3("blockIdx"),
                      "3-dimensional index of the block within the grid."),
    "thread_index": _m("thread_index", _dim3("threadIdx"),
                       "3-dimensional index of the thread within the block."),
    "dim_threads": _m("dim_threads", _dim3("blockDim"),
                      "Dimensions of the block in threads."),
    "group_dim": _m("group_dim", _dim3("blockDim"), "Dimensions of the block in threads."),
    "num_threads": _m("num_threads", _value(_BLOCK_SIZE, UINT32),
                      "Total number of threads in the block."),
    "size": _m("size", _value(_BLOCK_SIZE, UINT32), "Total number of threads in the block."),
}

_GRID = {
    "sync": _m("sync", lambda tr, node: _sync_code(tr, "grid_group"),
               "Synchronize every thread of the grid (the kernel is launched cooperatively)."),
    "is_valid": _m("is_valid", lambda tr, node: Const(True),
                   "Whether the grid can synchronize: True, kernels using it are launched "
                   "cooperatively."),
    "thread_rank": _m("thread_rank", _value(
        f"((unsigned long long){_BLOCK_RANK} * {_BLOCK_SIZE} + {_THREAD_RANK})", _U64),
        "Rank of the calling thread within [0, num_threads)."),
    "block_rank": _m("block_rank", _value(_BLOCK_RANK, UINT32),
                     "Rank of the calling block within [0, num_blocks)."),
    "num_threads": _m("num_threads", _value(
        f"((unsigned long long){_NUM_BLOCKS} * {_BLOCK_SIZE})", _U64),
        "Total number of threads in the grid."),
    "size": _m("size", _value(f"((unsigned long long){_NUM_BLOCKS} * {_BLOCK_SIZE})", _U64),
               "Total number of threads in the grid."),
    "num_blocks": _m("num_blocks", _value(_NUM_BLOCKS, UINT32),
                     "Total number of blocks in the grid."),
    "block_index": _m("block_index", _dim3("blockIdx"),
                      "3-dimensional index of the block within the grid."),
    "dim_blocks": _m("dim_blocks", _dim3("gridDim"), "Dimensions of the grid in blocks."),
    "group_dim": _m("group_dim", _dim3("gridDim"), "Dimensions of the grid in blocks."),
}


def _group(tr, node, g, what):
    t = g.type if isinstance(g, Expr) else None
    if not isinstance(t, Group):
        tr.err(node, f"cg.{what} takes a group from cg.this_thread_block() or cg.this_grid()")
    return t


def _this_thread_block(tr, node):
    return Expr("0", Group("thread_block"))


def _this_grid(tr, node):
    return Expr("0", Group("grid_group"))


def _sync(tr, node, group):
    return _sync_code(tr, _group(tr, node, group, "sync").kind)


def _memcpy_async(tr, node, group, dst, dst_idx, src, src_idx, size, *, aligned_size=None):
    g = _group(tr, node, group, "memcpy_async")
    d = tr.element(dst, dst_idx, node)
    s = tr.element(src, src_idx, node)
    n = tr.cast(size, _U64, node)
    if g.kind == "grid_group":
        rank = _GRID["thread_rank"]._emit(tr, node).code
        count = _GRID["num_threads"]._emit(tr, node).code
    else:
        rank, count = _THREAD_RANK, _BLOCK_SIZE
    k = tr.fresh("_jcp")
    tr.pending.append(
        f"for (unsigned long long {k} = {rank}; {k} < {n}; {k} += {count}) "
        f"((unsigned char*)&{d})[{k}] = ((const unsigned char*)&{s})[{k}];")
    return Expr("", None)


def _wait(tr, node, group):
    return _sync_code(tr, _group(tr, node, group, "wait").kind)


def _wait_prior(tr, node, group, step):
    return _sync_code(tr, _group(tr, node, group, "wait_prior").kind)


this_thread_block = _Func("cg.this_thread_block", _this_thread_block,
                          "A handle to the current thread block.")
this_grid = _Func("cg.this_grid", _this_grid,
                  "A handle to the whole grid; a kernel calling its sync() is launched "
                  "cooperatively.")
sync = _Func("cg.sync", _sync, "Synchronize the threads of `group` (`group.sync()`).")
memcpy_async = _Func(
    "cg.memcpy_async", _memcpy_async,
    "Copy `size` bytes from `src[src_idx]` to `dst[dst_idx]` with the threads of `group`; "
    "read the data after cg.wait(group).")
wait = _Func("cg.wait", _wait, "Wait for the group's copies: synchronizes the group.")
wait_prior = _Func("cg.wait_prior", _wait_prior,
                   "Wait for all but the last `step` copies: synchronizes the group (copies "
                   "complete at the call).")

__all__ = ["this_thread_block", "this_grid", "sync", "memcpy_async", "wait", "wait_prior"]
