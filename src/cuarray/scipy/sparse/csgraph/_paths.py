"""Shortest paths and minimum spanning trees (cuarray versions of
`scipy.sparse.csgraph.shortest_path`, `dijkstra` and `minimum_spanning_tree`) for
non-negative edge weights.

Shortest paths relax every (source, edge) pair in parallel until nothing changes: the
distances are non-negative doubles, whose bit patterns order as int64, so a relaxation
is one atomicMin. Predecessors are then read off the final distances (the smallest node
on a shortest path). The spanning tree is Boruvka's: every tree picks its lightest
outgoing edge (ties to the earlier edge), trees merge, until no edge leaves a tree.
"""
import numpy

from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse.csgraph._graph import (
    F64, I64, Graph, compress_roots, flag_changed, full, op, param, read_flag)

NULL = -9999
_BIG = numpy.iinfo(numpy.int64).max
_METHODS = ("auto", "FW", "D", "BF", "J")


def _sources(g, indices):
    """(int64 device array of sources, whether the result drops the first axis)."""
    from cuarray._core.transfer import asarray
    if indices is None:
        from cuarray._routines.creation import arange
        return arange(g.n, dtype=numpy.int64), False
    scalar = getattr(indices, "ndim", None) == 0 or (
        not hasattr(indices, "ndim") and numpy.ndim(indices) == 0)
    idx = numpy.atleast_1d(indices.get() if hasattr(indices, "get") else numpy.asarray(indices))
    idx = idx.astype(numpy.int64).reshape(-1)
    if idx.size and (idx.min() < -g.n or idx.max() >= g.n):
        raise ValueError("indices out of range 0...N")
    return asarray(idx % max(g.n, 1)), scalar


def _distances(g, src, weights):
    """(k, n) float64 distances from each source, as int64 bits during the relaxation."""
    k, n = src.size, g.n
    inf_bits = numpy.float64(numpy.inf).view(numpy.int64)
    bits = full(k * n, inf_bits)
    seed = op(("cg_seed",), "cuarray_cg_seed",
              [param("s", "in"), param("n", "scalar"), param("d", "raw")],
              "d[i * n + s] = 0;")
    seed.launch([src, numpy.int64(n), bits])
    relax = op(("cg_relax",), "cuarray_cg_relax",
               [param("r", "raw"), param("c", "raw"), param("w", "raw", F64),
                param("m", "scalar"), param("n", "scalar"), param("d", "raw"),
                param("ch", "raw")],
               "const long long s = i / m, e = i - s * m; "
               "const double du = __longlong_as_double(d[s * n + r[e]]); "
               "if (!isinf(du)) { const long long nd = __double_as_longlong(du + w[e]); "
               "long long* t = &d[s * n + c[e]]; "
               "if (nd < *t) { atomicMin(t, nd); ch.data_[0] = 1; } }")
    m = g.nnz
    while m and k:
        ch = flag_changed()
        relax.launch([g.rows, g.cols, weights, numpy.int64(m), numpy.int64(n), bits, ch],
                     size=k * m)
        if not read_flag(ch):
            break
    return bits.view(numpy.float64).reshape(k, n)


def _predecessors(g, src, dist, weights):
    k, n, m = src.size, g.n, g.nnz
    pred = full(k * n, _BIG)
    o = op(("cg_pred",), "cuarray_cg_predecessors",
           [param("r", "raw"), param("c", "raw"), param("w", "raw", F64), param("m", "scalar"),
            param("n", "scalar"), param("d", "raw", F64), param("src", "raw"),
            param("p", "raw")],
           "const long long s = i / m, e = i - s * m, u = r[e], v = c[e]; "
           "const double du = d[s * n + u]; "
           "if (v != src[s] && !isinf(du) && du + w[e] == d[s * n + v]) "
           "atomicMin(&p[s * n + v], u);")
    if m and k:
        o.launch([g.rows, g.cols, weights, numpy.int64(m), numpy.int64(n), dist.reshape(-1),
                  src, pred], size=k * m)
    from cuarray._core._ops import equal, where
    pred = where(equal(pred, _BIG), numpy.int64(NULL), pred)
    return pred.astype(numpy.int32).reshape(k, n)


