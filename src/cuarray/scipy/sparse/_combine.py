"""Sparse matrices built from others: kron, kronsum, hstack, vstack, bmat, block_array,
block_diag, tril, triu, find (cuarray versions of `scipy.sparse`'s functions).

Results are sparse arrays when any input is one, matrices otherwise (SciPy's rule).
Where SciPy returns BSR (kron), cuarray returns COO, as CuPy: it has no BSR format.
"""
import numpy

from cuarray._core._kernel_helpers import OpTemplate
from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import CLASSES, as_family, check_dtype, issparse


def _family(*xs):
    return "array" if any(issparse(x) and x._family == "array" for x in xs) else "matrix"


def _coo(x, family="matrix"):
    """`x` (sparse, or a dense cuarray 2-D array) as a COO matrix or array."""
    if issparse(x):
        return as_family(x.tocoo(), family)
    if not isinstance(x, ndarray):
        raise TypeError(f"expected a cuarray sparse matrix or array, got {type(x).__name__}")
    return CLASSES[family, "coo"](x)


# ---- kron -------------------------------------------------------------------------------------

_KRON = OpTemplate(
    "cuarray_sp_kron",
    "ar:raw:2 ac:raw:2 av:raw:0 br:raw:3 bc:raw:3 bv:raw:1 nb:scalar:int64 p:scalar:int64 "
    "q:scalar:int64 r:out:4 c:out:4 v:out:5",
    "const long long a = i / nb, b = i - a * nb; "
    "r = (long long)ar[a] * p + (long long)br[b]; "
    "c = (long long)ac[a] * q + (long long)bc[b]; "
    "v = cuarray_cast<${T5}>(av[a]) * cuarray_cast<${T5}>(bv[b]);")


def kron(A, B, format=None):
    """The Kronecker product of A and B (cuarray version of `scipy.sparse.kron`): one
    thread per product entry, a COO result unless `format` names another."""
    fam = _family(A, B)
    A, B = _coo(A), _coo(B)
    (m, n), (p, q) = A.shape, B.shape
    shape = (m * p, n * q)
    dt = numpy.result_type(A.dtype, B.dtype)
    na, nb = A.nnz, B.nnz
    idt = K.index_dtype(*shape)
    rows, cols = K._empty((na * nb,), idt), K._empty((na * nb,), idt)
    vals = K._empty((na * nb,), dt)
    if na * nb:
        op = _KRON(A.dtype, B.dtype, A.row.dtype, B.row.dtype, idt, dt)
        op.launch([A.row, A.col, A.data, B.row, B.col, B.data, numpy.int64(nb),
                   numpy.int64(p), numpy.int64(q), rows, cols, vals])
    out = CLASSES[fam, "coo"]._from_parts(vals, rows, cols, shape, False)
    return out.asformat(format)


def kronsum(A, B, format=None):
    """kron(I_n, A) + kron(B, I_m) for square A (m x m) and B (n x n) (cuarray version
    of `scipy.sparse.kronsum`)."""
    from cuarray.scipy.sparse._construct import eye
    fam = _family(A, B)
    A, B = _coo(A), _coo(B)
    if A.shape[0] != A.shape[1]:
        raise ValueError("A is not square")
    if B.shape[0] != B.shape[1]:
        raise ValueError("B is not square")
    dt = numpy.result_type(A.dtype, B.dtype)
    L = kron(eye(B.shape[0], dtype=dt, format="coo"), A, format="csr")
    R = kron(B, eye(A.shape[0], dtype=dt, format="coo"), format="csr")
    return as_family(L + R, fam).asformat(format)


# ---- stacking ---------------------------------------------------------------------------------

def _offset(x, off):
    from cuarray._core._ops import add
    return x if off == 0 else add(x, off)


def _blocks(blocks):
    """`blocks` as a 2-D list of COO blocks or None, with each row's height and each
    column's width (ValueError as SciPy's when they disagree)."""
    if isinstance(blocks, ndarray):
        raise ValueError("blocks must be a list of lists of sparse matrices, not a cuarray "
                         "array")
    grid = [list(r) for r in blocks]
    if not grid or any(len(r) != len(grid[0]) for r in grid):
        raise ValueError("blocks must be 2-D")
    fam = _family(*[b for r in grid for b in r])
    M, N = len(grid), len(grid[0])
    heights, widths = [None] * M, [None] * N
    for i, r in enumerate(grid):
        for j, b in enumerate(r):
            if b is None:
                continue
            b = r[j] = _coo(b, fam)
            h, w = b.shape
            if heights[i] is None:
                heights[i] = h
            elif heights[i] != h:
                raise ValueError(f"blocks[{i},:] has incompatible row dimensions. Got "
                                 f"blocks[{i},{j}].shape[0] == {h}, expected {heights[i]}.")
            if widths[j] is None:
                widths[j] = w
            elif widths[j] != w:
                raise ValueError(f"blocks[:,{j}] has incompatible column dimensions. Got "
                                 f"blocks[{i},{j}].shape[1] == {w}, expected {widths[j]}.")
    for i, h in enumerate(heights):
        if h is None:
            raise ValueError(f"blocks[{i},:] is all None")
    for j, w in enumerate(widths):
        if w is None:
            raise ValueError(f"blocks[:,{j}] is all None")
    return grid, heights, widths, fam


