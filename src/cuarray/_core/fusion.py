"""cuarray.fuse: a Python function of arrays traced into one elementwise kernel, and one
reduction kernel when it ends in sum/prod/max/min, compiled once per argument types.

The function runs once per (dtype, ndim) combination of its arguments with symbolic
values; each ufunc call or operator on them appends one C statement built from the ufunc
table's body for the loop NumPy's `resolve_dtypes` picks. The statements become the body
of one `elementwise.Op` (or the map of one `reduction.ReduceOp`).

This file also holds the C pieces cuarray.jit shares: a ufunc loop as a __device__
function, and C literals of a dtype.
"""
import functools
import types

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core import ufunc_table as _table
from cuarray._runtime.compiler import c_identifier


# ---- C pieces shared with cuarray.jit -------------------------------------------------------
@functools.lru_cache(maxsize=None)
def ufunc_function(name, in_dtypes, out_dtypes):
    """(C name, definition) of a __device__ function computing one loop of ufunc `name`.

    With one output it returns `out0`; with more it takes them by reference after the
    inputs. The body is the ufunc table's, so results match cuarray's ufuncs exactly.
    """
    row = _table.get(name)
    ins = tuple(numpy.dtype(d) for d in in_dtypes)
    outs = tuple(numpy.dtype(d) for d in out_dtypes)
    sig = _table.signature(ins, outs).replace("->", "_")
    fname = c_identifier(f"_cu_{row.name}_{sig}")
    body = _table.body(row.name, ins, outs)
    params = ", ".join(f"const {_dt.ctype(d)} in{k}" for k, d in enumerate(ins))
    if len(outs) == 1:
        oc = _dt.ctype(outs[0])
        code = (f"__device__ __forceinline__ {oc} {fname}({params}) {{\n"
                f"  {oc} out0;\n  {body}\n  return out0;\n}}")
    else:
        refs = ", ".join(f"{_dt.ctype(d)}& out{k}" for k, d in enumerate(outs))
        code = f"__device__ __forceinline__ void {fname}({params}, {refs}) {{\n  {body}\n}}"
    return fname, code


def literal(value, dtype):
    """C expression for the Python/NumPy scalar `value` converted to `dtype` (exact)."""
    dt = numpy.dtype(dtype)
    k = dt.kind
    if k == "b":
        return "true" if value else "false"
    if k in "iu":
        if isinstance(value, (complex, numpy.complexfloating)):
            value = value.real
        if isinstance(value, (float, numpy.floating)):
            if not numpy.isfinite(value):
                raise OverflowError(f"cannot convert {value} to {dt}")
        v = int(value)
        info = numpy.iinfo(dt)
        if not info.min <= v <= info.max:
            raise OverflowError(f"Python integer {v} out of bounds for {dt}")
        if dt.itemsize == 8:
            if k == "u":
                return f"{v}ULL"
            return f"({v + 1}LL - 1)" if v == info.min else f"{v}LL"
        return f"(({_dt.ctype(dt)}){v}LL)"
    if k == "f":
        x = float(value.real if isinstance(value, (complex, numpy.complexfloating)) else value)
        if dt.itemsize == 2:
            return f"half({literal(x, numpy.float64)})"
        if dt.itemsize == 4:
            with numpy.errstate(over="ignore"):
                f = numpy.float32(x)
            if numpy.isfinite(f):
                return f"{float(f)!r}f"
            return f"cuarray_f32({int(f.view(numpy.uint32))}u)"
        if numpy.isfinite(x):
            return repr(x)
        return f"cuarray_f64({int(numpy.float64(x).view(numpy.uint64))}ull)"
    if k == "c":
        z = complex(value)
        r = _dt.real_dtype(dt)
        return f"{_dt.ctype(dt)}({literal(z.real, r)}, {literal(z.imag, r)})"
    raise TypeError(f"no C literal for dtype {dt}")


