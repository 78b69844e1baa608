"""NumPy 1 names that CuPy 14 still exports: aliases of current routines, and the functions
NumPy 2 removed, which raise RuntimeError naming the replacement (as CuPy's do)."""
import numpy
from numpy.lib.npyio import DataSource  # noqa: F401
from numpy.rec import format_parser  # noqa: F401

from cuarray._core import _reductions as _r
from cuarray._core import scan as _scan

__all__ = [
    "alltrue", "sometrue", "product", "cumproduct", "round_", "msort", "asfarray",
    "find_common_type", "set_string_function", "get_array_wrap", "disp", "safe_eval",
    "DataSource", "format_parser",
]

alltrue = _r.all
sometrue = _r.any
product = _r.prod
cumproduct = _scan.cumprod


def round_(a, decimals=0, out=None):
    """cuarray version of NumPy 1's `numpy.round_` (`around`)."""
    from cuarray._routines.math import around
    return around(a, decimals, out)


def msort(a):
    """cuarray version of NumPy 1's `numpy.msort`: a copy sorted along the first axis."""
    from cuarray._routines.sorting import sort
    return sort(a, axis=0)


def asfarray(a, dtype=numpy.float64):
    """cuarray version of NumPy 1's `numpy.asfarray`: an array of an inexact type (float64
    unless `dtype` is inexact)."""
    from cuarray._core.transfer import asarray
    if not numpy.issubdtype(dtype, numpy.inexact):
        dtype = numpy.float64
    return asarray(a, dtype=dtype)


def _removed(name, recommendation):
    def f(*args, **kwargs):
        raise RuntimeError(f"This function has been removed in NumPy v2.\n"
                           f"Use {recommendation} instead.\n")
    f.__name__ = name
    f.__doc__ = f"Removed in NumPy 2: raises RuntimeError naming {recommendation}."
    return f


find_common_type = _removed("find_common_type", "`promote_types` or `result_type`")
set_string_function = _removed("set_string_function", "`np.set_printoptions`")
get_array_wrap = _removed("get_array_wrap", "<no replacement>")
disp = _removed("disp", "your own print function")
safe_eval = _removed("safe_eval", "`ast.literal_eval`")