def _assemble(grid, heights, widths, fam, format, dtype):
    from cuarray._routines.joining import concatenate
    parts = [(i, j, b) for i, r in enumerate(grid) for j, b in enumerate(r) if b is not None]
    shape = (sum(heights), sum(widths))
    if dtype is None:
        dtype = numpy.result_type(*[b.dtype for _, _, b in parts])
    dtype = check_dtype(dtype)
    nnz = sum(b.nnz for _, _, b in parts)
    idt = K.index_dtype(*shape, nnz)
    r0 = numpy.concatenate([[0], numpy.cumsum(heights)])
    c0 = numpy.concatenate([[0], numpy.cumsum(widths)])
    rows = concatenate([_offset(b.row.astype(idt), int(r0[i])) for i, j, b in parts])
    cols = concatenate([_offset(b.col.astype(idt), int(c0[j])) for i, j, b in parts])
    data = concatenate([b.data.astype(dtype) for _, _, b in parts])
    out = CLASSES[fam, "coo"]._from_parts(data, rows, cols, shape, False)
    return out.asformat(format)


def bmat(blocks, format=None, dtype=None):
    """A sparse matrix from a 2-D grid of sparse blocks and None (cuarray version of
    `scipy.sparse.bmat`); COO unless `format` names another."""
    grid, heights, widths, fam = _blocks(blocks)
    return _assemble(grid, heights, widths, fam, format, dtype)


def block_array(blocks, *, format=None, dtype=None):
    """`bmat` giving a sparse array (cuarray version of `scipy.sparse.block_array`)."""
    grid, heights, widths, _ = _blocks(blocks)
    return _assemble(grid, heights, widths, "array", format, dtype)


def _same_format(blocks):
    fmts = {b.format for b in blocks if issparse(b)}
    return fmts.pop() if len(fmts) == 1 and all(issparse(b) for b in blocks) else None


def hstack(blocks, format=None, dtype=None):
    """Blocks side by side (cuarray version of `scipy.sparse.hstack`): CSR or CSC when
    every block has that format, else COO, unless `format` names one."""
    blocks = list(blocks)
    if format is None and _same_format(blocks) in ("csr", "csc"):
        format = blocks[0].format
    return bmat([blocks], format=format, dtype=dtype)


def vstack(blocks, format=None, dtype=None):
    """Blocks one above the other (cuarray version of `scipy.sparse.vstack`)."""
    blocks = list(blocks)
    if format is None and _same_format(blocks) in ("csr", "csc"):
        format = blocks[0].format
    return bmat([[b] for b in blocks], format=format, dtype=dtype)


def block_diag(mats, format=None, dtype=None):
    """Blocks along the diagonal (cuarray version of `scipy.sparse.block_diag`); dense
    cuarray arrays are taken as blocks too."""
    mats = list(mats)
    fam = _family(*mats)
    coos = [_coo(m, fam) for m in mats]
    if not coos:
        raise ValueError("block_diag needs at least one block")
    grid = [[None] * len(coos) for _ in coos]
    for i, b in enumerate(coos):
        grid[i][i] = b
    heights = [b.shape[0] for b in coos]
    widths = [b.shape[1] for b in coos]
    return _assemble(grid, heights, widths, fam, format, dtype)


# ---- triangles, find --------------------------------------------------------------------------

_TRIL = OpTemplate("cuarray_sp_tril", "r:in:int64 c:in:int64 k:scalar:int64 f:out:int64",
                   "f = (c - r <= k) ? 1 : 0;")
_TRIU = OpTemplate("cuarray_sp_triu", "r:in:int64 c:in:int64 k:scalar:int64 f:out:int64",
                   "f = (c - r >= k) ? 1 : 0;")


def _triangle(A, k, format, lower):
    if not issparse(A):
        raise TypeError("tril/triu need a cuarray sparse matrix or array; use cuarray.tril "
                        "for dense arrays")
    fam = A._family
    C = A.tocoo()
    op = (_TRIL if lower else _TRIU)(C.row.dtype)
    flags = K._empty((C.nnz,), K._i64)
    if C.nnz:
        op.launch([C.row, C.col, numpy.int64(k), flags])
    data, row, col = K.compact(flags, C.data, C.row, C.col)
    out = CLASSES[fam, "coo"]._from_parts(data, row, col, A.shape, C._canonical)
    return out.asformat(format)


def tril(A, k=0, format=None):
    """The lower triangle of A from diagonal k down (cuarray version of
    `scipy.sparse.tril`); COO unless `format` names another."""
    return _triangle(A, int(k), format, True)


def triu(A, k=0, format=None):
    """The upper triangle of A from diagonal k up (cuarray version of `scipy.sparse.triu`)."""
    return _triangle(A, int(k), format, False)


def find(A):
    """(row, col, values) of A's nonzero entries, duplicates summed, in row-major order
    (cuarray version of `scipy.sparse.find`)."""
    C = _coo(A).copy()
    C.sum_duplicates()
    data, row, col = K.compact(K._nonzero_flags(C.data), C.data, C.row, C.col)
    return row, col, data
