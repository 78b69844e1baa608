"""cuarray: a NumPy/SciPy-compatible array library for NVIDIA GPUs, a drop-in for CuPy.

`import cuarray as cp` runs CuPy code. The package imports on machines without a GPU;
the first device use raises `cuarray.cuda.runtime.CUDARuntimeError` there.
"""
import numpy as _numpy

from cuarray._version import __version__  # noqa: F401
from cuarray import cuda  # noqa: F401
from cuarray._core.ndarray import ndarray  # noqa: F401
from cuarray._core.raw import RawKernel, RawModule  # noqa: F401
from cuarray._core.transfer import asnumpy  # noqa: F401
from cuarray._core._copy import copyto  # noqa: F401
# NumPy's scalar types and dtype utilities are cuarray's too, as in CuPy.
from numpy import (  # noqa: F401
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64,
    complex64, complex128, byte, ubyte, short, ushort, intc, uintc, int_, uint, longlong,
    ulonglong, intp, uintp, half, single, double, csingle, cdouble, dtype, generic, number,
    integer, signedinteger, unsignedinteger, inexact, floating, complexfloating, bool,
    finfo, iinfo, promote_types, issubdtype)
# The NumPy routines (by NumPy's reference chapters in cuarray._routines) load on first use:
# see __getattr__ below. result_type, can_cast, min_scalar_type and common_type come from
# _routines.logic, whose versions accept cuarray arrays.
from cuarray._routines._names import NAMES as _ROUTINES
from cuarray._routines.creation import (  # noqa: F401
    array, asarray, ascontiguousarray, asfortranarray, empty, zeros, ones, full, empty_like,
    zeros_like, ones_like, full_like, arange, copy)
from cuarray._core.kernel import ElementwiseKernel, ReductionKernel  # noqa: F401
from cuarray._core.ufunc import ufunc  # noqa: F401
from cuarray._core._ops import *  # noqa: F401,F403  (every ufunc and its NumPy aliases)
from cuarray._core._ops import real, imag, angle, where, clip  # noqa: F401
from cuarray._core._reductions import (  # noqa: F401
    sum, prod, amax, amin, nanmax, nanmin, ptp, all, any, count_nonzero, mean, var, std,
    argmax, argmin, nanargmax, nanargmin, nansum, nanprod, nanmean, nanvar, nanstd)
from cuarray._core.scan import cumsum, cumprod, nancumsum, nancumprod  # noqa: F401
from cuarray._runtime.memory import get_default_memory_pool  # noqa: F401
from cuarray._runtime.pinned import get_default_pinned_memory_pool  # noqa: F401


max = amax
min = amin
cumulative_sum = cumsum
cumulative_prod = cumprod
newaxis = None
inf = _numpy.inf
nan = _numpy.nan
pi = _numpy.pi
e = _numpy.e
euler_gamma = _numpy.euler_gamma


_LAZY = {"fuse": "cuarray._core.fusion", "from_dlpack": "cuarray._core.interop",
         "fromDlpack": "cuarray._core.interop", "roots": "cuarray.linalg._polynomial"}
_SUBPACKAGES = ("linalg", "fft", "random", "testing", "jit", "profiler", "scipy")


def __getattr__(name):
    # Subpackages and routine modules load on first use: `import cuarray` stays light
    # (start-up time is measured), and `cp.linalg`, `cp.pad` work.
    mod = _ROUTINES.get(name)
    if mod is not None:
        mod = f"cuarray._routines.{mod}"
    else:
        mod = _LAZY.get(name)
    if mod is not None:
        import importlib
        value = getattr(importlib.import_module(mod), name)
        globals()[name] = value
        return value
    if name in _SUBPACKAGES:
        import importlib
        return importlib.import_module(f"cuarray.{name}")
    if name in _LINALG_TOP:
        from cuarray.linalg import _products
        return getattr(_products, name)
    if name == "einsum":
        from cuarray.linalg._einsum import einsum
        return einsum
    raise AttributeError(f"module 'cuarray' has no attribute {name!r}")


_LINALG_TOP = ("matmul", "dot", "vdot", "inner", "outer", "tensordot", "kron", "vecdot",
               "matrix_transpose", "cross")


def is_available():
    """True when a CUDA GPU can be used."""
    return cuda.is_available()


def get_array_module(*args):
    """cuarray if any argument is a cuarray array, else numpy (CuPy's `get_array_module`)."""
    for a in args:
        if isinstance(a, ndarray):
            import cuarray
            return cuarray
    return _numpy
