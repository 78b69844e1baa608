"""BLAS routines by name on cuBLAS (cuarray version of `cupyx.cublas`).

Every routine takes float32, float64, complex64 and complex128 arrays (all operands of
one dtype). Transposition codes are 'N', 'T', 'H' (or 0, 1, 2, cuBLAS's own). Scalars
(`alpha`, `beta`, `a`) are host values. The level-1 reductions (`dot`, `nrm2`, `asum`,
`iamax`, ...) leave their result on the device as a 0-d array (or in `out`), so they do
not synchronise; `iamax`/`iamin` give cuBLAS's 1-based index, as CuPy does.

cuBLAS is column-major. A C-contiguous matrix is its transpose in column-major order,
so C-ordered operands are passed with the transposition folded into cuBLAS's `op`
arguments and no copy; operands no `op` can describe (other strides, a conjugate
without transpose) are copied first. Results are C-ordered unless every operand is
F-ordered (CuPy returns F order always; the values are the same).
"""
import numpy

import cuarray
from cuarray._core._out import write_back
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray._libs import cublas as _cublas

_lib = _cublas.lib
_N, _T, _C = _cublas.OP_N, _cublas.OP_T, _cublas.OP_C
_CHARS = "fdFD"
_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}


def _fn(dtype, name):
    return getattr(_lib, _PREFIX[dtype.char] + name)


def _trans(t, dtype):
    """'N'/'T'/'H' or 0/1/2 as cuBLAS's op code ('H' of a real matrix is 'T')."""
    codes = {"N": _N, "n": _N, "T": _T, "t": _T, "H": _C, "h": _C, "C": _C, "c": _C,
             0: _N, 1: _T, 2: _C}
    try:
        op = codes[t]
    except (KeyError, TypeError):
        raise ValueError(f"invalid transpose option {t!r}: use 'N', 'T' or 'H'") from None
    return _T if op == _C and dtype.kind == "f" else op


def _check(*arrays, ndim=None):
    for x in arrays:
        if not isinstance(x, ndarray):
            raise not_device_error("cublas", x)
    dtype = arrays[0].dtype
    if dtype.char not in _CHARS:
        raise TypeError(f"cuarray.cublas supports float32, float64, complex64 and complex128, "
                        f"not {dtype}")
    for x in arrays[1:]:
        if x.dtype != dtype:
            raise TypeError(f"operands must have one dtype, got {dtype} and {x.dtype}")
    if ndim is not None:
        for x in arrays:
            if x.ndim != ndim:
                raise ValueError(f"expected a {ndim}-D array, got {x.ndim}-D")
    return dtype


def _scalar(value, dtype):
    """A host buffer holding `value` as `dtype` (kept alive by the caller during the call)."""
    if dtype.kind == "f" and isinstance(value, complex):
        raise TypeError(f"a complex scalar cannot scale {dtype} data")
    return numpy.array(value, dtype=dtype)


def _handle():
    return _cublas.get_handle()


