"""Norms and other numbers (cuarray versions of numpy.linalg.norm, vector_norm,
matrix_norm, cond, det, slogdet, matrix_rank).

det and slogdet read the LU factors with one kernel (one block per matrix) and do not
synchronise: a singular matrix gives det 0 and logabsdet -inf, as NumPy.
"""
from typing import NamedTuple

import numpy

import cuarray
from cuarray.linalg._products import dot
from cuarray.linalg._decompositions import svd
from cuarray.linalg._lapack import _c_copy, _square_stack
from cuarray.linalg._solve import _inv, lu_factor
from cuarray.linalg._norm_reduce import vector_norm_reduce
from cuarray.linalg._util import (
    as_array, assert_stacked_2d, assert_stacked_square, common_type, normalize_axis, prod,
    real_dtype)


class SlogdetResult(NamedTuple):
    sign: object
    logabsdet: object


# ----------------------------------------------------------------------------- det
_SLOGDET_SOURCE = r"""
typedef {real} R;
typedef {piv} P;
#define NC {nc}
// sign and log|det| of each LU-factored matrix (column-major, 1-based LAPACK pivots):
// one block of 256 threads per matrix, a tree reduction over the diagonal.
extern "C" __global__ void __launch_bounds__(256) cuarray_lu_slogdet(
    const R* __restrict__ lu, const P* __restrict__ ipiv, long long n,
    R* __restrict__ sign, R* __restrict__ logabs)
{{
    __shared__ double s_log[256];
    __shared__ int s_flags[256];
    __shared__ R s_re[256];
    __shared__ R s_im[256];
    const long long b = blockIdx.x;
    const R* A = lu + b * n * n * NC;
    const P* piv = ipiv + b * n;
    const int t = threadIdx.x;
    double la = 0;
    int parity = 0, zero = 0;
    R pr = 1, pi = 0;
    for (long long i = t; i < n; i += 256) {{
        if ((long long)piv[i] != i + 1) parity ^= 1;
        const long long d = i * (n + 1) * NC;
#if NC == 1
        R x = A[d];
        if (x < 0) {{ parity ^= 1; x = -x; }}
        if (x == 0) zero = 1;
        la += log((double)x);
#else
        const R re = A[d], im = A[d + 1];
        const R mag = hypot(re, im);
        if (mag == 0) zero = 1;
        else {{
            const R ur = re / mag, ui = im / mag, r = pr * ur - pi * ui;
            pi = pr * ui + pi * ur;
            pr = r;
        }}
        la += log((double)mag);
#endif
    }}
    s_log[t] = la;
    s_flags[t] = parity | (zero << 1);
    s_re[t] = pr;
    s_im[t] = pi;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {{
        if (t < st) {{
            s_log[t] += s_log[t + st];
            const int f = s_flags[t + st];
            s_flags[t] = (s_flags[t] ^ (f & 1)) | (s_flags[t] & 2) | (f & 2);
            const R r = s_re[t] * s_re[t + st] - s_im[t] * s_im[t + st];
            s_im[t] = s_re[t] * s_im[t + st] + s_im[t] * s_re[t + st];
            s_re[t] = r;
        }}
        __syncthreads();
    }}
    if (t == 0) {{
        const int f = s_flags[0];
        const R sg = (f & 1) ? R(-1) : R(1);
        if (f & 2) {{
            sign[b * NC] = 0;
            if (NC == 2) sign[b * NC + NC - 1] = 0;
            logabs[b] = (R)(-1.0 / 0.0);
        }} else {{
            sign[b * NC] = NC == 1 ? sg : sg * s_re[0];
            if (NC == 2) sign[b * NC + NC - 1] = sg * s_im[0];
            logabs[b] = (R)s_log[0];
        }}
    }}
}}
"""
_slogdet_kernels = {}


def slogdet_source(dtype, pivot_dtype):
    """CUDA C source of the LU -> (sign, log|det|) kernel."""
    real = "float" if real_dtype(dtype).itemsize == 4 else "double"
    piv = "int" if numpy.dtype(pivot_dtype).itemsize == 4 else "long long"
    return _SLOGDET_SOURCE.format(real=real, piv=piv, nc=2 if dtype.kind == "c" else 1)


def _slogdet(a):
    dt = common_type(a)
    rdt = real_dtype(dt)
    n = a.shape[-1]
    batch = a.shape[:-2]
    count = prod(batch)
    if n == 0 or count == 0:
        return cuarray.ones(batch, dtype=dt), cuarray.zeros(batch, dtype=rdt)
    buf = _c_copy(a, dt)             # A^T: the same determinant
    ipiv, _, _ = lu_factor(buf, n, count, dt)
    key = (dt, ipiv.dtype)
    k = _slogdet_kernels.get(key)
    if k is None:
        k = _slogdet_kernels[key] = cuarray.RawKernel(slogdet_source(dt, ipiv.dtype),
                                                      "cuarray_lu_slogdet")
    sign = cuarray.empty(batch, dtype=dt)
    logabs = cuarray.empty(batch, dtype=rdt)
    k((count,), (256,), (buf, ipiv, n, sign, logabs))
    return sign, logabs


