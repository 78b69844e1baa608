"""Argument handling shared by cuarray.scipy.linalg: SciPy's dtype rules and checks."""
import numpy

from cuarray._core.host_policy import HOST_ARRAYS, host_error, not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.linalg._util import LinAlgError  # noqa: F401  (numpy.linalg.LinAlgError)


class LinAlgWarning(RuntimeWarning):
    """An ill-conditioned or singular result (SciPy's `scipy.linalg.LinAlgWarning`)."""


def as_array(x, name):
    """`x` as a cuarray array; host arrays and lists are refused (no hidden transfers)."""
    if isinstance(x, ndarray):
        return x
    if isinstance(x, HOST_ARRAYS):
        raise host_error(name, x, "cuarray.scipy.linalg.")
    if isinstance(x, (bool, int, float, complex, numpy.generic)):
        from cuarray._core.transfer import asarray
        return asarray(numpy.asarray(x))
    raise not_device_error(name, x, "cuarray.scipy.linalg.")


def lapack_dtype(*arrays):
    """The dtype LAPACK (here cuSOLVER/cuBLAS) computes in: float32/complex64 stay single,
    float16 becomes float32, integers and bool float64 (SciPy's rules)."""
    single, cplx = True, False
    for a in arrays:
        dt = a.dtype
        if dt.kind == "c":
            cplx = True
            single &= dt.itemsize == 8
        elif dt.kind == "f":
            single &= dt.itemsize <= 4
        else:
            single = False
    if cplx:
        return numpy.dtype(numpy.complex64 if single else numpy.complex128)
    return numpy.dtype(numpy.float32 if single else numpy.float64)


def check_finite(*arrays):
    """ValueError if any array holds inf or NaN (SciPy's `check_finite`; synchronises)."""
    from cuarray._core import _ops
    from cuarray._core._reductions import all as _all
    for a in arrays:
        if a.dtype.kind in "fc" and a.size and not bool(_all(_ops.isfinite(a))):
            raise ValueError("array must not contain infs or NaNs")


def matrix(x, name, finite):
    """`x` as a 2-D cuarray array (`as_array`), checked for inf and NaN when `finite`."""
    a = as_array(x, name)
    if a.ndim != 2:
        raise ValueError(f"expected a 2-D matrix, got {a.ndim}-D")
    if finite:
        check_finite(a)
    return a


def fortran_copy(a, dtype):
    """A fresh column-major copy of a 2-D array, in `dtype` (what cuSOLVER overwrites)."""
    return a.astype(dtype, order="F", copy=True)


def square(a, name):
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"expected square matrix, got shape {a.shape}" if a.ndim == 2 else
                         f"expected square matrix, got {a.ndim}-d array")
