"""Python functions compiled to CUDA kernels (cuarray version of `cupyx.jit`).

A kernel is written in a subset of Python: assignments (tuple unpacking included),
arithmetic and comparisons with NumPy's type rules, `if`/`elif`/`else`, `for ... in
range(...)`, `while`, `break`/`continue`, conditional expressions, `math` functions and
cuarray/NumPy ufuncs, `abs`/`min`/`max`/`int`/`float`/`len`/`print`, element access
`x[i]` and `x[i, j]` on arrays of any layout, `x.shape[k]`, `x.size`, and calls of other
Python functions (compiled as device functions). Differences from Python: numbers are
NumPy scalars (fixed-width integers that wrap, `math.floor(x)` is a float as
`numpy.floor` gives), a local variable has one type (NumPy's promotion of the values
assigned to it), and only constant negative indices count from the end.

`jit.elementwisekernel` and `jit.reductionkernel` (named in CuPy's tutorials, absent from
CuPy) put such a function inside an ElementwiseKernel or ReductionKernel. `jit.cg`
(cooperative groups: thread block, grid with a grid-wide sync through a cooperative launch)
and `jit.cub` (WarpReduce, BlockReduce) are cuarray's own device code, as is `jit.thrust`
(CuPy's functions, run by the calling thread over `x.begin()`/`x.end()` iterators).
`x[i]` of an N-d array is its (N-1)-d row.

    from cuarray import jit

    @jit.rawkernel()
    def elementwise_copy(x, y, size):
        tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
        ntid = jit.gridDim.x * jit.blockDim.x
        for i in range(tid, size, ntid):
            y[i] = x[i]

    elementwise_copy((128,), (1024,), (x, y, size))   # or elementwise_copy[128, 1024](x, y, size)
"""
from cuarray.jit._builtins import (  # noqa: F401
    threadIdx, blockIdx, blockDim, gridDim, warpsize, grid, gridsize, laneid, syncthreads,
    syncwarp, shared_memory, range, ATOMICS as _ATOMICS, SHUFFLES as _SHUFFLES)
from cuarray.jit._interface import (  # noqa: F401
    rawkernel, elementwisekernel, reductionkernel, _JitRawKernel)
from cuarray.jit import cg, cub, thrust  # noqa: F401

globals().update(_ATOMICS)
globals().update(_SHUFFLES)

__all__ = ["rawkernel", "elementwisekernel", "reductionkernel", "threadIdx", "blockIdx",
           "blockDim", "gridDim", "warpsize", "grid", "gridsize", "laneid", "syncthreads",
           "syncwarp", "shared_memory", "range", "cg", "cub", "thrust"] + sorted(_ATOMICS) \
    + sorted(_SHUFFLES)
