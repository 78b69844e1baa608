"""Linear systems and factorizations (cuarray versions of scipy.linalg.solve,
solve_triangular, lu_factor, lu_solve, lu, cho_factor, cho_solve, inv, det).

Factorizations work on column-major copies, as LAPACK and cuSOLVER do, and return them as
SciPy does (F-ordered arrays). Reading cuSOLVER's `info` to raise LinAlgError (or warn) is
the one synchronisation of each call, besides `check_finite` (SciPy's default; pass
check_finite=False to skip that one).
"""
import warnings

import numpy

from cuarray._core.ndarray import ndarray
from cuarray._libs import cublas as _cublas
from cuarray._libs import cusolver as _cusolver
from cuarray._libs.cublas import CUDA_DTYPE, FILL_LOWER, FILL_UPPER, OP_C, OP_N, OP_T
from cuarray.scipy.linalg._util import (
    LinAlgError, LinAlgWarning, as_array, check_finite as _check_finite, fortran_copy,
    lapack_dtype, matrix, square)

_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}
_TRANS = {0: OP_N, "N": OP_N, "n": OP_N, 1: OP_T, "T": OP_T, "t": OP_T, 2: OP_C, "C": OP_C,
          "c": OP_C}
_i32 = numpy.dtype(numpy.int32)
_i64 = numpy.dtype(numpy.int64)


def _workspaces(dsize, hsize):
    from cuarray.linalg._lapack import _device_workspace, _host_workspace
    ws = _device_workspace(dsize)
    hws, hptr = _host_workspace(hsize)
    return ws, hws, hptr


def _info():
    return ndarray._alloc((1,), _i32)


def _read_info(info):
    v = int(info.get()[0])
    if v < 0:
        raise RuntimeError(f"cuSOLVER rejected argument {-v} (a cuarray bug)")
    return v


def _trans(trans):
    try:
        return _TRANS[trans]
    except (KeyError, TypeError):
        raise ValueError(f"trans must be 0, 1, 2, 'N', 'T' or 'C', got {trans!r}") from None


def _rhs(b, n, dt, name):
    """b as a fresh column-major (n, k) matrix of dtype dt, and how to shape the result."""
    if b.ndim == 0 or b.shape[0] != n:
        raise ValueError(f"shapes of a ({n}, {n}) and b {b.shape} are incompatible")
    if b.ndim > 2:
        raise ValueError(f"{name}: b must be 1-D or 2-D, got {b.ndim}-D")
    bb = b.reshape(n, -1) if b.ndim == 1 else b
    return fortran_copy(bb, dt), b.shape


# ----------------------------------------------------------------------------- triangular
def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     check_finite=True):
    """Solve op(a) x = b for triangular a with cuBLAS trsm (cuarray version of
    `scipy.linalg.solve_triangular`).

    As CuPy's, a zero on the diagonal gives inf/NaN rather than LinAlgError (trsm does not
    check, and checking would synchronise).
    """
    a = as_array(a, "solve_triangular")
    b = as_array(b, "solve_triangular")
    square(a, "solve_triangular")
    if check_finite:
        _check_finite(a, b)
    n = a.shape[0]
    dt = lapack_dtype(a, b)
    op = _trans(trans)
    if dt.kind != "c" and op == OP_C:
        op = OP_T
    bb, out_shape = _rhs(b, n, dt, "solve_triangular")
    if bb.size == 0:
        return bb.reshape(out_shape)
    uplo = FILL_LOWER if lower else FILL_UPPER
    if a._c_contig and a.dtype == dt and op != OP_C:
        # A C-ordered matrix read column-major is A^T: flip the triangle and the transpose.
        buf, uplo, op = a, FILL_UPPER if lower else FILL_LOWER, OP_T if op == OP_N else OP_N
    elif a._f_contig and a.dtype == dt:
        buf = a
    else:
        buf = fortran_copy(a, dt)
    alpha, _ = _cublas.one_zero(dt)
    fn = getattr(_cublas.lib, f"{_PREFIX[dt.char]}trsm")
    fn(_cublas.get_handle(), 0, uplo, op, 1 if unit_diagonal else 0, n, bb.shape[1], alpha,
       buf.data.ptr, n, bb.data.ptr, n)
    return bb.reshape(out_shape)


