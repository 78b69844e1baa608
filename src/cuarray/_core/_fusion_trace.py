"""Tracing for cuarray.fuse: symbolic values (`Var`) and the C statements they record
(`Trace`), plus the C pieces cuarray.jit shares (a ufunc loop as a __device__ function,
C literals of a dtype, casts).

Each ufunc call or operator on traced values appends one C statement built from the ufunc
table's body for the loop NumPy's `resolve_dtypes` picks, so promotion (NEP 50 included)
and results match cuarray's ufuncs exactly.
"""
import functools

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
STRONG = {int: numpy.dtype(numpy.int64), float: numpy.dtype(numpy.float64),
          complex: numpy.dtype(numpy.complex128), bool: numpy.dtype(numpy.bool_)}
_WEAK = {"i": int, "f": float, "c": complex}
_SAMPLE = {int: 0, float: 0.0, complex: 0j}
# kind -> (ufunc that combines, NumPy function giving the result dtype)
_REDUCE = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum",
           "mean": "add", "any": "logical_or", "all": "logical_and"}


class NeedsStatic(Exception):
    """Raised while tracing when Python control flow reads a scalar argument's value: the
    function is traced again with scalar arguments as constants (one kernel per value)."""


class Var:
    """A symbolic value while a fused function is traced.

    `dtype` is a numpy.dtype, or a Python type for a weak Python-scalar argument. `stage`
    is 'map' (before the reduction), 'post' (after it) or None (scalar arguments alone,
    usable in both). `arg` is the index of the fused function's argument this value is
    (unmodified, or as last written in place), else None.
    """

    __slots__ = ("_tr", "dtype", "ndim", "code", "stage", "arg")
    __array_priority__ = 1000

    def __init__(self, tr, dtype, ndim, code, stage, arg=None):
        self._tr = tr
        self.dtype = dtype
        self.ndim = ndim
        self.code = code
        self.stage = stage
        self.arg = arg

    def __repr__(self):
        return f"<cuarray.fuse traced value {self.code}: {self.dtype}, ndim={self.ndim}>"

    def _scalar_value(self, what):
        if self.stage is None and not self._tr.static:
            raise NeedsStatic()
        raise TypeError(f"a value traced by cuarray.fuse has no {what}: Python `if`, `and`, "
                        f"`or`, `not`, int() and float() cannot depend on array data; use "
                        f"cuarray.where(...)")

    def __bool__(self):
        self._scalar_value("truth value")

    def __int__(self):
        self._scalar_value("int() value")

    def __float__(self):
        self._scalar_value("float() value")

    def __index__(self):
        self._scalar_value("index value")

    def __len__(self):
        raise TypeError("cuarray.fuse traces values without shapes: len() is not available")

    def __iter__(self):
        raise TypeError("cuarray.fuse cannot iterate over a traced array")

    def __getattr__(self, name):
        raise AttributeError(f"cuarray.fuse does not support `.{name}` on traced arrays "
                             f"(supported: astype, sum, prod, max, min, mean, any, all, real, "
                             f"imag, conj, ndim, dtype, indexing by integers and slices)")

    def __array_ufunc__(self, uf, method, *inputs, **kwargs):
        # NumPy ufuncs applied to traced values (numpy.sin(x) in a fused function).
        if method != "__call__" or kwargs.keys() - {"dtype", "out"}:
            raise TypeError(f"cuarray.fuse supports plain calls of numpy.{uf.__name__}, not "
                            f"{method} or keywords {sorted(kwargs)}")
        from cuarray._core._fusion_scope import FusedUfunc
        out = kwargs.get("out")
        return FusedUfunc(uf)(*inputs, dtype=kwargs.get("dtype"), out=out)

    def __getitem__(self, index):
        return self._tr.index(self, index)

    def __setitem__(self, index, value):
        if not (index is Ellipsis or index == slice(None) or index == ()
                or (isinstance(index, tuple) and all(i == slice(None) or i is Ellipsis
                                                     for i in index))):
            raise TypeError("cuarray.fuse assigns whole arguments only (x[...] = v); "
                            "assigning to part of an array is not supported")
        self._tr.assign(self, value, "assignment")

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        return self._tr.astype(self, dtype)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tr.reduce("sum", self, axis, dtype, out, keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tr.reduce("prod", self, axis, dtype, out, keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tr.reduce("mean", self, axis, dtype, out, keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("max", self, axis, None, out, keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("min", self, axis, None, out, keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("any", self, axis, None, out, keepdims)

    def all(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("all", self, axis, None, out, keepdims)

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


def _inplace(name):
    return lambda self, other: self._tr.assign(self, self._tr.ufunc(name, (self, other)), name)


for _name, _uf in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                   ("truediv", "divide"), ("floordiv", "floor_divide"), ("mod", "remainder"),
                   ("pow", "power"), ("and", "bitwise_and"), ("or", "bitwise_or"),
                   ("xor", "bitwise_xor"), ("lshift", "left_shift"), ("rshift", "right_shift")):
    setattr(Var, f"__{_name}__", _binop(_uf))
    setattr(Var, f"__r{_name}__", _binop(_uf, True))
    setattr(Var, f"__i{_name}__", _inplace(_uf))
for _name, _uf in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                   ("ge", "greater_equal"), ("eq", "equal"), ("ne", "not_equal")):
    setattr(Var, f"__{_name}__", _binop(_uf))
def _pow(self, other):
    # NumPy computes `array ** 2` (a Python 2 or 2.0) as square(array): exact, and no pow()
    if type(other) in (int, float) and other == 2 and isinstance(self.dtype, numpy.dtype) \
            and self.dtype.kind in "biufc":
        return self._tr.ufunc("square", (self,))
    return self._tr.ufunc("power", (self, other))


Var.__pow__ = _pow
Var.__hash__ = None
Var.__neg__ = lambda self: self._tr.ufunc("negative", (self,))
Var.__pos__ = lambda self: self._tr.ufunc("positive", (self,))
Var.__abs__ = lambda self: self._tr.ufunc("absolute", (self,))
Var.__invert__ = lambda self: self._tr.ufunc("invert", (self,))
Var.__divmod__ = lambda self, other: self._tr.ufunc("divmod", (self, other))
Var.__rdivmod__ = lambda self, other: self._tr.ufunc("divmod", (other, self))


def _strong(t):
    return STRONG.get(t, t)


class Trace:
    """The statements, parameters and helper functions of one traced function.

    `static`: scalar arguments are constants in this trace. `views`: (argument index,
    index) of the basic-indexing views of arguments the function reads, each one more
    kernel input `_v<k>`. `writes`: argument index -> the Var last assigned to it.
    """

    def __init__(self, name, static=False):
        self.name = name
        self.static = static
        self.helpers = []
        self.lines = {"map": [], "post": []}
        self.n = 0
        self.views = []
        self.writes = {}
        self.reduction = None  # (kind, ufunc name, var, axis, result dtype, acc dtype, keepdims)

    # ---- values ----
    def _operand(self, v, what):
        if isinstance(v, Var):
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
        from cuarray._core.host_policy import HOST_ARRAYS, host_error
        if isinstance(v, HOST_ARRAYS):
            raise host_error(what, v, prefix="cuarray.fuse: ")
        raise TypeError(f"cuarray.fuse: {what} does not accept {type(v).__name__}")

    @staticmethod
    def _type(v):
        if isinstance(v, Var):
            return v.dtype
        if isinstance(v, numpy.generic):
            return v.dtype
        return type(v)

    def _code(self, v, dtype):
        if isinstance(v, Var):
            return cast(v.code, _strong(v.dtype), dtype)
        return literal(v, dtype)

    def _stage(self, operands, what):
        stages = {v.stage for v in operands if isinstance(v, Var) and v.stage is not None}
        if len(stages) > 1:
            raise TypeError(f"cuarray.fuse: {what} mixes the result of the reduction with arrays "
                            f"from before it; after a reduction only scalars may be combined "
                            f"with its result")
        return stages.pop() if stages else None

    def _new(self, dtype, ndim, expr, stage):
        self.n += 1
        name = f"_f{self.n}"
        self._emit(stage, f"const {_dt.ctype(_strong(dtype))} {name} = {expr};")
        return Var(self, dtype, ndim, name, stage)

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
        if not any(isinstance(v, Var) for v in ops):
            return getattr(numpy, row.name)(*ops)  # constants stay constants, as NumPy's
        stage = self._stage(ops, f"cuarray.{row.name}")
        ufn = getattr(numpy, row.name)
        types_ = tuple(self._type(v) for v in ops) + (None,) * row.nout
        # Python scalars only (weak): computed at their strong types, and the result is a
        # Python scalar again, weak where it meets arrays, as in Python.
        weak = all(not isinstance(t, numpy.dtype) for t in types_[:row.nin])
        if weak:
            types_ = tuple(STRONG[t] if t is not None else None for t in types_)
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
        ndim = max([v.ndim for v in ops if isinstance(v, Var)])
        if weak and dtype is None:
            outs = tuple(_WEAK.get(d.kind, d) for d in outs)
        if row.nout == 1:
            return self._new(outs[0], ndim, f"{fname}({call_args})", stage)
        res = []
        for d in outs:
            self.n += 1
            res.append(Var(self, d, ndim, f"_f{self.n}", stage))
            self._emit(stage, f"{_dt.ctype(_strong(d))} _f{self.n};")
        self._emit(stage, f"{fname}({call_args}, {', '.join(r.code for r in res)});")
        return tuple(res)

    def where(self, cond, x, y):
        ops = [self._operand(v, "cuarray.where") for v in (cond, x, y)]
        stage = self._stage(ops, "cuarray.where")
        dt = _dt.check_dtype(numpy.result_type(
            *[_SAMPLE[t] if t in _SAMPLE else t for t in (self._type(ops[1]), self._type(ops[2]))]))
        ndim = max([v.ndim for v in ops if isinstance(v, Var)] + [0])
        c = self._code(ops[0], numpy.bool_)
        return self._new(dt, ndim, f"({c} ? {self._code(ops[1], dt)} : {self._code(ops[2], dt)})",
                         stage)

    def astype(self, v, dtype):
        dt = _dt.check_dtype(dtype)
        return self._new(dt, v.ndim, self._code(v, dt), v.stage)

    def part(self, v, which):
        dt = _strong(v.dtype)
        if dt.kind != "c":
            return v if which == "re" else self._new(dt, v.ndim, literal(0, dt), v.stage)
        rdt = _dt.real_dtype(dt)
        return self._new(rdt, v.ndim, f"({v.code}).{which}", v.stage)

    def index(self, v, index):
        """`v[index]` for an argument `v` and an index of integers, slices, None and Ellipsis
        known when tracing: a view taken at call time, read as one more kernel input."""
        if v.arg is None or v.arg in self.writes or v.stage != "map":
            raise TypeError("cuarray.fuse indexes arguments of the fused function only (and "
                            "before writing to them); indexing a computed value is not "
                            "supported")
        idx = index if isinstance(index, tuple) else (index,)
        ndim, n_used, ell = 0, 0, False
        for i in idx:
            if isinstance(i, Var):
                raise TypeError("cuarray.fuse: an index must be known when tracing (an integer "
                                "or slice), not a traced value")
            if i is None:
                ndim += 1
            elif i is Ellipsis:
                if ell:
                    raise IndexError("an index can only have a single ellipsis ('...')")
                ell = True
            elif isinstance(i, slice):
                ndim += 1
                n_used += 1
            elif isinstance(i, (int, numpy.integer)) and not isinstance(i, (bool, numpy.bool_)):
                n_used += 1
            else:
                raise TypeError(f"cuarray.fuse indexes by integers, slices, None and Ellipsis "
                                f"only, not {type(i).__name__}")
        if n_used > v.ndim:
            raise IndexError(f"too many indices for array: array is {v.ndim}-dimensional, but "
                             f"{n_used} were indexed")
        ndim += v.ndim - n_used
        self.views.append((v.arg, idx))
        return Var(self, v.dtype, ndim, f"_v{len(self.views) - 1}", "map")

    def assign(self, target, value, what):
        """Write `value` to the argument `target` (in-place operators, out=, x[...] = v)."""
        if not isinstance(target, Var) or target.arg is None or target.stage != "map":
            raise TypeError(f"cuarray.fuse: {what} writes to arrays passed to the fused function "
                            f"only, not to {'a computed value' if isinstance(target, Var) else type(target).__name__}")
        value = self._operand(value, what)
        dt = _strong(target.dtype)
        src = _strong(self._type(value)) if isinstance(value, Var) or \
            isinstance(value, numpy.generic) else None
        if src is not None and not numpy.can_cast(src, dt, "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{what}' output from {src!r} to {dt!r} with "
                            f"casting rule 'same_kind'")
        if isinstance(value, Var):
            if value.stage == "post":
                raise TypeError("cuarray.fuse: the result of a reduction cannot be written to an "
                                "argument in place")
            if value.ndim > target.ndim:
                raise ValueError(f"non-broadcastable output operand: {what} writes a "
                                 f"{value.ndim}-d value to a {target.ndim}-d argument")
        new = self._new(dt, target.ndim, self._code(value, dt), "map")
        new.arg = target.arg
        self.writes[target.arg] = new
        return new

    def reduce(self, kind, v, axis, dtype, out, keepdims):
        from cuarray._core import _reductions
        if out is not None:
            raise TypeError("cuarray.fuse: reductions inside a fused function take no out=")
        v = self._operand(v, f"reduction {kind}")
        if not isinstance(v, Var):
            import cuarray
            return getattr(cuarray, kind)(v)
        if self.reduction is not None or v.stage == "post":
            raise TypeError("cuarray.fuse supports one reduction per fused function")
        if v.stage is None:
            raise TypeError("cuarray.fuse: a reduction needs an array operand")
        uname = _REDUCE[kind]
        arg_dt = None if dtype is None else _dt.check_dtype(dtype)
        src = _strong(v.dtype)
        if kind in ("any", "all"):
            res = acc = numpy.dtype(numpy.bool_)
        elif kind == "mean":
            res = numpy.mean(numpy.ones(1, src), dtype=arg_dt).dtype
            acc = numpy.dtype(numpy.float32) if res == numpy.float16 else res
        else:
            res = _reductions._numpy_reduce_dtype(getattr(numpy, uname), src, arg_dt)
            acc = numpy.dtype(numpy.float32) if res == numpy.float16 else res
        self.reduction = (kind, uname, v, axis, res, acc, bool(keepdims))
        a = f"(a / cuarray_cast<{_dt.ctype(acc)}>(_n))" if kind == "mean" else "a"
        return Var(self, res, 0, cast(a, acc, res), "post")
