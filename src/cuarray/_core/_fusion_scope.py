"""What a function traced by cuarray.fuse sees: its globals and closure cells with ufuncs,
reductions, `where`, `clip`, `math` functions and NumPy scalar types replaced by versions
that trace, and the user's helper functions copied the same way.

Functions are copied, never modified: the copy gets a new globals dict and new closure
cells, so a closure, lambda, nested function, bound method or a function calling helpers
in other modules traces as its plain version would run.
"""
import functools
import math
import types

import numpy

from cuarray._core import ufunc_table as _table
from cuarray._core._fusion_trace import Var

# Reductions a fused function may call, by name: the kind _Trace.reduce takes.
REDUCTIONS = {"sum": "sum", "prod": "prod", "amax": "max", "amin": "min", "max": "max",
              "min": "min", "mean": "mean", "any": "any", "all": "all"}

# `math` functions with the ufunc that computes them elementwise.
_MATH = {"sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin", "acos": "arccos",
         "atan": "arctan", "atan2": "arctan2", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
         "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh", "exp": "exp",
         "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2", "log10": "log10",
         "log1p": "log1p", "sqrt": "sqrt", "cbrt": "cbrt", "pow": "power", "fabs": "fabs",
         "floor": "floor", "ceil": "ceil", "trunc": "trunc", "hypot": "hypot",
         "copysign": "copysign", "fmod": "fmod", "isnan": "isnan", "isinf": "isinf",
         "isfinite": "isfinite", "degrees": "degrees", "radians": "radians",
         "nextafter": "nextafter", "ldexp": "ldexp"}


def _tracer(args):
    for a in args:
        if isinstance(a, Var):
            return a._tr
    return None


class FusedUfunc:
    """A ufunc as seen by a fused function while it is traced."""

    def __init__(self, uf):
        self._uf = uf
        self.__name__ = uf.__name__

    def __call__(self, *args, dtype=None, out=None, **kwargs):
        tr = _tracer(args) or (out._tr if isinstance(out, Var) else None)
        if tr is None:
            if all(isinstance(a, (bool, int, float, complex, numpy.generic)) for a in args) \
                    and out is None:
                return getattr(numpy, self._uf.__name__)(*args, dtype=dtype, **kwargs)
            return self._uf(*args, dtype=dtype, out=out, **kwargs)
        if kwargs:
            raise TypeError(f"cuarray.fuse: {self.__name__} inside a fused function does not "
                            f"take {sorted(kwargs)}")
        if isinstance(out, tuple):
            out = out[0] if len(out) == 1 else out
        res = tr.ufunc(self.__name__, args, dtype)
        if out is None:
            return res
        if isinstance(res, tuple):
            if not isinstance(out, tuple) or len(out) != len(res):
                raise ValueError(f"{self.__name__} has {len(res)} outputs: out= must be a tuple "
                                 f"of {len(res)} arguments")
            return tuple(tr.assign(o, r, self.__name__) for o, r in zip(out, res))
        return tr.assign(out, res, self.__name__)

    def __getattr__(self, name):
        return getattr(self._uf, name)


