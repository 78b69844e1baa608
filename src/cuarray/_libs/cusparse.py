"""cuSPARSE handles and the generic API's sparse x dense products (SpMV, SpMM),
triangular solves (SpSV), ILU(0) (csrilu02), and the cuSOLVER sparse handle (cusolverSp)
that `cuarray.scipy.sparse.linalg.spsolve` uses.

Handles are one per (device, thread), bound to the current stream at every use, and live
as long as the process (see _libs/_handles.py). Descriptors are made per call: they are host
structs, cheap next to the product, and safe to destroy once the call is enqueued.

cuSPARSE computes only float32/float64/complex64/complex128 values; `supports(dtype)`
says which, and callers use their own kernels for the rest.
"""
import threading

import numpy

from cuarray._libs._handles import PerThread
from cuarray._libs.cublas import CUDA_DTYPE, one_zero

_tls = threading.local()   # the legacy matrix descriptor of each thread

INDEX_BASE_ZERO = 0
OP_N, OP_T, OP_C = 0, 1, 2
ORDER_ROW = 2
_INDEX_TYPE = {numpy.dtype(numpy.int32): 2, numpy.dtype(numpy.int64): 3}  # cusparseIndexType_t
_VALUE_TYPES = frozenset(numpy.dtype(c) for c in "fdFD")


def _lib():
    from nvmath.bindings import cusparse
    return cusparse


def supports(value_dtype, index_dtype=numpy.dtype(numpy.int32)):
    """True when cuSPARSE's generic API computes with these value and index dtypes."""
    return value_dtype in _VALUE_TYPES and index_dtype in _INDEX_TYPE


def _create_solver_sp():
    from nvmath.bindings import cusolverSp
    return cusolverSp.create()


def _bind_solver_sp(h, s):
    from nvmath.bindings import cusolverSp
    cusolverSp.set_stream(h, s)


_handles = PerThread(lambda: _lib().create(), lambda h, s: _lib().set_stream(h, s))
_solvers_sp = PerThread(_create_solver_sp, _bind_solver_sp)


def get_handle():
    """The cuSPARSE handle of this thread and the current device, on the current stream."""
    return _handles.get()


def get_solver_sp():
    """The cusolverSp handle of this thread and the current device, on the current stream."""
    return _solvers_sp.get()


def errors():
    """The exceptions that mean "cuSPARSE cannot do this here": a status it returned, or a
    library or symbol that could not be loaded. Callers fall back to their own kernels."""
    from cuda.pathfinder import DynamicLibNotFoundError
    from nvmath.bindings._internal.utils import FunctionNotFoundError, NotSupportedError
    return (_lib().cuSPARSEError, FunctionNotFoundError, NotSupportedError,
            DynamicLibNotFoundError)


def status_error():
    """The exception of a status cuSPARSE returned (as opposed to one of loading it)."""
    return _lib().cuSPARSEError


def _sparse_descr(lib, fmt, shape, nnz, offsets, indices, data):
    it = _INDEX_TYPE[offsets.dtype]
    vt = CUDA_DTYPE[data.dtype]
    make = lib.create_csr if fmt == "csr" else lib.create_csc
    return make(shape[0], shape[1], nnz, offsets.data.ptr, indices.data.ptr, data.data.ptr,
                it, it, INDEX_BASE_ZERO, vt)


def _workspace(nbytes):
    from cuarray._core.ndarray import ndarray
    return ndarray._alloc((max(int(nbytes), 1),), numpy.dtype(numpy.uint8))


def spmv(fmt, shape, offsets, indices, data, x, y):
    """y = A @ x for A in CSR (`fmt` 'csr') or CSC ('csc') form of `shape`, with `offsets`
    (indptr), `indices` and `data` contiguous; x, y contiguous 1-D of data's dtype."""
    lib = _lib()
    h = get_handle()
    dt = data.dtype
    vt = CUDA_DTYPE[dt]
    alpha, beta = one_zero(dt)
    a = _sparse_descr(lib, fmt, shape, data.size, offsets, indices, data)
    try:
        vx = lib.create_dn_vec(x.size, x.data.ptr, vt)
        try:
            vy = lib.create_dn_vec(y.size, y.data.ptr, vt)
            try:
                alg = int(lib.SpMVAlg.DEFAULT)
                size = lib.sp_mv_buffer_size(h, OP_N, alpha, a, vx, beta, vy, vt, alg)
                ws = _workspace(size)
                lib.sp_mv(h, OP_N, alpha, a, vx, beta, vy, vt, alg, ws.data.ptr)
            finally:
                lib.destroy_dn_vec(vy)
        finally:
            lib.destroy_dn_vec(vx)
    finally:
        lib.destroy_sp_mat(a)


