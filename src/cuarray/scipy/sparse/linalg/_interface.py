"""Abstract linear operators (cuarray version of `scipy.sparse.linalg.LinearOperator` and
`aslinearoperator`): anything that can compute A @ x, for the iterative solvers."""
import numpy

from cuarray._core.host_policy import host_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse._base import issparse


def _vector(product, x, n, m):
    """`product(x)` for x of shape (n,) or (n, 1), shaped (m,) or (m, 1) to match."""
    if x.shape != (n,) and x.shape != (n, 1):
        raise ValueError("dimension mismatch")
    y = product(x)
    return y.reshape(m) if x.ndim == 1 else y.reshape(m, 1)


class LinearOperator:
    """An m x n operator defined by how it multiplies vectors (cuarray version of
    `scipy.sparse.linalg.LinearOperator`).

    `LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None)`
    wraps functions; subclasses define `_matvec` and/or `_matmat` and call
    `super().__init__(dtype, shape)`, as in SciPy.
    """

    ndim = 2

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            return super().__new__(_CustomLinearOperator)
        return super().__new__(cls)

    def __init__(self, dtype, shape):
        shape = tuple(shape)
        if len(shape) != 2 or not all(isinstance(s, (int, numpy.integer)) and s >= 0
                                      for s in shape):
            raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
        self.dtype = None if dtype is None else numpy.dtype(dtype)
        self.shape = (int(shape[0]), int(shape[1]))

    def _init_dtype(self):
        if self.dtype is None:
            from cuarray._routines.creation import zeros
            self.dtype = self.matvec(zeros(self.shape[1])).dtype

    # ---- the products -------------------------------------------------------------------
    def _matmat(self, X):
        from cuarray._routines.joining import hstack
        return hstack([self.matvec(col.reshape(-1, 1)) for col in X.T])

    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _rmatvec(self, x):
        if type(self)._adjoint is LinearOperator._adjoint:
            raise NotImplementedError("rmatvec is not defined")
        return self.H.matvec(x)

    def _rmatmat(self, X):
        from cuarray._routines.joining import hstack
        return hstack([self.rmatvec(col.reshape(-1, 1)) for col in X.T])

    def matvec(self, x):
        """y = A @ x for x of shape (N,) or (N, 1); y has the matching shape."""
        M, N = self.shape
        return _vector(self._matvec, x, N, M)

    def rmatvec(self, x):
        """y = A^H @ x."""
        M, N = self.shape
        return _vector(self._rmatvec, x, M, N)

    def matmat(self, X):
        """Y = A @ X for a 2-D X."""
        return self._matrix(self._matmat, X, self.shape[1])

    def rmatmat(self, X):
        return self._matrix(self._rmatmat, X, self.shape[0])

    def _matrix(self, product, X, n):
        """`product(X)` for a 2-D X of `n` rows."""
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != n:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return product(X)

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        if not isinstance(x, ndarray):
            raise TypeError(f"expected a cuarray.ndarray or LinearOperator, got {type(x).__name__}")
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    __mul__ = dot
    __call__ = dot

    def __matmul__(self, other):
        if numpy.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.dot(other)

    def __rmul__(self, x):
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        return NotImplemented

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    @property
    def H(self):
        return self._adjoint()

    def adjoint(self):
        return self._adjoint()

    def __repr__(self):
        dt = "unspecified dtype" if self.dtype is None else f"dtype={self.dtype}"
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with {dt}>"


class _CustomLinearOperator(LinearOperator):
    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        super().__init__(dtype, shape)
        self.args = ()
        self.__matvec, self.__rmatvec = matvec, rmatvec
        self.__matmat, self.__rmatmat = matmat, rmatmat
        self._init_dtype()

    def _matvec(self, x):
        return self.__matvec(x)

    def _matmat(self, X):
        return self.__matmat(X) if self.__matmat is not None else super()._matmat(X)

    def _rmatvec(self, x):
        if self.__rmatvec is None:
            raise NotImplementedError("rmatvec is not defined")
        return self.__rmatvec(x)

    def _rmatmat(self, X):
        return self.__rmatmat(X) if self.__rmatmat is not None else super()._rmatmat(X)

    def _adjoint(self):
        return _CustomLinearOperator((self.shape[1], self.shape[0]), self.__rmatvec,
                                     self.__matvec, self.__rmatmat, self.dtype, self.__matmat)


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A = A

    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, X):
        return self.A._rmatmat(X)


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        dt = None if A.dtype is None or B.dtype is None else numpy.result_type(A.dtype, B.dtype)
        super().__init__(dt, (A.shape[0], B.shape[1]))
        self.A, self.B = A, B

    def _matvec(self, x):
        return self.A.matvec(self.B.matvec(x))

    def _rmatvec(self, x):
        return self.B.rmatvec(self.A.rmatvec(x))


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        dt = None if A.dtype is None else numpy.result_type(A.dtype, type(alpha))
        super().__init__(dt, A.shape)
        self.A, self.alpha = A, alpha

    def _matvec(self, x):
        return self.alpha * self.A.matvec(x)

    def _rmatvec(self, x):
        return numpy.conj(self.alpha) * self.A.rmatvec(x)


class MatrixLinearOperator(LinearOperator):
    """A dense or sparse matrix seen as a LinearOperator."""

    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A

    def _matmat(self, X):
        return self.A @ X

    def _matvec(self, x):
        return self.A @ x

    def _rmatvec(self, x):
        return self.A.conj().T @ x

    def _rmatmat(self, X):
        return self.A.conj().T @ X

    def _adjoint(self):
        return MatrixLinearOperator(self.A.conj().T)


class IdentityOperator(LinearOperator):
    """x -> x."""

    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _matmat(self, X):
        return X

    def _rmatmat(self, X):
        return X

    def _adjoint(self):
        return self


def aslinearoperator(A):
    """A LinearOperator for a LinearOperator, a 2-D cuarray array, a cuarray sparse
    matrix, or any object with `shape` and `matvec` (cuarray version of
    `scipy.sparse.linalg.aslinearoperator`)."""
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, ndarray) or issparse(A):
        if A.ndim != 2:
            raise ValueError("array must have ndim <= 2")
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              matmat=getattr(A, "matmat", None), dtype=getattr(A, "dtype", None))
    if isinstance(A, numpy.ndarray):
        raise host_error("aslinearoperator", A, "cuarray.scipy.sparse.linalg.", arg="A")
    raise TypeError("type not understood")
