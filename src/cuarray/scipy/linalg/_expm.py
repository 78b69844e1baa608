"""The matrix exponential (cuarray version of `scipy.linalg.expm`): Higham's scaling and
squaring with Pade approximants of degree 3, 5, 7, 9 or 13 (Higham 2005, "The Scaling and
Squaring Method for the Matrix Exponential Revisited", Algorithm 2.3), on cuBLAS products
and one LU solve."""
import math

import numpy

from cuarray.scipy.linalg._util import as_array, lapack_dtype

# theta_m: the largest 1-norm for which the degree-m approximant is accurate to double
# precision (Higham 2005, Table 2.3).
_THETA = ((3, 1.495585217958292e-002), (5, 2.539398330063230e-001),
          (7, 9.504178996162932e-001), (9, 2.097847961257068e+000))
_THETA13 = 5.371920351148152e+000
_B = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
        3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
         129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
         40840800., 960960., 16380., 182., 1.),
}


def _pade(A, m, ident):
    """(U, V): the odd and even parts of the degree-m Pade approximant's numerator."""
    from cuarray.linalg._products import matmul
    b = _B[m]
    A2 = matmul(A, A)
    if m == 13:
        A4 = matmul(A2, A2)
        A6 = matmul(A4, A2)
        U = matmul(A, matmul(A6, b[13] * A6 + b[11] * A4 + b[9] * A2)
                   + b[7] * A6 + b[5] * A4 + b[3] * A2 + b[1] * ident)
        V = matmul(A6, b[12] * A6 + b[10] * A4 + b[8] * A2) \
            + b[6] * A6 + b[4] * A4 + b[2] * A2 + b[0] * ident
        return U, V
    powers = [ident, A2]
    while len(powers) < (m + 1) // 2:
        powers.append(matmul(powers[-1], A2))
    odd = sum(b[2 * k + 1] * P for k, P in enumerate(powers))
    even = sum(b[2 * k] * P for k, P in enumerate(powers))
    return matmul(A, odd), even


def expm(A):
    """exp(A) of a square matrix or a stack of them (cuarray version of
    `scipy.linalg.expm`).

    The degree and the number of squarings come from the largest 1-norm of the stack,
    read on the host (a synchronisation); the solve that forms the approximant reads
    cuSOLVER's singularity report (another one).
    """
    from cuarray._core import _ops
    from cuarray._core._reductions import amax, sum as _sum
    from cuarray._routines.creation_more import eye
    from cuarray.linalg import solve
    from cuarray.linalg._products import matmul
    a = as_array(A, "expm")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected a square matrix or a stack of square matrices")
    dt = lapack_dtype(a)
    a = a.astype(dt, copy=False)
    n = a.shape[-1]
    if a.size == 0:
        return a.copy()
    if n == 1:
        return _ops.exp(a)
    norm1 = float(amax(_sum(_ops.absolute(a), axis=-2)))
    ident = eye(n, dtype=dt)
    s = 0
    for m, theta in _THETA:
        if norm1 <= theta:
            break
    else:
        m = 13
        if norm1 > _THETA13:
            s = max(0, math.ceil(math.log2(norm1 / _THETA13)))
            a = a * dt.type(2.0 ** -s)
    if not numpy.isfinite(norm1):
        m, s = 13, 0  # inf/NaN entries propagate; no scaling can help
    U, V = _pade(a, m, ident)
    R = solve(V - U, V + U)
    for _ in range(s):
        R = matmul(R, R)
    return R
