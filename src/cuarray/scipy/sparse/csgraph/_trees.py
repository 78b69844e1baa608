"""Trees of a graph traversal (cuarray versions of `scipy.sparse.csgraph.reconstruct_path`,
`breadth_first_tree` and `depth_first_tree`): the edge pred[v] -> v of every reached node,
with the graph's weight (for undirected graphs the smaller nonzero of the two
directions)."""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._select import sample
from cuarray.scipy.sparse.csgraph._graph import I64, Graph


def reconstruct_path(csgraph, predecessors, directed=True):
    """The tree (CSR, N x N) of the edges predecessors[v] -> v (cuarray version of
    `scipy.sparse.csgraph.reconstruct_path`)."""
    from cuarray._core import _ops
    from cuarray.scipy.sparse._base import CLASSES
    g = Graph(csgraph, directed=True)
    if not isinstance(predecessors, ndarray):
        raise TypeError("predecessors must be a cuarray array")
    pred = predecessors.reshape(-1).astype(I64)
    if pred.size != g.n:
        raise ValueError("predecessors must have length N")
    nodes = _arange(g.n)
    has = _ops.greater_equal(pred, 0).astype(I64)
    parents, children = K.compact(has, pred, nodes)
    C = g.csr
    w = sample(C.indptr, C.indices, C.data, parents, children)
    if not directed:
        back = sample(C.indptr, C.indices, C.data, children, parents)
        zero = numpy.float64(0)
        w = _ops.where(_ops.equal(w, zero), back,
                       _ops.where(_ops.equal(back, zero), w, _ops.minimum(w, back)))
    idt = K.index_dtype(g.n, g.n, w.size)
    coo = CLASSES[g.family, "coo"]._from_parts(w, parents.astype(idt), children.astype(idt),
                                               (g.n, g.n), False)
    return coo.tocsr()


def breadth_first_tree(csgraph, i_start, directed=True):
    """The breadth-first tree from i_start (cuarray version of
    `scipy.sparse.csgraph.breadth_first_tree`)."""
    from cuarray.scipy.sparse.csgraph._traversal import breadth_first_order
    _, pred = breadth_first_order(csgraph, i_start, directed, True)
    return reconstruct_path(csgraph, pred, directed)


def depth_first_tree(csgraph, i_start, directed=True):
    """The depth-first tree from i_start (cuarray version of
    `scipy.sparse.csgraph.depth_first_tree`)."""
    from cuarray.scipy.sparse.csgraph._traversal import depth_first_order
    _, pred = depth_first_order(csgraph, i_start, directed, True)
    return reconstruct_path(csgraph, pred, directed)


def _arange(n):
    from cuarray._routines.creation import arange
    return arange(n, dtype=numpy.int64)
