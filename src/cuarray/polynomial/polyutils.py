"""Helpers for coefficient series (cuarray version of `cupy.polynomial.polyutils`)."""
import operator

from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core import _reductions_stats as _rs
from cuarray._routines._args import _device

__all__ = ["as_series", "trimseq", "trimcoef"]


def _as_int(x, desc):
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {x}") from e


def trimseq(seq):
    """cuarray version of `numpy.polynomial.polyutils.trimseq` (for 1-D arrays): trailing
    zeros removed, keeping at least the first element."""
    seq = _device(seq, "trimseq")
    if seq.ndim == 0:
        raise TypeError("Input must be 1-d array")
    if seq.ndim > 1:
        raise ValueError("Input must be 1-d array")
    if seq.size == 0:
        return seq
    from cuarray._routines.adding_removing import trim_zeros
    ret = trim_zeros(seq, trim="b")
    return ret if ret.size > 0 else seq[:1]


def _coefficients(a, name, bool_refusal):
    """`a` as a 1-D device array of coefficients: not empty, at most 1-D, not bool (refused
    with `bool_refusal`, NumPy's message where it differs between functions)."""
    a = _device(a, name)
    if a.size == 0:
        raise ValueError("Coefficient array is empty")
    if a.ndim > 1:
        raise ValueError("Coefficient array is not 1-d")
    if a.dtype.kind == "b":
        raise ValueError(bool_refusal)
    return a.ravel()


def as_series(alist, trim=True):
    """cuarray version of `numpy.polynomial.polyutils.as_series`: 1-D device arrays of one
    common inexact type."""
    from cuarray._routines.dtype_routines import common_type
    arrays = []
    for a in alist:
        a = _coefficients(a, "as_series", "Coefficient arrays have no common type")
        if trim:
            a = trimseq(a)
        arrays.append(a)
    dtype = common_type(*arrays)
    return [a.astype(dtype, copy=False) for a in arrays]


def trimcoef(c, tol=0):
    """cuarray version of `numpy.polynomial.polyutils.trimcoef`: trailing coefficients with
    absolute value at most `tol` removed (reads the new length on the host)."""
    from cuarray._routines.dtype_routines import common_type
    if tol < 0:
        raise ValueError("tol must be non-negative")
    c = _coefficients(c, "trimcoef", "bool inputs are not allowed")
    c = c.astype(common_type(c), copy=False)
    keep = _u.greater(_u.absolute(c), tol)
    n = int(_r.any(keep).get()) and c.size - int(_rs.argmax(keep[::-1]).get())
    if n == 0:
        return c[:1] * 0
    return c[:n]


def _ndmin1(x, name):
    x = _device(x, name)
    return x.reshape(1) if x.ndim == 0 else x

