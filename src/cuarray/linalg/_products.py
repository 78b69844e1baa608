"""Matrix and vector products (cuarray versions of numpy.matmul, dot, vdot, inner, outer,
tensordot, kron, vecdot, cross and numpy.linalg.matrix_power, multi_dot, ...).

Float and complex products run on cuBLAS (float16 through cublasGemmEx with float32
accumulation, as CuPy); integer and bool products on cuarray's own GEMM kernel
(`_gemm_kernel.py`), which wraps on overflow in the result dtype as NumPy does.
C- and F-ordered operands and transposed or sliced views go to cuBLAS without a copy;
only operands no cuBLAS transpose can describe are copied first.
"""
import operator
import warnings

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray._libs import cublas as _cublas
from cuarray.linalg import _gemm_kernel
from cuarray.linalg._util import (
    as_array, assert_2d, assert_stacked_2d, assert_stacked_square,
    normalize_axis, prod)

_blas = _cublas.lib
_INT32_MAX = 2**31 - 1
_SIG = "(n?,k),(k,m?)->(n?,m?)"


# ----------------------------------------------------------------------------- planning
class GemmPlan:
    """How to compute a (..., m, k) @ b (..., k, n) into a C-contiguous (..., m, n).

    copy: None, or (operand index, materialise broadcast?) when an operand must be
    copied first (then plan again). blas_args: cuBLAS's column-major view of the
    row-major product C^T = B^T A^T: (transa, transb, M, N, K, ld_b, stride_b, ld_a,
    stride_a, ldc, stride_c, count, needs_64bit_api). kernel_args: element strides
    (batch, row, column) of a and b for `_gemm_kernel.gemm`.
    """

    __slots__ = ("copy", "batch", "m", "n", "k", "count", "blas_args", "kernel_args")

    def __init__(self, batch, m, n, k):
        self.batch, self.m, self.n, self.k = batch, m, n, k
        self.count = prod(batch)
        self.copy = self.blas_args = self.kernel_args = None


def broadcast_batch(s1, s2, name="matmul"):
    try:
        return tuple(numpy.broadcast_shapes(s1, s2))
    except ValueError:
        raise ValueError(
            f"{name}: operands could not be broadcast together: batch shapes {s1} and {s2}"
        ) from None


def collapse_batch(batch, shape, strides):
    """The one element stride that steps an operand through `batch`, or None.

    `shape`/`strides` are the operand's own batch dims (right-aligned with `batch`);
    broadcast dims step by 0.
    """
    pad = len(batch) - len(shape)
    shape, strides = (1,) * pad + tuple(shape), (0,) * pad + tuple(strides)
    dims = [(nb, s if n != 1 else 0) for nb, n, s in zip(batch, shape, strides) if nb != 1]
    if not dims:
        return 0
    for (_, outer), (n_in, inner) in zip(dims, dims[1:]):
        if outer != inner * n_in:
            return None
    return dims[-1][1]


def blas_layout(rows, cols, sr, sc):
    """('R', ld) for a row-major matrix, ('C', ld) for a column-major one, else None.

    Strides are in elements; a dimension of size 1 may have any stride.
    """
    if cols <= 1 or sc == 1:
        ld = sr if rows > 1 else max(cols, 1)
        if ld >= max(cols, 1):
            return "R", ld
    if rows <= 1 or sr == 1:
        ld = sc if cols > 1 else max(rows, 1)
        if ld >= max(rows, 1):
            return "C", ld
    return None


