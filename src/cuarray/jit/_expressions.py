"""The expressions of the cuarray.jit translator: names, attributes, subscripts,
operators, calls (ufuncs, math functions, casts, device functions) and the conversions
to C values and conditions.

A mixin of `_compile.Translator`, apart from it so that expressions and statements
(_statements.py) each read on their own.
"""
import ast
import builtins
import inspect
import re

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core import ufunc_table as _table
from cuarray._core.fusion import cast as _cast
from cuarray._core.fusion import literal, ufunc_function
from cuarray.jit import _builtins as B
from cuarray.jit._iterators import begin_end
from cuarray.jit._pycalls import CALLS, MATH
from cuarray.jit._source import cname
from cuarray.jit._types import (BOOL, INT64, UNKNOWN, Array, Const, Expr, Shared, Tuple, describe,
                                is_weak, join, result_type, strong, type_of, types_text)

_BINOPS = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "divide",
           ast.FloorDiv: "floor_divide", ast.Mod: "remainder", ast.Pow: "power",
           ast.LShift: "left_shift", ast.RShift: "right_shift", ast.BitOr: "bitwise_or",
           ast.BitAnd: "bitwise_and", ast.BitXor: "bitwise_xor"}
_UNARY = {ast.USub: "negative", ast.UAdd: "positive", ast.Invert: "invert"}
_COMPARE = {ast.Eq: "equal", ast.NotEq: "not_equal", ast.Lt: "less", ast.LtE: "less_equal",
            ast.Gt: "greater", ast.GtE: "greater_equal"}
_OP_TEXT = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//",
            "remainder": "%", "power": "**", "left_shift": "<<", "right_shift": ">>",
            "bitwise_or": "|", "bitwise_and": "&", "bitwise_xor": "^", "negative": "unary -",
            "positive": "unary +", "invert": "~", "equal": "==", "not_equal": "!=", "less": "<",
            "less_equal": "<=", "greater": ">", "greater_equal": ">="}