def _check_weights(w):
    from cuarray._core._reductions import amin
    if w.size and float(amin(w)) < 0:
        raise ValueError("cuarray's csgraph shortest paths need non-negative edge weights")


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False,
             unweighted=False, limit=numpy.inf, min_only=False):
    """Shortest path lengths from `indices` (cuarray version of
    `scipy.sparse.csgraph.dijkstra`); distances beyond `limit` are inf. With `min_only`
    the 1-D distance from the nearest source (and, with predecessors, the source each
    node was reached from)."""
    g = Graph(csgraph, directed=directed)
    w = K._zeros((g.nnz,), F64) + 1.0 if unweighted else g.weights
    _check_weights(w)
    src, scalar = _sources(g, indices)
    if min_only:
        return _nearest(g, src, w, limit, return_predecessors)
    dist = _distances(g, src, w)
    if limit != numpy.inf:
        from cuarray._core._ops import greater, where
        dist = where(greater(dist, limit), numpy.inf, dist)
    pred = _predecessors(g, src, dist, w) if return_predecessors else None
    if scalar:
        dist = dist.reshape(-1)
        pred = None if pred is None else pred.reshape(-1)
    return (dist, pred) if return_predecessors else dist


def _nearest(g, src, w, limit, return_predecessors):
    """min_only: one relaxation with every source at distance 0."""
    from cuarray._core._ops import greater, where
    dist = _seeded(g, src, w)
    if limit != numpy.inf:
        dist = where(greater(dist, limit), numpy.inf, dist)
    if not return_predecessors:
        return dist
    pred = _predecessors_multi(g, src, dist, w)
    return dist, pred, _origins(g, src, pred)


def _seeded(g, src, w):
    inf_bits = numpy.float64(numpy.inf).view(numpy.int64)
    bits = full(g.n, inf_bits)
    seed = op(("cg_seedall",), "cuarray_cg_seed_all",
              [param("s", "in"), param("d", "raw")], "d[s] = 0;")
    seed.launch([src, bits])
    relax = op(("cg_relax1",), "cuarray_cg_relax_one",
               [param("r", "in"), param("c", "in"), param("w", "in", F64), param("d", "raw"),
                param("ch", "raw")],
               "const double du = __longlong_as_double(d[r]); "
               "if (!isinf(du)) { const long long nd = __double_as_longlong(du + w); "
               "if (nd < d[c]) { atomicMin(&d[c], nd); ch.data_[0] = 1; } }")
    while g.nnz:
        ch = flag_changed()
        relax.launch([g.rows, g.cols, w, bits, ch])
        if not read_flag(ch):
            break
    return bits.view(numpy.float64)


def _predecessors_multi(g, src, dist, w):
    is_src = K._zeros((g.n,), I64)
    is_src[src] = 1
    pred = full(g.n, _BIG)
    o = op(("cg_predm",), "cuarray_cg_predecessors_multi",
           [param("r", "in"), param("c", "in"), param("w", "in", F64), param("d", "raw", F64),
            param("iss", "raw"), param("p", "raw")],
           "const double du = d[r]; "
           "if (!iss[c] && !isinf(du) && du + w == d[c]) atomicMin(&p[c], r);")
    if g.nnz:
        o.launch([g.rows, g.cols, w, dist, is_src, pred])
    from cuarray._core._ops import equal, where
    return where(equal(pred, _BIG), numpy.int64(NULL), pred).astype(numpy.int32)


