"""Python's builtins and math functions inside a kernel: len, abs, min, max, int, float,
bool, complex, print, and `math`/`cmath` functions as their NumPy ufuncs."""
import cmath
import math

import numpy

from cuarray.jit._types import (BOOL, INT64, UNKNOWN, Array, Const, Expr, Tuple, describe,
                                strong, type_of)

# math functions are their NumPy ufuncs on the device (type-preserving, as in CuPy's JIT).
MATH = {}
for _n, _u in (("sqrt", "sqrt"), ("exp", "exp"), ("exp2", "exp2"), ("expm1", "expm1"),
               ("log", "log"), ("log2", "log2"), ("log10", "log10"), ("log1p", "log1p"),
               ("sin", "sin"), ("cos", "cos"), ("tan", "tan"), ("asin", "arcsin"),
               ("acos", "arccos"), ("atan", "arctan"), ("atan2", "arctan2"), ("sinh", "sinh"),
               ("cosh", "cosh"), ("tanh", "tanh"), ("asinh", "arcsinh"), ("acosh", "arccosh"),
               ("atanh", "arctanh"), ("floor", "floor"), ("ceil", "ceil"), ("trunc", "trunc"),
               ("fabs", "fabs"), ("hypot", "hypot"), ("copysign", "copysign"), ("pow", "power"),
               ("isnan", "isnan"), ("isinf", "isinf"), ("isfinite", "isfinite"),
               ("fmod", "fmod"), ("degrees", "degrees"), ("radians", "radians"),
               ("cbrt", "cbrt")):
    if hasattr(math, _n):
        MATH[getattr(math, _n)] = _u
for _n in ("sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
           "cosh", "tanh", "asinh", "acosh", "atanh", "isnan", "isinf", "isfinite"):
    MATH[getattr(cmath, _n)] = MATH[getattr(math, _n)]


def _b_len(tr, node, args, kwargs):
    if len(args) != 1:
        tr.err(node, "len() takes exactly one argument")
    v = args[0]
    if isinstance(v, Expr) and isinstance(v.type, Array):
        if v.type.ndim == 0:
            tr.err(node, "len() of a 0-d array")
        return Expr(f"{v.code}.shape[0]", INT64)
    if isinstance(v, Tuple):
        return Const(len(v.items))
    if isinstance(v, Const):
        return Const(len(v.value))
    tr.err(node, f"len() of {describe(v)} is not supported in a kernel")


def _b_abs(tr, node, args, kwargs):
    return tr.ufunc("absolute", args, node, what="abs()")


def _b_minmax(name):
    def f(tr, node, args, kwargs):
        if kwargs:
            tr.err(node, f"{name}() takes no keyword arguments in a kernel")
        if len(args) == 1 and isinstance(args[0], Tuple):
            args = list(args[0].items)
        if len(args) < 2:
            tr.err(node, f"{name}() in a kernel takes two or more numbers")
        if all(isinstance(a, Const) for a in args):
            return Const((min if name == "min" else max)(a.value for a in args))
        r = args[0]
        for a in args[1:]:
            r = tr.ufunc("minimum" if name == "min" else "maximum", [r, a], node, what=f"{name}()")
        return r
    return f


def _b_convert(pytype, dt):
    def f(tr, node, args, kwargs):
        if pytype is complex and len(args) == 2:
            re_, im = args
            if isinstance(re_, Const) and isinstance(im, Const):
                return Const(complex(re_.value, im.value))
            d = numpy.dtype(numpy.float64)
            return Expr(f"complex<double>({tr.cast(re_, d, node)}, {tr.cast(im, d, node)})", dt)
        if len(args) != 1 or kwargs:
            tr.err(node, f"{pytype.__name__}() takes one argument in a kernel")
        v = args[0]
        if isinstance(v, Const):
            return Const(pytype(v.value))
        return tr._cast_call(node, dt, args, {})
    return f


def _c_string(s):
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("%", "%%")


# printf conversion and argument(s) of a value of each dtype kind (complex: "c")
_PRINTF = {"b": ("%s", ['({} ? "True" : "False")']),
           "i": ("%lld", ["(long long)({})"]),
           "u": ("%llu", ["(unsigned long long)({})"]),
           "f": ("%g", ["(double)({})"]),
           "c": ("(%g%+gj)", ["(double)({}).real()", "(double)({}).imag()"])}


def _b_print(tr, node, args, kwargs):
    sep, end = " ", "\n"
    for k, v in kwargs.items():
        if k not in ("sep", "end") or not isinstance(v, Const) or not isinstance(v.value, str):
            tr.err(node, "print() in a kernel takes sep= and end= strings only")
        if k == "sep":
            sep = v.value
        else:
            end = v.value
    fmt, vals = [], []
    for a in args:
        if isinstance(a, Const):
            fmt.append(_c_string(str(a.value)))
            continue
        t = type_of(a)
        if t is None:
            tr.err(node, f"print() in a kernel prints numbers and strings, not {describe(a)}")
        if t is UNKNOWN:
            continue
        t = strong(t)
        spec, args = _PRINTF.get(t.kind, _PRINTF["c"])
        fmt.append(spec)
        vals += [x.format(a.code) for x in args]
    text = _c_string(sep).join(fmt) + _c_string(end)
    return Expr(f'printf("{text}"' + "".join(", " + v for v in vals) + ")", None)


CALLS = {
    len: _b_len, abs: _b_abs, min: _b_minmax("min"), max: _b_minmax("max"),
    int: _b_convert(int, INT64), float: _b_convert(float, numpy.dtype(numpy.float64)),
    bool: _b_convert(bool, BOOL), complex: _b_convert(complex, numpy.dtype(numpy.complex128)),
    print: _b_print,
}
