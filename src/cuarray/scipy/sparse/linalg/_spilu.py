"""Incomplete LU factorization of a sparse square matrix (cuarray version of
`scipy.sparse.linalg.spilu`).

The factorization is ILU(0) with cuSPARSE's csrilu02: L and U keep exactly A's pattern
(no fill-in, no pivoting), which is what CuPy computes on the GPU with fill_factor=1.
SciPy's (and CuPy's default) ILUTP keeps fill-in by drop_tol/fill_factor; where A has no
fill-in to keep (tridiagonal, triangular, or block-diagonal with such blocks) both are
the exact LU. Solves are two cuSPARSE SpSV triangular solves, analysed once per
factorization and `trans`.
"""
import numpy

from cuarray.scipy.sparse.linalg._superlu import (SuperLU, _check_solve, _solve_columns,
                                                    _square_sparse)


def _factor_dtype(dtype):
    """SciPy's working dtype: the first of float32, float64, complex64, complex128 that
    `dtype` casts to safely (int8/int16/bool factor in float32, int32/int64 in float64)."""
    for c in "fdFD":
        if numpy.can_cast(dtype, c, "safe"):
            return numpy.dtype(c)
    raise TypeError(f"spilu cannot factor a matrix of dtype {dtype}")


class _IncompleteLU(SuperLU):
    """The ILU(0) factors of spilu: L U ~ A with L unit lower and U upper triangular on
    A's pattern; `perm_r` and `perm_c` are the identity (no pivoting)."""

    def __init__(self, lu, family):
        self._lu, self._family = lu, family   # CSR, canonical, L and U in one matrix
        self.shape = lu.shape
        self._L = self._U = None
        self._solvers = {}

    def _factors(self):
        if self._L is None:
            from cuarray.scipy.sparse._base import CLASSES
            from cuarray.scipy.sparse._combine import tril, triu
            from cuarray.scipy.sparse._construct import identity
            csc = CLASSES[self._family, "csc"]
            n, dt = self.shape[0], self._lu.dtype
            L = tril(self._lu, k=-1, format="csr") + identity(n, dtype=dt, format="csr")
            self._L = csc(L.tocsc())
            self._U = csc(triu(self._lu, format="csc"))
        return self._L, self._U

    @property
    def perm_r(self):
        from cuarray._routines.creation import arange
        return arange(self.shape[0], dtype=numpy.int32)

    def _triangles(self, trans):
        """The two triangular solves applied in order for op(A) = op(L U), each on its
        own triangle of the factors (SpSV reads nothing else)."""
        t = self._solvers.get(trans)
        if t is None:
            from cuarray.scipy.sparse._combine import tril, triu
            lu = self._lu
            if trans == "N":      # A = L U: L (unit lower) first, then U
                parts = ((tril(lu, -1, "csr"), True, True), (triu(lu, 0, "csr"), False, False))
            else:                 # A^T = U^T L^T: U^T is lower, L^T is unit upper
                lu = lu.T.tocsr()
                if trans == "H":
                    lu = lu.conj()
                parts = ((tril(lu, 0, "csr"), True, False), (triu(lu, 1, "csr"), False, True))
            t = self._solvers[trans] = [_triangle(*p) for p in parts]
        return t

    def solve(self, rhs, trans="N"):
        """x with A x = rhs ('N'), A^T x = rhs ('T') or A^H x = rhs ('H') for the
        factorized A (approximately, for the incomplete factors); rhs of shape (n,) or
        (n, k), cast to the factors' dtype where NumPy casts safely, as SciPy."""
        from cuarray._routines.creation import empty
        _check_solve(rhs, trans)
        n, dt = self.shape[0], self._lu.dtype
        if rhs.ndim not in (1, 2) or rhs.shape[0] != n:
            raise ValueError("b is of incompatible size")
        if not numpy.can_cast(rhs.dtype, dt, "safe"):
            raise TypeError(f"Cannot cast array data from dtype({str(rhs.dtype)!r}) to "
                            f"dtype({str(dt)!r}) according to the rule 'safe'")
        first, second = self._triangles(trans)

        def column(b):
            y, x = empty((n,), dtype=dt), empty((n,), dtype=dt)
            first.solve(b, y)
            second.solve(y, x)
            return x
        return _solve_columns(rhs, dt, column)


class _Identity:
    """A unit triangle with nothing off its diagonal."""

    @staticmethod
    def solve(x, y):
        y[...] = x


def _triangle(T, lower, unit):
    """solve(x, y): y = T^-1 x on cuSPARSE's SpSV, analysed on the first call; a unit
    triangle without off-diagonal entries is the identity."""
    if unit and T.nnz == 0:
        return _Identity
    from cuarray._libs.cusparse import TriangularSolve
    T.sort_indices()
    return TriangularSolve(T.shape, T.indptr.astype(numpy.int32, copy=False),
                           T.indices.astype(numpy.int32, copy=False), T.data, lower, unit)


def spilu(A, drop_tol=None, fill_factor=None, drop_rule=None, permc_spec=None,
          diag_pivot_thresh=None, relax=None, panel_size=None, options=None):
    """The incomplete LU factorization of square sparse A, as a `SuperLU` object with
    `solve` (cuarray version of `scipy.sparse.linalg.spilu`).

    Always ILU(0) on the GPU (see the module docstring): drop_tol, fill_factor,
    drop_rule and the SuperLU options are accepted and unused, as CuPy does with
    fill_factor=1. Input that is not CSC warns SparseEfficiencyWarning, as SciPy. A zero
    pivot (a missing or zero diagonal entry of U) raises RuntimeError; checking for one
    synchronises.
    """
    from cuarray._libs import cusparse
    N = _square_sparse(A, "spilu")
    dt = _factor_dtype(A.dtype)
    lu = A.tocsr().astype(dt)   # always a copy: csrilu02 overwrites the values
    lu.sum_duplicates()
    if lu.nnz >= 2 ** 31:
        raise ValueError(f"spilu: cuSPARSE's csrilu02 takes 32-bit indices, and A has "
                         f"{lu.nnz} stored entries")
    if N and lu.nnz:
        pivot = cusparse.csrilu02(N, lu.indptr.astype(numpy.int32, copy=False),
                                  lu.indices.astype(numpy.int32, copy=False), lu.data)
    else:
        pivot = 0 if N else -1
    if pivot >= 0:
        raise RuntimeError("Factor is exactly singular")
    return _IncompleteLU(lu, A._family)
