"""Shortest paths and minimum spanning trees (cuarray versions of
`scipy.sparse.csgraph.shortest_path`, `dijkstra`, `bellman_ford`, `johnson`,
`floyd_warshall` and `minimum_spanning_tree`).

Shortest paths relax every (source, edge) pair in parallel until nothing changes
(Bellman-Ford rounds). Distances are kept as int64 keys that order as the doubles do
(the bits, with all but the sign flipped for negatives), so a relaxation is one
atomicMin; negative weights work, and a change after n rounds is a negative cycle.
Predecessors are read off the final distances (the smallest node on a shortest path).
The spanning tree is Boruvka's: every tree picks its lightest outgoing edge (ties to the
earlier edge), trees merge, until no edge leaves a tree.
"""
import warnings

import numpy

from cuarray._core.elementwise import Op
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse.csgraph._graph import (
    F64, I64, Graph, compress_roots, flag_changed, full, op, param, read_flag)

NULL = -9999
_BIG = numpy.iinfo(numpy.int64).max
_METHODS = ("auto", "FW", "D", "BF", "J")
# double <-> ordered int64 key (an involution): keys compare as the doubles do.
_KEY = ("__device__ inline long long cg_key(double x) { const long long b = "
        "__double_as_longlong(x); return b >= 0 ? b : b ^ 0x7fffffffffffffffLL; }\n"
        "__device__ inline double cg_val(long long k) { return __longlong_as_double("
        "k >= 0 ? k : k ^ 0x7fffffffffffffffLL); }\n")


class NegativeCycleError(Exception):
    """A shortest path search met a negative cycle (SciPy's exception)."""


def _key_op(key, name, params, body):
    from cuarray.scipy.sparse.csgraph._graph import HOST_ATOMICS
    return K._op(key, lambda: Op(name, params, body, preamble=HOST_ATOMICS + _KEY))


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


def _relax_all(g, keys, weights, seed):
    """Bellman-Ford rounds over keys (k * n, int64) until no change; NegativeCycleError
    when round n still changes something. `seed(keys)` sets the sources' zeros."""
    n, m = g.n, g.nnz
    k = keys.size // max(n, 1)
    seed(keys)
    relax = _key_op(("cg_relax_k",), "cuarray_cg_relax",
                    [param("r", "raw"), param("c", "raw"), param("w", "raw", F64),
                     param("m", "scalar"), param("n", "scalar"), param("d", "raw"),
                     param("ch", "raw")],
                    "const long long s = i / m, e = i - s * m; "
                    "const double du = cg_val(d[s * n + r[e]]); "
                    "if (!isinf(du)) { const long long nd = cg_key(du + w[e]); "
                    "long long* t = &d[s * n + c[e]]; "
                    "if (nd < *t) { atomicMin(t, nd); ch.data_[0] = 1; } }")
    rounds = 0
    while m and k:
        ch = flag_changed()
        relax.launch([g.rows, g.cols, weights, numpy.int64(m), numpy.int64(n), keys, ch],
                     size=k * m)
        if not read_flag(ch):
            break
        rounds += 1
        if rounds > n:
            raise NegativeCycleError("Negative cycle detected")
    decode = _key_op(("cg_decode",), "cuarray_cg_decode",
                     [param("k", "in"), param("x", "out", F64)], "x = cg_val(k);")
    out = K._empty(keys.shape, F64)
    if out.size:
        decode.launch([keys, out])
    return out


def _inf_keys(size):
    return full(size, numpy.float64(numpy.inf).view(numpy.int64))


def _distances(g, src, weights):
    """(k, n) float64 distances from each source."""
    k, n = src.size, g.n
    seed = K._op(("cg_seed",), lambda: Op(
        "cuarray_cg_seed", [param("s", "in"), param("n", "scalar"), param("d", "raw")],
        "d[i * n + s] = 0;"))
    dist = _relax_all(g, _inf_keys(k * n), weights,
                      lambda keys: seed.launch([src, numpy.int64(n), keys]))
    return dist.reshape(k, n)


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


def _negative(w):
    from cuarray._core._reductions import amin
    return bool(w.size) and float(amin(w)) < 0


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False,
             unweighted=False, limit=numpy.inf, min_only=False):
    """Shortest path lengths from `indices` (cuarray version of
    `scipy.sparse.csgraph.dijkstra`); distances beyond `limit` are inf. With `min_only`
    the 1-D distance from the nearest source (and, with predecessors, the source each
    node was reached from). Negative weights warn as SciPy's and are exact here unless
    they form a negative cycle (NegativeCycleError)."""
    g = Graph(csgraph, directed=directed)
    w = K._zeros((g.nnz,), F64) + 1.0 if unweighted else g.weights
    if _negative(w):
        warnings.warn("Graph has negative weights: dijkstra will give inaccurate results "
                      "if the graph contains negative cycles. Consider johnson or "
                      "bellman_ford.", UserWarning, stacklevel=2)
    return _paths(g, w, indices, return_predecessors, limit, min_only)


def _paths(g, w, indices, return_predecessors, limit=numpy.inf, min_only=False):
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
    seed = K._op(("cg_seedall",), lambda: Op(
        "cuarray_cg_seed_all", [param("s", "in"), param("d", "raw")], "d[s] = 0;"))
    dist = _relax_all(g, _inf_keys(g.n), w, lambda keys: seed.launch([src, keys]))
    if limit != numpy.inf:
        dist = where(greater(dist, limit), numpy.inf, dist)
    if not return_predecessors:
        return dist
    pred = _predecessors_multi(g, src, dist, w)
    return dist, pred, _origins(g, src, pred)


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
    Every `method` runs the same parallel relaxation (exact for negative weights; a
    negative cycle raises NegativeCycleError); 'D' warns on negative weights as SciPy.
    `overwrite` is ignored."""
    if method not in _METHODS:
        raise ValueError(f"unrecognized method '{method}'")
    if method == "D":
        return dijkstra(csgraph, directed=directed, indices=indices,
                        return_predecessors=return_predecessors, unweighted=unweighted)
    g = Graph(csgraph, directed=directed)
    w = K._zeros((g.nnz,), F64) + 1.0 if unweighted else g.weights
    return _paths(g, w, indices, return_predecessors)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False,
                 unweighted=False):
    """Shortest paths, negative weights allowed (cuarray version of
    `scipy.sparse.csgraph.bellman_ford`)."""
    return shortest_path(csgraph, "BF", directed, return_predecessors, unweighted,
                         indices=indices)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False,
            unweighted=False):
    """Shortest paths, negative weights allowed (cuarray version of
    `scipy.sparse.csgraph.johnson`; computed as `bellman_ford`)."""
    return shortest_path(csgraph, "J", directed, return_predecessors, unweighted,
                         indices=indices)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False):
    """All-pairs shortest paths (cuarray version of
    `scipy.sparse.csgraph.floyd_warshall`; computed by parallel relaxation)."""
    return shortest_path(csgraph, "FW", directed, return_predecessors, unweighted)


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