def spmm(fmt, shape, offsets, indices, data, b, c):
    """c = A @ b for A as in `spmv`; b (shape[1], k) and c (shape[0], k) C-contiguous."""
    lib = _lib()
    h = get_handle()
    dt = data.dtype
    vt = CUDA_DTYPE[dt]
    alpha, beta = one_zero(dt)
    k = b.shape[1]
    a = _sparse_descr(lib, fmt, shape, data.size, offsets, indices, data)
    try:
        mb = lib.create_dn_mat(b.shape[0], k, k, b.data.ptr, vt, ORDER_ROW)
        try:
            mc = lib.create_dn_mat(c.shape[0], k, k, c.data.ptr, vt, ORDER_ROW)
            try:
                alg = int(lib.SpMMAlg.DEFAULT)
                size = lib.sp_mm_buffer_size(h, OP_N, OP_N, alpha, a, mb, beta, mc, vt, alg)
                ws = _workspace(size)
                lib.sp_mm(h, OP_N, OP_N, alpha, a, mb, beta, mc, vt, alg, ws.data.ptr)
            finally:
                lib.destroy_dn_mat(mc)
        finally:
            lib.destroy_dn_mat(mb)
    finally:
        lib.destroy_sp_mat(a)


def mat_descr():
    """A legacy general matrix descriptor (zero-based), for cusolverSp; kept per thread."""
    try:
        return _tls.descr
    except AttributeError:
        _tls.descr = _lib().create_mat_descr()  # general, zero-based: the defaults
        return _tls.descr


class TriangularSolve:
    """SpSV on one triangular CSR matrix, analysed once and solved as often as asked:
    `solve(x, y)` sets y = T^-1 x. Only the `lower` (or upper) triangle is read; the
    diagonal is taken as ones when `unit_diagonal`. The arrays must stay unchanged while
    this object lives (it keeps them alive)."""

    def __init__(self, shape, offsets, indices, data, lower, unit_diagonal):
        lib = _lib()
        self._keep = (offsets, indices, data)
        self._dt = data.dtype
        self._mat = self._descr = None
        self._mat = _sparse_descr(lib, "csr", shape, data.size, offsets, indices, data)
        fill = numpy.array([int(lib.FillMode.LOWER if lower else lib.FillMode.UPPER)],
                           dtype=numpy.int32)
        diag = numpy.array([int(lib.DiagType.UNIT if unit_diagonal else lib.DiagType.NON_UNIT)],
                           dtype=numpy.int32)
        lib.sp_mat_set_attribute(self._mat, int(lib.SpMatAttribute.FILL_MODE),
                                 fill.ctypes.data, 4)
        lib.sp_mat_set_attribute(self._mat, int(lib.SpMatAttribute.DIAG_TYPE),
                                 diag.ctypes.data, 4)
        self._descr = lib.sp_sv_create_descr()
        self._ws = None   # the analysis runs on the first solve's vectors

    def solve(self, x, y):
        """y = T^-1 x for x, y contiguous 1-D of the matrix's dtype (distinct arrays)."""
        lib = _lib()
        h = get_handle()
        vt = CUDA_DTYPE[self._dt]
        alpha, _ = one_zero(self._dt)
        alg = int(lib.SpSVAlg.DEFAULT)
        vx = lib.create_dn_vec(x.size, x.data.ptr, vt)
        try:
            vy = lib.create_dn_vec(y.size, y.data.ptr, vt)
            try:
                if self._ws is None:
                    size = lib.sp_sv_buffer_size(h, OP_N, alpha, self._mat, vx, vy, vt, alg,
                                                 self._descr)
                    self._ws = _workspace(size)
                    lib.sp_sv_analysis(h, OP_N, alpha, self._mat, vx, vy, vt, alg,
                                       self._descr, self._ws.data.ptr)
                lib.sp_sv_solve(h, OP_N, alpha, self._mat, vx, vy, vt, alg, self._descr)
            finally:
                lib.destroy_dn_vec(vy)
        finally:
            lib.destroy_dn_vec(vx)

    def __del__(self):
        # Host structs: safe to destroy once the solves are enqueued; the workspace goes
        # back to the pool in stream order.
        try:
            lib = _lib()
            if self._descr is not None:
                lib.sp_sv_destroy_descr(self._descr)
            if self._mat is not None:
                lib.destroy_sp_mat(self._mat)
        except Exception:   # interpreter shutdown: the library may be gone already
            pass


_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}


def csrilu02(n, offsets, indices, data):
    """Incomplete LU without fill-in of the square CSR matrix (sorted column indices, int32
    `offsets` and `indices`), in place: `data` becomes the strictly lower part of L (its
    unit diagonal not stored) and U, on A's pattern. Returns the row of the first zero
    pivot (a structural one: a missing diagonal entry, or U(j,j) == 0), or -1. Reading the
    pivots synchronises."""
    lib = _lib()
    h = get_handle()
    p = _PREFIX[data.dtype.char]
    info = lib.create_csrilu02_info()
    try:
        args = (h, n, data.size, mat_descr(), data.data.ptr, offsets.data.ptr,
                indices.data.ptr, info)
        ws = _workspace(getattr(lib, f"{p}csrilu02_buffer_size")(*args))
        policy = int(lib.SolvePolicy.USE_LEVEL)
        getattr(lib, f"{p}csrilu02_analysis")(*args, policy, ws.data.ptr)
        pivot = _zero_pivot(lib, h, info)
        if pivot < 0:
            getattr(lib, f"{p}csrilu02")(*args, policy, ws.data.ptr)
            pivot = _zero_pivot(lib, h, info)
        return pivot
    finally:
        lib.destroy_csrilu02_info(info)


