"""Data type routines (NumPy reference: "Data type routines"): promotion and casting rules
read from the dtypes of cuarray or NumPy arrays, plus the NumPy 1 scalar-type helpers CuPy
still exports."""
import numpy
from numpy import isdtype, mintypecode, typename  # noqa: F401

from cuarray._core.ndarray import ndarray

__all__ = [
    "common_type", "result_type", "can_cast", "min_scalar_type", "finfo", "iinfo", "isdtype",
    "mintypecode",
    "typename", "issubclass_", "obj2sctype", "issubsctype", "sctype2char", "issctype",
]


# NumPy's dtype functions dispatch on cuarray arrays (NEP 18) back to cuarray: the versions
# here hand NumPy an equivalent host stand-in, so re-exporting NumPy's would recurse.
def _stand_in(a):
    return numpy.empty(0, a.dtype) if isinstance(a, ndarray) else a


def common_type(*arrays):
    """cuarray version of `numpy.common_type` (from the dtypes of cuarray or NumPy arrays)."""
    return numpy.common_type(*[_stand_in(a) for a in arrays])


def finfo(dtype):
    """cuarray version of `numpy.finfo`; takes a cuarray array too (Array API)."""
    return numpy.finfo(dtype.dtype if isinstance(dtype, ndarray) else dtype)


def iinfo(int_type):
    """cuarray version of `numpy.iinfo`; takes a cuarray array too (Array API)."""
    return numpy.iinfo(int_type.dtype if isinstance(int_type, ndarray) else int_type)


def result_type(*arrays_and_dtypes):
    """cuarray version of `numpy.result_type` (arrays count by dtype, as NumPy 2 does)."""
    return numpy.result_type(*[a.dtype if isinstance(a, ndarray) else a for a in arrays_and_dtypes])


def can_cast(from_, to, casting="safe"):
    """cuarray version of `numpy.can_cast`."""
    return numpy.can_cast(from_.dtype if isinstance(from_, ndarray) else from_, to, casting)


def min_scalar_type(a):
    """cuarray version of `numpy.min_scalar_type`; a 0-d device array is read on the host
    (synchronises), since NumPy decides from its value."""
    if isinstance(a, ndarray):
        a = a.get() if a.ndim == 0 else numpy.empty(0, a.dtype)
    return numpy.min_scalar_type(a)



# ---- NumPy 1 scalar-type helpers (removed in NumPy 2; CuPy keeps them) ---------------------------
def issubclass_(arg1, arg2):
    """`issubclass` that returns False instead of raising for non-classes (NumPy 1's)."""
    try:
        return issubclass(arg1, arg2)
    except TypeError:
        return False


def obj2sctype(rep, default=None):
    """The scalar type of `rep` (a scalar type, a dtype specifier or an array), else
    `default` (NumPy 1's `obj2sctype`)."""
    if isinstance(rep, type) and issubclass(rep, numpy.generic):
        return rep
    if isinstance(rep, (numpy.ndarray, ndarray)):
        return rep.dtype.type
    try:
        return numpy.dtype(rep).type
    except Exception:
        return default


def issubsctype(arg1, arg2):
    """True when the scalar type of `arg1` is a subclass of that of `arg2` (NumPy 1's)."""
    return issubclass(obj2sctype(arg1), obj2sctype(arg2))


def sctype2char(sctype):
    """The type character of a scalar type or dtype specifier (NumPy 1's `sctype2char`)."""
    sctype = obj2sctype(sctype)
    if sctype is None:
        raise ValueError("unrecognized type")
    return numpy.dtype(sctype).char


def issctype(rep):
    """True when `rep` is a scalar type or dtype other than object (NumPy 1's `issctype`)."""
    if not isinstance(rep, (type, numpy.dtype)):
        return False
    try:
        res = obj2sctype(rep)
        return bool(res and res != numpy.object_)
    except Exception:
        return False
