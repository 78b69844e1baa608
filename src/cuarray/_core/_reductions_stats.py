"""mean/var/std, the arg-reductions (complex max/min too: their (value, index) pairs carry
the value), and the nan* forms: the reductions a program's first calls do not need, on
_reductions' engine and warm path."""
import numpy

from cuarray._core import _copy
from cuarray._core import _reductions as _r
from cuarray._core._kernel_helpers import render
from cuarray._core._lazy import lazy_module
from cuarray._core._reductions import (
    _HELPERS, _built, _check, _f16, _f32, _f64, _i64, _key, _kept, _masked, _prepare_out,
    _remember, _simple, _uf, _where_array, count_nonzero, prod, reduce, sum)
from cuarray._core import dtypes as _dt
from cuarray._core.ndarray import ndarray
from cuarray._core.reduction import ReduceOp, RParam
from cuarray._core.shapes import normalize_axes

_argwhole = lazy_module(globals(), "_argwhole", "cuarray._core._argwhole")   # whole-array arg*

# The warm-path cache is _reductions' (`_r._warm`: read through the module, which tests
# may give a fresh one).


def _complex_extreme(name, a, axis, out, keepdims, greater):
    """max/min of complex input as NumPy answers: the first NaN along the reduced axes wins.
    An unordered tree cannot promise which NaN survives; the (value, index) pairs of the
    arg-reductions can, so they carry the value out instead of the index."""
    key = _key(name, a, axis, keepdims) if out is None else None
    warm = _r._warm.get(key)
    if warm is not None:
        return warm(a)
    axes = tuple(range(a.ndim)) if axis is None else normalize_axes(axis, a.ndim)
    if 0 in [a._shape[d] for d in axes]:
        raise ValueError(f"zero-size array to reduction operation "
                         f"{'maximum' if greater else 'minimum'} which has no identity")
    return _arg_launch(name, a, axes, out, keepdims, a.dtype,
                       _arg_preamble(a.dtype, greater, False), key, value=True)


def _mean_dtypes(a, dtype):
    if a.dtype.kind in "Mm":
        raise TypeError(f"cuarray's mean, var and std do not take {a.dtype} arrays (mean takes "
                        "timedelta64 without dtype= and where=)")
    if dtype is not None:
        res = _dt.check_dtype(dtype)
    elif a.dtype.kind in "biu":
        res = _f64
    else:
        res = a.dtype
    acc = _f32 if res == _f16 else res
    return res, acc


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """cuarray version of `numpy.mean`."""
    key = _key("mean", a, axis, keepdims, dtype) if out is None and where is True else None
    warm = _r._warm.get(key)
    if warm is not None:
        return warm(a)
    a = _check(a, "mean")
    if a.dtype.kind == "m" and where is True and (dtype is None or _dt.check_dtype(dtype) == a.dtype):
        # NumPy's mean of timedeltas: their sum (NaT wins) divided by the count, truncated
        n = 1
        for d in normalize_axes(axis, a.ndim):
            n *= a._shape[d]
        r = _uf("divide")(sum(a, axis, keepdims=keepdims), numpy.int64(n))
        return _copy.into_out(r, out, "mean")
    res, acc = _mean_dtypes(a, dtype)
    if _masked(where):
        w = _where_array(where, "mean")
        s = sum(a, axis, acc, None, keepdims, where=w)
        wb = w if w._shape == a._shape else _broadcast(w, a._shape)
        c = count_nonzero(wb, axis, keepdims=keepdims)
        r = _uf("divide")(s, c)
        return _finish(r, res, out, "mean")
    ac = _dt.ctype(acc)
    return _simple("mean", a, axis, out, keepdims, res, ac, acc, "in0", "a + b",
                   f"out0 = a / cuarray_cast<{ac}>((double)_n)", "type_reduce()", warm_key=key)


def _broadcast(x, shape):
    from cuarray._core.shapes import broadcast_strides
    return x._view(shape, broadcast_strides(x._shape, x._strides, shape))


def _finish(r, res, out, name):
    return _copy.into_out(r if r.dtype == res else r.astype(res), out, name)