def _origins(g, src, pred):
    """The source each node's predecessor chain ends at (-9999 where unreachable)."""
    o = op(("cg_origin",), "cuarray_cg_origins",
           [param("p", "raw", numpy.dtype(numpy.int32)), param("iss", "raw"),
            param("out", "out")],
           "long long a = i; while (!iss[a] && p[a] != -9999) a = p[a]; "
           "out = iss[a] ? a : -9999;")
    is_src = K._zeros((g.n,), I64)
    is_src[src] = 1
    out = K._empty((g.n,), I64)
    if g.n:
        o.launch([pred, is_src, out])
    return out.astype(numpy.int32)


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None):
    """Shortest path lengths (cuarray version of `scipy.sparse.csgraph.shortest_path`).
    Every `method` gives the same result here (parallel relaxation); negative weights
    raise ValueError. `overwrite` is ignored."""
    if method not in _METHODS:
        raise ValueError(f"unrecognized method '{method}'")
    return dijkstra(csgraph, directed=directed, indices=indices,
                    return_predecessors=return_predecessors, unweighted=unweighted)


def minimum_spanning_tree(csgraph, overwrite=False):
    """A minimum spanning tree (forest) of the undirected graph (cuarray version of
    `scipy.sparse.csgraph.minimum_spanning_tree`): a CSR matrix holding the chosen
    entries where the input stores them. Ties go to the earlier entry in row-major
    order, as SciPy's stable sort does; `overwrite` is ignored."""
    g = Graph(csgraph, directed=True)
    n, m = g.n, g.nnz
    from cuarray._routines.creation import arange
    comp = arange(n, dtype=numpy.int64)
    chosen = K._zeros((m,), I64)
    key_of = ("const long long b = __double_as_longlong(w); "
              "const long long key = b >= 0 ? b : b ^ 0x7fffffffffffffffLL;")
    best_w = op(("cg_mst_w",), "cuarray_cg_mst_lightest",
                [param("r", "in"), param("c", "in"), param("w", "in", F64), param("cm", "raw"),
                 param("bw", "raw")],
                key_of + " const long long a = cm[r], z = cm[c]; "
                "if (a != z) { atomicMin(&bw[a], key); atomicMin(&bw[z], key); }")
    best_e = op(("cg_mst_e",), "cuarray_cg_mst_first",
                [param("r", "in"), param("c", "in"), param("w", "in", F64), param("cm", "raw"),
                 param("bw", "raw"), param("be", "raw")],
                key_of + " const long long a = cm[r], z = cm[c]; if (a != z) { "
                "if (bw[a] == key) atomicMin(&be[a], (long long)i); "
                "if (bw[z] == key) atomicMin(&be[z], (long long)i); }")
    link = op(("cg_mst_link",), "cuarray_cg_mst_link",
              [param("be", "in"), param("r", "raw"), param("c", "raw"), param("cm", "raw"),
               param("ch", "raw"), param("sel", "raw"), param("nx", "out")],
              "nx = i; if (cm[i] == i && be != 0x7fffffffffffffffLL) { "
              "const long long a = cm[r[be]], z = cm[c[be]]; nx = a == i ? z : a; "
              "sel[be] = 1; ch.data_[0] = 1; }")
    breakup = op(("cg_mst_pair",), "cuarray_cg_mst_pairs",
                 [param("nx", "raw"), param("p", "out")],
                 "const long long j = nx[i]; p = (j != i && nx[j] == i && i < j) ? i : j;")
    while m:
        bw, be = full(n, _BIG), full(n, _BIG)
        best_w.launch([g.rows, g.cols, g.weights, comp, bw])
        best_e.launch([g.rows, g.cols, g.weights, comp, bw, be])
        ch = flag_changed()
        nx = K._empty((n,), I64)
        link.launch([be, g.rows, g.cols, comp, ch, chosen, nx])
        if not read_flag(ch):
            break
        parent = K._empty((n,), I64)
        breakup.launch([nx, parent])
        roots = compress_roots(parent)
        comp = K.gather(roots, comp)
    rows, cols, vals = K.compact(chosen, g.rows, g.cols, g.weights)
    idt = K.index_dtype(n, n, vals.size)
    indptr = K.lower_bounds(rows, n, idt)
    from cuarray.scipy.sparse._base import CLASSES
    return CLASSES[g.family, "csr"]._from_parts(vals, cols.astype(idt), indptr, (n, n), True)