# ---------------------------------------------------------------- level 1
def _vec(x):
    """(array, pointer, increment) for a 1-D operand; strides that are not a positive
    multiple of the item size are copied to a contiguous array."""
    if x.ndim != 1:
        raise ValueError(f"expected a 1-D array, got {x.ndim}-D")
    s = x.strides[0]
    if x.size > 1 and (s <= 0 or s % x.itemsize):
        x = cuarray.ascontiguousarray(x)
        s = x.itemsize
    return x, x.data.ptr, max(s // x.itemsize, 1)


def _result(out, dtype, name):
    """The 0-d device array a reduction writes to, and whether it is a temporary to copy into `out`."""
    if out is None:
        return ndarray._alloc((), dtype), None
    if isinstance(out, ndarray):
        if out.dtype != dtype or out.size != 1:
            raise ValueError(f"{name}: out must be a one-element {dtype} array, got "
                             f"{out.dtype} of shape {out.shape}")
        return out, None
    if isinstance(out, numpy.ndarray):
        if out.dtype != dtype or out.size != 1:
            raise ValueError(f"{name}: out must be a one-element {dtype} array")
        return ndarray._alloc((), dtype), out
    raise TypeError(f"{name}: out must be a cuarray or numpy array, not {type(out).__name__}")


def _device_result(name, fn, x, out, res_dtype, *pre):
    res, host_out = _result(out, res_dtype, name)
    h = _handle()
    _lib.set_pointer_mode(h, int(_lib.PointerMode.DEVICE))
    try:
        fn(h, *pre, res.data.ptr)
    finally:
        _lib.set_pointer_mode(h, int(_lib.PointerMode.HOST))
    return write_back(res, host_out)


def _real(dtype):
    return numpy.dtype(dtype.char.lower())


def iamax(x, out=None):
    """Index (1-based, int32) of the first element of largest |re| + |im|."""
    dtype = _check(x)
    x, px, incx = _vec(x)
    fn = getattr(_lib, "i" + _PREFIX[dtype.char] + "amax")
    return _device_result("iamax", fn, x, out, numpy.dtype(numpy.int32), x.size, px, incx)


def iamin(x, out=None):
    """Index (1-based, int32) of the first element of smallest |re| + |im|."""
    dtype = _check(x)
    x, px, incx = _vec(x)
    fn = getattr(_lib, "i" + _PREFIX[dtype.char] + "amin")
    return _device_result("iamin", fn, x, out, numpy.dtype(numpy.int32), x.size, px, incx)


def asum(x, out=None):
    """Sum of |re| + |im| over the elements (a real 0-d array)."""
    dtype = _check(x)
    x, px, incx = _vec(x)
    fn = getattr(_lib, {"f": "sasum", "d": "dasum", "F": "scasum", "D": "dzasum"}[dtype.char])
    return _device_result("asum", fn, x, out, _real(dtype), x.size, px, incx)


def nrm2(x, out=None):
    """Euclidean norm (a real 0-d array)."""
    dtype = _check(x)
    x, px, incx = _vec(x)
    fn = getattr(_lib, {"f": "snrm2", "d": "dnrm2", "F": "scnrm2", "D": "dznrm2"}[dtype.char])
    return _device_result("nrm2", fn, x, out, _real(dtype), x.size, px, incx)


def _dot(name, suffix, x, y, out):
    dtype = _check(x, y)
    x, px, incx = _vec(x)
    y, py, incy = _vec(y)
    if x.size != y.size:
        raise ValueError(f"{name}: x and y must have one length, got {x.size} and {y.size}")
    fn = _fn(dtype, suffix if dtype.kind == "c" else "dot")
    return _device_result(name, fn, x, out, dtype, x.size, px, incx, py, incy)


def dot(x, y, out=None):
    """sum(x * y) (no conjugation: `dotu` for complex)."""
    return _dot("dot", "dotu", x, y, out)


def dotu(x, y, out=None):
    """sum(x * y), unconjugated."""
    return _dot("dotu", "dotu", x, y, out)


def dotc(x, y, out=None):
    """sum(conj(x) * y)."""
    return _dot("dotc", "dotc", x, y, out)


def _inplace_vec(y, name):
    """(array to compute in, pointer, increment, write-back target or None)."""
    if y.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got {y.ndim}-D")
    s = y.strides[0]
    if y.size > 1 and (s <= 0 or s % y.itemsize):
        tmp = cuarray.ascontiguousarray(y)
        return tmp, tmp.data.ptr, 1, y
    return y, y.data.ptr, max(s // y.itemsize, 1), None


def axpy(a, x, y):
    """y += a * x, in place."""
    dtype = _check(x, y)
    x, px, incx = _vec(x)
    yy, py, incy, back = _inplace_vec(y, "axpy")
    if x.size != yy.size:
        raise ValueError(f"axpy: x and y must have one length, got {x.size} and {yy.size}")
    alpha = _scalar(a, dtype)
    _fn(dtype, "axpy")(_handle(), x.size, alpha.ctypes.data, px, incx, py, incy)
    if back is not None:
        back[...] = yy


def scal(a, x):
    """x *= a, in place."""
    dtype = _check(x)
    xx, px, incx, back = _inplace_vec(x, "scal")
    alpha = _scalar(a, dtype)
    _fn(dtype, "scal")(_handle(), xx.size, alpha.ctypes.data, px, incx)
    if back is not None:
        back[...] = xx


# ---------------------------------------------------------------- matrices
def _fmat(a):
    """`a` as an F-ordered matrix (copied when it is not) and its leading dimension."""
    if not a._f_contig:
        a = cuarray.asfortranarray(a)
    return a, max(a.shape[0], 1)


def _cmat(a):
    if not a._c_contig:
        a = cuarray.ascontiguousarray(a)
    return a, max(a.shape[-1], 1)


def _target(out, shape, dtype, name, order, need_old):
    """(array cuBLAS writes, write-back target or None) for a result of `shape`."""
    if out is None:
        return cuarray.empty(shape, dtype=dtype, order=order), None
    if not isinstance(out, ndarray):
        raise TypeError(f"{name}: out must be a cuarray array, not {type(out).__name__}")
    if out.shape != tuple(shape) or out.dtype != dtype:
        raise ValueError(f"{name}: out must have shape {tuple(shape)} and dtype {dtype}, "
                         f"got {out.shape} and {out.dtype}")
    ok = out._f_contig if order == "F" else out._c_contig
    if ok:
        return out, None
    tmp = cuarray.array(out, order=order) if need_old else cuarray.empty(shape, dtype=dtype,
                                                                          order=order)
    return tmp, out


def _order(*arrays):
    """'F' when every operand is F-ordered and not C-ordered, else 'C'."""
    return "F" if all(x._f_contig and not x._c_contig for x in arrays) else "C"


def _dims(op, shape):
    return shape if op == _N else shape[::-1]


def _scale_only(c, beta):
    # k == 0: the product is empty; cuBLAS would not be called
    if beta == 0:
        c.fill(0)
    else:
        c *= beta


def gemm(transa, transb, a, b, out=None, alpha=1.0, beta=0.0):
    """out = alpha * op(a) @ op(b) + beta * out (`beta` is ignored without `out`)."""
    dtype = _check(a, b, ndim=2)
    opa, opb = _trans(transa, dtype), _trans(transb, dtype)
    m, k = _dims(opa, a.shape)
    k2, n = _dims(opb, b.shape)
    if k != k2:
        raise ValueError(f"gemm: op(a) is {m}x{k} and op(b) is {k2}x{n}: inner dimensions "
                         f"differ")
    if out is None:
        beta = 0.0
    if out is not None and (out._c_contig or out._f_contig):
        order = "C" if out._c_contig else "F"
    else:
        order = _order(a, b)
    c, back = _target(out, (m, n), dtype, "gemm", order, beta != 0)
    if c.size:
        if k == 0:
            _scale_only(c, beta)
        else:
            _gemm_call(dtype, opa, opb, a, b, c, m, n, k, alpha, beta, order)
    if back is not None:
        back[...] = c
        return back
    return c


def _operand(x, op, order):
    """(array, op code, leading dimension) of a gemm operand for an `order` result.

    An operand already in the result's order is read as it lies; one in the other order
    is its own transpose there, so N and T swap (a conjugate without transpose has no op
    code: that operand is copied).
    """
    if (x._f_contig if order == "F" else x._c_contig):
        return x, op, max(x.shape[0] if order == "F" else x.shape[-1], 1)
    if (x._c_contig if order == "F" else x._f_contig) and op != _C:
        return x, (_N if op == _T else _T), max(x.shape[-1] if order == "F" else x.shape[0], 1)
    x = cuarray.asfortranarray(x) if order == "F" else cuarray.ascontiguousarray(x)
    return x, op, max(x.shape[0] if order == "F" else x.shape[-1], 1)


def _gemm_call(dtype, opa, opb, a, b, c, m, n, k, alpha, beta, order, batch=None):
    al, be = _scalar(alpha, dtype), _scalar(beta, dtype)
    h = _handle()
    if order == "F":
        a, la, lda = _operand(a, opa, "F")
        b, lb, ldb = _operand(b, opb, "F")
        _fn(dtype, "gemm")(h, la, lb, m, n, k, al.ctypes.data, a.data.ptr, lda,
                           b.data.ptr, ldb, be.ctypes.data, c.data.ptr, max(m, 1))
        return
    # C order: compute c^T = op(b)^T op(a)^T; a C-ordered x is x^T in column-major, and
    # op(x)^T of it is the same op applied to that buffer ('H' included).
    if batch is None:
        a, la, lda = _operand(a, opa, "C")
        b, lb, ldb = _operand(b, opb, "C")
        _fn(dtype, "gemm")(h, lb, la, n, m, k, al.ctypes.data, b.data.ptr, ldb,
                           a.data.ptr, lda, be.ctypes.data, c.data.ptr, max(n, 1))
    else:
        a, lda = _cmat(a)
        b, ldb = _cmat(b)
        _fn(dtype, "gemm_strided_batched")(
            h, opb, opa, n, m, k, al.ctypes.data, b.data.ptr, ldb, b.shape[1] * b.shape[2],
            a.data.ptr, lda, a.shape[1] * a.shape[2], be.ctypes.data, c.data.ptr, max(n, 1),
            m * n, batch)


def batched_gemm(transa, transb, a, b, out=None, alpha=1.0, beta=0.0):
    """out[i] = alpha * op(a[i]) @ op(b[i]) + beta * out[i] for 3-D `a`, `b` (one strided
    batched cuBLAS call)."""
    dtype = _check(a, b, ndim=3)
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"batched_gemm: batch sizes differ ({a.shape[0]} and {b.shape[0]})")
    opa, opb = _trans(transa, dtype), _trans(transb, dtype)
    m, k = _dims(opa, a.shape[1:])
    k2, n = _dims(opb, b.shape[1:])
    if k != k2:
        raise ValueError(f"batched_gemm: op(a) is {m}x{k} and op(b) is {k2}x{n}: inner "
                         f"dimensions differ")
    if out is None:
        beta = 0.0
    batch = a.shape[0]
    c, back = _target(out, (batch, m, n), dtype, "batched_gemm", "C", beta != 0)
    if c.size:
        if k == 0:
            _scale_only(c, beta)
        else:
            _gemm_call(dtype, opa, opb, a, b, c, m, n, k, alpha, beta, "C", batch)
    if back is not None:
        back[...] = c
        return back
    return c


def gemv(transa, alpha, a, x, beta, y):
    """y = alpha * op(a) @ x + beta * y, in place."""
    dtype = _check(a, x, y)
    if a.ndim != 2:
        raise ValueError(f"gemv: a must be 2-D, got {a.ndim}-D")
    op = _trans(transa, dtype)
    rows, cols = _dims(op, a.shape)
    if x.shape != (cols,) or y.shape != (rows,):
        raise ValueError(f"gemv: op(a) is {rows}x{cols}; x must have shape ({cols},) and y "
                         f"({rows},), got {x.shape} and {y.shape}")
    x, px, incx = _vec(x)
    yy, py, incy, back = _inplace_vec(y, "gemv")
    al, be = _scalar(alpha, dtype), _scalar(beta, dtype)
    if a._c_contig and op != _C:
        # a C-ordered is a^T column-major: flip N and T
        lop, (m, n), lda = (_T if op == _N else _N), a.shape[::-1], max(a.shape[1], 1)
    else:
        a, lda = _fmat(a)
        lop, (m, n) = op, a.shape
    if yy.size:
        _fn(dtype, "gemv")(_handle(), lop, m, n, al.ctypes.data, a.data.ptr, lda, px, incx,
                           be.ctypes.data, py, incy)
    if back is not None:
        back[...] = yy


def _ger(name, suffix, alpha, x, y, a):
    dtype = _check(x, y, a)
    if a.ndim != 2 or x.shape != (a.shape[0],) or y.shape != (a.shape[1],):
        raise ValueError(f"{name}: a must be 2-D of shape (len(x), len(y)), got a {a.shape}, "
                         f"x {x.shape}, y {y.shape}")
    fn = _fn(dtype, suffix if dtype.kind == "c" else "ger")
    x, px, incx = _vec(x)
    y, py, incy = _vec(y)
    al = _scalar(alpha, dtype)
    h = _handle()
    if a.size == 0:
        return
    if a._c_contig and not (dtype.kind == "c" and suffix == "gerc"):
        # a^T (column-major buffer) += alpha * y x^T
        fn(h, a.shape[1], a.shape[0], al.ctypes.data, py, incy, px, incx, a.data.ptr,
           max(a.shape[1], 1))
        return
    work, lda = _fmat(a)
    fn(h, a.shape[0], a.shape[1], al.ctypes.data, px, incx, py, incy, work.data.ptr, lda)
    if work is not a:
        a[...] = work


def ger(alpha, x, y, a):
    """a += alpha * outer(x, y), in place."""
    _ger("ger", "geru", alpha, x, y, a)


def geru(alpha, x, y, a):
    """a += alpha * outer(x, y), in place (unconjugated)."""
    _ger("geru", "geru", alpha, x, y, a)


def gerc(alpha, x, y, a):
    """a += alpha * outer(x, conj(y)), in place."""
    _ger("gerc", "gerc", alpha, x, y, a)


def geam(transa, transb, alpha, a, beta, b, out=None):
    """out = alpha * op(a) + beta * op(b)."""
    dtype = _check(a, b, ndim=2)
    opa, opb = _trans(transa, dtype), _trans(transb, dtype)
    m, n = _dims(opa, a.shape)
    if _dims(opb, b.shape) != (m, n):
        raise ValueError(f"geam: op(a) is {m}x{n} but op(b) is "
                         f"{'x'.join(map(str, _dims(opb, b.shape)))}")
    c, back = _target(out, (m, n), dtype, "geam", "C", False)
    al, be = _scalar(alpha, dtype), _scalar(beta, dtype)
    if c.size:
        a, lda = _cmat(a)
        b, ldb = _cmat(b)
        # c^T = alpha op(a)^T + beta op(b)^T on the transposed (column-major) buffers
        _fn(dtype, "geam")(_handle(), opa, opb, n, m, al.ctypes.data, a.data.ptr, lda,
                           be.ctypes.data, b.data.ptr, ldb, c.data.ptr, max(n, 1))
    if back is not None:
        back[...] = c
        return back
    return c


def dgmm(side, a, x, out=None, incx=1):
    """diag(x) @ a (side 'L') or a @ diag(x) (side 'R'); x is read with step `incx`."""
    dtype = _check(a, x)
    if a.ndim != 2 or x.ndim != 1:
        raise ValueError("dgmm: a must be 2-D and x 1-D")
    if side not in ("L", "R", "l", "r", 0, 1):
        raise ValueError(f"dgmm: side must be 'L' or 'R', got {side!r}")
    left = side in ("L", "l", 0)
    m, n = a.shape
    need = m if left else n
    if incx == 0 or x.size < (need - 1) * abs(incx) + 1:
        raise ValueError(f"dgmm: x holds {x.size} elements; {need} are read with step {incx}")
    xx, px, step = _vec(x)
    c, back = _target(out, (m, n), dtype, "dgmm", "C", False)
    if c.size:
        a, lda = _cmat(a)
        # on the column-major buffer a^T (n x m): (diag(x) a)^T = a^T diag(x)
        mode = 1 if left else 0   # CUBLAS_SIDE_RIGHT = 1, LEFT = 0
        _fn(dtype, "dgmm")(_handle(), mode, n, m, a.data.ptr, lda, px, incx * step,
                           c.data.ptr, max(n, 1))
    if back is not None:
        back[...] = c
        return back
    return c


def syrk(trans, a, out=None, alpha=1.0, beta=0.0, lower=False):
    """out = alpha * op(a) @ op(a).T + beta * out on the lower (or upper) triangle only;
    'H' is not allowed (use a Hermitian product)."""
    dtype = _check(a, ndim=2)
    op = _trans(trans, dtype)
    if op == _C:
        raise ValueError("syrk: trans must be 'N' or 'T'")
    n, k = _dims(op, a.shape)
    if out is None:
        out = cuarray.zeros((n, n), dtype=dtype)
        beta = 0.0
    c, back = _target(out, (n, n), dtype, "syrk", "C", True)
    al, be = _scalar(alpha, dtype), _scalar(beta, dtype)
    if c.size:
        a, lda = _cmat(a)
        # a C-ordered is a^T column-major: op flips; the C-ordered result's lower
        # triangle is the column-major buffer's upper one.
        lop = _T if op == _N else _N
        fill = _cublas.FILL_UPPER if lower else _cublas.FILL_LOWER
        _fn(dtype, "syrk")(_handle(), fill, lop, n, k, al.ctypes.data, a.data.ptr, lda,
                           be.ctypes.data, c.data.ptr, max(n, 1))
    if back is not None:
        back[...] = c
        return back
    return c
