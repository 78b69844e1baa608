"""Connected components and graph traversals (cuarray versions of
`scipy.sparse.csgraph.connected_components`, `breadth_first_order`, `depth_first_order`).

Weak components hook the root of one end of every edge to the smaller root of the other
(atomicMin) and then jump pointers, until no edge joins two trees. Strong components use
colouring: the largest node id reaching each node spreads forward; the nodes of one
colour that reach back to the node with that id form one component; repeat on the rest.
Every round reads one flag (a synchronisation).

A breadth-first level expands its frontier in order into (parent, neighbour) candidates
and each new node keeps its first candidate (atomicMin of the position), which is the
order SciPy's queue visits them in. Depth-first order is sequential by nature: one GPU
thread walks the graph with an explicit stack.
"""
import numpy

from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse.csgraph._graph import (
    F64, I64, Graph, arange, compress_roots, flag_changed, full, op, param, read_flag,
    renumber)

NULL = -9999


def _weak(g):
    lab = arange(g.n)
    hook = op(("cg_hook",), "cuarray_cg_hook",
              [param("r", "in"), param("c", "in"), param("lab", "raw"), param("ch", "raw")],
              "long long a = lab[r], b = lab[c]; "
              "while (lab[a] != a) a = lab[a]; while (lab[b] != b) b = lab[b]; "
              "if (a != b) { const long long hi = a > b ? a : b, lo = a < b ? a : b; "
              "atomicMin(&lab[hi], lo); ch.data_[0] = 1; }")
    while g.nnz:
        ch = flag_changed()
        hook.launch([g.rows, g.cols, lab, ch])
        lab = compress_roots(lab)
        if not read_flag(ch):
            break
    return lab


def _strong(g):
    from cuarray._core._reductions import sum as _sum
    n = g.n
    lab = full(n, -1)
    active = full(n, 1)
    init = op(("cg_color0",), "cuarray_cg_color0",
              [param("a", "in"), param("col", "out"), param("lab", "raw")],
              "col = a ? i : -1; if (a) lab[i] = -1;")
    fwd = op(("cg_fwd",), "cuarray_cg_forward",
             [param("u", "in"), param("v", "in"), param("act", "raw"), param("col", "raw"),
              param("ch", "raw")],
             "if (act[u] && act[v] && col[u] > col[v]) { atomicMax(&col[v], col[u]); "
             "ch.data_[0] = 1; }")
    roots = op(("cg_roots0",), "cuarray_cg_scc_roots",
               [param("a", "in"), param("col", "in"), param("lab", "raw")],
               "if (a && col == i) lab[i] = i;")
    bwd = op(("cg_bwd",), "cuarray_cg_backward",
             [param("u", "in"), param("v", "in"), param("act", "raw"), param("col", "raw"),
              param("lab", "raw"), param("ch", "raw")],
             "if (act[u] && act[v] && lab[u] < 0 && lab[v] >= 0 && col[u] == col[v]) "
             "{ lab[u] = col[u]; ch.data_[0] = 1; }")
    while n:
        col = K._empty((n,), I64)
        init.launch([active, col, lab])
        while g.nnz:
            ch = flag_changed()
            fwd.launch([g.rows, g.cols, active, col, ch])
            if not read_flag(ch):
                break
        roots.launch([active, col, lab])
        while g.nnz:
            ch = flag_changed()
            bwd.launch([g.rows, g.cols, active, col, lab, ch])
            if not read_flag(ch):
                break
        active = _retire(lab, active)
        if int(_sum(active)) == 0:
            break
    return lab


def _retire(lab, active):
    """1 where a node is still active and unlabelled."""
    o = op(("cg_retire",), "cuarray_cg_retire",
           [param("lab", "in"), param("a0", "in"), param("a", "out")],
           "a = (a0 && lab < 0) ? 1 : 0;")
    out = K._empty(active.shape, I64)
    o.launch([lab, active, out])
    return out


def connected_components(csgraph, directed=True, connection="weak", return_labels=True):
    """(n_components, labels) of a graph (cuarray version of
    `scipy.sparse.csgraph.connected_components`). Labels number the components by
    their smallest node for 'weak' (as SciPy), by the largest node reaching them for
    'strong' (SciPy's numbering differs there; the partition is the same)."""
    connection = str(connection).lower()
    if connection not in ("weak", "strong"):
        raise ValueError("connection must be 'weak' or 'strong'")
    if not directed:
        connection = "weak"
    if connection == "weak":
        lab = _weak(Graph(csgraph, directed=False))
    else:
        lab = _strong(Graph(csgraph, directed=True))
    count, labels = renumber(lab)
    return (count, labels) if return_labels else count