def _zero_pivot(lib, h, info):
    """The first zero pivot's row or -1. cuSPARSE reports one with the status ZERO_PIVOT,
    which the binding raises, losing the row: then n is not known and 0 stands for it."""
    try:
        pos = int(lib.xcsrilu02_zero_pivot(h, info))
    except lib.cuSPARSEError as e:
        if getattr(e, "status", None) != int(lib.Status.ZERO_PIVOT):
            raise
        return 0
    return pos


_work_estimation_fn = []


def _work_estimation():
    """cusparseSpGEMM_workEstimation through ctypes on the function nvmath loaded. Its
    bufferSize1 is in/out (the size asked for, then the size handed over with the
    buffer); nvmath's binding keeps it output-only and passes an uninitialised size on
    the second call, so that call goes around it."""
    if not _work_estimation_fn:
        import ctypes
        from nvmath.bindings._internal import cusparse as loaded
        from nvmath.bindings._internal.utils import FunctionNotFoundError
        addr = loaded._inspect_function_pointer("__cusparseSpGEMM_workEstimation")
        if not addr:
            raise FunctionNotFoundError("function cusparseSpGEMM_workEstimation is not found")
        p, i = ctypes.c_void_p, ctypes.c_int
        proto = ctypes.CFUNCTYPE(i, p, i, i, p, p, p, p, p, i, i, p,
                                 ctypes.POINTER(ctypes.c_size_t), p)
        _work_estimation_fn.append(proto(addr))
    return _work_estimation_fn[0]


def spgemm(shape_a, a, shape_b, b):
    """C = A @ B for CSR A and B given as (indptr, indices, data), int32 indices, one value
    dtype, both with stored entries: C's (indptr, indices, data) with int32 indices, on
    cuSPARSE's SpGEMM (ALG_DEFAULT). Reading C's size synchronises."""
    import ctypes
    from cuarray._core.ndarray import ndarray
    lib = _lib()
    h = get_handle()
    dt = a[2].dtype
    vt = CUDA_DTYPE[dt]
    it = _INDEX_TYPE[numpy.dtype(numpy.int32)]
    alpha, beta = one_zero(dt)
    M, N = shape_a[0], shape_b[1]
    args = (OP_N, OP_N, alpha)
    alg = int(lib.SpGEMMAlg.DEFAULT)
    ma = _sparse_descr(lib, "csr", shape_a, a[2].size, *a)
    mb = mc = d = None
    try:
        mb = _sparse_descr(lib, "csr", shape_b, b[2].size, *b)
        mc = lib.create_csr(M, N, 0, 0, 0, 0, it, it, INDEX_BASE_ZERO, vt)
        d = lib.sp_gemm_create_descr()
        tail = (beta, mc, vt, alg, d)
        work, size1 = _work_estimation(), ctypes.c_size_t(0)
        for buf in (None, True):
            ws1 = _workspace(size1.value) if buf else None
            status = work(h, *args, ma, mb, *tail, ctypes.byref(size1),
                          ws1.data.ptr if buf else None)
            if status:
                raise lib.cuSPARSEError(status)
        if _num_products(lib, d) > numpy.iinfo(numpy.int32).max:
            raise lib.cuSPARSEError(int(lib.Status.NOT_SUPPORTED))  # C may not fit int32
        size2 = numpy.zeros(1, dtype=numpy.uint64)
        lib.sp_gemm_compute(h, *args, ma, mb, *tail, size2.ctypes.data, 0)
        ws2 = _workspace(int(size2[0]))
        lib.sp_gemm_compute(h, *args, ma, mb, *tail, size2.ctypes.data, ws2.data.ptr)
        nnz = int(lib.sp_mat_get_size(mc)[2])
        i32 = numpy.dtype(numpy.int32)
        indptr = ndarray._alloc((M + 1,), i32)
        indices, data = ndarray._alloc((nnz,), i32), ndarray._alloc((nnz,), dt)
        lib.csr_set_pointers(mc, indptr.data.ptr, indices.data.ptr if nnz else 0,
                             data.data.ptr if nnz else 0)
        lib.sp_gemm_copy(h, *args, ma, mb, *tail)
        del ws1, ws2   # back to the pool in stream order, after the copy
        return indptr, indices, data
    finally:
        if d is not None:
            lib.sp_gemm_destroy_descr(d)
        for m in (mc, mb, ma):
            if m is not None:
                lib.destroy_sp_mat(m)


def _num_products(lib, d):
    """The products SpGEMM will form (0 where this cuSPARSE cannot tell: C is then
    trusted to fit int32, as CuPy does)."""
    from nvmath.bindings._internal.utils import FunctionNotFoundError
    try:
        return int(lib.sp_gemm_get_num_products(d))
    except (FunctionNotFoundError, lib.cuSPARSEError):
        return 0