def _var(name, a, axis, dtype, out, ddof, keepdims, sqrt, where, given_mean=None):
    # Two reductions, each with its warm path: the mean (dims kept), then the squared deviations.
    # `given_mean`: NumPy's mean= (the mean with dims kept), used instead of computing it.
    key = _key((name, ddof), a, axis, keepdims, dtype) \
        if out is None and where is True and type(ddof) is int and given_mean is None else None
    warm = _r._warm.get(key)
    if warm is not None:
        return warm(a, mean(a, axis, _mean_dtypes(a, dtype)[1], None, True))
    a = _check(a, name)
    res, acc = _mean_dtypes(a, dtype)
    rres = _dt.real_dtype(res)
    racc = _dt.real_dtype(acc)
    axes = normalize_axes(axis, a.ndim)
    if _masked(where):
        w = _where_array(where, name)
        m = mean(a, axes, acc, None, True, where=w) if given_mean is None else \
            _given_mean(given_mean, acc, name)
        d = _uf("subtract")(a.astype(acc, copy=False), m)
        sq = _uf("multiply")(d, _uf("conjugate")(d)).real if acc.kind == "c" else _uf("square")(d)
        s = sum(sq, axes, racc, None, keepdims, where=w)
        wb = w if w._shape == a._shape else _broadcast(w, a._shape)
        c = count_nonzero(wb, axes, keepdims=keepdims)
        dof = _uf("subtract")(c, ddof)
        if name in ("nanvar", "nanstd"):   # NumPy's nanvar: NaN where no degrees of freedom are left
            from cuarray._core._ops import where as select
            dof = select(_uf("greater")(dof, 0), dof, numpy.nan)
        else:                              # NumPy's var: max(N - ddof, 0) degrees of freedom
            dof = _uf("maximum")(dof, 0)
        r = _uf("divide")(s, dof)
        if sqrt:
            r = _uf("sqrt")(r)
        return _finish(r, rres, out, name)
    m = mean(a, axis, acc, None, True) if given_mean is None else _given_mean(given_mean, acc, name)
    rc = _dt.ctype(racc)
    # an integer dtype= takes the square root of the integer variance (sqrt(int) is ambiguous)
    v = f"(a / cuarray_cast<{rc}>(fmax((double)_n - _ddof, 0.0)))"
    post = "out0 = " + (v if not sqrt else f"sqrt({v})" if racc.kind in "fc" else
                        f"sqrt((double){v})")
    return _simple(name, a, axes, out, keepdims, rres, rc, acc, "_cu_sq(in0 - in1)", "a + b", post,
                   "type_reduce()", extra=(m, numpy.float64(ddof)),
                   extra_params=(RParam("in1", "in", acc), RParam("_ddof", "scalar", _f64)), warm_key=key)


def _given_mean(m, acc, name):
    if not isinstance(m, ndarray):
        raise TypeError(f"cuarray.{name}: mean= must be a cuarray.ndarray (the mean with "
                        f"keepdims=True), got {type(m).__name__}")
    return m.astype(acc, copy=False)


def _ddof(ddof, correction):
    """NumPy's ddof/correction rule: either one, not both."""
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """cuarray version of `numpy.var`."""
    return _var("var", a, axis, dtype, out, _ddof(ddof, correction), keepdims, False, where, mean)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """cuarray version of `numpy.std`."""
    return _var("std", a, axis, dtype, out, _ddof(ddof, correction), keepdims, True, where, mean)


# ---- arg reductions -----------------------------------------------------------------------
_ARG = r"""
typedef ${VT} _cu_vt;
struct _cu_arg { ${VT} v; long long i; };
__device__ __forceinline__ bool _cu_better(const ${VT}& b, const ${VT}& a) { return ${CMP}; }
__device__ __forceinline__ _cu_arg _cu_argred(_cu_arg a, _cu_arg b) {
  if (a.i < 0) return b;
  if (b.i < 0) return a;
  const bool an = ${NANA}, bn = ${NANB};
  if (an || bn) {
    if (an && bn) return a.i < b.i ? a : b;
    return ${SKIPNAN} ? (an ? b : a) : (an ? a : b);
  }
  if (_cu_better(b.v, a.v) || (b.v == a.v && b.i < a.i)) return b;
  return a;
}
__device__ __forceinline__ _cu_arg _cu_mk(const ${VT}& v, long long i) { _cu_arg r; r.v = v; r.i = i; return r; }
__device__ __forceinline__ _cu_arg _cu_argstep(const _cu_arg& a, const _cu_arg& b) {
  // b follows a in this thread's sequence: only a strictly better b replaces a.
  if (a.i < 0) return b;
  const bool an = ${NANA}, bn = ${NANB};
  if (an || bn) return ${SKIPNAN} ? (an && !bn ? b : a) : (an ? a : b);
  return _cu_better(b.v, a.v) ? b : a;
}
"""


def _argreduce(name, a, axis, out, keepdims, greater, skipnan):
    # Along an axis: the warm path. Whole arrays mostly take _argwhole, with its own caches.
    key = _key(name, a, axis, keepdims) if axis is not None and out is None else None
    warm = _r._warm.get(key)
    if warm is not None:
        return warm(a)
    a = _check(a, name)
    if a.dtype.kind in "Mm":
        # NaT comes first, as NaN does: the least int64 count already is NaT; for argmax
        # the counts minus one (wrapping) make NaT the greatest.
        if skipnan:
            raise TypeError(f"cuarray.{name} does not take {a.dtype} arrays")
        counts = a.view(_i64)
        return _argreduce(name, _uf("subtract")(counts, 1) if greater else counts, axis, out,
                          keepdims, greater, skipnan)
    ndim = a.ndim
    axes = None if axis is None else normalize_axes(axis, ndim)
    # As NumPy: an error where a reduced range is empty (an empty output alone is fine).
    if a.size == 0 and (axes is None or 0 in [a._shape[d] for d in axes]):
        raise ValueError(f"attempt to get {name} of an empty sequence")
    if axis is None and not skipnan and _argwhole.supports(a):
        # C-contiguous: the flat index is the element's offset, whatever the shape.
        outa = _argwhole.argwhole(a, greater)
    else:
        if axis is None:
            a = a.reshape(-1)
            axes = (0,)
        vt = _f32 if a.dtype == _f16 else a.dtype
        outa = _arg_launch(name, a, axes, out if axis is not None else None,
                           keepdims and axis is not None, vt, _arg_preamble(vt, greater, skipnan), key)
    if axis is None:
        if keepdims:
            outa = outa.reshape((1,) * ndim)
        if out is not None:
            out[...] = outa
            return out
    return outa


