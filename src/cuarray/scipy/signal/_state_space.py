"""State-space representations (cuarray version of `scipy.signal.abcd_normalize`,
`tf2ss`, `ss2tf`, `zpk2ss`, `ss2zpk`): the matrices are built on the GPU and the
characteristic polynomials come from cuarray.linalg.eigvals."""
import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal._iir_design import _conj_pairs, _poly, tf2zpk, zpk2tf
from cuarray.scipy.signal._tf_transforms import normalize

__all__ = ["abcd_normalize", "tf2ss", "ss2tf", "zpk2ss", "ss2zpk"]


def _2d(M):
    if M is None:
        return cuarray.zeros((0, 0))
    M = M if isinstance(M, ndarray) else cuarray.asarray(numpy.asarray(M, dtype=float))
    return cuarray.atleast_2d(M)


def _shape_or_none(M):
    return None if M.size == 0 else M.shape


def _choice(*args):
    for a in args:
        if a is not None:
            return a
    return None


def _restore(M, shape):
    if M.shape == (0, 0):
        return cuarray.zeros(shape)
    if M.shape != shape:
        raise ValueError("The input arrays have incompatible shapes.")
    return M


def abcd_normalize(A=None, B=None, C=None, D=None):
    """cuarray version of `scipy.signal.abcd_normalize`."""
    A, B, C, D = (_2d(M) for M in (A, B, C, D))
    MA, NA = _shape_or_none(A) or (None, None)
    MB, NB = _shape_or_none(B) or (None, None)
    MC, NC = _shape_or_none(C) or (None, None)
    MD, ND = _shape_or_none(D) or (None, None)
    p = _choice(MA, MB, NC)
    q = _choice(NB, ND)
    r = _choice(MC, MD)
    if p is None or q is None or r is None:
        raise ValueError("Not enough information on the system.")
    return (_restore(A, (p, p)), _restore(B, (p, q)), _restore(C, (r, p)),
            _restore(D, (r, q)))


def tf2ss(num, den):
    """cuarray version of `scipy.signal.tf2ss`."""
    num, den = normalize(num, den)
    if num.ndim == 1:
        num = num.reshape(1, -1)
    M = num.shape[1]
    K = den.size
    if M > K:
        raise ValueError("Improper transfer function. `num` is longer than `den`.")
    if M == 0 or K == 0:
        e = cuarray.zeros(0)
        return e, e, e, e
    num = cuarray.concatenate((cuarray.zeros((num.shape[0], K - M), num.dtype), num), axis=1)
    D = cuarray.atleast_2d(num[:, 0])
    if K == 1:
        D = D.reshape(num.shape)
        return (cuarray.zeros((1, 1)), cuarray.zeros((1, D.shape[1])),
                cuarray.zeros((D.shape[0], 1)), D)
    A = cuarray.concatenate((-den[1:].reshape(1, -1), cuarray.eye(K - 2, K - 1)), axis=0)
    B = cuarray.eye(K - 1, 1)
    C = num[:, 1:] - num[:, 0:1] * den[1:].reshape(1, -1)
    return A, B, C, D.reshape(C.shape[0], B.shape[1])


def _charpoly(A):
    r = cuarray.linalg.eigvals(A) if A.size else cuarray.zeros(0)
    c = _poly(r)
    if c.dtype.kind == "c" and _conj_pairs(r):
        c = c.real.copy()
    return c


def ss2tf(A, B, C, D, input=0):
    """cuarray version of `scipy.signal.ss2tf`."""
    A, B, C, D = abcd_normalize(A, B, C, D)
    nout, nin = D.shape
    if input >= nin:
        raise ValueError("System does not have the input specified.")
    B = B[:, input:input + 1]
    D = D[:, input:input + 1]
    den = _charpoly(A) if A.size else cuarray.ones(1)
    if B.size == 0 and C.size == 0:
        num = D.ravel()
        if D.size == 0 and A.size == 0:
            den = cuarray.zeros(0)
        return num, den
    n = A.shape[0]
    rows = []
    for k in range(nout):
        Ck = C[k:k + 1, :]
        rows.append(_charpoly(A - B @ Ck) + (D[k] - 1) * den)
    num = cuarray.stack(rows)
    return num, den


def zpk2ss(z, p, k):
    """cuarray version of `scipy.signal.zpk2ss`."""
    return tf2ss(*zpk2tf(z, p, k))


def ss2zpk(A, B, C, D, input=0):
    """cuarray version of `scipy.signal.ss2zpk` (single-output systems)."""
    num, den = ss2tf(A, B, C, D, input=input)
    if num.ndim == 2:
        if num.shape[0] != 1:
            raise ValueError("cuarray.scipy.signal.ss2zpk handles single-output systems")
        num = num[0]
    return tf2zpk(num, den)
