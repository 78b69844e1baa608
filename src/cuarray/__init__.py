"""cuarray: a NumPy/SciPy-compatible array library for NVIDIA GPUs, a drop-in for CuPy.

`import cuarray as cp` runs CuPy code. The package imports on machines without a GPU;
the first device use raises `cuarray.cuda.runtime.CUDARuntimeError` there.
"""
import sys as _sys

import numpy as _numpy

from cuarray._version import __version__  # noqa: F401
from cuarray import cuda  # noqa: F401
from cuarray._core.ndarray import ndarray  # noqa: F401
# NumPy's scalar types and dtype utilities are cuarray's too, as in CuPy.
from numpy import (  # noqa: F401
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64,
    complex64, complex128, byte, ubyte, short, ushort, intc, uintc, int_, uint, longlong,
    ulonglong, intp, uintp, half, single, double, csingle, cdouble, dtype, generic, number,
    integer, signedinteger, unsignedinteger, inexact, floating, complexfloating, bool,
    promote_types, issubdtype, long, ulong)
# NumPy 1 type aliases CuPy 14 still exports.
from numpy import (  # noqa: F401
    float64 as float_, complex128 as complex_, complex128 as cfloat, complex64 as singlecomplex)
from cuarray import exceptions  # noqa: F401
from cuarray.exceptions import (  # noqa: F401
    AxisError, ComplexWarning, ModuleDeprecationWarning, RankWarning, TooHardError,
    VisibleDeprecationWarning)
from cuarray._runtime.syncdetect import allow_synchronize, DeviceSynchronized  # noqa: F401
# The NumPy routines (by NumPy's reference chapters in cuarray._routines) load on first use:
# see __getattr__ below. result_type, can_cast, min_scalar_type and common_type come from
# _routines.logic, whose versions accept cuarray arrays.
from cuarray._routines.creation import (  # noqa: F401
    empty, zeros, ones, full, empty_like, zeros_like, ones_like, full_like, arange, copy)
from cuarray._core.ufunc import ufunc  # noqa: F401
from cuarray._core._ops import *  # noqa: F401,F403  (every ufunc and its NumPy aliases)
from cuarray._core._ops import real, imag, angle, where, clip  # noqa: F401
from cuarray._core._reductions import (  # noqa: F401
    sum, prod, amax, amin, nanmax, nanmin, ptp, all, any, count_nonzero)
from cuarray._runtime.memory import get_default_memory_pool  # noqa: F401


max = amax
min = amin
newaxis = None
inf = _numpy.inf
nan = _numpy.nan
pi = _numpy.pi
e = _numpy.e
euler_gamma = _numpy.euler_gamma
# NumPy 1 constants CuPy 14 still exports.
PINF = Inf = Infinity = infty = inf
NINF = -inf
NAN = NaN = nan
PZERO = 0.0
NZERO = -0.0
disable_experimental_feature_warning = False
# Array API standard version this namespace follows.
__array_api_version__ = "2024.12"


# Names whose modules a program's first array operations do not need (start-up time is
# measured: `import cuarray` and a first `a + 1`, `a.sum()`, `sin(a)`).
_LAZY = {"fuse": "cuarray._core.fusion", "from_dlpack": "cuarray._core.interop",
         "fromDlpack": "cuarray._core.interop", "flatiter": "cuarray._core.flatiter",
         "RawKernel": "cuarray._core.raw", "RawModule": "cuarray._core.raw",
         "ElementwiseKernel": "cuarray._core.kernel", "ReductionKernel": "cuarray._core.kernel",
         "cumsum": "cuarray._core.scan", "cumprod": "cuarray._core.scan",
         "nancumsum": "cuarray._core.scan", "nancumprod": "cuarray._core.scan",
         "make_aligned_dtype": "cuarray._core.structured",
         "get_default_pinned_memory_pool": "cuarray._runtime.pinned"}