def plan_matmul(a_shape, a_strides, b_shape, b_strides, itemsize, blas):
    """Plan a (..., m, k) @ b (..., k, n); shapes and byte strides, ndim >= 2 for both."""
    batch = broadcast_batch(a_shape[:-2], b_shape[:-2])
    m, k = a_shape[-2:]
    n = b_shape[-1]
    plan = GemmPlan(batch, m, n, k)
    if plan.count == 0 or m == 0 or n == 0 or k == 0:
        return plan
    ops = []
    generic = []
    for which, (shape, strides) in enumerate(((a_shape, a_strides), (b_shape, b_strides))):
        if any(s % itemsize for s in strides):
            plan.copy = (which, False)
            return plan
        es = [s // itemsize for s in strides]
        bs = collapse_batch(batch, shape[:-2], es[:-2])
        if bs is None:
            plan.copy = (which, True)
            return plan
        rows, cols = shape[-2:]
        sr, sc = es[-2:]
        generic.append((bs, sr, sc))
        if blas:
            lay = blas_layout(rows, cols, sr, sc)
            if lay is None:
                plan.copy = (which, False)
                return plan
            ops.append((bs, lay))
    if not blas:
        plan.kernel_args = tuple(generic)
        return plan
    (bsa, (la, lda)), (bsb, (lb, ldb)) = ops
    count, rows_c = plan.count, m
    # A stack of row-major a against one b is one tall GEMM: (count*m, k) @ (k, n).
    if count > 1 and bsb == 0 and la == "R" and bsa == m * lda:
        count, rows_c = 1, count * m
    transa = _cublas.OP_N if lb == "R" else _cublas.OP_T
    transb = _cublas.OP_N if la == "R" else _cublas.OP_T
    big = max(n, rows_c, k, lda, ldb, count) > _INT32_MAX
    plan.blas_args = (transa, transb, n, rows_c, k, ldb, bsb, lda, bsa, n, m * n, count, big)
    return plan


_plans = {}


def _get_plan(a, b, itemsize, blas):
    key = (a._shape, a._strides, b._shape, b._strides, itemsize, blas)
    plan = _plans.get(key)
    if plan is None:
        plan = plan_matmul(a._shape, a._strides, b._shape, b._strides, itemsize, blas)
        if len(_plans) >= 4096:
            _plans.clear()
        _plans[key] = plan
    return plan


# ----------------------------------------------------------------------------- execution
_GEMM = {"f": (_blas.sgemm, _blas.sgemm_64, _blas.sgemm_strided_batched,
               _blas.sgemm_strided_batched_64),
         "d": (_blas.dgemm, _blas.dgemm_64, _blas.dgemm_strided_batched,
               _blas.dgemm_strided_batched_64),
         "F": (_blas.cgemm, _blas.cgemm_64, _blas.cgemm_strided_batched,
               _blas.cgemm_strided_batched_64),
         "D": (_blas.zgemm, _blas.zgemm_64, _blas.zgemm_strided_batched,
               _blas.zgemm_strided_batched_64)}
_R16F = _cublas.CUDA_DTYPE[numpy.dtype(numpy.float16)]
_F32 = numpy.dtype(numpy.float32)


def _run_blas(args, a, b, c, dtype):
    transa, transb, M, N, K, ldb, sb, lda, sa, ldc, sc, count, big = args
    h = _cublas.get_handle()
    pa, pb, pc = a.data.ptr, b.data.ptr, c.data.ptr
    if dtype.char == "e":
        alpha, beta = _cublas.one_zero(_F32)
        if count == 1:
            fn = _blas.gemm_ex_64 if big else _blas.gemm_ex
            fn(h, transa, transb, M, N, K, alpha, pb, _R16F, ldb, pa, _R16F, lda, beta,
               pc, _R16F, ldc, _cublas.COMPUTE_32F, -1)
        else:
            fn = _blas.gemm_strided_batched_ex_64 if big else _blas.gemm_strided_batched_ex
            fn(h, transa, transb, M, N, K, alpha, pb, _R16F, ldb, sb, pa, _R16F, lda, sa, beta,
               pc, _R16F, ldc, sc, count, _cublas.COMPUTE_32F, -1)
        return
    alpha, beta = _cublas.one_zero(dtype)
    fns = _GEMM[dtype.char]
    if count == 1:
        fns[big](h, transa, transb, M, N, K, alpha, pb, ldb, pa, lda, beta, pc, ldc)
    else:
        fns[2 + big](h, transa, transb, M, N, K, alpha, pb, ldb, sb, pa, lda, sa, beta,
                     pc, ldc, sc, count)


def matmul_nd(a, b, dtype, out=None):
    """a (..., m, k) @ b (..., k, n), both of `dtype` and ndim >= 2, C-contiguous result.

    `out`, when given, is C-contiguous of the result's shape and dtype and overlaps
    neither operand.
    """
    blas = dtype.kind in "fc"
    if not blas and not _gemm_kernel.supports(dtype):
        raise TypeError(f"matmul does not support dtype {dtype}")
    while True:
        plan = _get_plan(a, b, dtype.itemsize, blas)
        if plan.copy is None:
            break
        which, materialise = plan.copy
        x = b if which else a
        if materialise:
            x = cuarray.broadcast_to(x, plan.batch + x.shape[-2:])
        x = cuarray.ascontiguousarray(x)
        a, b = (a, x) if which else (x, b)
    c = out if out is not None else ndarray._alloc(plan.batch + (plan.m, plan.n), dtype)
    if c.size == 0:
        return c
    if plan.k == 0:
        c.fill(0)
    elif blas:
        _run_blas(plan.blas_args, a, b, c, dtype)
    else:
        sa, sb = plan.kernel_args
        _gemm_kernel.gemm(a, b, c, plan.m, plan.n, plan.k, plan.count, sa, sb)
    return c


def _extent(x):
    lo = hi = x.data.ptr
    for n, s in zip(x.shape, x.strides):
        if n == 0:
            return 0, 0
        if s > 0:
            hi += s * (n - 1)
        else:
            lo += s * (n - 1)
    return lo, hi + x.itemsize


def _overlaps(out, *inputs):
    lo, hi = _extent(out)
    for x in inputs:
        xlo, xhi = _extent(x)
        if xlo < hi and lo < xhi:
            return True
    return False


_resolved = {}


def _resolve(dt1, dt2, out_dt, dtype, casting, name="matmul"):
    key = (dt1, dt2, out_dt, dtype, casting)
    dt = _resolved.get(key)
    if dt is None:
        sig = None if dtype is None else (None, None, numpy.dtype(dtype))
        kw = {} if sig is None else {"signature": sig}
        dt = numpy.matmul.resolve_dtypes((dt1, dt2, out_dt), casting=casting, **kw)[2]
        if dt.kind not in "biufc" or dt.itemsize > 16 or (dt.kind == "f" and dt.itemsize > 8):
            raise TypeError(f"cuarray.{name} does not support dtype {dt}")
        _resolved[key] = dt
    return dt


def _to_out(result, out):
    if out is None:
        return result
    cuarray.copyto(out, result, casting="unsafe")
    return out


# ----------------------------------------------------------------------------- products
def matmul(x1, x2, /, out=None, *, casting="same_kind", dtype=None):
    """Matrix product of two arrays (cuarray version of `numpy.matmul`).

    Stacks broadcast; a 1-D operand is promoted to a matrix and the added axis removed,
    as NumPy does. float32 is computed in full FP32 unless the environment sets
    `CUARRAY_TF32=1` (TF32 tensor cores, read when a thread first uses cuBLAS on a
    device); float16 accumulates in float32.
    """
    if (out is None and dtype is None and type(x1) is ndarray and type(x2) is ndarray
            and x1.dtype == x2.dtype and x1.dtype.kind in "fc" and x1.ndim >= 2 and x2.ndim >= 2
            and x1._shape[:-2] == x2._shape[:-2] and x1._shape[-1] == x2._shape[-2]):
        # Same dtype, same batch shape: the resolution below would change nothing.
        return matmul_nd(x1, x2, x1.dtype)
    a = as_array(x1, "matmul")
    b = as_array(x2, "matmul")
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(
                f"matmul: Input operand {i} does not have enough dimensions (has 0, gufunc "
                f"core with signature {_SIG} requires 1)")
    if isinstance(out, tuple):      # the ufunc form, as __array_ufunc__ passes it
        if len(out) != 1:
            raise ValueError("matmul: 'out' tuple must have exactly one entry")
        out = out[0]
    if out is not None:
        out = as_array(out, "matmul")
    dt = _resolve(a.dtype, b.dtype, None if out is None else out.dtype, dtype, casting)
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature {_SIG} (size {b2.shape[-2]} is different from {a2.shape[-1]})")
    batch = broadcast_batch(a2.shape[:-2], b2.shape[:-2])
    shape = batch + (a2.shape[-2], b2.shape[-1])
    final = batch + a.shape[-2:-1] + b.shape[-1:] if b.ndim > 1 else batch + a.shape[-2:-1]
    a2 = a2.astype(dt, copy=False)
    b2 = b2.astype(dt, copy=False)
    target = None
    if out is not None:
        if out.shape != final:
            raise ValueError(
                f"matmul: Output operand 0 has shape {out.shape}, the result has shape {final}")
        if out.dtype == dt and out.flags.c_contiguous and not _overlaps(out, a, b):
            target = out.reshape(shape)
    c = matmul_nd(a2, b2, dt, target)
    if target is not None:
        return out
    c = c.reshape(final) if a.ndim == 1 or b.ndim == 1 else c
    return _to_out(c, out)


def dot(a, b, out=None):
    """Dot product of two arrays (cuarray version of `numpy.dot`).

    Returns a 0-d array for two vectors, where NumPy returns a scalar.
    """
    a = as_array(a, "dot")
    b = as_array(b, "dot")
    if a.ndim == 0 or b.ndim == 0:
        return cuarray.multiply(a, b, out=out)
    ka = a.shape[-1]
    kb_axis = 0 if b.ndim == 1 else b.ndim - 2
    if ka != b.shape[kb_axis]:
        raise ValueError(
            f"shapes {_fmt(a.shape)} and {_fmt(b.shape)} not aligned: {ka} (dim {a.ndim - 1}) "
            f"!= {b.shape[kb_axis]} (dim {kb_axis})")
    dt = _resolve(a.dtype, b.dtype, None, None, "same_kind", "dot")
    final = a.shape[:-1] + b.shape[:kb_axis] + b.shape[kb_axis + 1:]
    if out is not None:
        out = as_array(out, "dot")
        if out.dtype != dt or out.shape != final or not out.flags.c_contiguous:
            raise ValueError("output array is not acceptable (must have the right datatype, "
                             "number of dimensions, and be a C-Array)")
    a = a.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    if b.ndim <= 2:
        # N-D . 2-D and N-D . 1-D are one GEMM over a's rows: (prod(a.shape[:-1]), k) @ b.
        a2 = a.reshape(-1, ka) if a.ndim != 2 else a
        b2 = b[:, None] if b.ndim == 1 else b
    else:
        a2 = a.reshape(-1, ka)
        b2 = cuarray.moveaxis(b, -2, 0).reshape(ka, -1)
    target = None
    if out is not None and not _overlaps(out, a, b):
        target = out.reshape(a2.shape[0], b2.shape[1])
    c = matmul_nd(a2, b2, dt, target)
    if target is not None:
        return out
    return _to_out(c.reshape(final), out)


def _fmt(shape):
    return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def vdot(a, b):
    """Dot product of two arrays flattened, conjugating the first (cuarray version of
    `numpy.vdot`). Returns a 0-d array."""
    a = as_array(a, "vdot").ravel()
    b = as_array(b, "vdot").ravel()
    if a.size != b.size:
        raise ValueError(f"vdot: vectors have different lengths ({a.size} and {b.size})")
    if a.dtype.kind == "c":
        a = cuarray.conj(a)
    return dot(a, b)


def inner(a, b):
    """Inner product over the last axes (cuarray version of `numpy.inner`)."""
    a = as_array(a, "inner")
    b = as_array(b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return cuarray.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"shapes {_fmt(a.shape)} and {_fmt(b.shape)} not aligned: {a.shape[-1]} "
            f"(dim {a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})")
    return tensordot(a, b, axes=(-1, -1))


def outer(a, b, out=None):
    """Outer product of two arrays flattened (cuarray version of `numpy.outer`)."""
    a = as_array(a, "outer").ravel()
    b = as_array(b, "outer").ravel()
    return cuarray.multiply(a[:, None], b[None, :], out=out)


def tensordot(a, b, axes=2):
    """Sum of products over the given axes (cuarray version of `numpy.tensordot`)."""
    a = as_array(a, "tensordot")
    b = as_array(b, "tensordot")
    try:
        iter(axes)
    except TypeError:
        n = operator.index(axes)
        if n < 0:
            raise ValueError("axes must be at least 0") from None
        axes_a, axes_b = list(range(a.ndim - n, a.ndim)), list(range(n))
    else:
        axes_a, axes_b = axes
    axes_a = [axes_a] if numpy.ndim(axes_a) == 0 else list(axes_a)
    axes_b = [axes_b] if numpy.ndim(axes_b) == 0 else list(axes_b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    for i, (xa, xb) in enumerate(zip(axes_a, axes_b)):
        xa, xb = operator.index(xa), operator.index(xb)
        if not (-a.ndim <= xa < a.ndim and -b.ndim <= xb < b.ndim) or \
                a.shape[xa] != b.shape[xb]:
            raise ValueError("shape-mismatch for sum")
        axes_a[i], axes_b[i] = xa % a.ndim, xb % b.ndim
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    k = prod(a.shape[i] for i in axes_a)
    at = a.transpose(free_a + axes_a).reshape(prod(a.shape[i] for i in free_a), k)
    bt = b.transpose(axes_b + free_b).reshape(k, prod(b.shape[i] for i in free_b))
    res = dot(at, bt)
    return res.reshape([a.shape[i] for i in free_a] + [b.shape[i] for i in free_b])


def kron(a, b):
    """Kronecker product (cuarray version of `numpy.kron`)."""
    a = as_array(a, "kron")
    b = as_array(b, "kron")
    if a.ndim == 0 or b.ndim == 0:
        return cuarray.multiply(a, b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    # a's axes at even positions, b's at odd: the product interleaves them.
    a4 = a.reshape([d for s in sa for d in (s, 1)])
    b4 = b.reshape([d for s in sb for d in (1, s)])
    return cuarray.multiply(a4, b4).reshape([x * y for x, y in zip(sa, sb)])


def vecdot(x1, x2, /, *, axis=-1):
    """Vector dot product along `axis`, conjugating the first argument (cuarray version
    of `numpy.vecdot`)."""
    a = as_array(x1, "vecdot")
    b = as_array(x2, "vecdot")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("vecdot: Input operand does not have enough dimensions (has 0, "
                         "gufunc core with signature (n),(n)->() requires 1)")
    a = cuarray.moveaxis(a, normalize_axis(axis, a.ndim), -1)
    b = cuarray.moveaxis(b, normalize_axis(axis, b.ndim), -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(size {b.shape[-1]} is different from {a.shape[-1]})")
    dt = _resolve(a.dtype, b.dtype, None, None, "same_kind", "vecdot")
    if a.dtype.kind == "c":
        a = cuarray.conj(a)
    return cuarray.sum(cuarray.multiply(a, b, dtype=dt), axis=-1, dtype=dt)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 2- or 3-element vectors (cuarray version of `numpy.cross`)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a = as_array(a, "cross")
    b = as_array(b, "cross")
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = cuarray.moveaxis(a, normalize_axis(axisa, a.ndim, "axisa"), -1)
    b = cuarray.moveaxis(b, normalize_axis(axisb, b.ndim, "axisb"), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    z = a0 * b1 - a1 * b0
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return z
    if a.shape[-1] == 3 and b.shape[-1] == 3:
        a2, b2 = a[..., 2], b[..., 2]
        x, y = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    elif a.shape[-1] == 3:
        a2 = a[..., 2]
        x, y = -(a2 * b1), a2 * b0
    else:
        b2 = b[..., 2]
        x, y = a1 * b2, -(a0 * b2)
    cp = cuarray.stack((x, y, z), axis=-1)
    return cuarray.moveaxis(cp, -1, normalize_axis(axisc, cp.ndim, "axisc"))


def matrix_transpose(x, /):
    """Swap the last two axes (cuarray version of `numpy.matrix_transpose`); a view."""
    x = as_array(x, "matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.swapaxes(-1, -2)


def trace(x, /, *, offset=0, dtype=None):
    """Sum along the diagonals of the last two axes (cuarray version of
    `numpy.linalg.trace`)."""
    x = as_array(x, "linalg.trace")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.diagonal(offset, -2, -1).sum(axis=-1, dtype=dtype)


def matrix_power(a, n):
    """Raise a square matrix (or a stack) to the integer power `n` (cuarray version of
    `numpy.linalg.matrix_power`)."""
    a = as_array(a, "linalg.matrix_power")
    assert_stacked_2d(a)
    assert_stacked_square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        eye = cuarray.eye(a.shape[-1], dtype=a.dtype)
        return cuarray.ascontiguousarray(cuarray.broadcast_to(eye, a.shape))
    if n < 0:
        from cuarray.linalg._solve import inv
        a = inv(a)
        n = -n
    if n == 1:
        return a
    dt = a.dtype
    result = z = None
    while n > 0:
        z = a if z is None else matmul_nd(z, z, dt)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else matmul_nd(result, z, dt)
    return result


def multi_dot(arrays, *, out=None):
    """Dot product of two or more arrays in the cheapest association order (cuarray
    version of `numpy.linalg.multi_dot`)."""
    arrays = [as_array(x, "linalg.multi_dot") for x in arrays]
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return dot(arrays[0], arrays[1], out=out)
    first_1d, last_1d = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = arrays[0][None, :]
    if last_1d:
        arrays[-1] = arrays[-1][:, None]
    assert_2d(*arrays)
    order = _chain_order([x.shape for x in arrays])
    result = _chain(arrays, order, 0, n - 1)
    if first_1d and last_1d:
        result = result.reshape(())
    elif first_1d or last_1d:
        result = result.ravel()
    return _to_out(result, out)


def _chain_order(shapes):
    """Matrix-chain DP (Cormen, ch. 15.2) on host shapes: split[i][j] for the best order."""
    n = len(shapes)
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(arrays, split, i, j):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return dot(_chain(arrays, split, i, k), _chain(arrays, split, k + 1, j))


def linalg_outer(x1, x2, /):
    """Outer product of two vectors (cuarray version of `numpy.linalg.outer`)."""
    x1 = as_array(x1, "linalg.outer")
    x2 = as_array(x2, "linalg.outer")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are {x1.ndim=} "
                         f"and {x2.ndim=}.")
    return outer(x1, x2)


def linalg_cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors (cuarray version of `numpy.linalg.cross`)."""
    x1 = as_array(x1, "linalg.cross")
    x2 = as_array(x2, "linalg.cross")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
            f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead.")
    return cross(x1, x2, axis=axis)


def linalg_tensordot(x1, x2, /, *, axes=2):
    """cuarray version of `numpy.linalg.tensordot`."""
    return tensordot(x1, x2, axes=axes)


def linalg_matmul(x1, x2, /):
    """cuarray version of `numpy.linalg.matmul`."""
    return matmul(x1, x2)


def linalg_diagonal(x, /, *, offset=0):
    """The diagonals of the last two axes, a view (cuarray version of
    `numpy.linalg.diagonal`)."""
    x = as_array(x, "linalg.diagonal")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.diagonal(offset, -2, -1)

