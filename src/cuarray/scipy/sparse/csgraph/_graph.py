"""Graphs as edge lists on the GPU, and the kernels the csgraph routines share.

A graph is an N x N cuarray sparse matrix (every stored entry is an edge, as SciPy's
csgraph reads sparse input) or a dense 2-D cuarray array (nonzero, finite entries are
edges). Kernels updating shared state use atomics; `HOST_ATOMICS` gives host builds of
the same source (the CPU emulator) the bit casts between double and long long.
"""
import numpy

from cuarray._core.elementwise import Param
from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import issparse
from cuarray.scipy.sparse._data import canonical

I64 = K._i64
F64 = numpy.dtype(numpy.float64)

HOST_ATOMICS = r"""
#ifndef __CUDA_ARCH__
inline long long __double_as_longlong(double x) { long long r; memcpy(&r, &x, 8); return r; }
inline double __longlong_as_double(long long x) { double r; memcpy(&r, &x, 8); return r; }
#endif
"""


def op(key, name, params, body):
    """A cached elementwise Op whose source carries HOST_ATOMICS."""
    from cuarray._core.elementwise import Op
    return K._op(key, lambda: Op(name, params, body, preamble=HOST_ATOMICS))


class Graph:
    """n nodes; `rows`, `cols` (int64) and `weights` (float64) of every edge, and the
    canonical CSR it came from (`csr`), with the input's sparse family."""

    def __init__(self, csgraph, directed=True):
        if issparse(csgraph):
            C = csgraph.tocsr().astype(F64)
            family = csgraph._family
        elif isinstance(csgraph, ndarray):
            if csgraph.ndim != 2:
                raise ValueError("compressed-sparse graph must be 2-D")
            from cuarray._core._ops import isfinite, logical_and, not_equal, where
            dense = csgraph.astype(F64)
            dense = where(logical_and(isfinite(dense), not_equal(dense, 0)), dense, 0.0)
            from cuarray.scipy.sparse._csr import csr_matrix
            C, family = csr_matrix(dense), "matrix"
        else:
            raise TypeError("csgraph must be a cuarray sparse matrix or a 2-D cuarray array" + (
                "; move it to the GPU first" if isinstance(csgraph, numpy.ndarray) or
                type(csgraph).__module__.startswith("scipy") else ""))
        if C.shape[0] != C.shape[1]:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        C = canonical(C)
        self.n = C.shape[0]
        self.csr, self.family, self.undirected = C, family, not directed
        rows = K.expand_major(C.indptr, C.nnz).astype(I64)
        cols = C.indices.astype(I64)
        w = C.data
        if not directed:
            from cuarray._routines.joining import concatenate
            rows, cols = concatenate([rows, cols]), concatenate([cols, rows])
            w = concatenate([w, w])
        self.rows, self.cols, self.weights = rows, cols, w

    @property
    def nnz(self):
        return self.rows.size

    def adjacency(self):
        """(indptr, indices) int64 of each node's neighbours in the order SciPy's
        traversals visit them: the targets of its edges, increasing; undirected, then
        the sources of the edges into it, increasing."""
        C = self.csr
        if not self.undirected:
            return C.indptr.astype(I64), C.indices.astype(I64)
        if C.nnz == 0:
            return K._zeros((self.n + 1,), I64), K._empty((0,), I64)
        from cuarray._core._ops import add, remainder
        from cuarray._routines.joining import concatenate
        r = K.expand_major(C.indptr, C.nnz).astype(I64)
        c = C.indices.astype(I64)
        # Sorting (node, part * n + neighbour) puts out-edges (part 0) before in-edges.
        major = concatenate([r, c])
        minor = concatenate([c, add(r, self.n)])
        vals = K._zeros((major.size,), F64)
        indptr, indices, _ = K.compress(major, minor, vals, self.n, 2 * self.n, I64,
                                        sum_dups=False)
        return indptr, remainder(indices, max(self.n, 1))


def flag_changed():
    """A one-element int64 device flag, zeroed."""
    return K._zeros((1,), I64)


def read_flag(f):
    """The flag's value (synchronises)."""
    return int(f[0])


def arange(n):
    from cuarray._routines.creation import arange as _arange
    return _arange(n, dtype=numpy.int64)


def full(n, value, dtype=I64):
    from cuarray._routines.creation import full as _full
    return _full((n,), value, dtype=dtype)


def renumber(labels):
    """(count, labels 0..count-1 in the order of the smallest label value)."""
    from cuarray._routines.sets import unique
    if labels.size == 0:
        return 0, labels.astype(numpy.int32)
    u, inv = unique(labels, return_inverse=True)
    return int(u.size), inv.reshape(-1).astype(numpy.int32)


def compress_roots(parent):
    """parent[i] <- the root above i (pointer jumping; roots point to themselves)."""
    o = op(("cg_roots",), "cuarray_cg_roots",
           [Param("p", "raw", I64), Param("r", "out", I64)],
           "long long a = p[i]; while (p[a] != a) a = p[a]; r = a;")
    out = K._empty(parent.shape, I64)
    if out.size:
        o.launch([parent, out])
    return out


def param(name, role, dtype=I64):
    return Param(name, role, dtype)
