"""Reductions on the reduction engine: ufunc.reduce, sum/prod/min/max, all/any and
count_nonzero. mean/var/std, the arg-reductions and the nan* forms are in
_reductions_stats, loaded on first use (start-up time is measured). No module __getattr__
forwards them: it would keep CPython from specializing `_reductions.sum` lookups, which
every `a.sum()` makes.

Result dtypes come from NumPy itself (`numpy.<ufunc>.reduce` on a one-element host
array, cached), so accumulator rules (int8 sums give int64, ...) match NumPy exactly.
float16 results accumulate in float32, as CuPy does.

A call repeated on the same layout with the same keywords takes the warm path (`_Warm`).
"""
import numpy

from cuarray._core._kernel_helpers import Cache
from cuarray._core._lazy import lazy_module
from cuarray._core import dtypes as _dt
from cuarray._core import ufunc_table as _table
from cuarray._core.ndarray import ndarray
from cuarray._core.reduction import ReduceOp, RParam
from cuarray._core.shapes import normalize_axes
from cuarray._runtime.peer import check_same_device

_copy = lazy_module(globals(), "_copy", "cuarray._core._copy")   # datetime reductions' out=
_stats = lazy_module(globals(), "_stats", "cuarray._core._reductions_stats")   # complex max/min

_f16 = numpy.dtype(numpy.float16)
_f32 = numpy.dtype(numpy.float32)
_f64 = numpy.dtype(numpy.float64)
_i64 = numpy.dtype(numpy.int64)
_bool = numpy.dtype(numpy.bool_)

_HELPERS = r"""
template<class T> __device__ __forceinline__ bool _cu_isnan(const T& x) { return !(x == x); }
template<class T> __device__ __forceinline__ T _cu_sq(const T& d) { return d * d; }
template<class T> __device__ __forceinline__ T _cu_sq(const complex<T>& d) { return norm(d); }
"""

_built = Cache()  # key -> ReduceOp
_result_dtypes = {}
_alloc = ndarray._alloc


# ---- the warm path ------------------------------------------------------------------------
# A reduction called again on the same layout with the same keywords is one dict
# lookup, one allocation and one launch (`a.sum()` of 1000 float32: 4.5 µs of Python on the
# general path, 2.8 µs warm, measured with tools/host_overhead.py). The first call resolves
# NumPy's result dtype, the output's shape, the ReduceOp, its plan and its scalars (the
# identity, ddof); all of it is kept per (function, input dtype and layout, axis, keepdims,
# dtype=). Calls with out=, where= or initial= take the general path every time.
_warm = {}   # _key(...) -> _Warm
_WARM_MAX = 1024
_DTYPE_ARGS = (numpy.dtype, type, str)


def _key(name, a, axis, keepdims, dtype=None):
    """The warm-path key of a call without out=, where= and initial=. None (the general path)
    for a non-cuarray input and for arguments of other types than the usual ones (an axis
    that is None, an int or a tuple of ints; a bool keepdims; a dtype, type or str dtype=):
    those may be unhashable, and checking them costs more than they are worth."""
    if type(a) is ndarray and type(keepdims) is bool and (dtype is None or isinstance(dtype, _DTYPE_ARGS)) \
            and (axis is None or type(axis) is int or type(axis) is tuple and _ints(axis)):
        return name, a.dtype.char, a._shape, a._strides, axis, keepdims, dtype
    return None


def _ints(axes):
    """Whether every axis is an int (this module's `all` hides the builtin)."""
    for d in axes:
        if type(d) is not int:
            return False
    return True


class _Warm:
    """A cached reduction: the output's shape and dtype, and the bound launch."""

    __slots__ = ("oshape", "res", "bound")

    def __init__(self, oshape, res, bound):
        self.oshape, self.res, self.bound = oshape, res, bound

    def __call__(self, *ins):
        o = _alloc(self.oshape, self.res)
        dev = o._device_id   # the current device (the launch makes its context current)
        for a in ins:
            if a._device_id != dev:
                check_same_device(ins, dev)
        self.bound.run(ins + (o,))
        return o


