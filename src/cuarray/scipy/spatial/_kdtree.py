"""The k-d tree (cuarray version of `scipy.spatial.KDTree`).

Built on the GPU level by level: each level's nodes are contiguous ranges of the permuted
points halved at their median along the dimension of largest spread. A level is four
kernels and one radix sort over all points, with no host round trip: the nodes' bounds
(groups of lanes per node, parts of a node across blocks at the top levels), the split
dimension per node, the sort keys (node above the point's dense rank along the node's
split dimension, ranks computed once per dimension), one stable radix sort of those keys
carrying the permutation (only the key's significant bits), and the split values.
Queries run one thread per query point (`_kdtree_kernels`).
"""
import numpy

import cuarray as cp
from cuarray._core._routines_sorting import radix
from cuarray._core.raw import RawKernel
from cuarray._libs import cccl as _cccl
from cuarray.scipy.spatial import _kdtree_kernels as _src

_i64 = numpy.dtype(numpy.int64)
_u32 = numpy.dtype(numpy.uint32)
_u64 = numpy.dtype(numpy.uint64)
_ctype = {_u32: "unsigned int", _u64: "unsigned long long"}
_kernels = {}
_BLOCK = 128
# Local-memory heaps up to this k; larger k keep their heap in the output row.
_KLOCAL_MAX = 32
# From this many query points on, queries run in the order of the leaf they fall into.
_SORT_QUERIES = 4096
# Points a lane takes in the build's bounds pass.
_PER_LANE = 32
# Sort keys of up to this many bits are 32-bit (fewer bytes a radix pass), else 64-bit.
_KEY32_BITS = 32


def _kernel(name, m, pm, klocal=None):
    key = (name, m, pm, klocal)
    k = _kernels.get(key)
    if k is None:
        length, add = _src._POW[pm]
        body = {"kd_query": _src.QUERY, "kd_leaf": _src.LEAF, "kd_ball": _src.BALL}[name]
        subs = dict(M=m, LEN=length, ADD=add)
        if name == "kd_query":
            subs.update(KLOCAL=klocal, ROOT=_src.ROOT[pm])
        from cuarray._core._kernel_helpers import render
        src = "#include <cuarray/core.cuh>\n" + render(body, **subs)
        k = _kernels[key] = RawKernel(src, name)
    return k


def _build_kernel(name, m, kdt, pdt):
    key = ("build", name, m, kdt, pdt)
    k = _kernels.get(key)
    if k is None:
        from cuarray._core._kernel_helpers import render
        src = "#include <cuarray/core.cuh>\n" + render(_src.BUILD, M=m, K=_ctype[kdt],
                                                         P=_ctype[pdt])
        k = _kernels[key] = RawKernel(src, name)
    return k