def _start(g, i_start):
    i = int(i_start)
    if i < 0 or i >= g.n:
        raise ValueError(f"i_start must be in [0, {g.n})" if g.n else "graph has no nodes")
    return i


def breadth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """(node order, predecessors) of a breadth-first search from i_start (cuarray version
    of `scipy.sparse.csgraph.breadth_first_order`); predecessors are -9999 where none."""
    from cuarray._routines.joining import concatenate
    from cuarray.scipy.sparse._select import run_lengths, select_major
    g = Graph(csgraph, directed=directed)
    i = _start(g, i_start)
    indptr, indices = g.adjacency()
    visited = K._zeros((g.n,), I64)
    visited[i] = 1
    pred = full(g.n, NULL)
    best = full(g.n, numpy.iinfo(numpy.int64).max)
    frontier = full(1, i)
    order = [frontier]
    claim = op(("cg_claim",), "cuarray_cg_bfs_claim",
               [param("v", "in"), param("vis", "raw"), param("best", "raw")],
               "if (!vis[v]) atomicMin(&best[v], (long long)i);")
    keep = op(("cg_keep",), "cuarray_cg_bfs_keep",
              [param("v", "in"), param("vis", "raw"), param("best", "raw"), param("f", "out")],
              "f = (!vis[v] && best[v] == i) ? 1 : 0;")
    mark = op(("cg_mark",), "cuarray_cg_bfs_mark",
              [param("v", "in"), param("par", "in"), param("vis", "raw"), param("pred", "raw")],
              "vis[v] = 1; pred[v] = par;")
    while frontier.size:
        _, nbrs, _ = select_major(indptr, indices, K._zeros((indices.size,), F64), frontier)
        if nbrs.size == 0:
            break
        parents = _parents(frontier, run_lengths(frontier, indptr))
        nbrs = nbrs.astype(I64)
        claim.launch([nbrs, visited, best])
        flags = K._empty(nbrs.shape, I64)
        keep.launch([nbrs, visited, best, flags])
        nbrs, parents = K.compact(flags, nbrs, parents)
        mark.launch([nbrs, parents, visited, pred])
        frontier = nbrs
        if frontier.size:
            order.append(frontier)
    nodes = concatenate(order).astype(numpy.int32)
    return (nodes, pred.astype(numpy.int32)) if return_predecessors else nodes


def _parents(frontier, counts):
    """frontier[r] repeated counts[r] times, in order."""
    from cuarray.scipy.sparse._select import _ends, _with_zero
    ends, total = _ends(counts)
    # Parent r owns a run of counts[r] candidates: the run a candidate falls in names it.
    rep = K.expand_major(_with_zero(ends, I64), total)
    return K.gather(frontier, rep)


def depth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """(node order, predecessors) of a depth-first search from i_start (cuarray version
    of `scipy.sparse.csgraph.depth_first_order`): one GPU thread, SciPy's visiting rule
    (always the first unvisited neighbour of the deepest node)."""
    g = Graph(csgraph, directed=directed)
    i = _start(g, i_start)
    indptr, indices = g.adjacency()
    n = g.n
    nodes, stack = K._empty((n,), I64), K._empty((n,), I64)
    flag = K._zeros((n,), I64)
    pred = full(n, NULL)
    count = K._empty((1,), I64)
    walk = op(("cg_dfs",), "cuarray_cg_dfs",
              [param("p", "raw"), param("q", "raw"), param("flag", "raw"),
               param("nodes", "raw"), param("stack", "raw"), param("pred", "raw"),
               param("head", "scalar"), param("n", "scalar"), param("cnt", "raw")],
              "long long top = 0, end = 1; nodes.data_[0] = head; stack.data_[0] = head; "
              "flag[head] = 1; "
              "while (top >= 0 && end < n) { const long long u = stack[top]; bool leaf = true; "
              "for (long long j = p[u]; j < p[u + 1]; ++j) { const long long c = q[j]; "
              "if (flag[c]) continue; stack[++top] = c; nodes[end++] = c; pred[c] = u; "
              "flag[c] = 1; leaf = false; break; } if (leaf) --top; } cnt.data_[0] = end;")
    walk.launch([indptr, indices, flag, nodes, stack, pred, numpy.int64(i), numpy.int64(n),
                 count], size=1)
    out = nodes[:int(count[0])].astype(numpy.int32)
    return (out, pred.astype(numpy.int32)) if return_predecessors else out