def slogdet(a):
    """Sign and natural log of the absolute determinant (cuarray version of
    `numpy.linalg.slogdet`)."""
    sign, logabs = _slogdet(_square_stack(a, "linalg.slogdet"))
    return SlogdetResult(sign, logabs)


def det(a):
    """Determinant of a matrix or stack (cuarray version of `numpy.linalg.det`); as NumPy,
    computed as sign * exp(logabsdet) from the LU factors."""
    sign, logabs = _slogdet(_square_stack(a, "linalg.det"))
    return sign * cuarray.exp(logabs)


# ----------------------------------------------------------------------------- rank, cond
def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Rank by counting singular values above a tolerance (cuarray version of
    `numpy.linalg.matrix_rank`). Returns an array, not a Python int (no synchronisation)."""
    A = as_array(A, "linalg.matrix_rank")
    if A.ndim < 2:
        return cuarray.any(A != 0).astype(numpy.int64)
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * numpy.finfo(S.dtype).eps
        elif isinstance(rtol, cuarray.ndarray):
            rtol = rtol[..., None]
        tol = cuarray.max(S, axis=-1, keepdims=True) * rtol
    elif isinstance(tol, cuarray.ndarray):
        tol = tol[..., None]
    return cuarray.sum(S > tol, axis=-1)


def cond(x, p=None):
    """Condition number (cuarray version of `numpy.linalg.cond`); NaN results from
    singular matrices become inf, as NumPy."""
    x = as_array(x, "linalg.cond", array_like=True)
    assert_stacked_2d(x)
    if p is None or p == 2 or p == -2:
        s = svd(x, compute_uv=False)
        r = s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    else:
        assert_stacked_square(x)
        rdt = real_dtype(common_type(x))
        invx = _inv(x, check=False)
        r = norm(x, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))
        r = r.astype(rdt, copy=False)
    nan_here = cuarray.isnan(r) & ~cuarray.any(cuarray.isnan(x), axis=(-2, -1))
    return cuarray.where(nan_here, numpy.inf, r)


# ----------------------------------------------------------------------------- norms
def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm (cuarray version of `numpy.linalg.norm`); every `ord`,
    `axis` and `keepdims` of NumPy. Vector norms are one reduction kernel."""
    x = as_array(x, "linalg.norm")
    if axis is None:
        nd = x.ndim
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            return vector_norm_reduce(x, None, None, keepdims)
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = (int(axis),)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    if len(axis) == 1:
        return vector_norm_reduce(x, ord, axis, keepdims)
    if len(axis) == 2:
        if x.dtype.kind not in "fc":
            x = x.astype(numpy.float64)
        return _matrix_norm(x, ord, axis, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def _matrix_norm(x, ord, axis, keepdims):
    nd = x.ndim
    row, col = normalize_axis(axis[0], nd), normalize_axis(axis[1], nd)
    if row == col:
        raise ValueError("Duplicate axes given.")
    if ord == 2 or ord == -2 or ord == "nuc":
        s = svd(cuarray.moveaxis(x, (row, col), (-2, -1)), compute_uv=False)
        ret = (cuarray.max(s, axis=-1) if ord == 2 else
               cuarray.min(s, axis=-1) if ord == -2 else cuarray.sum(s, axis=-1))
    elif ord == 1 or ord == -1:
        c = col - 1 if col > row else col
        sums = cuarray.sum(cuarray.abs(x), axis=row)
        ret = cuarray.max(sums, axis=c) if ord == 1 else cuarray.min(sums, axis=c)
    elif ord == numpy.inf or ord == -numpy.inf:
        r = row - 1 if row > col else row
        sums = cuarray.sum(cuarray.abs(x), axis=col)
        ret = cuarray.max(sums, axis=r) if ord == numpy.inf else cuarray.min(sums, axis=r)
    elif ord in (None, "fro", "f"):
        ret = vector_norm_reduce(x, None, (row, col), False)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        ret = ret.reshape(shape)
    return ret


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector norm over any number of axes (cuarray version of
    `numpy.linalg.vector_norm`); one reduction kernel, the reduced axes read in place."""
    x = as_array(x, "linalg.vector_norm")
    return vector_norm_reduce(x, ord, axis, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norm over the last two axes (cuarray version of `numpy.linalg.matrix_norm`)."""
    x = as_array(x, "linalg.matrix_norm")
    assert_stacked_2d(x)
    return norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)