# Host data in and out (the first transfer loads them).
_LAZY.update(dict.fromkeys(("array", "asarray", "asanyarray", "ascontiguousarray",
                            "asfortranarray", "asnumpy"), "cuarray._core.transfer"))
_RENAMED = {"asanyarray": "asarray"}
_LAZY["copyto"] = "cuarray._core._copy"
_LAZY.update(dict.fromkeys(("mean", "var", "std", "argmax", "argmin", "nanargmax", "nanargmin",
                            "nansum", "nanprod", "nanmean", "nanvar", "nanstd"),
                           "cuarray._core._reductions_stats"))
# poly1d and its routines sit above linalg (roots, polyfit and poly of a matrix need it).
_LAZY.update(dict.fromkeys(("poly", "poly1d", "polyadd", "polyder", "polydiv", "polyfit",
                            "polyint", "polymul", "polysub", "polyval", "roots"),
                           "cuarray.polynomial._poly1d"))
_SUBPACKAGES = ("linalg", "fft", "random", "testing", "jit", "profiler", "scipy", "lib",
                "polynomial", "typing", "cublas", "cusparse", "cusolver", "lapack", "signal",
                "distributed")


def __getattr__(name):
    # Subpackages and routine modules load on first use: `import cuarray` stays light
    # (start-up time is measured), and `cp.linalg`, `cp.pad` work.
    if name[:1] == "_" and name[:2] != "__":
        # private: never a routine (`from cuarray import _dask` asks here first)
        raise AttributeError(f"module 'cuarray' has no attribute {name!r}")
    from cuarray._routines._names import NAMES as _ROUTINES
    mod = _ROUTINES.get(name)
    if mod is not None:
        mod = f"cuarray._routines.{mod}"
    else:
        mod = _LAZY.get(name)
    if mod is not None:
        import importlib
        value = getattr(importlib.import_module(mod), _RENAMED.get(name, name))
        globals()[name] = value
        return value
    if name in _SUBPACKAGES:
        import importlib
        try:
            return importlib.import_module(f"cuarray.{name}")
        except ModuleNotFoundError as e:
            # Only a missing subpackage itself is "no such attribute": probes such as
            # hasattr(cuarray, name) must get AttributeError. A missing dependency inside
            # it is a real error and propagates.
            if e.name != f"cuarray.{name}":
                raise
            raise AttributeError(f"module 'cuarray' has no attribute {name!r}") from None
    if name in _LINALG_TOP:
        from cuarray.linalg import _products
        return getattr(_products, name)
    if name == "einsum":
        from cuarray.linalg._einsum import einsum
        return einsum
    if name == "__all__":
        # Built on first use: `from cuarray import *` then loads every routine module, as
        # an eager package would, but plain `import cuarray` does not pay for the list.
        hidden = set(_SUBPACKAGES) - set(_STAR_SUBPACKAGES)
        value = globals()["__all__"] = [n for n in __dir__()
                                         if not n.startswith("_") and n not in hidden]
        return value
    raise AttributeError(f"module 'cuarray' has no attribute {name!r}")


# Subpackages that `from cuarray import *` brings, as CuPy's does (the others are cupyx's,
# would shadow another package's name, such as `scipy` or `typing`, or need pytest).
_STAR_SUBPACKAGES = ("linalg", "fft", "random", "polynomial")


def __dir__():
    # The names loaded on first use too (dir(), tab completion, help()); listing them
    # loads nothing. `testing` needs pytest: without it, help() and inspect.getmembers()
    # must not meet its ImportError.
    from cuarray._routines._names import NAMES as _ROUTINES
    names = (set(globals()) | _ROUTINES.keys() | _LAZY.keys() | set(_SUBPACKAGES)
             | set(_LINALG_TOP) | {"einsum", "__all__"})
    if "cuarray.testing" not in _sys.modules:
        import importlib.util
        if importlib.util.find_spec("pytest") is None:
            names.discard("testing")
    return sorted(names)


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


from cuarray import _dask  # noqa: E402  (registers cuarray.ndarray with dask.array once loaded)
_dask.install()