def _remember(key, plan, args, outa):
    """Cache the warm path of a call that ran `plan` on `args`, writing the new array `outa`."""
    if key is not None and plan is not None:
        _warm[key] = _Warm(outa._shape, outa.dtype, plan.bind(args))
        if len(_warm) > _WARM_MAX:
            _warm.pop(next(iter(_warm)), None)   # the oldest (another thread may beat us to it)


def _check(a, name):
    if not isinstance(a, ndarray):
        from cuarray._core.host_policy import device_array
        return device_array(a, name)  # CUDA-protocol objects become views; host data raises
    return a


def _numpy_reduce_dtype(npufunc, dtype, arg_dtype):
    key = (npufunc.__name__, dtype.char, None if arg_dtype is None else arg_dtype.char)
    r = _result_dtypes.get(key)
    if r is None:
        r = _result_dtypes[key] = npufunc.reduce(numpy.ones(1, dtype), dtype=arg_dtype).dtype
    return r


def _out_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


def _prepare_out(out, shape, axes, keepdims, dtype, name):
    oshape = _out_shape(shape, axes, keepdims)
    if out is None:
        return ndarray._alloc(oshape, dtype), oshape
    if not isinstance(out, ndarray):
        raise TypeError(f"cuarray.{name}: out must be a cuarray.ndarray")
    if out._shape != oshape:
        raise ValueError(f"output parameter for reduction operation {name} has the wrong number of "
                         f"dimensions or shape: expected {oshape}, got {out._shape}")
    return out, oshape


def _kept(o, shape, axes):
    """The output viewed without the reduced axes (as the engine writes it)."""
    kept = tuple(n for d, n in enumerate(shape) if d not in axes)
    return o if o._shape == kept else o.reshape(kept)


def _masked(where):
    return where is not True and where is not None


def _where_array(where, name):
    if isinstance(where, ndarray):
        return where if where.dtype == _bool else where.astype(_bool)
    if isinstance(where, (bool, numpy.bool_)):
        from cuarray._core.transfer import asarray
        return asarray(numpy.array(where))
    raise TypeError(f"cuarray.{name}: where must be a cuarray bool array or a bool")


# ---- ufunc.reduce -------------------------------------------------------------------------
def _sentinel(name, acc):
    """The neutral start for reductions without an identity (maximum, minimum, fmax, fmin)."""
    low = name in ("maximum", "fmax")
    if acc.kind == "b":
        return numpy.bool_(not low)
    if acc.kind in "iu":
        info = numpy.iinfo(acc)
        return acc.type(info.min if low else info.max)
    if acc.kind == "c":
        v = -numpy.inf if low else numpy.inf
        return acc.type(complex(v, v))
    if name in ("fmax", "fmin"):
        return acc.type(numpy.nan)  # fmax(NaN, x) = x: NaN is neutral and all-NaN stays NaN
    return acc.type(-numpy.inf if low else numpy.inf)


# ufuncs without an identity whose reduction may still run as a tree in any order
_REORDERABLE = ("maximum", "minimum", "fmax", "fmin")


def _ordered_reduce(uf, a, axes, res, out, keepdims, initial, name):
    """NumPy's reduction of a ufunc that is not reorderable (subtract, divide, power ...):
    ((a0 op a1) op a2) ... along one axis, the last element of its accumulate."""
    from cuarray._core import _copy, scan
    if len(axes) > 1:
        raise ValueError(f"reduction operation '{uf._np.__name__}' is not reorderable, so at "
                         f"most one axis may be specified")
    if not axes:
        r = a.astype(res) if initial is None else uf(_dt.to_scalar(initial, res), a.astype(res))
    else:
        ax = axes[0]
        if initial is not None:   # initial, then a, along the axis
            lead = (slice(None),) * ax
            b = ndarray._alloc(a._shape[:ax] + (a._shape[ax] + 1,) + a._shape[ax + 1:], res)
            b[lead + (slice(0, 1),)] = _dt.to_scalar(initial, res)
            b[lead + (slice(1, None),)] = a
            a = b
        r = scan.accumulate(uf, a, ax, res)
        r = r[(slice(None),) * ax + (slice(-1, None) if keepdims else -1,)]
    return _copy.into_out(r, out, name)


