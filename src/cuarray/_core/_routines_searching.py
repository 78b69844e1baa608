"""searchsorted and its kernel (public face: `_routines/searching.py`); here because
`ndarray.searchsorted` is a method."""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.host_policy import host_error
from cuarray._core.ndarray import ndarray
from cuarray._core._routines_sorting import ORDER, need, op

_i64 = numpy.dtype(numpy.int64)


def _search_op(ct, adt, side, sorter_dt):
    """out = the insertion point of v in the sorted `a` (read through `sorter` when given),
    compared in the common dtype ct."""
    C = _dt.ctype(ct)
    elem = f"cuarray_cast<{C}>(a[(long long)s[mid]])" if sorter_dt is not None else \
        f"cuarray_cast<{C}>(a[mid])"
    test = f"cuarray_lt({elem}, v)" if side == "left" else f"!cuarray_lt(v, {elem})"

    def build():
        params = [Param("v", "in", ct), Param("a", "raw", adt)]
        if sorter_dt is not None:
            params.append(Param("s", "raw", sorter_dt))
        params.append(Param("o", "out", _i64))
        body = (f"long long lo = 0, hi = a.size(); "
                f"while (lo < hi) {{ const long long mid = (lo + hi) >> 1; "
                f"if ({test}) lo = mid + 1; else hi = mid; }} o = lo;")
        return Op(f"cuarray_searchsorted_{side}", params, body, preamble=ORDER)

    # Op's kernel cache does not key on raw arrays' dtypes: one Op per dtype of `a`.
    return op(("search", ct.char, adt.char, side, None if sorter_dt is None else sorter_dt.char), build)


def search(a, v, side, sorter=None):
    """searchsorted with already-checked arguments; `v` an array or a Python/NumPy scalar."""
    from cuarray._core.transfer import asarray
    if isinstance(v, ndarray):
        ct = numpy.result_type(a.dtype, v.dtype)
    else:
        ct = numpy.result_type(a.dtype, v)
        v = asarray(numpy.asarray(v, dtype=ct))
    ct = _dt.check_dtype(ct)
    out = ndarray._alloc(v.shape, _i64)
    if out.size:
        args = [v, a] + ([sorter] if sorter is not None else []) + [out]
        _search_op(ct, a.dtype, side, None if sorter is None else sorter.dtype).launch(args)
    return out


def searchsorted(a, v, side="left", sorter=None):
    """cuarray version of `numpy.searchsorted`; a scalar `v` gives a 0-d array."""
    a = need(a, "searchsorted")
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1 else
                         "object of too small depth for desired array")
    if isinstance(v, (numpy.ndarray, list, tuple)):
        raise host_error("searchsorted", v, arg="v")
    if sorter is not None:
        sorter = need(sorter, "searchsorted")
        if sorter.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if sorter.size != a.size:
            raise ValueError("sorter.size must equal a.size")
    return search(a, v, side, sorter)


__all__ = ["searchsorted"]