class Expressions:
    """Expression translation for `_compile.Translator` (each method returns a value:
    `Const`, `Expr` or `Tuple`)."""

    def expr(self, node):
        m = getattr(self, "_e_" + type(node).__name__, None)
        if m is None:
            what = {"ListComp": "a list comprehension", "GeneratorExp": "a generator expression",
                    "DictComp": "a dict comprehension", "SetComp": "a set comprehension",
                    "Lambda": "lambda", "Dict": "a dict", "Set": "a set", "List": "a list",
                    "JoinedStr": "an f-string", "Starred": "*unpacking", "Await": "await",
                    "Yield": "yield", "YieldFrom": "yield", "NamedExpr": ":=",
                    "Slice": "slicing (x[a:b])"}.get(
                        type(node).__name__, type(node).__name__)
            self.err(node, f"{what} is not supported in a kernel", SyntaxError)
        return m(node)

    def _e_Constant(self, node):
        return Const(node.value)

    def _e_Name(self, node):
        return self._name(node)

    def _name(self, node):
        n = node.id
        if n in self.bindings:
            return self.bindings[n]
        if n in self.outputs:
            return Expr(cname(n), self.outputs[n])
        if n in self.param_types and n not in self.counts:
            return Expr(cname(n), self.param_types[n])
        if n in self.counts:
            t = self.var_types.get(n)
            if t is None:
                seen = self.observed.get(n)
                if seen:  # assigned earlier in this pass
                    return Expr(cname(n), join(seen))
                self.unknown.setdefault(n, node)
                return Expr(cname(n), UNKNOWN)
            return Expr(cname(n), t)
        if n in self.scope:
            return self._const(self.scope[n])
        g = self.func.__globals__
        if n in g:
            return self._const(g[n])
        b = g.get("__builtins__", builtins)
        b = b if isinstance(b, dict) else vars(b)
        if n in b:
            return self._const(b[n])
        self.err(node, f"name {n!r} is not defined", NameError)

    @staticmethod
    def _const(v):
        if isinstance(v, B.Special):
            return v.value()
        return Const(v)

    def _e_Attribute(self, node):
        base = self.expr(node.value)
        a = node.attr
        if isinstance(base, Const):
            obj = base.value
            if isinstance(obj, B.Dim3):
                return obj.attribute(self, a, node)
            if isinstance(obj, (complex, numpy.complexfloating)) and a in ("real", "imag"):
                return Const(getattr(obj, a))
            try:
                return self._const(getattr(obj, a))
            except AttributeError:
                self.err(node, f"{describe(base)} has no attribute {a!r}", AttributeError)
        if isinstance(base, Expr):
            t = base.type
            hook = getattr(t, "attribute", None)  # cg groups, cub reducers: methods by name
            if hook is not None:
                return hook(self, base, a, node)
            if isinstance(t, Array):
                c = base.code
                if a == "shape":
                    return Tuple([Expr(f"{c}.shape[{k}]", INT64) for k in range(t.ndim)])
                if a == "strides":
                    return Tuple([Expr(f"{c}.strides[{k}]", INT64) for k in range(t.ndim)])
                if a == "size":
                    return Expr(f"{c}.size", INT64)
                if a == "ndim":
                    return Const(t.ndim)
                if a == "dtype":
                    return Const(t.dtype)
                if a == "itemsize":
                    return Const(t.dtype.itemsize)
                if a in ("begin", "end"):
                    return Const(B._Func(a, lambda tr, node, which=a: begin_end(tr, base, which,
                                                                                node),
                                         f"An iterator at the {a} of the array."))
                self.err(node, f"arrays in kernels have shape, strides, size, ndim, dtype, "
                               f"itemsize, begin() and end(), not {a!r}", AttributeError)
            st = type_of(base)
            if st is UNKNOWN:
                return Expr(base.code, UNKNOWN)
            if st is not None and a in ("conj", "conjugate"):
                return Const(_Method("conjugate", base))
            if st is not None and a in ("real", "imag"):
                st = strong(st)
                if st.kind == "c":
                    return Expr(f"({base.code}).{a}()", _dt.real_dtype(st))
                return base if a == "real" else Const(st.type(0))
        if isinstance(base, Tuple) and a in ("count", "index"):
            self.err(node, f"tuple.{a} is not supported in a kernel")
        self.err(node, f"{describe(base)} has no attribute {a!r} in a kernel", AttributeError)

    def _e_Tuple(self, node):
        return Tuple([self.expr(e) for e in node.elts])

    def _e_Subscript(self, node):
        base = self.expr(node.value)
        idx = self.expr(node.slice)
        if isinstance(base, Expr) and isinstance(base.type, (Array, Shared)):
            n = len(idx.items) if isinstance(idx, Tuple) else 1
            if isinstance(base.type, Array) and n < base.type.ndim:
                return self._view(base, idx, node)
            return Expr(self.element(base, idx, node), base.type.dtype)
        if isinstance(base, Expr) and hasattr(base.type, "subscript"):  # jit.cub TempStorage
            return base.type.subscript(self, base, idx, node)
        if isinstance(base, Const) and hasattr(base.value, "jit_template"):  # cub.WarpReduce[T]
            return base.value.jit_template(self, idx, node)
        if isinstance(base, (Tuple, Const)) and isinstance(idx, Const) and \
                isinstance(idx.value, (int, numpy.integer)):
            items = base.items if isinstance(base, Tuple) else base.value
            try:
                item = items[int(idx.value)]
            except (IndexError, TypeError) as e:
                self.err(node, f"cannot index {describe(base)}: {e}", IndexError)
            return item if isinstance(base, Tuple) else Const(item)
        if isinstance(base, Tuple):
            self.err(node, "tuples (such as x.shape) are indexed with integer constants only")
        self.err(node, f"{describe(base)} cannot be indexed in a kernel")

    def _element_of(self, node, base=None):
        if base is None:
            base = self.expr(node.value)
        if isinstance(base, Expr) and hasattr(base.type, "subscript"):  # it[k] = v
            v = base.type.subscript(self, base, self.expr(node.slice), node)
            return v.code, v.type
        if not (isinstance(base, Expr) and isinstance(base.type, (Array, Shared))):
            self.err(node, f"only arrays and shared memory can be assigned to by index, not "
                           f"{describe(base)}")
        return self.element(base, self.expr(node.slice), node), base.type.dtype

    def element(self, arr, index, node):
        """C lvalue of `arr[index]` (index: a value or a Tuple of values)."""
        t = arr.type
        idx = list(index.items) if isinstance(index, Tuple) else [index]
        ndim = 1 if isinstance(t, Shared) else t.ndim
        if len(idx) != ndim:
            self.err(node, f"an array of {ndim} dimension{'s' if ndim != 1 else ''} is indexed "
                           f"with {ndim} integer{'s' if ndim != 1 else ''} here, not {len(idx)}",
                     IndexError)
        codes = self._index_codes(arr, idx, node)
        if isinstance(t, Shared):
            return f"{arr.code}[{codes[0]}]"
        c = arr.code
        if t.ndim == 0:
            return f"(*{c}.data)"
        if t.ndim == 1 and t.contig:
            return f"{c}.data[{codes[0]}]"
        off = " + ".join(f"(long long)({x}) * {c}.strides[{k}]" for k, x in enumerate(codes))
        return f"(*({_dt.ctype(t.dtype)}*)((char*){c}.data + {off}))"

    def _view(self, arr, index, node):
        """`x[i]` of an array with more dimensions than indices: the sub-array (a view)."""
        t = arr.type
        idx = list(index.items) if isinstance(index, Tuple) else [index]
        codes = self._index_codes(arr, idx, node)
        off = " + ".join(f"(long long)({x}) * {arr.code}.strides[{k}]"
                         for k, x in enumerate(codes))
        vt = Array(t.dtype, t.ndim - len(idx), t.contig)
        name = self.fresh("_jv")
        self.decls[name] = vt.cname
        self.pending.append(f"{name} = _jit_view<{vt.ndim}>({arr.code}, {off});")
        return Expr(name, vt)

    def _index_codes(self, arr, idx, node):
        t = arr.type
        if any(isinstance(i, Const) and isinstance(i.value, slice) for i in idx):
            self.err(node, "slices are not supported in a kernel; index single elements")
        codes = []
        for k, i in enumerate(idx):
            it = type_of(i)
            if it is None or it is float or it is complex or \
                    (not is_weak(it) and it.kind not in "iu"):
                self.err(node, f"array indices must be integers, got {describe(i)}", IndexError)
            if isinstance(i, Const):
                v = int(i.value)
                if v < 0 and isinstance(t, Array):
                    codes.append(f"({arr.code}.shape[{k}] - {-v})")
                else:
                    codes.append(str(v))
            else:
                codes.append(i.code)
        return codes

    def _e_BinOp(self, node):
        name = _BINOPS.get(type(node.op))
        if name is None:
            self.err(node, f"operator {type(node.op).__name__} (@) is not supported in a kernel",
                     SyntaxError)
        left, right = self.expr(node.left), self.expr(node.right)
        for v in (left, right):  # iterator arithmetic
            hook = getattr(v.type, "binop", None) if isinstance(v, Expr) else None
            if hook is not None:
                return hook(self, node.op, left, right, node)
        return self.ufunc(name, [left, right], node, what=f"operator {_OP_TEXT[name]}")

    def _e_UnaryOp(self, node):
        v = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            if isinstance(v, Const):
                return Const(not v.value)
            return Expr(f"(!{self.cond(v, node)})", BOOL)
        name = _UNARY[type(node.op)]
        return self.ufunc(name, [v], node, what=f"operator {_OP_TEXT[name]}")

    def _e_BoolOp(self, node):
        vals = [self.expr(v) for v in node.values]
        if all(isinstance(v, Const) for v in vals):
            r = vals[0].value
            for v in vals[1:]:
                r = (r and v.value) if isinstance(node.op, ast.And) else (r or v.value)
            return Const(r)
        op = " && " if isinstance(node.op, ast.And) else " || "
        return Expr("(" + op.join(self.cond(v, node) for v in vals) + ")", BOOL)

    def _e_Compare(self, node):
        left = self.expr(node.left)
        parts = []
        for op, right in zip(node.ops, node.comparators):
            name = _COMPARE.get(type(op))
            if name is None:
                text = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
                self.err(node, f"comparison '{text[type(op)]}' is not supported in a kernel",
                         SyntaxError)
            r = self.expr(right)
            hook = next((getattr(v.type, "compare", None) for v in (left, r)
                         if isinstance(v, Expr) and hasattr(v.type, "compare")), None)
            if hook is not None:  # iterators
                parts.append(hook(self, op, left, r, node))
                left = r
                continue
            parts.append(self.ufunc(name, [left, r], node, what=f"comparison {_OP_TEXT[name]}"))
            left = r
        if all(isinstance(p, Const) for p in parts):
            return Const(all(p.value for p in parts))
        if len(parts) == 1:
            return parts[0]
        return Expr("(" + " && ".join(self.cond(p, node) for p in parts) + ")", BOOL)

    def _e_IfExp(self, node):
        test = self.expr(node.test)
        if isinstance(test, Const):
            return self.expr(node.body if test.value else node.orelse)
        a, b = self.expr(node.body), self.expr(node.orelse)
        ta, tb = type_of(a), type_of(b)
        if ta is None or tb is None:
            self.err(node, "both branches of a conditional expression must be numbers")
        if UNKNOWN in (ta, tb):
            return Expr("0", UNKNOWN)
        t = result_type([ta, tb])
        return Expr(f"({self.cond(test, node)} ? {self.cast(a, t, node)} : {self.cast(b, t, node)})",
                    t)

    def _e_Call(self, node):
        f = self.expr(node.func)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                self.err(a, "*args in calls is not supported in a kernel", SyntaxError)
            args.append(self.expr(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                self.err(node, "**kwargs in calls is not supported in a kernel", SyntaxError)
            kwargs[k.arg] = self.expr(k.value)
        return self.call(f, args, kwargs, node)

    # ---- calls --------------------------------------------------------------------------------
    def call(self, f, args, kwargs, node):
        if not isinstance(f, Const):
            self.err(node, f"{describe(f)} is not callable in a kernel")
        obj = f.value
        if isinstance(obj, _Method):
            if args or kwargs:
                self.err(node, f".{obj.name}() takes no arguments")
            return self.ufunc(obj.name, [obj.value], node)
        if isinstance(obj, B._Func):
            try:
                return obj.emit(self, args, kwargs, node)
            except TypeError as e:
                if str(e).startswith("cuarray.jit"):
                    raise
                self.err(node, f"jit.{obj.name}: {e}")
        if obj is B.range or obj is builtins.range:
            self.err(node, "range() is only supported as the iterable of a for loop")
        handler = CALLS.get(obj) if _hashable(obj) else None
        if handler is not None:
            return handler(self, node, args, kwargs)
        if kwargs and not isinstance(obj, type):
            self.err(node, f"{getattr(obj, '__name__', obj)}() takes no keyword arguments in a "
                           f"kernel")
        if _hashable(obj) and obj in MATH:
            return self.ufunc(MATH[obj], args, node, fold=obj)
        uname = _ufunc_name(obj)
        if uname is not None:
            return self.ufunc(uname, args, node)
        if isinstance(obj, type) and issubclass(obj, numpy.generic):
            return self._cast_call(node, _dt.check_dtype(numpy.dtype(obj)), args, kwargs)
        from cuarray.jit._interface import _JitRawKernel
        if isinstance(obj, _JitRawKernel):
            if not obj._device:
                self.err(node, f"kernel {obj.__name__} cannot be launched from a kernel; decorate "
                               f"it with jit.rawkernel(device=True) to call it")
            obj = obj._func
        if inspect.isfunction(obj):
            return self._device_call(obj, args, node)
        what = getattr(obj, "__qualname__", None)
        what = f"{getattr(obj, '__module__', None) or ''}.{what}".lstrip(".") if what else repr(obj)
        self.err(node, f"calling {what} is not supported in a kernel")

    def _cast_call(self, node, dt, args, kwargs):
        if len(args) != 1 or kwargs:
            self.err(node, f"{dt.name}(x) takes exactly one argument in a kernel")
        v = args[0]
        if isinstance(v, Const):
            try:
                return Const(dt.type(v.value))
            except (TypeError, ValueError, OverflowError) as e:
                self.err(node, f"cannot convert {v.value!r} to {dt}: {e}")
        if type_of(v) is None:
            self.err(node, f"cannot convert {describe(v)} to {dt}")
        return Expr(self.cast(v, dt, node), dt)

    def _device_call(self, fn, args, node):
        types = []
        if any(type_of(a) is UNKNOWN for a in args):
            return Expr("0", UNKNOWN)
        for a in args:
            if isinstance(a, Expr) and isinstance(a.type, Array):
                types.append(a.type)
            elif type_of(a) is not None:
                types.append(strong(type_of(a)))
            else:
                self.err(node, f"device functions take arrays and numbers, not {describe(a)}")
        key = (fn, tuple(types))
        if key in self.gen.device:
            entry = self.gen.device[key]
            if entry is None:
                self.err(node, f"recursive call of {fn.__name__} is not supported in a kernel")
            name, ret = entry
        else:
            self.gen.device[key] = None
            name = f"_jitdev_{re.sub(r'[^0-9A-Za-z_]', '_', fn.__name__)}_{len(self.gen.device)}"
            from cuarray.jit._compile import Translator
            ret = Translator(fn, types, self.gen, "device", name, self.mode).translate()
            self.gen.device[key] = (name, ret)
        codes = [a.code if isinstance(t, Array) else self.cast(a, t, node)
                 for a, t in zip(args, types)]
        return Expr(f"{name}({', '.join(codes)})", ret)

    def ufunc(self, name, args, node, what=None, fold=None):
        """`name` (a NumPy ufunc) applied to translated values."""
        row = _table.get(name)
        what = what or f"{row.name}()"
        if row.nout != 1:
            self.err(node, f"{row.name} has {row.nout} outputs; kernels use single-output "
                           f"functions")
        if len(args) != row.nin:
            self.err(node, f"{row.name}() takes {row.nin} argument{'s' * (row.nin > 1)}, got "
                           f"{len(args)}")
        types = []
        for a in args:
            t = type_of(a)
            if t is None:
                self.err(node, f"{what} needs numbers, got {describe(a)}")
            types.append(t)
        if all(isinstance(a, Const) for a in args):
            return self._fold(row.name, args, node, fold)
        if UNKNOWN in types:
            return Expr("0", UNKNOWN)
        ufn = getattr(numpy, row.name)
        try:
            loop = ufn.resolve_dtypes(tuple(types) + (None,))
        except Exception as e:
            self.err(node, f"{what} is not supported for {types_text(types)} ({e})")
        ins, out = loop[:row.nin], loop[row.nin]
        try:
            for dt in loop:
                _dt.check_dtype(dt)
            body = _table.body(row.name, ins, (out,))
        except TypeError as e:
            self.err(node, f"{what} is not supported for {types_text(types)} ({e})")
        codes = [self.cast(a, dt, node) for a, dt in zip(args, ins)]
        inline = _inline(body, row.nin)
        if inline is not None:
            for k, c in enumerate(codes):
                c = c if _SIMPLE.match(c) else f"({c})"
                inline = re.sub(rf"\bin{k}\b", lambda m, c=c: c, inline)
            code = f"(({_dt.ctype(out)})({inline}))" if out.kind in "iu" else f"({inline})"
            return Expr(code, out)
        fname, code = ufunc_function(row.name, ins, (out,))
        self.gen.add(code)
        return Expr(f"{fname}({', '.join(codes)})", out)

    def _fold(self, name, args, node, fold):
        vals = [a.value for a in args]
        try:
            if fold is not None:
                return Const(fold(*vals))
            if name in _PY_FOLD and all(isinstance(v, (int, float, complex)) for v in vals):
                return Const(_PY_FOLD[name](*vals))
            with numpy.errstate(all="ignore"):
                return Const(getattr(numpy, name)(*vals))
        except Exception as e:
            self.err(node, f"{name} of constants {vals} failed: {e}", type(e) if isinstance(
                e, (ZeroDivisionError, OverflowError, ValueError)) else TypeError)

    # ---- conversions --------------------------------------------------------------------------
    def cast(self, v, dt, node):
        """C code of value `v` converted to dtype `dt`."""
        dt = strong(dt)
        if isinstance(v, Const):
            t = v.type
            if t is None:
                self.err(node, f"{describe(v)} is not a number")
            try:
                return literal(v.value, dt)
            except (OverflowError, TypeError, ValueError) as e:
                self.err(node, f"cannot use {v.value!r} as {dt}: {e}", OverflowError)
        t = type_of(v)
        if t is None:
            self.err(node, f"expected a number, got {describe(v)}")
        if t is UNKNOWN:
            return v.code
        return _cast(v.code, strong(t), dt)

    def cond(self, v, node):
        """C condition testing the truth of value `v`."""
        if isinstance(v, Const):
            return "true" if v.value else "false"
        t = type_of(v)
        if t is None:
            self.err(node, f"the truth value of {describe(v)} is not defined in a kernel")
        if t is UNKNOWN:
            return v.code
        t = strong(t)
        if t.kind == "b":
            return v.code
        if t.kind == "c":
            return f"cuarray_nonzero({v.code})"
        return f"(({v.code}) != 0)"


# ---- helpers ----------------------------------------------------------------------------------
class _Method:
    """A method of a device value (`z.conj`), called as the ufunc `name`."""

    def __init__(self, name, value):
        self.name = name
        self.value = value


_PY_FOLD = {"add": lambda a, b: a + b, "subtract": lambda a, b: a - b,
            "multiply": lambda a, b: a * b, "divide": lambda a, b: a / b,
            "floor_divide": lambda a, b: a // b, "remainder": lambda a, b: a % b,
            "power": lambda a, b: a ** b, "left_shift": lambda a, b: a << b,
            "right_shift": lambda a, b: a >> b, "bitwise_or": lambda a, b: a | b,
            "bitwise_and": lambda a, b: a & b, "bitwise_xor": lambda a, b: a ^ b,
            "negative": lambda a: -a, "positive": lambda a: +a, "invert": lambda a: ~a,
            "equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b,
            "less": lambda a, b: a < b, "less_equal": lambda a, b: a <= b,
            "greater": lambda a, b: a > b, "greater_equal": lambda a, b: a >= b,
            "absolute": abs}
_INLINE = re.compile(r"^out0 = ([^;{}]*);$")
_SIMPLE = re.compile(r"^[\w.]+(\[[\w.]+\])?$")  # needs no parentheses as an operand


def _inline(body, nin):
    """The expression of a one-statement body that uses each input once, or None."""
    m = _INLINE.match(body.strip())
    if m is None:
        return None
    expr = m.group(1)
    if "out0" in expr:
        return None
    for k in range(nin):
        if len(re.findall(rf"\bin{k}\b", expr)) != 1:
            return None
    return expr


def _hashable(obj):
    try:
        hash(obj)
    except TypeError:
        return False
    return True


def _ufunc_name(obj):
    from cuarray._core.ufunc import ufunc
    if isinstance(obj, (ufunc, numpy.ufunc)):
        n = obj.__name__
        if n in _table.BY_NAME or n in _table.ALIASES:
            return n
    return None