def reduce(uf, a, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True,
           _name=None, warm_key=None):
    """ufunc.reduce on the GPU (cuarray version of `numpy.ufunc.reduce`); cached for the warm
    path under `warm_key` (see _key)."""
    if _name is None and out is None and initial is None and where is True:
        # Called as ufunc.reduce (sum, max ... look up their own keys first).
        warm_key = _key(uf, a, axis, keepdims, dtype)
        warm = _warm.get(warm_key)
        if warm is not None:
            return warm(a)
    name = _name or uf.__name__
    a = _check(a, name)
    if uf.nin != 2 or uf.nout != 1:
        raise ValueError("reduce only supported for binary functions")
    if a.dtype.kind in "Mm":
        return _datetime_reduce(uf, a, axis, dtype, out, keepdims, initial, where, name)
    npuf = uf._np
    arg_dt = None if dtype is None else _dt.check_dtype(dtype)
    res = _numpy_reduce_dtype(npuf, a.dtype, arg_dt)
    if out is not None and dtype is None and isinstance(out, ndarray):
        res = out.dtype if out.dtype.kind == res.kind or npuf.__name__ not in ("add", "multiply") \
            else res
    acc = _f32 if res == _f16 else res
    shape = a._shape
    axes = normalize_axes(axis, a.ndim)
    n_red = 1
    for d in axes:
        n_red *= shape[d]
    masked = _masked(where)
    ident = uf.identity
    post = "out0 = a"
    if initial is not None:
        # `initial` joins the result once (each thread starts from the true identity).
        init_v = _dt.to_scalar(initial, acc)
        post = "a = _red(a, _init); " + post
    if ident is None and initial is None:
        if masked:
            raise ValueError(f"reduction operation '{npuf.__name__}' does not have an identity, so "
                             f"to use a where mask one has to specify 'initial'")
        if n_red == 0 and a.size == 0:
            raise ValueError(f"zero-size array to reduction operation {npuf.__name__} which has no "
                             f"identity")
    if ident is None and not masked and npuf.__name__ not in _REORDERABLE:
        return _ordered_reduce(uf, a, axes, res, out, keepdims, initial, name)
    if ident is None:
        ident_v = _sentinel(npuf.__name__, acc)
    else:
        ident_v = _dt.to_scalar(ident, acc)
    outa, _ = _prepare_out(out, shape, axes, keepdims, res, name)
    if outa.size == 0:
        return outa
    key = ("ufunc", npuf.__name__, acc.char, res.char, masked, post)

    def build():
        loop = npuf.resolve_dtypes((acc, acc, None))
        body = _table.body(npuf.__name__, loop[:2], loop[2:])
        late = (f"__device__ __forceinline__ type_reduce _red(type_reduce in0, type_reduce in1) "
                f"{{ {_dt.ctype(loop[2])} out0; {body} return cuarray_cast<type_reduce>(out0); }}")
        params = [RParam("in0", "in", acc)]
        mp = "in0"
        if masked:
            params.append(RParam("_w", "in", _bool))
            mp = "(_w ? in0 : _ident)"
        params += [RParam("out0", "out", res), RParam("_ident", "scalar", acc)]
        if initial is not None:
            params.append(RParam("_init", "scalar", acc))
        return ReduceOp(f"cuarray_reduce_{npuf.__name__}_{acc.char}{res.char}{'_w' if masked else ''}",
                        params, mp, "_red(a, b)", post, "_ident", _dt.ctype(acc),
                        _HELPERS, late_preamble=late)

    op = _built(key, build)
    args = [a]
    if masked:
        args.append(_where_array(where, name))
    args += [_kept(outa, shape, axes), ident_v]
    if initial is not None:
        args.append(init_v)
    full = shape
    if masked and args[1]._shape != shape:
        from cuarray._core.shapes import broadcast_shapes
        full = broadcast_shapes(shape, args[1]._shape)
        if full != shape:
            raise ValueError(f"where mask of shape {args[1]._shape} does not broadcast to {shape}")
    _remember(warm_key, op.launch(args, axes, full), args, outa)
    return outa


