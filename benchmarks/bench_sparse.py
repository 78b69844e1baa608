"""Issue 15: sparse matrices (`cuarray.scipy.sparse` against `cupyx.scipy.sparse`).

Matrices are drawn on the host with a fixed seed and moved to the device once per row;
each row times the operation alone. SpMV's figure is its memory traffic (values,
indices, pointers, x and y) per second.
"""
import inspect

import numpy

from benchmarks.harness import Group, Target, device_time

sparse = Group("sparse", "Issue 15: SpMV, SpMM, SpGEMM, row selection, cg, bicgstab, "
               "kron, tocsr")


def _sp(xp):
    """The sparse module of `xp`: cupyx.scipy.sparse for CuPy, cuarray.scipy.sparse."""
    if xp.__name__ == "cupy":
        import cupyx.scipy.sparse as s
    else:
        import cuarray.scipy.sparse as s
    return s


def _linalg(xp):
    if xp.__name__ == "cupy":
        import cupyx.scipy.sparse.linalg as la
    else:
        import cuarray.scipy.sparse.linalg as la
    return la


def _random_csr_host(m, n, nnz, dtype, seed):
    """(data, indices, indptr) of an m x n matrix with about nnz entries spread evenly
    over the rows, sorted columns, no duplicates."""
    rng = numpy.random.default_rng(seed)
    per = max(nnz // m, 1)
    cols = numpy.sort(rng.integers(0, n, (m, per), dtype=numpy.int64), axis=1)
    # Distinct columns in a row: bump repeats to the next column (wrapping is rare).
    cols = numpy.maximum.accumulate(cols + numpy.arange(per), axis=1) % n
    cols = numpy.sort(cols, axis=1)
    data = rng.standard_normal(m * per).astype(dtype)
    indptr = numpy.arange(0, m * per + 1, per, dtype=numpy.int32)
    return data, cols.reshape(-1).astype(numpy.int32), indptr


def _csr(xp, m, n, nnz, dtype, seed=0):
    data, indices, indptr = _random_csr_host(m, n, nnz, dtype, seed)
    return _sp(xp).csr_matrix((xp.asarray(data), xp.asarray(indices), xp.asarray(indptr)),
                              shape=(m, n))


def _spmv_row(dtype):
    def row(xp, ctx):
        m = n = 1 << 20
        A = _csr(xp, m, n, 1 << 24, dtype)
        x = xp.asarray(numpy.random.default_rng(1).standard_normal(n).astype(dtype))
        ms = device_time(lambda: A @ x, xp, repeat=ctx.repeat)
        item = numpy.dtype(dtype).itemsize
        nbytes = A.nnz * (item + 4) + (m + 1) * 4 + n * item + m * item
        return nbytes / (ms * 1e-3) / 1e9
    return row


for _dt in ("float32", "float64"):
    sparse.row(f"csr @ vector 2^20² 2^24 nnz {_dt}", unit="GB/s",
               target=Target.ratio(">=", 0.95))(_spmv_row(_dt))


@sparse.row("csr @ dense (2^20 × 64) 2^24 nnz float32", unit="ms",
            target=Target.ratio("<=", 1.0))
def spmm(xp, ctx):
    A = _csr(xp, 1 << 20, 1 << 20, 1 << 24, "float32")
    B = xp.asarray(numpy.random.default_rng(2).standard_normal((1 << 20, 64)).astype("float32"))
    return device_time(lambda: A @ B, xp, warmup=1, repeat=ctx.repeat)


@sparse.row("csr @ csr 2^18 rows 16 nnz/row float64", unit="ms",
            target=Target.ratio("<=", 1.0))
def spgemm(xp, ctx):
    A = _csr(xp, 1 << 18, 1 << 18, 16 << 18, "float64", seed=3)
    B = _csr(xp, 1 << 18, 1 << 18, 16 << 18, "float64", seed=4)
    return device_time(lambda: A @ B, xp, warmup=1, repeat=ctx.repeat)


@sparse.row("S[rows] 2^16 random rows of 2^20-row csr (16 nnz/row)", unit="ms",
            target=Target.ratio("<=", 1.0))
def row_select(xp, ctx):
    A = _csr(xp, 1 << 20, 1 << 20, 16 << 20, "float32", seed=5)
    rows = xp.asarray(numpy.random.default_rng(6).integers(0, 1 << 20, 1 << 16))
    return device_time(lambda: A[rows], xp, warmup=1, repeat=ctx.repeat)


def _poisson_host(g):
    """CSR (data, indices, indptr) of the 5-point Laplacian on a g x g grid."""
    n = g * g
    i = numpy.arange(n, dtype=numpy.int64)
    r, c = i // g, i % g
    cols = numpy.stack([i - g, i - 1, i, i + 1, i + g], axis=1)
    ok = numpy.stack([r > 0, c > 0, numpy.ones(n, bool), c < g - 1, r < g - 1], axis=1)
    vals = numpy.where(numpy.arange(5) == 2, 4.0, -1.0)[None, :].repeat(n, 0)
    indptr = numpy.concatenate([[0], numpy.cumsum(ok.sum(1))]).astype(numpy.int32)
    return vals[ok], cols[ok].astype(numpy.int32), indptr


def _poisson(xp, g):
    """(A, b) on the device: the g x g grid's Laplacian and a right-hand side of ones."""
    data, indices, indptr = _poisson_host(g)
    A = _sp(xp).csr_matrix((xp.asarray(data), xp.asarray(indices), xp.asarray(indptr)),
                           shape=(g * g, g * g))
    return A, xp.ones(g * g, dtype="float64")


@sparse.row("cg 2-D Poisson 4096² grid, 200 iterations float64", unit="ms",
            target=Target.ratio("<=", 1.0))
def cg_poisson(xp, ctx):
    A, b = _poisson(xp, 4096)
    cg = _linalg(xp).cg
    # A relative tolerance no iterate reaches: exactly 200 iterations. CuPy before 14
    # calls it `tol`; chosen here, outside the timed calls.
    name = "rtol" if "rtol" in inspect.signature(cg).parameters else "tol"
    kw = {"maxiter": 200, name: 1e-30, "atol": 0.0}
    return device_time(lambda: cg(A, b, **kw), xp, warmup=1,
                       repeat=max(ctx.repeat // 4, 3))


@sparse.row("bicgstab 2-D Poisson 2048² grid, 100 iterations float64", unit="ms",
            target=Target.ratio("<=", 1.0))
def bicgstab_poisson(xp, ctx):
    A, b = _poisson(xp, 2048)
    bicgstab = _linalg(xp).bicgstab
    # A relative tolerance no iterate reaches: exactly 100 iterations.
    kw = {"maxiter": 100, "rtol": 1e-30, "atol": 0.0}
    return device_time(lambda: bicgstab(A, b, **kw), xp, warmup=1,
                       repeat=max(ctx.repeat // 4, 3))


@sparse.row("kron of two 1024² 1%-dense float64", unit="ms", target=Target.ratio("<=", 1.0))
def kron(xp, ctx):
    A = _csr(xp, 1024, 1024, 10486, "float64", seed=7)
    B = _csr(xp, 1024, 1024, 10486, "float64", seed=8)
    s = _sp(xp)
    return device_time(lambda: s.kron(A, B), xp, warmup=1, repeat=ctx.repeat)


@sparse.row("tocsr of 2^24-entry COO with duplicates float32", unit="ms",
            target=Target.ratio("<=", 1.0))
def coo_tocsr(xp, ctx):
    rng = numpy.random.default_rng(9)
    m = n = 1 << 20
    keys = rng.integers(0, m * n, 1 << 23)
    keys = rng.permutation(numpy.concatenate([keys, keys]))  # every position twice
    row = xp.asarray((keys // n).astype(numpy.int32))
    col = xp.asarray((keys % n).astype(numpy.int32))
    data = xp.asarray(rng.standard_normal(keys.size).astype(numpy.float32))
    s = _sp(xp)
    # A fresh COO each call: converting sums duplicates, which a matrix may remember.
    return device_time(lambda: s.coo_matrix((data, (row, col)), shape=(m, n)).tocsr(), xp,
                       warmup=1, repeat=ctx.repeat)