def _fused_reduction(kind, real):
    def f(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        if isinstance(a, Var):
            if kwargs:
                raise TypeError(f"cuarray.fuse: {real.__name__} inside a fused function does "
                                f"not take {sorted(kwargs)}")
            return a._tr.reduce(kind, a, axis, dtype, out, keepdims)
        if kind in ("sum", "prod", "mean"):
            return real(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kwargs)
        return real(a, axis=axis, out=out, keepdims=keepdims, **kwargs)
    f.__name__ = real.__name__
    return f


def _fused_where(real):
    def where(condition, x=None, y=None):
        tr = _tracer((condition, x, y))
        if tr is None:
            return real(condition, x, y)
        if x is None or y is None:
            raise TypeError("cuarray.fuse supports the three-argument where(condition, x, y) "
                            "only")
        return tr.where(condition, x, y)
    return where


def _fused_clip(real):
    def clip(a, a_min=None, a_max=None, out=None, **kwargs):
        tr = _tracer((a, a_min, a_max))
        if tr is None:
            return real(a, a_min, a_max, out=out, **kwargs)
        r = a
        if a_min is not None:
            r = tr.ufunc("maximum", (r, a_min))
        if a_max is not None:
            r = tr.ufunc("minimum", (r, a_max))
        return r if out is None else tr.assign(out, r, "clip")
    return clip


class ScalarType:
    """A NumPy scalar type (numpy.float32) in a fused function: calling it on a traced
    value casts (astype); `dtype` lets it stand wherever a dtype is expected."""

    def __init__(self, t):
        self._t = t
        self.dtype = numpy.dtype(t)
        self.__name__ = t.__name__

    def __call__(self, v=0, *args):
        if isinstance(v, Var):
            return v._tr.astype(v, self.dtype)
        return self._t(v, *args)

    def __getattr__(self, name):
        return getattr(self._t, name)


def _unsupported(module_name, name, real):
    def f(*args, **kwargs):
        if _tracer(tuple(args) + tuple(kwargs.values())) is not None:
            raise TypeError(f"cuarray.fuse does not support {module_name}.{name} on traced "
                            f"arrays; supported: ufuncs, where, clip, astype, sum, prod, max, "
                            f"min, mean, any, all, indexing by integers and slices")
        return real(*args, **kwargs)
    f.__name__ = name
    return f


class Namespace:
    """cuarray, numpy or math as seen by a fused function: what it offers traces."""

    def __init__(self, module):
        self._module = module
        self.__name__ = module.__name__

    def __getattr__(self, name):
        obj = getattr(self._module, name)
        if self._module is math:
            uname = _MATH.get(name)
            if uname is None:
                return obj if not callable(obj) else _unsupported("math", name, obj)
            real = obj

            def f(*args):
                tr = _tracer(args)
                return real(*args) if tr is None else tr.ufunc(uname, args)
            f.__name__ = name
            return f
        if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
            return _special(obj) or _unsupported(self.__name__, name, obj)
        return substitute(obj, {})


def substitute(obj, memo):
    """What a fused function sees for a global or closure value."""
    import cuarray
    from cuarray._core.fusion import Fusion
    from cuarray._core.ufunc import ufunc as _cu_ufunc
    if obj is cuarray or obj is numpy or obj is math:
        return Namespace(obj)
    if isinstance(obj, (types.FunctionType, types.MethodType, functools.partial)) \
            and not _library(obj) and _special(obj) is None:
        return tracing_copy(obj, memo)
    if isinstance(obj, Fusion):
        return obj  # calling it on traced values inlines it
    if isinstance(obj, (_cu_ufunc, numpy.ufunc)):
        name = obj.__name__
        if name in _table.BY_NAME or name in _table.ALIASES:
            return FusedUfunc(getattr(cuarray, name))
        return obj
    if isinstance(obj, type) and issubclass(obj, numpy.generic) and obj is not numpy.generic:
        try:
            return ScalarType(obj)
        except TypeError:
            return obj
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
        return _special(obj) or obj
    return obj


def _special(obj):
    """The tracing version of a cuarray/NumPy function fuse supports, else None."""
    import cuarray
    for name, kind in REDUCTIONS.items():
        if obj is getattr(cuarray, name, None) or obj is getattr(numpy, name, None):
            return _fused_reduction(kind, getattr(cuarray, name))
    if obj is cuarray.where or obj is numpy.where:
        return _fused_where(cuarray.where)
    if obj is cuarray.clip or obj is numpy.clip:
        return _fused_clip(cuarray.clip)
    return None


def _library(func):
    f = getattr(func, "__func__", getattr(func, "func", func))
    mod = (getattr(f, "__module__", None) or "").split(".")[0]
    return mod in ("cuarray", "numpy", "math")


def _names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _names(c)
    return names


def tracing_copy(func, memo=None):
    """`func` with its globals and closure cells seeing traced ufuncs and reductions.

    A bound method keeps its instance; a closure gets fresh cells, filled after the copy is
    memoised so that a nested function referring to itself sees the copy.
    """
    memo = {} if memo is None else memo
    if isinstance(func, types.MethodType):
        return types.MethodType(tracing_copy(func.__func__, memo), func.__self__)
    if isinstance(func, functools.partial):
        return functools.partial(tracing_copy(func.func, memo), *func.args, **func.keywords)
    if not isinstance(func, types.FunctionType):
        return func  # a callable object: called as it is, on traced values
    if func in memo:
        return memo[func]
    g = dict(func.__globals__)
    cells = tuple(types.CellType() for _ in func.__closure__) if func.__closure__ else None
    copy = memo[func] = types.FunctionType(func.__code__, g, func.__name__, func.__defaults__,
                                           cells)
    copy.__kwdefaults__ = func.__kwdefaults__
    for name in _names(func.__code__):
        if name in g:
            g[name] = substitute(g[name], memo)
    for new, old in zip(cells or (), func.__closure__ or ()):
        try:
            value = old.cell_contents
        except ValueError:  # an empty cell: a variable not yet assigned in its scope
            continue
        new.cell_contents = substitute(value, memo)
    return copy