def _arg_preamble(vt, greater, skipnan):
    if vt.kind == "c":
        op = ">" if greater else "<"
        cmp = f"(b.re {op} a.re) || (b.re == a.re && b.im {op} a.im)"
    else:
        cmp = f"b {'>' if greater else '<'} a"
    inexact = vt.kind in "fc"
    return render(_ARG, VT=_dt.ctype(vt), CMP=cmp,
                  NANA="_cu_isnan(a.v)" if inexact else "false",
                  NANB="_cu_isnan(b.v)" if inexact else "false",
                  SKIPNAN="true" if skipnan else "false")


def _arg_launch(name, a, axes, out, keepdims, vt, pre, warm_key, value=False):
    """Reduce (value, index) pairs; write the index, or with `value` the value itself."""
    shape = a._shape
    rt = a.dtype if value else _i64
    outa, _ = _prepare_out(out, shape, axes, keepdims, rt, name)
    if outa.size == 0:
        return outa
    key = (name, a.dtype.char, pre, value)

    def build():
        params = [RParam("in0", "in", vt), RParam("out0", "out", rt)]
        return ReduceOp(f"cuarray_{name}_{a.dtype.char}", params, "_cu_mk(in0, _j)", "_cu_argred(a, b)",
                        "out0 = a.v" if value else "out0 = a.i", "_cu_mk(_cu_vt(), -1)", "_cu_arg",
                        _HELPERS + pre, step_expr="_cu_argstep(a, b)")

    op = _built(key, build)
    args = [a, _kept(outa, shape, axes)]
    _remember(warm_key, op.launch(args, axes, shape), args, outa)
    return outa


def argmax(a, axis=None, out=None, *, keepdims=False):
    """cuarray version of `numpy.argmax`."""
    return _argreduce("argmax", a, axis, out, keepdims, True, False)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """cuarray version of `numpy.argmin`."""
    return _argreduce("argmin", a, axis, out, keepdims, False, False)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """cuarray version of `numpy.nanargmax`; an all-NaN slice gives -1 (NumPy raises; checking
    would need a device-to-host sync)."""
    return _argreduce("nanargmax", a, axis, out, keepdims, True, True)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """cuarray version of `numpy.nanargmin`; an all-NaN slice gives -1 (see nanargmax)."""
    return _argreduce("nanargmin", a, axis, out, keepdims, False, True)


# ---- nan-ignoring sums and statistics ----------------------------------------------------
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """cuarray version of `numpy.nansum`."""
    a = _check(a, "nansum")
    if a.dtype.kind not in "fc":
        return sum(a, axis, dtype, out, keepdims, initial, where)
    return _nanreduce("nansum", "add", a, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """cuarray version of `numpy.nanprod`."""
    a = _check(a, "nanprod")
    if a.dtype.kind not in "fc":
        return prod(a, axis, dtype, out, keepdims, initial, where)
    return _nanreduce("nanprod", "multiply", a, axis, dtype, out, keepdims, initial, where)


def _not_nan(a, where, name):
    """Where `a` is not NaN (and `where` holds): the mask the nan* reductions reduce under."""
    mask = _uf("logical_not")(_uf("isnan")(a))
    if _masked(where):
        mask = _uf("logical_and")(mask, _where_array(where, name))
    return mask


def _nanreduce(name, ufname, a, axis, dtype, out, keepdims, initial, where):
    mask = _not_nan(a, where, name)
    uf = _uf(ufname)
    if initial is None:
        initial = uf.identity
    return reduce(uf, a, axis, dtype, out, keepdims, initial, mask, _name=name)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """cuarray version of `numpy.nanmean`."""
    a = _check(a, "nanmean")
    if a.dtype.kind not in "fc":
        return mean(a, axis, dtype, out, keepdims, where=where)
    mask = _not_nan(a, where, "nanmean")
    return mean(a, axis, dtype, out, keepdims, where=mask)


def _nan_spread(name, plain, root):
    """numpy.`name` (nanvar, nanstd): `plain` (var, std) over the non-NaN elements; `root`:
    the square root of the variance."""
    def spread(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
               mean=None, correction=None):
        a = _check(a, name)
        ddof = _ddof(ddof, correction)
        if a.dtype.kind not in "fc":
            return plain(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
        mask = _not_nan(a, where, name)
        return _var(name, a, axis, dtype, out, ddof, keepdims, root, mask, mean)
    spread.__name__ = spread.__qualname__ = name
    spread.__doc__ = f"cuarray version of `numpy.{name}`."
    return spread


nanvar = _nan_spread("nanvar", var, False)
nanstd = _nan_spread("nanstd", std, True)