# ---- the NumPy functions ------------------------------------------------------------------
_i64 = numpy.dtype(numpy.int64)


def _datetime_reduce(uf, a, axis, dtype, out, keepdims, initial, where, name):
    """max/min (NaT wins), nanmax/nanmin (NaT skipped) and the sum of timedeltas (NaT
    wins), on the int64 counts. NaT (INT64_MIN) is the least count; the counts minus one
    (wrapping) make it the greatest."""
    op = uf.__name__
    if op not in ("maximum", "minimum", "fmax", "fmin") and not (op == "add" and a.dtype.kind == "m"):
        # NumPy's own error: its loop table has no such datetime reduction either
        uf._np.resolve_dtypes((a.dtype, a.dtype, None))
        raise TypeError(f"cuarray.{name} does not reduce {a.dtype} arrays")
    if initial is not None or where is not True or (dtype is not None and _dt.check_dtype(dtype) != a.dtype):
        raise TypeError(f"cuarray.{name} of {a.dtype} arrays takes no initial=, where= or dtype=")
    counts = a.view(_i64)
    sub, add = _uf("subtract"), _uf("add")
    if op in ("maximum", "fmin"):
        r = add(reduce(uf, sub(counts, 1), axis, None, None, keepdims, _name=name), 1)
    elif op == "add":
        from cuarray._core._ops import where as _where
        nat = reduce(_uf("logical_or"), _uf("isnat")(a), axis, None, None, keepdims, _name=name)
        r = _where(nat, numpy.int64(_NAT), reduce(uf, counts, axis, None, None, keepdims, _name=name))
    else:
        r = reduce(uf, counts, axis, None, None, keepdims, _name=name)
    return _copy.into_out(r.view(a.dtype), out, name)


_NAT = numpy.iinfo(numpy.int64).min


def _uf(name):
    from cuarray._core._ops import UFUNCS
    return UFUNCS[name]


