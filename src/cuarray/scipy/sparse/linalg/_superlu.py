"""LU factorization of a sparse square matrix (cuarray version of
`scipy.sparse.linalg.splu` and its `SuperLU` object).

The matrix is factorized in dense form with cuSOLVER's getrf (partial pivoting by rows,
no column reordering), so it must fit in GPU memory as a dense matrix; L and U come back
as sparse CSC matrices, and solves run on the GPU with getrs.
"""
import warnings

import numpy

from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse._base import SparseEfficiencyWarning, issparse


def _square_sparse(A, name):
    """Refuse A unless it is a square cuarray sparse matrix; warn, as SciPy, when it is not
    CSC (the factorizations convert it)."""
    if not issparse(A):
        raise TypeError(f"{name} needs a cuarray sparse matrix A")
    if A.format != "csc":
        warnings.warn(f"{name} converted its input to CSC format", SparseEfficiencyWarning,
                      stacklevel=3)
    M, N = A.shape
    if M != N:
        raise ValueError("can only factor square matrices")
    return N


def _check_solve(rhs, trans):
    """Refuse a `trans` other than N, T, H and a right-hand side not on the device."""
    if trans not in ("N", "T", "H"):
        raise ValueError("trans must be N, T, or H")
    if not isinstance(rhs, ndarray):
        raise not_device_error("SuperLU.solve", rhs, "cuarray.scipy.sparse.linalg.", arg="rhs")


def _solve_columns(b, dt, solve):
    """`solve(c)` of each column c of `b` (of `b` itself when 1-D), each passed as a
    C-contiguous copy in `dt`, gathered in an array of b's shape."""
    from cuarray._routines.creation import empty
    x = empty(b.shape, dtype=dt)
    if x.size == 0:
        return x
    if b.ndim == 1:
        return solve(b.astype(dt, order="C", copy=True))
    for j in range(b.shape[1]):
        x[:, j] = solve(b[:, j].astype(dt, order="C", copy=True))
    return x


class SuperLU:
    """The LU factorization Pr A Pc = L U of a square sparse matrix (cuarray version of
    `scipy.sparse.linalg.SuperLU`): `shape`, `nnz`, `perm_r`, `perm_c`, `L`, `U`,
    `solve(rhs, trans='N')`. Here Pc is the identity."""

    def __init__(self, lu, piv, family):
        self._lu, self._piv, self._family = lu, piv, family
        self.shape = lu.shape
        self._L = self._U = None

    def _factors(self):
        if self._L is None:
            from cuarray._routines.creation_more import eye, tril, triu
            from cuarray.scipy.sparse._base import CLASSES
            n = self.shape[0]
            csc = CLASSES[self._family, "csc"]
            self._L = csc(tril(self._lu, -1) + eye(n, dtype=self._lu.dtype))
            self._U = csc(triu(self._lu))
        return self._L, self._U

    @property
    def L(self):
        return self._factors()[0]

    @property
    def U(self):
        return self._factors()[1]

    @property
    def nnz(self):
        L, U = self._factors()
        return L.nnz + U.nnz

    @property
    def perm_r(self):
        """Row permutation: Pr[perm_r, arange(n)] = 1 (int32, as SciPy)."""
        from cuarray.scipy.linalg._solve import _permutation
        _, inverse = _permutation((self._piv + 1).astype(numpy.int64), self.shape[0])
        return inverse.astype(numpy.int32)

    @property
    def perm_c(self):
        from cuarray._routines.creation import arange
        return arange(self.shape[0], dtype=numpy.int32)

    def solve(self, rhs, trans="N"):
        """x with A x = rhs ('N'), A^T x = rhs ('T') or A^H x = rhs ('H')."""
        from cuarray.scipy.linalg import lu_solve
        _check_solve(rhs, trans)
        if rhs.shape[0] != self.shape[0]:
            raise ValueError("rhs has the wrong number of rows")
        return lu_solve((self._lu, self._piv), rhs, trans={"N": 0, "T": 1, "H": 2}[trans],
                        check_finite=False)


def splu(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None,
         options=None):
    """The LU factorization of square sparse A as a `SuperLU` object (cuarray version of
    `scipy.sparse.linalg.splu`; dense getrf, see the module docstring). Input that is not
    CSC warns SparseEfficiencyWarning, as SciPy; an exactly singular A raises
    RuntimeError. The ordering and SuperLU tuning arguments are accepted and unused."""
    from cuarray.scipy.linalg import LinAlgWarning, lu_factor
    _square_sparse(A, "splu")
    dense = A.toarray()
    if dense.dtype.kind not in "fc":
        dense = dense.astype(numpy.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LinAlgWarning)
        try:
            lu, piv = lu_factor(dense, check_finite=False)
        except LinAlgWarning:
            raise RuntimeError("Factor is exactly singular") from None
    return SuperLU(lu, piv, A._family)
