"""Dense <-> sparse graph conversions and path lengths along predecessor trees (cuarray
versions of `scipy.sparse.csgraph.csgraph_from_dense`, `csgraph_to_dense` and
`construct_dist_matrix`)."""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import issparse
from cuarray.scipy.sparse._data import canonical
from cuarray.scipy.sparse.csgraph._graph import F64, I64, op, param


def csgraph_from_dense(graph, null_value=0, nan_null=True, infinity_null=True):
    """A CSR sparse array of the edges of a dense graph: entries equal to `null_value`
    (and NaN / infinite ones, as asked) are not edges."""
    from cuarray._core import _ops
    from cuarray.scipy.sparse._csr import csr_array
    if not isinstance(graph, ndarray):
        raise TypeError("graph must be a 2-D cuarray array")
    if graph.ndim != 2 or graph.shape[0] != graph.shape[1]:
        raise ValueError("graph should have two dimensions of equal size")
    g = graph.astype(F64)
    edge = _ops.not_equal(g, null_value) if null_value is not None else \
        _ops.equal(g, g) | _ops.not_equal(g, g)
    if nan_null:
        edge = _ops.logical_and(edge, _ops.logical_not(_ops.isnan(g)))
    if infinity_null:
        edge = _ops.logical_and(edge, _ops.logical_not(_ops.isinf(g)))
    from cuarray._routines.indexing import flatnonzero
    n = g.shape[0]
    lin = flatnonzero(edge.reshape(-1)).astype(I64)
    rows, cols = K._split(lin, max(n, 1), K.index_dtype(n, n, lin.size))
    vals = K.gather(g.reshape(-1) if g._c_contig else g.copy("C").reshape(-1), lin)
    idt = rows.dtype
    return csr_array._from_parts(vals, cols, K.lower_bounds(rows, n, idt), (n, n), True)


def csgraph_to_dense(csgraph, null_value=0):
    """The dense form of a sparse graph: edges keep their weight (duplicates summed, as
    SciPy), non-edges hold `null_value`."""
    from cuarray._routines.creation import full
    if not issparse(csgraph):
        raise TypeError("csgraph must be a cuarray sparse matrix or array")
    C = canonical(csgraph.tocsr().astype(F64))
    n, m = C.shape
    out = full((n, m), null_value, dtype=F64)
    coo = C.tocoo()
    K.scatter_2d(out, coo.row, coo.col, coo.data)
    return out


def construct_dist_matrix(graph, predecessors, directed=True, null_value=numpy.inf):
    """dist[i, j]: the length of the path from i to j that row i of the (N, N)
    `predecessors` records (one thread per pair walks it back); `null_value` where j is
    not reached. Undirected, an edge weighs the smaller nonzero of its two directions."""
    from cuarray.scipy.sparse.csgraph._graph import Graph
    g = Graph(graph if issparse(graph) else _dense_graph(graph), directed=True)
    if not isinstance(predecessors, ndarray):
        raise TypeError("predecessors must be a cuarray array")
    n = g.n
    if predecessors.shape != (n, n):
        raise ValueError("predecessors must have shape (N, N)")
    pred = predecessors.astype(I64)
    C = g.csr
    pt, jt = C.indptr.dtype, C.indices.dtype
    weight = ("double {o} = 0; for (long long t = p[{a}]; t < p[{a} + 1]; ++t) "
              "if ((long long)q[t] == {b}) {o} = {o} + x[t]; ")
    walk = op(("cg_distmat", pt.char, jt.char), f"cuarray_cg_dist_matrix_{pt.char}{jt.char}",
              [param("pr", "raw"), param("p", "raw", pt), param("q", "raw", jt),
               param("x", "raw", F64), param("n", "scalar"),
               param("und", "scalar", numpy.dtype(bool)), param("nul", "scalar", F64),
               param("d", "out", F64)],
              "const long long src = i / n, j = i - src * n; "
              "if (j == src) d = 0; else if (pr[src * n + j] < 0) d = nul; else { "
              "double acc = 0; long long v = j, steps = 0; "
              "while (v != src && steps < n) { const long long u = pr[src * n + v]; "
              "if (u < 0) break; "
              + weight.format(o="w", a="u", b="v") +
              "if (und) { " + weight.format(o="w2", a="v", b="u") +
              "if (w == 0 || (w2 != 0 && w2 < w)) w = w2; } "
              "acc += w; v = u; ++steps; } d = v == src ? acc : nul; }")
    out = K._empty((n, n), F64)
    if out.size:
        walk.launch([pred, C.indptr, C.indices, C.data, numpy.int64(n),
                     numpy.bool_(not directed), numpy.float64(null_value), out])
    return out


def _dense_graph(graph):
    if not isinstance(graph, ndarray):
        raise TypeError("graph must be a cuarray sparse matrix or a 2-D cuarray array")
    return csgraph_from_dense(graph)