def _groups(seglen):
    """(G, C) for the bounds of nodes of up to `seglen` points: groups of G lanes, C parts
    a node, about _PER_LANE points a lane (the top levels split a node across blocks)."""
    lanes = max(1, -(-seglen // _PER_LANE))
    if lanes <= 32:
        return 1 << (lanes - 1).bit_length(), 1
    return 32, -(-lanes // 32)


def _grid(n):
    return (max(1, min((n + _BLOCK - 1) // _BLOCK, 1 << 20)),)


def _points(x, name):
    x = cp.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: complex points are not supported")
    if x.dtype.kind not in "biuf":
        raise TypeError(f"{name}: points must be numeric, got {x.dtype}")
    return cp.ascontiguousarray(x.astype(numpy.float64, copy=False))


class KDTree:
    """kd-tree for nearest-neighbour lookup (cuarray version of `scipy.spatial.KDTree`;
    splits at the median of the widest dimension whatever `compact_nodes` and
    `balanced_tree` say; `boxsize` (periodic topology) is not supported)."""

    def __init__(self, data, leafsize=10, compact_nodes=True, copy_data=False,
                 balanced_tree=True, boxsize=None):
        data = _points(data, "KDTree")
        if data.ndim != 2:
            raise ValueError(f"data must be 2 dimensions, got shape {data.shape}")
        if leafsize < 1:
            raise ValueError("leafsize must be at least 1")
        if boxsize is not None:
            raise ValueError("cuarray's KDTree does not support boxsize (periodic topology)")
        self.data = data.copy() if copy_data else data
        self.n, self.m = data.shape
        self.leafsize = int(leafsize)
        if self.n and not bool(cp.isfinite(data).all()):
            raise ValueError("data must be finite, check for nan or inf values")
        self.maxes = cp.amax(data, axis=0) if self.n else cp.full(self.m, -numpy.inf)
        self.mins = cp.amin(data, axis=0) if self.n else cp.full(self.m, numpy.inf)
        self._build()

    def _build(self):
        n, m = self.n, self.m
        depth = 0
        while -(-n // (1 << depth)) > self.leafsize:
            depth += 1
        self._depth = depth
        nodes = (1 << depth) - 1
        sdim = cp.zeros(max(nodes, 1), dtype=numpy.int32)
        sval = cp.zeros(max(nodes, 1), dtype=numpy.float64)
        pdt = _u32 if n < 2**32 else _u64
        perm = cp.arange(n, dtype=pdt)
        if depth:
            # each point's dense rank along each dimension (equal coordinates, equal rank)
            rank = cp.empty((m, n), dtype=pdt)
            top = 0
            for d in range(m):
                u, inv = cp.unique(self.data[:, d], return_inverse=True)
                rank[d] = inv.reshape(n)
                top = max(top, u.size - 1)
            B = max(int(top).bit_length(), 1)
            if B + depth > 64:
                raise ValueError("KDTree: too many points for the build's 64-bit sort keys")
            backend = _cccl.backend()
            lo = hi = None
            for lev in range(depth):
                nseg = 1 << lev
                G, C = _groups(-(-n // nseg))
                ngroups = nseg * C
                if lo is None or lo.shape[0] < ngroups:
                    lo = cp.empty((ngroups, m), dtype=numpy.float64)
                    hi = cp.empty((ngroups, m), dtype=numpy.float64)
                dim = sdim[nseg - 1:2 * nseg - 1]
                lev32 = numpy.int32(lev)
                _build_kernel("kd_bounds", m, _u32, pdt)(
                    _grid(ngroups * G), (_BLOCK,), (self.data, perm, numpy.int64(n), lev32,
                                                    numpy.int32(G), numpy.int64(C),
                                                    numpy.int64(ngroups), lo, hi))
                _build_kernel("kd_split", m, _u32, pdt)(
                    _grid(32 * nseg), (_BLOCK,), (lo, hi, numpy.int64(nseg), numpy.int64(C),
                                                  dim))
                bits = B + lev
                kdt = _u32 if bits <= _KEY32_BITS else _u64
                keys = cp.empty(n, dtype=kdt)
                _build_kernel("kd_keys", m, kdt, pdt)(
                    _grid(n), (_BLOCK,), (perm, rank, dim, numpy.int64(n), lev32,
                                          numpy.int32(B), keys))
                _, perm = radix(keys, perm, bits, False, pdt, backend)
                _build_kernel("kd_sval", m, _u32, pdt)(
                    _grid(nseg), (_BLOCK,), (self.data, perm, dim, numpy.int64(n), lev32,
                                             sval[nseg - 1:2 * nseg - 1]))
        self._perm = perm.astype(_i64)
        self._pts = self.data[self._perm] if n else self.data
        self._sdim, self._sval = sdim, sval

    @property
    def size(self):
        """The number of nodes in the tree."""
        return 2 * (1 << self._depth) - 1

    def _query_points(self, x, p, eps):
        """(x as a C (nq, m) array, its leading shape, p as a float, p's mode, the pruning
        factor (1 + eps)**p) for a query; p and eps checked as SciPy checks them."""
        p, eps = float(p), float(eps)
        if p < 1:
            raise ValueError("Only p-norms with 1<=p<=infinity permitted")
        if eps < 0:
            raise ValueError("eps must be non-negative")
        x = _points(x, "KDTree.query")
        if x.ndim == 0 or x.shape[-1] != self.m:
            raise ValueError(f"x must consist of vectors of length {self.m} but has shape "
                             f"{tuple(x.shape)}")
        lead = x.shape[:-1]
        pm = _src.pmode(p)
        epsfac = 1.0 + eps if pm == "inf" else (1.0 + eps) ** p
        return cp.ascontiguousarray(x.reshape(-1, self.m)), lead, p, pm, epsfac

    def _order(self, xs):
        nq = xs.shape[0]
        if nq < _SORT_QUERIES or self._depth == 0:
            return cp.arange(nq, dtype=_i64)
        leaf = cp.empty(nq, dtype=_i64)
        _kernel("kd_leaf", self.m, "2")(_grid(nq), (_BLOCK,), (
            self._sdim, self._sval, xs, nq, numpy.int32(self._depth), leaf))
        return cp.argsort(leaf)

    def query(self, x, k=1, eps=0, p=2, distance_upper_bound=numpy.inf, workers=1):
        """Query the kd-tree for nearest neighbours (cuarray version of
        `scipy.spatial.KDTree.query`; `workers` is ignored, single points give 0-d
        arrays)."""
        if numpy.ndim(k) == 0:
            k = int(k)
            if k < 1:
                raise ValueError(f"k must be an integer >= 1, got {k}")
            cols, kmax = None, k
        else:
            cols = [int(v) for v in numpy.asarray(k).ravel()]
            if not cols or min(cols) < 1:
                raise ValueError("k must contain integers >= 1")
            kmax = max(cols)
        xs, lead, p, pm, epsfac = self._query_points(x, p, eps)
        nq = xs.shape[0]
        ub = float(distance_upper_bound)
        if pm != "inf" and ub < numpy.inf:
            ub = ub ** p
        out_d = cp.empty((nq, kmax), dtype=numpy.float64)
        out_i = cp.empty((nq, kmax), dtype=_i64)
        if nq:
            klocal = 0
            if kmax <= _KLOCAL_MAX:
                klocal = 1 << (kmax - 1).bit_length()
            order = self._order(xs)
            _kernel("kd_query", self.m, pm, klocal)(_grid(nq), (_BLOCK,), (
                self._pts, self._perm, self._sdim, self._sval, xs, order, nq, self.n,
                numpy.int32(self._depth), numpy.int32(kmax), p, ub, epsfac, out_d, out_i))
        if cols is not None:
            sel = cp.asarray(numpy.asarray(cols, dtype=_i64) - 1)
            out_d, out_i = out_d[:, sel], out_i[:, sel]
            shape = lead + (len(cols),)
        elif kmax == 1:
            shape = lead
        else:
            shape = lead + (kmax,)
        return out_d.reshape(shape), out_i.reshape(shape)

    def query_ball_point(self, x, r, p=2.0, eps=0, workers=1, return_sorted=None,
                         return_length=False):
        """All points within distance r of each point of x (cuarray version of
        `scipy.spatial.KDTree.query_ball_point`; the lengths are a device array, the lists
        of indices come back to the host as SciPy's lists / object arrays)."""
        xs, lead, p, pm, epsfac = self._query_points(x, p, eps)
        nq = xs.shape[0]
        rr = cp.broadcast_to(cp.asarray(r, dtype=numpy.float64), lead)
        rp = rr if pm in ("inf", "1") else rr ** p
        rp = cp.ascontiguousarray(rp.reshape(-1))
        kern = _kernel("kd_ball", self.m, pm)
        count = cp.zeros(nq, dtype=_i64)
        args = [self._pts, self._perm, self._sdim, self._sval, xs, rp, nq, self.n,
                numpy.int32(self._depth), p, epsfac]
        if nq:
            kern(_grid(nq), (_BLOCK,), tuple(args + [numpy.int32(0), count, count, count]))
        if return_length:
            return count.reshape(lead)
        start = cp.cumsum(count) - count
        total = int(start[-1] + count[-1]) if nq else 0
        keys = cp.empty(max(total, 1), dtype=_i64)
        if total:
            kern(_grid(nq), (_BLOCK,), tuple(args + [numpy.int32(1), count, start, keys]))
        single = len(lead) == 0
        sort = return_sorted or (return_sorted is None and not single)
        keys = keys[:total]
        if sort and total:
            keys = cp.sort(keys)
        flat = (keys % max(self.n, 1)).get()
        bounds = numpy.cumsum(count.get())[:-1]
        lists = [part.tolist() for part in numpy.split(flat, bounds)] if nq else []
        if single:
            return lists[0]
        res = numpy.empty(nq, dtype=object)
        for j, v in enumerate(lists):
            res[j] = v
        return res.reshape(lead)