# ----------------------------------------------------------------------------- LU
def _getrf(a, dt):
    """(column-major LU of a (m, n), 1-based int64 pivots, info array)."""
    m, n = a.shape
    lu = fortran_copy(a, dt)
    k = min(m, n)
    ipiv = ndarray._alloc((max(k, 1),), _i64)
    info = _info()
    s = _cusolver.get_solver()
    t = CUDA_DTYPE[dt]
    dsize, hsize = _cusolver.lib.xgetrf_buffer_size(s.ptr, s.params, m, n, t, lu.data.ptr,
                                                     max(m, 1), t)
    ws, hws, hptr = _workspaces(dsize, hsize)
    _cusolver.lib.xgetrf(s.ptr, s.params, m, n, t, lu.data.ptr, max(m, 1), ipiv.data.ptr, t,
                         ws.data.ptr, dsize, hptr, hsize, info.data.ptr)
    return lu, ipiv[:k], info


def lu_factor(a, overwrite_a=False, check_finite=True):
    """LU factorization with partial pivoting: (lu, piv) with 0-based int32 pivots (cuarray
    version of `scipy.linalg.lu_factor`). Warns LinAlgWarning for an exactly singular
    matrix, as SciPy (reading cuSOLVER's report synchronises)."""
    a = matrix(a, "lu_factor", check_finite)
    dt = lapack_dtype(a)
    if a.size == 0:
        return fortran_copy(a, dt), ndarray._alloc((0,), _i32)
    lu, ipiv, info = _getrf(a, dt)
    v = _read_info(info)
    if v > 0:
        warnings.warn(f"Diagonal number {v} is exactly zero. Singular matrix.", LinAlgWarning,
                      stacklevel=2)
    return lu, (ipiv - 1).astype(_i32)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """Solve a x = b (or a^T, a^H) from `lu_factor`'s result (cuarray version of
    `scipy.linalg.lu_solve`)."""
    lu, piv = lu_and_piv
    lu = as_array(lu, "lu_solve")
    piv = as_array(piv, "lu_solve")
    b = as_array(b, "lu_solve")
    if check_finite:
        _check_finite(lu, b)
    if lu.ndim != 2 or lu.shape[0] != lu.shape[1] or b.ndim == 0 or b.shape[0] != lu.shape[0]:
        raise ValueError(f"Shapes of lu {lu.shape} and b {b.shape} are incompatible")
    n = lu.shape[0]
    dt = lapack_dtype(lu, b)
    op = _trans(trans)
    bb, out_shape = _rhs(b, n, dt, "lu_solve")
    if bb.size == 0:
        return bb.reshape(out_shape)
    buf = lu if (lu._f_contig and lu.dtype == dt) else fortran_copy(lu, dt)
    ipiv = (piv + 1).astype(_i64)
    s = _cusolver.get_solver()
    t = CUDA_DTYPE[dt]
    info = _info()
    _cusolver.lib.xgetrs(s.ptr, s.params, op, n, bb.shape[1], t, buf.data.ptr, n,
                         ipiv.data.ptr, t, bb.data.ptr, n, info.data.ptr)
    return bb.reshape(out_shape)


_PERM = {}


def _permutation(ipiv, m):
    """(perm, inverse) of LAPACK's row interchanges: row i of P^T A is row perm[i] of A.
    The swaps are sequential, so one thread applies them."""
    from cuarray._core.elementwise import Op, Param
    op = _PERM.get("perm")
    if op is None:
        op = _PERM["perm"] = Op(
            "cuarray_linalg_lu_permutation",
            [Param("piv", "raw", _i64), Param("p", "raw", _i64), Param("q", "raw", _i64),
             Param("m", "scalar", _i64)],
            "for (long long r = 0; r < m; ++r) p[r] = r; "
            "for (long long r = 0; r < piv.size(); ++r) { const long long s = piv[r] - 1; "
            "const long long t = p[r]; p[r] = p[s]; p[s] = t; } "
            "for (long long r = 0; r < m; ++r) q[p[r]] = r;")
    perm, inv = ndarray._alloc((m,), _i64), ndarray._alloc((m,), _i64)
    if m:
        op.launch([ipiv, perm, inv, numpy.int64(m)], size=1)
    return perm, inv


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """LU decomposition a = P L U with unit lower L (m, k) and upper U (k, n) (cuarray
    version of `scipy.linalg.lu`). `p_indices=True` gives p with a = L[p] @ U."""
    from cuarray._routines.creation_more import eye, tril, triu
    a = matrix(a, "lu", check_finite)
    dt = lapack_dtype(a)
    m, n = a.shape
    k = min(m, n)
    if a.size == 0:
        lu_, ipiv = fortran_copy(a, dt), ndarray._alloc((0,), _i64)
    else:
        lu_, ipiv, _ = _getrf(a, dt)
    L = tril(lu_[:, :k], -1) + eye(m, k, dtype=dt)
    U = triu(lu_[:k, :])
    perm, inv = _permutation(ipiv, m)
    if permute_l:
        from cuarray._routines.indexing import take
        return take(L, inv, axis=0), U
    if p_indices:
        return inv.astype(_i32), L, U
    P = _perm_matrix(perm, m, numpy.dtype(dt.char.lower()))
    return P, L, U


