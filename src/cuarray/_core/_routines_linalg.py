"""matmul and dot, the ndarray methods `@` and `dot` (public face: `cuarray.linalg` and
`cuarray`), and the GEMM planning every matrix product uses.

Float and complex products run on cuBLAS (float16 through cublasGemmEx with float32
accumulation, as CuPy); integer and bool products on cuarray's own GEMM kernel
(`_gemm_kernel.py`), which wraps on overflow in the result dtype as NumPy does.
C- and F-ordered operands and transposed or sliced views go to cuBLAS without a copy;
only operands no cuBLAS transpose can describe are copied first.
"""
import numpy

from cuarray._core import _copy, _gemm_kernel, transfer
from cuarray._core import _ops as _u
from cuarray._core import shapes as _sh
from cuarray._core._ops import _need as as_array
from cuarray._core.ndarray import ndarray
from cuarray._libs import cublas as _cublas

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
        self.count = _sh.prod(batch)
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
            shape = plan.batch + x._shape[-2:]
            x = x._view(shape, _sh.broadcast_strides(x._shape, x._strides, shape))
        x = transfer.ascontiguousarray(x)
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


def _overlaps(out, *inputs):
    lo, hi = _copy.byte_extent(out)
    for x in inputs:
        xlo, xhi = _copy.byte_extent(x)
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
    return _copy.into_out(c, out, "matmul")


def dot(a, b, out=None):
    """Dot product of two arrays (cuarray version of `numpy.dot`).

    Returns a 0-d array for two vectors, where NumPy returns a scalar.
    """
    a = as_array(a, "dot")
    b = as_array(b, "dot")
    if a.ndim == 0 or b.ndim == 0:
        return _u.multiply(a, b, out=out)
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
        nd = b.ndim  # b's axis -2 moved first, then flattened after it
        b2 = b.transpose([nd - 2] + list(range(nd - 2)) + [nd - 1]).reshape(ka, -1)
    target = None
    if out is not None and not _overlaps(out, a, b):
        target = out.reshape(a2.shape[0], b2.shape[1])
    c = matmul_nd(a2, b2, dt, target)
    if target is not None:
        return out
    return _copy.into_out(c.reshape(final), out, "dot")


def _fmt(shape):
    return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
