"""Functional programming (NumPy reference: "Functional programming"): functions applied
along axes or pieces of an array, each call running on the device."""
import numpy

from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _array_like, _device, _norm_axis
from cuarray._routines.joining import stack
from cuarray._routines.manipulation import expand_dims

_bool = numpy.dtype(numpy.bool_)

__all__ = ["apply_along_axis", "apply_over_axes", "piecewise", "vectorize"]


# ---- functional programming ----------------------------------------------------------------------
def _as_result(r, name):
    return _array_like(r, name)  # func1d may return tuples or host values, as CuPy allows


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """cuarray version of `numpy.apply_along_axis`: `func1d` is called on each 1-D view (a
    Python loop; each call runs on the device)."""
    arr = _array_like(arr, "apply_along_axis")
    nd = arr.ndim
    axis = _norm_axis(axis, nd)
    dims = list(range(nd))
    inarr_view = arr.transpose(dims[:axis] + dims[axis + 1:] + [axis])
    inds = (ind + (Ellipsis,) for ind in numpy.ndindex(inarr_view._shape[:-1]))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _as_result(func1d(inarr_view[ind0], *args, **kwargs), "apply_along_axis")
    buff = ndarray._alloc(inarr_view._shape[:-1] + res._shape, res.dtype)
    buff_dims = list(range(buff.ndim))
    buff_permute = (buff_dims[0:axis] + buff_dims[buff.ndim - res.ndim:buff.ndim]
                    + buff_dims[axis:buff.ndim - res.ndim])
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _as_result(func1d(inarr_view[ind], *args, **kwargs), "apply_along_axis")
    return buff.transpose(buff_permute)


def apply_over_axes(func, a, axes):
    """cuarray version of `numpy.apply_over_axes`."""
    val = _device(a, "apply_over_axes")
    N = val.ndim
    if numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct shape")
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    """cuarray version of `numpy.piecewise`: constants are written through the condition
    masks; callables receive the selected elements (`x[cond]`), as in NumPy, which reads
    each selection's size on the host."""
    x = _device(x, "piecewise")
    n2 = len(funclist)
    # NumPy's rule for a single condition, where indexing a 1-D device array gives a 0-d
    # array rather than NumPy's scalar.
    if isinstance(condlist, ndarray):
        single = condlist.ndim <= 1 and x.ndim != 0
    else:
        single = numpy.isscalar(condlist) or (not isinstance(condlist[0], (list, ndarray)) and x.ndim != 0)
    if single:
        condlist = [condlist]
    if isinstance(condlist, ndarray):
        conds = condlist.astype(_bool, copy=False)
    else:
        conds = stack([_device(c, "piecewise").astype(_bool, copy=False) for c in condlist])
    n = conds._shape[0]
    if n == n2 - 1:
        condelse = _u.logical_not(_r.any(conds, axis=0, keepdims=True))
        from cuarray._routines.joining import concatenate
        conds = concatenate([conds, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    from cuarray._routines.creation import zeros
    y = zeros(x._shape, x.dtype)
    for k, func in enumerate(funclist):
        cond = conds[k]
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y



class vectorize:
    """cuarray version of `numpy.vectorize`, as CuPy's: `pyfunc` is compiled into one
    element-wise kernel by `cuarray.fuse` (arithmetic, comparisons, ufuncs and `where` on its
    arguments; no Python branching on element values). `otypes` casts the outputs;
    `excluded`, `cache` and `signature` are refused, as CuPy refuses them."""

    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if excluded is not None:
            raise NotImplementedError("cuarray.vectorize does not support `excluded` option")
        if cache:
            raise NotImplementedError("cuarray.vectorize does not support `cache` option")
        if signature is not None:
            raise NotImplementedError("cuarray.vectorize does not support `signature` option")
        from cuarray._core.fusion import fuse
        self.pyfunc = pyfunc
        self.__doc__ = pyfunc.__doc__ if doc is None else doc
        if isinstance(otypes, str):
            otypes = list(otypes)
        self.otypes = None if otypes is None else [numpy.dtype(t) for t in otypes]
        self.excluded = set()
        self.cache = cache
        self.signature = signature
        self._fused = fuse(pyfunc)

    def __call__(self, *args):
        args = [a if isinstance(a, (ndarray, bool, int, float, complex, numpy.generic))
                else _device(a, "vectorize") for a in args]
        out = self._fused(*args)
        if self.otypes is None:
            return out
        if isinstance(out, tuple):
            return tuple(o.astype(t, copy=False) for o, t in zip(out, self.otypes))
        return out.astype(self.otypes[0], copy=False)