def _perm_matrix(perm, m, dtype):
    from cuarray._core.elementwise import Op, Param
    key = ("pmat", dtype.char)
    op = _PERM.get(key)
    if op is None:
        op = _PERM[key] = Op(
            f"cuarray_linalg_perm_matrix_{dtype.char}",
            [Param("p", "raw", _i64), Param("m", "scalar", _i64), Param("y", "out", dtype)],
            "const long long r = i / m, c = i - r * m; y = p[c] == r ? 1 : 0;")
    out = ndarray._alloc((m, m), dtype)
    if out.size:
        op.launch([perm, numpy.int64(m), out])
    return out


# ----------------------------------------------------------------------------- Cholesky
def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """Cholesky factorization for `cho_solve`: (c, lower), the factor in c's `lower` (or
    upper) triangle and a's values in the other, as SciPy (cuarray version of
    `scipy.linalg.cho_factor`). Synchronises to check positive definiteness."""
    a = as_array(a, "cho_factor")
    square(a, "cho_factor")
    if check_finite:
        _check_finite(a)
    dt = lapack_dtype(a)
    c = fortran_copy(a, dt)
    n = a.shape[0]
    if n == 0:
        return c, lower
    s = _cusolver.get_solver()
    t = CUDA_DTYPE[dt]
    uplo = FILL_LOWER if lower else FILL_UPPER
    info = _info()
    dsize, hsize = _cusolver.lib.xpotrf_buffer_size(s.ptr, s.params, uplo, n, t, c.data.ptr,
                                                     n, t)
    ws, hws, hptr = _workspaces(dsize, hsize)
    _cusolver.lib.xpotrf(s.ptr, s.params, uplo, n, t, c.data.ptr, n, t, ws.data.ptr, dsize,
                         hptr, hsize, info.data.ptr)
    v = _read_info(info)
    if v > 0:
        raise LinAlgError(f"{v}-th leading minor of the array is not positive definite")
    return c, lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve a x = b from `cho_factor`'s result (cuarray version of
    `scipy.linalg.cho_solve`)."""
    c, lower = c_and_lower
    c = as_array(c, "cho_solve")
    b = as_array(b, "cho_solve")
    if check_finite:
        _check_finite(c, b)
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise ValueError("The factored matrix c is not square.")
    n = c.shape[0]
    if b.ndim == 0 or b.shape[0] != n:
        raise ValueError(f"incompatible dimensions ({c.shape} and {b.shape})")
    dt = lapack_dtype(c, b)
    bb, out_shape = _rhs(b, n, dt, "cho_solve")
    if bb.size == 0:
        return bb.reshape(out_shape)
    buf = c if (c._f_contig and c.dtype == dt) else fortran_copy(c, dt)
    s = _cusolver.get_solver()
    t = CUDA_DTYPE[dt]
    info = _info()
    _cusolver.lib.xpotrs(s.ptr, s.params, FILL_LOWER if lower else FILL_UPPER, n, bb.shape[1],
                         t, buf.data.ptr, n, t, bb.data.ptr, n, info.data.ptr)
    return bb.reshape(out_shape)


# ----------------------------------------------------------------------------- solve
_STRUCTURES = {
    None: "gen", "gen": "gen", "general": "gen", "sym": "sym", "symmetric": "sym",
    "her": "her", "hermitian": "her", "pos": "pos", "positive definite": "pos",
    "diagonal": "diagonal", "tridiagonal": "gen", "banded": "gen",
    "upper triangular": "upper", "lower triangular": "lower",
}


def _structure(assume_a):
    try:
        return _STRUCTURES[assume_a]
    except (KeyError, TypeError):
        raise ValueError(f"{assume_a} is not a recognized matrix structure") from None


def _from_triangle(a, lower, conj):
    """The symmetric (Hermitian when conj) matrix stored in a's lower or upper triangle."""
    from cuarray._core._ops import conjugate
    from cuarray._routines.creation_more import tril, triu
    if lower:
        t, strict = tril(a), tril(a, -1)
    else:
        t, strict = triu(a), triu(a, 1)
    other = strict.T
    if conj and a.dtype.kind == "c":
        other = conjugate(other)
    out = t + other
    if conj and a.dtype.kind == "c":
        # LAPACK's Hermitian solvers read only the real part of the diagonal.
        d = out.diagonal()  # a view
        d[...] = d.real
    return out


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
          assume_a=None, transposed=False):
    """Solve a x = b (cuarray version of `scipy.linalg.solve`).

    `assume_a`: 'gen' (LU), 'sym'/'her' (the `lower` or upper triangle, solved by LU),
    'pos' (Cholesky), 'diagonal', 'upper triangular'/'lower triangular' (trsm);
    'tridiagonal' and 'banded' solve by LU. None is 'gen' (SciPy 1.17 would first look
    for such structures on the host). `transposed` solves a^T x = b. Synchronises to
    check for a singular matrix; SciPy's ill-conditioning warning is not given.
    """
    a = as_array(a, "solve")
    b = as_array(b, "solve")
    kind = _structure(assume_a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Expected square matrix, got a1.shape={a.shape}")
    n = a.shape[-1]
    if b.ndim == 0 or (b.shape[0] if b.ndim == 1 or a.ndim == 2 else b.shape[-2]) != n:
        raise ValueError(f"incompatible shapes: a1.shape={a.shape} and b1.shape={b.shape}")
    if check_finite:
        _check_finite(a, b)
    dt = lapack_dtype(a, b)
    if a.ndim > 2:  # stacks: LU through cuarray.linalg (NumPy's broadcasting rules)
        aa = a.swapaxes(-1, -2) if transposed else a
        return _lu_solve_stack(aa.astype(dt, copy=False), b.astype(dt, copy=False))
    if kind in ("upper", "lower"):
        return solve_triangular(a, b, trans=1 if transposed else 0, lower=kind == "lower",
                                check_finite=False)
    if kind == "diagonal":
        from cuarray._core._ops import divide
        from cuarray._routines.indexing import diagonal
        d = diagonal(a).astype(dt)
        bb = b.astype(dt, copy=False)
        return divide(bb, d if b.ndim == 1 else d[:, None])
    if kind in ("sym", "her", "pos"):
        a = _from_triangle(a.astype(dt, copy=False), lower, kind != "sym")
        if kind == "pos":
            if transposed and dt.kind == "c":
                from cuarray._core._ops import conjugate
                a = conjugate(a)
            return cho_solve(cho_factor(a, lower, check_finite=False), b, check_finite=False)
    aa = a.T if transposed else a
    return _lu_solve_stack(aa.astype(dt, copy=False), b.astype(dt, copy=False))


def _lu_solve_stack(a, b):
    from cuarray.linalg import solve as _solve
    if b.ndim == 1 and a.ndim > 2:
        b = b[:, None]
        vector = True
    else:
        vector = False
    try:
        x = _solve(a, b)
    except LinAlgError:
        raise LinAlgError("Matrix is singular.") from None
    return x[..., 0] if vector else x


def inv(a, overwrite_a=False, check_finite=True, *, assume_a=None, lower=False):
    """The inverse of a square matrix or stack (cuarray version of `scipy.linalg.inv`).

    assume_a='pos' inverts through Cholesky (LinAlgError when not positive definite);
    'sym'/'her' use the `lower` or upper triangle; every other structure is inverted by
    LU. Synchronises to check for a singular matrix.
    """
    a = as_array(a, "inv")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    kind = _structure(assume_a)
    if check_finite:
        _check_finite(a)
    dt = lapack_dtype(a)
    a = a.astype(dt, copy=False)
    if a.ndim == 2 and kind in ("sym", "her", "pos"):
        a = _from_triangle(a, lower, kind != "sym")
        if kind == "pos":
            from cuarray._routines.creation_more import eye
            return cho_solve(cho_factor(a, lower, check_finite=False),
                             eye(a.shape[0], dtype=dt), check_finite=False)
    from cuarray.linalg import inv as _inv
    try:
        return _inv(a)
    except LinAlgError:
        raise LinAlgError("singular matrix") from None


def det(a, overwrite_a=False, check_finite=True):
    """The determinant as a double-precision value, as SciPy returns it (cuarray version of
    `scipy.linalg.det`); a 0-d array (or one per matrix of a stack). SciPy factors a
    single-precision matrix in single precision; cuarray factors it in double."""
    a = as_array(a, "det")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"The input array must be square, got shape {a.shape}")
    if check_finite:
        _check_finite(a)
    dt = numpy.dtype(numpy.complex128 if a.dtype.kind == "c" else numpy.float64)
    from cuarray.linalg import det as _det
    return _det(a.astype(dt, copy=False))