def cast(code, from_dtype, to_dtype):
    """`code` (of `from_dtype`) converted to `to_dtype` with NumPy's casting."""
    if from_dtype is not None and numpy.dtype(from_dtype) == numpy.dtype(to_dtype):
        return code
    return f"cuarray_cast<{_dt.ctype(to_dtype)}>({code})"


# ---- tracing ----------------------------------------------------------------------------------
_SAMPLE = {int: 0, float: 0.0, complex: 0j}
_STRONG = {int: numpy.dtype(numpy.int64), float: numpy.dtype(numpy.float64),
           complex: numpy.dtype(numpy.complex128)}
_REDUCTIONS = {"sum": "add", "prod": "multiply", "amax": "maximum", "amin": "minimum",
               "max": "maximum", "min": "minimum"}


class _Var:
    """A symbolic value while a fused function is traced.

    `dtype` is a numpy.dtype, or a Python type for a weak Python-scalar argument.
    `stage` is 'map' (before the reduction), 'post' (after it) or None (a scalar
    argument, usable in both).
    """

    __slots__ = ("_tr", "dtype", "ndim", "code", "stage")
    __array_priority__ = 1000

    def __init__(self, tr, dtype, ndim, code, stage):
        self._tr = tr
        self.dtype = dtype
        self.ndim = ndim
        self.code = code
        self.stage = stage

    def __repr__(self):
        return f"<cuarray.fuse traced value {self.code}: {self.dtype}, ndim={self.ndim}>"

    def __bool__(self):
        raise TypeError("a value traced by cuarray.fuse has no truth value: Python `if`, `and`, "
                        "`or` and `not` cannot depend on array data; use cuarray.where(...)")

    def __len__(self):
        raise TypeError("cuarray.fuse traces values without shapes: len() is not available")

    def __iter__(self):
        raise TypeError("cuarray.fuse cannot iterate over a traced array")

    def __array_ufunc__(self, uf, method, *inputs, **kwargs):
        # NumPy ufuncs applied to traced values (numpy.sin(x) in a fused function).
        if method != "__call__" or kwargs.keys() - {"dtype"}:
            raise TypeError(f"cuarray.fuse supports plain calls of numpy.{uf.__name__}, not "
                            f"{method} or keywords {sorted(kwargs)}")
        return self._tr.ufunc(uf.__name__, inputs, kwargs.get("dtype"))

    def astype(self, dtype, copy=True):
        return self._tr.astype(self, dtype)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tr.reduce("add", self, axis, dtype, out, keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tr.reduce("multiply", self, axis, dtype, out, keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("maximum", self, axis, None, out, keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("minimum", self, axis, None, out, keepdims)

    def conj(self):
        return self._tr.ufunc("conjugate", (self,))

    conjugate = conj

    @property
    def real(self):
        return self._tr.part(self, "re")

    @property
    def imag(self):
        return self._tr.part(self, "im")


def _binop(name, reflected=False):
    if reflected:
        return lambda self, other: self._tr.ufunc(name, (other, self))
    return lambda self, other: self._tr.ufunc(name, (self, other))


for _name, _uf in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                   ("truediv", "divide"), ("floordiv", "floor_divide"), ("mod", "remainder"),
                   ("pow", "power"), ("and", "bitwise_and"), ("or", "bitwise_or"),
                   ("xor", "bitwise_xor"), ("lshift", "left_shift"), ("rshift", "right_shift")):
    setattr(_Var, f"__{_name}__", _binop(_uf))
    setattr(_Var, f"__r{_name}__", _binop(_uf, True))
for _name, _uf in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                   ("ge", "greater_equal"), ("eq", "equal"), ("ne", "not_equal")):
    setattr(_Var, f"__{_name}__", _binop(_uf))
_Var.__hash__ = None
_Var.__neg__ = lambda self: self._tr.ufunc("negative", (self,))
_Var.__pos__ = lambda self: self._tr.ufunc("positive", (self,))
_Var.__abs__ = lambda self: self._tr.ufunc("absolute", (self,))
_Var.__invert__ = lambda self: self._tr.ufunc("invert", (self,))
_Var.__divmod__ = lambda self, other: self._tr.ufunc("divmod", (self, other))


class _Trace:
    """The statements, parameters and helper functions of one traced function."""

    def __init__(self, name):
        self.name = name
        self.helpers = []
        self.lines = {"map": [], "post": []}
        self.n = 0
        self.reduction = None  # (ufunc name, var, axis, result dtype, acc dtype, keepdims)

    # ---- values ----
    def _operand(self, v, what):
        if isinstance(v, _Var):
            if v._tr is not self:
                raise TypeError("a value traced by one fused function was used in another")
            return v
        if isinstance(v, (bool, numpy.bool_)):
            return numpy.bool_(v)
        if isinstance(v, (int, float, complex, numpy.generic)):
            return v
        from cuarray._core.ndarray import ndarray
        if isinstance(v, ndarray):
            raise TypeError(f"cuarray.fuse: {what} got a cuarray array that is not an argument of "
                            f"the fused function; pass every array as an argument")
        raise TypeError(f"cuarray.fuse: {what} does not accept {type(v).__name__}")

    @staticmethod
    def _type(v):
        if isinstance(v, _Var):
            return v.dtype
        if isinstance(v, numpy.generic):
            return v.dtype
        return type(v)

    def _code(self, v, dtype):
        if isinstance(v, _Var):
            return cast(v.code, _STRONG.get(v.dtype, v.dtype), dtype)
        return literal(v, dtype)

    def _stage(self, operands, what):
        stages = {v.stage for v in operands if isinstance(v, _Var) and v.stage is not None}
        if len(stages) > 1:
            raise TypeError(f"cuarray.fuse: {what} mixes the result of the reduction with values "
                            f"from before it; after a reduction only scalars may be combined "
                            f"with its result")
        return stages.pop() if stages else None

    def _new(self, dtype, ndim, expr, stage):
        self.n += 1
        name = f"_f{self.n}"
        self._emit(stage, f"const {_dt.ctype(dtype)} {name} = {expr};")
        return _Var(self, dtype, ndim, name, stage)

    def _emit(self, stage, line):
        # Values of scalar arguments alone are usable before and after a reduction.
        for st in ((stage,) if stage else ("map", "post")):
            self.lines[st].append(line)

    # ---- operations ----
    def ufunc(self, name, args, dtype=None):
        row = _table.get(name)
        if len(args) != row.nin:
            raise TypeError(f"{row.name}() takes {row.nin} arguments, got {len(args)}")
        ops = [self._operand(a, f"cuarray.{row.name}") for a in args]
        if not any(isinstance(v, _Var) for v in ops):
            return getattr(numpy, row.name)(*ops)  # constants stay constants, as NumPy's
        stage = self._stage(ops, f"cuarray.{row.name}")
        ufn = getattr(numpy, row.name)
        types_ = tuple(self._type(v) for v in ops) + (None,) * row.nout
        if dtype is None:
            loop = ufn.resolve_dtypes(types_)
        else:
            dtype = _dt.check_dtype(dtype)
            loop = ufn.resolve_dtypes(types_, signature=(None,) * row.nin + (dtype,) * row.nout)
        ins, outs = loop[:row.nin], loop[row.nin:]
        for d in ins + outs:
            _dt.check_dtype(d)
        fname, code = ufunc_function(row.name, ins, outs)
        if code not in self.helpers:
            self.helpers.append(code)
        call_args = ", ".join(self._code(v, d) for v, d in zip(ops, ins))
        ndim = max([v.ndim for v in ops if isinstance(v, _Var)])
        if row.nout == 1:
            return self._new(outs[0], ndim, f"{fname}({call_args})", stage)
        res = []
        for d in outs:
            self.n += 1
            res.append(_Var(self, d, ndim, f"_f{self.n}", stage))
            self._emit(stage, f"{_dt.ctype(d)} _f{self.n};")
        self._emit(stage, f"{fname}({call_args}, {', '.join(r.code for r in res)});")
        return tuple(res)

    def where(self, cond, x, y):
        ops = [self._operand(v, "cuarray.where") for v in (cond, x, y)]
        stage = self._stage(ops, "cuarray.where")
        dt = _dt.check_dtype(numpy.result_type(
            *[_SAMPLE[t] if t in _SAMPLE else t for t in (self._type(ops[1]), self._type(ops[2]))]))
        ndim = max([v.ndim for v in ops if isinstance(v, _Var)] + [0])
        c = self._code(ops[0], numpy.bool_)
        return self._new(dt, ndim, f"({c} ? {self._code(ops[1], dt)} : {self._code(ops[2], dt)})",
                         stage)

    def astype(self, v, dtype):
        dt = _dt.check_dtype(dtype)
        return self._new(dt, v.ndim, self._code(v, dt), v.stage)

    def part(self, v, which):
        dt = _STRONG.get(v.dtype, v.dtype)
        if dt.kind != "c":
            return v if which == "re" else self._new(dt, v.ndim, literal(0, dt), v.stage)
        rdt = _dt.real_dtype(dt)
        return self._new(rdt, v.ndim, f"({v.code}).{which}", v.stage)

    def reduce(self, name, v, axis, dtype, out, keepdims):
        from cuarray._core import _reductions
        if out is not None:
            raise TypeError("cuarray.fuse: reductions inside a fused function take no out=")
        v = self._operand(v, f"reduction {name}")
        if not isinstance(v, _Var):
            import cuarray
            return getattr(cuarray, {"add": "sum", "multiply": "prod", "maximum": "amax",
                                     "minimum": "amin"}[name])(v)
        if self.reduction is not None or v.stage == "post":
            raise TypeError("cuarray.fuse supports one reduction per fused function")
        if v.stage is None:
            raise TypeError("cuarray.fuse: a reduction needs an array operand")
        arg_dt = None if dtype is None else _dt.check_dtype(dtype)
        src = _STRONG.get(v.dtype, v.dtype)
        res = _reductions._numpy_reduce_dtype(getattr(numpy, name), src, arg_dt)
        acc = numpy.dtype(numpy.float32) if res == numpy.float16 else res
        self.reduction = (name, v, axis, res, acc, bool(keepdims))
        return _Var(self, res, 0, cast("a", acc, res), "post")


class _FusedUfunc:
    """A ufunc as seen by a fused function while it is traced."""

    def __init__(self, uf):
        self._uf = uf
        self.__name__ = uf.__name__

    def __call__(self, *args, dtype=None, out=None, **kwargs):
        tr = next((a._tr for a in args if isinstance(a, _Var)), None)
        if tr is None:
            if all(isinstance(a, (bool, int, float, complex, numpy.generic)) for a in args):
                return getattr(numpy, self._uf.__name__)(*args, dtype=dtype, **kwargs)
            return self._uf(*args, dtype=dtype, out=out, **kwargs)
        if out is not None or kwargs:
            raise TypeError(f"cuarray.fuse: {self.__name__} inside a fused function takes no "
                            f"out= or {sorted(kwargs)}")
        return tr.ufunc(self.__name__, args, dtype)

    def __getattr__(self, name):
        return getattr(self._uf, name)


def _fused_reduction(ufname, real):
    def f(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        if isinstance(a, _Var):
            if kwargs:
                raise TypeError(f"cuarray.fuse: {real.__name__} inside a fused function takes "
                                f"no {sorted(kwargs)}")
            return a._tr.reduce(ufname, a, axis, dtype, out, keepdims)
        return real(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kwargs) \
            if ufname in ("add", "multiply") else real(a, axis=axis, out=out, keepdims=keepdims, **kwargs)
    f.__name__ = real.__name__
    return f


def _fused_where(real):
    def where(condition, x=None, y=None):
        vals = (condition, x, y)
        tr = next((v._tr for v in vals if isinstance(v, _Var)), None)
        if tr is None:
            return real(condition, x, y)
        if x is None or y is None:
            raise TypeError("cuarray.fuse supports the three-argument cuarray.where only")
        return tr.where(condition, x, y)
    return where


def _fused_clip(real):
    def clip(a, a_min=None, a_max=None, out=None, **kwargs):
        if not isinstance(a, _Var):
            return real(a, a_min, a_max, out=out, **kwargs)
        r = a
        if a_min is not None:
            r = r._tr.ufunc("maximum", (r, a_min))
        if a_max is not None:
            r = r._tr.ufunc("minimum", (r, a_max))
        return r
    return clip


class _Namespace:
    """cuarray or numpy as seen by a fused function: ufuncs and reductions trace."""

    def __init__(self, module):
        self._module = module
        self.__name__ = module.__name__

    def __getattr__(self, name):
        return _substitute(getattr(self._module, name), None, {})


def _substitute(obj, module, memo):
    """What a fused function sees for a global or closure value: traced ufuncs and
    reductions, and helper functions of the fused function's own module traced too."""
    import cuarray
    from cuarray._core.ufunc import ufunc as _cu_ufunc
    if obj is cuarray or obj is numpy:
        return _Namespace(obj)
    if isinstance(obj, types.FunctionType) and module is not None and obj.__module__ == module:
        return _tracing_copy(obj, memo)
    if isinstance(obj, (_cu_ufunc, numpy.ufunc)):
        return _FusedUfunc(getattr(cuarray, obj.__name__)) \
            if obj.__name__ in _table.BY_NAME or obj.__name__ in _table.ALIASES else obj
    for name, ufname in _REDUCTIONS.items():
        if obj is getattr(cuarray, name) or obj is getattr(numpy, name):
            return _fused_reduction(ufname, getattr(cuarray, name))
    if obj is cuarray.where or obj is numpy.where:
        return _fused_where(cuarray.where)
    if obj is cuarray.clip or obj is numpy.clip:
        return _fused_clip(cuarray.clip)
    return obj


def _names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _names(c)
    return names


def _tracing_copy(func, memo=None):
    """`func` with its globals and closure cells seeing traced ufuncs and reductions."""
    memo = {} if memo is None else memo
    if func in memo:
        return memo[func]
    g = dict(func.__globals__)
    copy = memo[func] = types.FunctionType(func.__code__, g, func.__name__, func.__defaults__,
                                           None)
    for name in _names(func.__code__):
        if name in g:
            g[name] = _substitute(g[name], func.__module__, memo)
    if func.__closure__:
        cells = tuple(types.CellType(_substitute(c.cell_contents, func.__module__, memo))
                      if _filled(c) else c for c in func.__closure__)
        copy = memo[func] = types.FunctionType(func.__code__, g, func.__name__,
                                               func.__defaults__, cells)
    return copy


def _filled(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


# ---- the fused function ---------------------------------------------------------------------
class _Kernel:
    """One compiled specialization: the Op or ReduceOp and how to call it."""

    __slots__ = ("op", "kind", "outputs", "multi", "reduction", "scalar_params", "const")


class Fusion:
    """A function fused into one kernel per argument types (cuarray version of
    `cupy._core.fusion.Fusion`, what `cuarray.fuse` returns).

    Called with NumPy arrays or only scalars it runs the Python function itself, as CuPy does.
    """

    def __init__(self, func, name=None):
        self.func = func
        self.name = name or func.__name__
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self._kernels = {}

    def __repr__(self):
        return f"<Fusion '{self.name}'>"

    def __call__(self, *args, **kwargs):
        from cuarray._core.ndarray import ndarray
        if kwargs:
            raise TypeError(f"fused function {self.name}() does not take keyword arguments")
        key = []
        has_device = has_host = False
        for a in args:
            if isinstance(a, _Var):  # called from another fused function: inline it
                return _tracing_copy(self.func)(*args)
            if isinstance(a, ndarray):
                has_device = True
                key.append(("a", a.dtype, a.ndim))
            elif isinstance(a, numpy.ndarray):
                has_host = True
            elif isinstance(a, numpy.generic):
                key.append(("s", a.dtype))
            elif isinstance(a, (bool, int, float, complex)):
                key.append(("p", type(a)))
            else:
                raise TypeError(f"fused function {self.name}() does not accept "
                                f"{type(a).__name__} arguments")
        if not has_device:
            return self.func(*args)
        if has_host:
            raise TypeError(f"fused function {self.name}() got both cuarray and numpy arrays; move "
                            f"the numpy arrays to the GPU with cuarray.asarray(x)")
        key = tuple(key)
        k = self._kernels.get(key)
        if k is None:
            k = self._kernels[key] = self._build(key)
        return _run(k, args)

    def _build(self, key):
        """Trace and compile for `key`: per argument ('a', dtype, ndim) for an array,
        ('s', dtype) for a NumPy scalar, ('p', type) for a Python scalar."""
        tr = _Trace(self.name)
        tvars, params = [], []
        for i, item in enumerate(key):
            pname = f"in{i}"
            if item[0] == "s":
                dt = t = _dt.check_dtype(item[1])
            elif item[0] == "p":
                t = numpy.dtype(numpy.bool_) if item[1] is bool else item[1]
                dt = _STRONG.get(t, t)
            else:
                dt = _dt.check_dtype(item[1])
                tvars.append(_Var(tr, dt, item[2], pname, "map"))
                params.append((pname, "in", dt))
                continue
            tvars.append(_Var(tr, t, 0, pname, None))
            params.append((pname, "scalar", dt))
        result = _tracing_copy(self.func)(*tvars)
        return _compile(tr, params, result, self.name)


def _compile(tr, params, result, name):
    from cuarray._core.elementwise import Op, Param
    k = _Kernel()
    k.scalar_params = [(i, p[2]) for i, p in enumerate(params) if p[1] == "scalar"]
    k.const = None
    multi = isinstance(result, tuple)
    outs = list(result) if multi else [result]
    if not any(isinstance(o, _Var) for o in outs):
        k.kind = "const"
        k.const = result
        return k
    preamble = "\n".join(tr.helpers)
    if tr.reduction is None:
        body = list(tr.lines["map"])
        out_params = []
        for j, o in enumerate(outs):
            if not isinstance(o, _Var):
                o = tr._operand(o, "a fused function's result")
                dt = _dt.check_dtype(numpy.result_type(o))
                body.append(f"out{j} = {literal(o, dt)};")
            else:
                dt = _STRONG.get(o.dtype, o.dtype)
                body.append(f"out{j} = {cast(o.code, dt, dt)};")
            out_params.append(Param(f"out{j}", "out", dt))
        ps = [Param(n, role, dt) for n, role, dt in params] + out_params
        k.op = Op(name, ps, "\n".join(body), preamble=preamble)
        k.kind = "elementwise"
        k.outputs = [p.dtype for p in out_params]
        k.multi = multi
        return k
    if multi or not isinstance(result, _Var) or result.stage != "post":
        raise TypeError("cuarray.fuse: a fused function with a reduction must return the "
                        "reduction's result (optionally combined with scalars) alone")
    return _compile_reduction(tr, params, result, name, preamble, k)


def _compile_reduction(tr, params, result, name, preamble, k):
    from cuarray._core import _reductions
    from cuarray._core.reduction import ReduceOp, RParam
    uname, v, axis, res, acc, keepdims = tr.reduction
    acc_c = _dt.ctype(acc)
    sig = ", ".join(f"const {_dt.ctype(dt)} {n}" for n, _, dt in params)
    map_fn = (f"__device__ __forceinline__ {acc_c} _fuse_map({sig}) {{\n  " +
              "\n  ".join(tr.lines["map"]) +
              f"\n  return {cast(v.code, _STRONG.get(v.dtype, v.dtype), acc)};\n}}")
    loop = getattr(numpy, uname).resolve_dtypes((acc, acc, None))
    body = _table.body(uname, loop[:2], loop[2:])
    late = (f"__device__ __forceinline__ type_reduce _red(type_reduce in0, type_reduce in1) "
            f"{{ {_dt.ctype(loop[2])} out0; {body} return cuarray_cast<type_reduce>(out0); }}")
    out_dt = _STRONG.get(result.dtype, result.dtype)
    post = " ".join(tr.lines["post"] + [f"out0 = {cast(result.code, out_dt, out_dt)}"])
    rparams = [RParam(n, role, dt) for n, role, dt in params]
    rparams += [RParam("out0", "out", out_dt), RParam("_ident", "scalar", acc)]
    ident = getattr(numpy, uname).identity
    k.op = ReduceOp(name, rparams, f"_fuse_map({', '.join(n for n, _, _ in params)})", "_red(a, b)",
                    post, "_ident", acc_c, preamble + "\n" + map_fn, late_preamble=late)
    k.kind = "reduction"
    k.outputs = [out_dt]
    k.reduction = (axis, keepdims, uname, acc,
                   _reductions._sentinel(uname, acc) if ident is None else acc.type(ident))
    return k


def _scalar_args(k, args):
    out = list(args)
    for i, dt in k.scalar_params:
        a = args[i]
        out[i] = a if isinstance(a, numpy.generic) and a.dtype == dt else dt.type(a)
    return out


def _run(k, args):
    from cuarray._core.ndarray import ndarray
    from cuarray._core.shapes import broadcast_shapes, normalize_axes
    if k.kind == "const":
        return k.const
    shapes = [a._shape for a in args if isinstance(a, ndarray)]
    shape = shapes[0] if all(s == shapes[0] for s in shapes) else broadcast_shapes(*shapes)
    call = _scalar_args(k, args)
    if k.kind == "elementwise":
        outs = [ndarray._alloc(shape, dt) for dt in k.outputs]
        if outs[0].size:
            k.op.launch(call + outs)
        return tuple(outs) if k.multi else outs[0]
    axis, keepdims, uname, acc, ident = k.reduction
    axes = normalize_axes(axis, len(shape))
    kept = tuple(n for d, n in enumerate(shape) if d not in axes)
    oshape = tuple(1 if d in axes else n for d, n in enumerate(shape)) if keepdims else kept
    n_red = 1
    for d in axes:
        n_red *= shape[d]
    if n_red == 0 and uname in ("maximum", "minimum") and all(kept):
        raise ValueError(f"zero-size array to reduction operation {uname} which has no identity")
    out = ndarray._alloc(oshape, k.outputs[0])
    if out.size:
        k.op.launch(call + [out.reshape(kept) if oshape != kept else out, ident], axes, shape)
    return out


def fuse(*args, kernel_name=None):
    """Decorator that fuses a function into one kernel (cuarray version of `cupy.fuse`).

    Usable as `@fuse`, `@fuse()` and `@fuse(kernel_name=...)`. The decorator returned by
    `fuse()` also accepts `kernel_name=` itself (`fuse()(kernel_name='k')`).
    """
    if len(args) == 1 and callable(args[0]) and kernel_name is None:
        return functools.update_wrapper(Fusion(args[0]), args[0])
    if args:
        raise TypeError("fuse() takes a function, or only the keyword argument kernel_name")
    return _Decorator(kernel_name)


class _Decorator:
    def __init__(self, kernel_name):
        self.kernel_name = kernel_name

    def __call__(self, func=None, *, kernel_name=None):
        if func is None:
            return _Decorator(kernel_name if kernel_name is not None else self.kernel_name)
        if not callable(func):
            raise TypeError(f"fuse() decorates a function, not {type(func).__name__}")
        return functools.update_wrapper(Fusion(func, kernel_name or self.kernel_name), func)