# Each checks the warm path first (see _key): `a.sum()` on a small array is a benchmark row.
def _accumulation(name, ufunc_name):
    """numpy.`name` (sum, prod): the reduction by `ufunc_name` with a `dtype` argument."""
    def accumulate(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        key = _key(name, a, axis, keepdims, dtype) if out is None and initial is None and \
            where is True else None
        warm = _warm.get(key)
        if warm is not None:
            return warm(a)
        return reduce(_uf(ufunc_name), a, axis, dtype, out, keepdims, initial, where, _name=name,
                      warm_key=key)
    accumulate.__name__ = accumulate.__qualname__ = name
    accumulate.__doc__ = f"cuarray version of `numpy.{name}`."
    return accumulate


sum = _accumulation("sum", "add")
prod = _accumulation("prod", "multiply")


def _extreme(name, ufunc_name, greater):
    """numpy.a`name` (amax, amin): the reduction by `ufunc_name`, complex input ordered as
    NumPy orders it."""
    def extreme(a, axis=None, out=None, keepdims=False, initial=None, where=True):
        if isinstance(a, ndarray) and a.dtype.kind == "c" and initial is None and where is True:
            return _stats._complex_extreme(name, a, axis, out, keepdims, greater)
        key = _key(name, a, axis, keepdims) if out is None and initial is None and where is True \
            else None
        warm = _warm.get(key)
        if warm is not None:
            return warm(a)
        return reduce(_uf(ufunc_name), a, axis, None, out, keepdims, initial, where, _name=name,
                      warm_key=key)
    extreme.__name__ = extreme.__qualname__ = f"a{name}"
    extreme.__doc__ = f"cuarray version of `numpy.a{name}`."
    return extreme


amax = _extreme("max", "maximum", True)
amin = _extreme("min", "minimum", False)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """cuarray version of `numpy.nanmax`."""
    return reduce(_uf("fmax"), a, axis, None, out, keepdims, initial, where, _name="nanmax")


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """cuarray version of `numpy.nanmin`."""
    return reduce(_uf("fmin"), a, axis, None, out, keepdims, initial, where, _name="nanmin")


def ptp(a, axis=None, out=None, keepdims=False):
    """cuarray version of `numpy.ptp`."""
    a = _check(a, "ptp")
    r = amax(a, axis, None, keepdims)
    _uf("subtract")(r, amin(a, axis, None, keepdims), out=r)
    if out is not None:
        out[...] = r
        return out
    return r


def _simple(name, a, axis, out, keepdims, res, acc, in_dt, mp, red, post, ident, extra=(),
            extra_params=(), where=True, warm_key=None):
    """A reduction with a hand-written map/reduce/post (all, any, count, mean, var ...), cached
    for the warm path under `warm_key` (see _key)."""
    a = _check(a, name)
    shape = a._shape
    axes = normalize_axes(axis, a.ndim)
    outa, _ = _prepare_out(out, shape, axes, keepdims, res, name)
    if outa.size == 0:
        return outa
    masked = _masked(where)
    key = (name, in_dt.char, a.dtype.char, res.char, acc, mp, post, masked,
           tuple(p.dtype.char for p in extra_params))

    def build():
        params = [RParam("in0", "in", in_dt)] + list(p for p in extra_params if p.role == "in")
        m = mp
        if masked:
            params.append(RParam("_w", "in", _bool))
            m = f"(_w ? ({mp}) : ({ident}))"
        params += [RParam("out0", "out", res)] + [p for p in extra_params if p.role == "scalar"]
        return ReduceOp(f"cuarray_{name}_{a.dtype.char}{res.char}{'_w' if masked else ''}", params,
                        m, red, post, ident, acc, _HELPERS)

    op = _built(key, build)
    args = [a] + [x for x, p in zip(extra, extra_params) if p.role == "in"]
    if masked:
        args.append(_where_array(where, name))
    args.append(_kept(outa, shape, axes))
    args += [x for x, p in zip(extra, extra_params) if p.role == "scalar"]
    _remember(warm_key, op.launch(args, axes, shape), args, outa)
    return outa


def _truth(name, combine, identity):
    """numpy.`name` (all, any): every element's truth folded by `combine` from `identity`."""
    def truth(a, axis=None, out=None, keepdims=False, *, where=True):
        key = _key(name, a, axis, keepdims) if out is None and where is True else None
        warm = _warm.get(key)
        if warm is not None:
            return warm(a)
        return _simple(name, a, axis, out, keepdims, _bool, "bool",
                       a.dtype if isinstance(a, ndarray) else _bool, "cuarray_nonzero(in0)",
                       combine, "out0 = a", identity, where=where, warm_key=key)
    truth.__name__ = truth.__qualname__ = name
    truth.__doc__ = f"cuarray version of `numpy.{name}`."
    return truth


all = _truth("all", "a && b", "true")
any = _truth("any", "a || b", "false")


def count_nonzero(a, axis=None, *, keepdims=False):
    """cuarray version of `numpy.count_nonzero`; returns a 0-d array for axis=None (no sync)."""
    key = _key("count_nonzero", a, axis, keepdims)
    warm = _warm.get(key)
    if warm is not None:
        return warm(a)
    return _simple("count_nonzero", a, axis, None, keepdims, _i64, "long long", a.dtype,
                   "(long long)cuarray_nonzero(in0)", "a + b", "out0 = a", "0", warm_key=key)
