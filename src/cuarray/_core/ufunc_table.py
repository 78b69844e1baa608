"""The ufunc table: one row per NumPy ufunc, its loops and a C body per dtype family.

A loop's body is picked by a small rule. The family of its first input
('bool', 'int', 'uint', 'half', 'float' for float32/64, 'complex', or 'mixed' for NumPy's
int64/uint64 comparison loops) names a chain of keys, and the first key the row defines
gives the body:

    bool -> bool, integer, real, any       int/uint -> int/uint, integer, real, any
    float -> float, inexact, real, any     complex  -> complex, inexact, any
    half -> half; else the float chain, run on float copies and rounded once (NumPy
            computes float16 loops in float32 the same way)

Bodies are C statements over `in0, in1, ...` (the loop's input types) and `out0, ...`
(its output types); the helpers they call are in include/cuarray/math.cuh. `{U}` stands for
the unsigned type integer arithmetic is done in (wraps like NumPy, no signed overflow) and
`{T}` for the C type of `in0`.
"""
import functools

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._lazy import lazy_module

_datetimes = lazy_module(globals(), "_datetimes", "cuarray._core.datetimes")   # datetime loops only

INT = "bBhHiIlLqQ"
FLOAT = "efd"
COMPLEX = "FD"
NUMERIC = INT + FLOAT + COMPLEX
ALL = "?" + NUMERIC

_CHAINS = {
    "bool": ("bool", "integer", "real", "any"),
    "int": ("int", "integer", "real", "any"),
    "uint": ("uint", "integer", "real", "any"),
    "float": ("float", "inexact", "real", "any"),
    "complex": ("complex", "inexact", "any"),
    "mixed": ("mixed",),
}
_KEYS = frozenset(k for chain in _CHAINS.values() for k in chain) | {"half"}
_FAMILY = {"b": "bool", "i": "int", "u": "uint", "f": "float", "c": "complex"}


class Ufunc:
    """One table row. `types` are NumPy's loop signatures ('ff->f'), in NumPy's order."""

    __slots__ = ("name", "nin", "nout", "types", "identity", "doc", "ops")

    def __init__(self, name, nin, nout, types, doc, identity=None, **ops):
        self.name, self.nin, self.nout, self.doc, self.identity = name, nin, nout, doc, identity
        self.types = tuple(types)
        self.ops = ops

    def __repr__(self):
        return f"Ufunc({self.name!r}, nin={self.nin}, nout={self.nout}, ntypes={len(self.types)})"


def _sigs(chars, nin=1, out=None):
    """'cc->c' per type char; `out` is a fixed output char, or 'real' (F->f, D->d)."""
    res = []
    for c in chars:
        o = c if out is None else ({"F": "f", "D": "d"}.get(c, c) if out == "real" else out)
        res.append(c * nin + "->" + o)
    return res


def _unary(name, doc, chars, **ops):
    return Ufunc(name, 1, 1, _sigs(chars), doc, **ops)


def _binary(name, doc, chars, identity=None, **ops):
    return Ufunc(name, 2, 1, _sigs(chars, 2), doc, identity, **ops)


_INT_ADD = "out0 = ({U})in0 + ({U})in1;"
_HALF_NEG = "out0 = cuarray_half_bits(in0.x ^ 0x8000u);"
_HALF_ABS = "out0 = cuarray_half_bits(in0.x & 0x7fffu);"
_COMPARE_TYPES = _sigs("?" + INT, 2, "?") + ["qQ->?", "Qq->?"] + _sigs(FLOAT + COMPLEX, 2, "?")


def _compare(name, doc, op, complex_fn):
    return Ufunc(name, 2, 1, _COMPARE_TYPES, doc, any=f"out0 = in0 {op} in1;",
                 mixed=f"out0 = cuarray_mixed_cmp(in0, in1) {op} 0;",
                 complex=f"out0 = {complex_fn}(in0, in1);" if complex_fn else None)


def _math(name, doc, fn, chars=FLOAT + COMPLEX):
    """A C99 function, with cuarray's complex overload of the same name."""
    return _unary(name, doc, chars, any=f"out0 = {fn}(in0);")


def _minmax(name, doc, int_op, float_test, half_test, complex_test):
    """NumPy returns in1 on float ties (its SIMD loops) but in0 for float16 (halffloat.cpp)."""
    return _binary(name, doc, ALL, integer=f"out0 = in0 {int_op} in1 ? in0 : in1;",
                   float=f"out0 = ({float_test}) ? in0 : in1;",
                   half=f"out0 = ({half_test}) ? in0 : in1;",
                   complex=f"out0 = ({complex_test}) ? in0 : in1;")


UFUNCS = (
    # ---- arithmetic ----
    _binary("add", "Add arguments element-wise.", ALL, 0,
            bool="out0 = in0 || in1;", integer=_INT_ADD, any="out0 = in0 + in1;"),
    _binary("subtract", "Subtract arguments, element-wise.", NUMERIC,
            integer="out0 = ({U})in0 - ({U})in1;", any="out0 = in0 - in1;"),
    _binary("multiply", "Multiply arguments element-wise.", ALL, 1,
            bool="out0 = in0 && in1;", integer="out0 = ({U})in0 * ({U})in1;", any="out0 = in0 * in1;"),
    _binary("divide", "Divide arguments element-wise.", FLOAT + COMPLEX, any="out0 = in0 / in1;"),
    _binary("floor_divide", "Return the largest integer smaller or equal to the division of the inputs.",
            INT + FLOAT, any="out0 = cuarray_floor_divide(in0, in1);"),
    _binary("remainder", "Returns the element-wise remainder of division.", INT + FLOAT,
            any="out0 = cuarray_remainder(in0, in1);"),
    _binary("fmod", "Returns the element-wise remainder of division.", INT + FLOAT,
            integer="out0 = cuarray_int_fmod(in0, in1);", float="out0 = fmod(in0, in1);"),
    Ufunc("divmod", 2, 2, [c + c + "->" + c + c for c in INT + FLOAT],
          "Return element-wise quotient and remainder simultaneously.",
          any="cuarray_divmod(in0, in1, out0, out1);"),
    _unary("negative", "Numerical negative, element-wise.", NUMERIC,
           integer="out0 = 0 - ({U})in0;", half=_HALF_NEG, any="out0 = -in0;"),
    _unary("positive", "Numerical positive, element-wise.", NUMERIC, half="out0 = in0;", any="out0 = in0;"),
    # NumPy lists e/f/d twice (two inner loops each); a signature appears once here.
    _binary("power", "First array elements raised to powers from second array, element-wise.",
            INT + FLOAT + COMPLEX, integer="out0 = cuarray_ipow(in0, in1);", any="out0 = pow(in0, in1);"),
    _binary("float_power", "First array elements raised to powers from second array, element-wise.",
            "dD", any="out0 = pow(in0, in1);"),
    Ufunc("absolute", 1, 1, _sigs(ALL, 1, "real"), "Calculate the absolute value element-wise.",
          bool="out0 = in0;", uint="out0 = in0;", int="out0 = in0 < 0 ? 0 - ({U})in0 : ({U})in0;",
          half=_HALF_ABS, float="out0 = fabs(in0);", complex="out0 = cuarray_cabs(in0);"),
    _unary("fabs", "Compute the absolute values element-wise.", FLOAT, half=_HALF_ABS, float="out0 = fabs(in0);"),
    _unary("rint", "Round elements of the array to the nearest integer.", FLOAT + COMPLEX,
           float="out0 = rint(in0);", complex="out0 = {T}(rint(in0.re), rint(in0.im));"),
    _unary("sign", "Returns an element-wise indication of the sign of a number.", NUMERIC,
           uint="out0 = in0 > 0;", real="out0 = in0 > 0 ? 1 : (in0 < 0 ? -1 : (in0 == 0 ? 0 : in0));",
           complex="out0 = cuarray_sign(in0);"),
    _binary("heaviside", "Compute the Heaviside step function.", FLOAT, any="out0 = cuarray_heaviside(in0, in1);"),
    _unary("conjugate", "Return the complex conjugate, element-wise.", NUMERIC,
           half="out0 = in0;", any="out0 = in0;", complex="out0 = conj(in0);"),
    _unary("square", "Return the element-wise square of the input.", NUMERIC,
           integer="out0 = ({U})in0 * ({U})in0;", any="out0 = in0 * in0;"),
    _unary("reciprocal", "Return the reciprocal of the argument, element-wise.", NUMERIC,
           integer="out0 = cuarray_int_reciprocal(in0);", float="out0 = 1 / in0;",
           complex="out0 = cuarray_reciprocal(in0);"),
    _binary("gcd", "Returns the greatest common divisor of |x1| and |x2|.", INT, 0,
            any="out0 = cuarray_gcd(in0, in1);"),
    _binary("lcm", "Returns the lowest common multiple of |x1| and |x2|.", INT, any="out0 = cuarray_lcm(in0, in1);"),
    # ---- exponents and logarithms ----
    _math("exp", "Calculate the exponential of all elements in the input array.", "exp"),
    _math("exp2", "Calculate `2**p` for all `p` in the input array.", "exp2"),
    _math("log", "Natural logarithm, element-wise.", "log"),
    _math("log2", "Base-2 logarithm of `x`.", "log2"),
    _math("log10", "Return the base 10 logarithm of the input array, element-wise.", "log10"),
    _math("expm1", "Calculate ``exp(x) - 1`` for all elements in the array.", "expm1"),
    _math("log1p", "Return the natural logarithm of one plus the input array, element-wise.", "log1p"),
    _math("sqrt", "Return the non-negative square-root of an array, element-wise.", "sqrt"),
    _math("cbrt", "Return the cube-root of an array, element-wise.", "cbrt", FLOAT),
    _binary("logaddexp", "Logarithm of the sum of exponentiations of the inputs.", FLOAT, -numpy.inf,
            any="out0 = cuarray_logaddexp(in0, in1);"),
    _binary("logaddexp2", "Logarithm of the sum of exponentiations of the inputs in base-2.", FLOAT,
            -numpy.inf, any="out0 = cuarray_logaddexp2(in0, in1);"),
    # ---- trigonometric and hyperbolic ----
    _math("sin", "Trigonometric sine, element-wise.", "sin"),
    _math("cos", "Cosine element-wise.", "cos"),
    _math("tan", "Compute tangent element-wise.", "tan"),
    _math("arcsin", "Inverse sine, element-wise.", "asin"),
    _math("arccos", "Trigonometric inverse cosine, element-wise.", "acos"),
    _math("arctan", "Trigonometric inverse tangent, element-wise.", "atan"),
    _binary("arctan2", "Element-wise arc tangent of ``x1/x2`` choosing the quadrant correctly.", FLOAT,
            any="out0 = atan2(in0, in1);"),
    _binary("hypot", "Given the \"legs\" of a right triangle, return its hypotenuse.", FLOAT, 0,
            any="out0 = cuarray_hypot(in0, in1);"),
    _math("sinh", "Hyperbolic sine, element-wise.", "sinh"),
    _math("cosh", "Hyperbolic cosine, element-wise.", "cosh"),
    _math("tanh", "Compute hyperbolic tangent element-wise.", "tanh"),
    _math("arcsinh", "Inverse hyperbolic sine element-wise.", "asinh"),
    _math("arccosh", "Inverse hyperbolic cosine, element-wise.", "acosh"),
    _math("arctanh", "Inverse hyperbolic tangent element-wise.", "atanh"),
    _unary("degrees", "Convert angles from radians to degrees.", FLOAT, any="out0 = cuarray_rad2deg(in0);"),
    _unary("rad2deg", "Convert angles from radians to degrees.", FLOAT, any="out0 = cuarray_rad2deg(in0);"),
    _unary("radians", "Convert angles from degrees to radians.", FLOAT, any="out0 = cuarray_deg2rad(in0);"),
    _unary("deg2rad", "Convert angles from degrees to radians.", FLOAT, any="out0 = cuarray_deg2rad(in0);"),
    # ---- bits ----
    _binary("bitwise_and", "Compute the bit-wise AND of two arrays element-wise.", "?" + INT, -1,
            any="out0 = in0 & in1;"),
    _binary("bitwise_or", "Compute the bit-wise OR of two arrays element-wise.", "?" + INT, 0,
            any="out0 = in0 | in1;"),
    _binary("bitwise_xor", "Compute the bit-wise XOR of two arrays element-wise.", "?" + INT, 0,
            any="out0 = in0 ^ in1;"),
    _unary("invert", "Compute bit-wise inversion, or bit-wise NOT, element-wise.", "?" + INT,
           bool="out0 = !in0;", any="out0 = ~in0;"),
    Ufunc("bitwise_count", 1, 1, _sigs(INT, 1, "B"),
          "Computes the number of 1-bits in the absolute value of ``x``.",
          any="out0 = cuarray_bitwise_count(in0);"),
    _binary("left_shift", "Shift the bits of an integer to the left.", INT, any="out0 = cuarray_left_shift(in0, in1);"),
    _binary("right_shift", "Shift the bits of an integer to the right.", INT,
            any="out0 = cuarray_right_shift(in0, in1);"),
    # ---- comparisons and logic ----
    _compare("greater", "Return the truth value of (x1 > x2) element-wise.", ">", "cuarray_cgt"),
    _compare("greater_equal", "Return the truth value of (x1 >= x2) element-wise.", ">=", "cuarray_cge"),
    _compare("less", "Return the truth value of (x1 < x2) element-wise.", "<", "cuarray_clt"),
    _compare("less_equal", "Return the truth value of (x1 <= x2) element-wise.", "<=", "cuarray_cle"),
    _compare("not_equal", "Return (x1 != x2) element-wise.", "!=", None),
    _compare("equal", "Return (x1 == x2) element-wise.", "==", None),
    Ufunc("logical_and", 2, 1, _sigs(ALL, 2, "?"), "Compute the truth value of x1 AND x2 element-wise.", True,
          any="out0 = cuarray_nonzero(in0) && cuarray_nonzero(in1);"),
    Ufunc("logical_or", 2, 1, _sigs(ALL, 2, "?"), "Compute the truth value of x1 OR x2 element-wise.", False,
          any="out0 = cuarray_nonzero(in0) || cuarray_nonzero(in1);"),
    Ufunc("logical_xor", 2, 1, _sigs(ALL, 2, "?"), "Compute the truth value of x1 XOR x2, element-wise.", False,
          any="out0 = cuarray_nonzero(in0) != cuarray_nonzero(in1);"),
    Ufunc("logical_not", 1, 1, _sigs(ALL, 1, "?"), "Compute the truth value of NOT x element-wise.",
          any="out0 = !cuarray_nonzero(in0);"),
    _minmax("maximum", "Element-wise maximum of array elements.", ">=", "in0 > in1 || isnan(in0)",
            "in0 >= in1 || isnan(in0)", "isnan(in0) || cuarray_cge(in0, in1)"),
    _minmax("minimum", "Element-wise minimum of array elements.", "<=", "in0 < in1 || isnan(in0)",
            "in0 <= in1 || isnan(in0)", "isnan(in0) || cuarray_cle(in0, in1)"),
    _minmax("fmax", "Element-wise maximum of array elements.", ">=", "in0 > in1 || isnan(in1)",
            "in0 >= in1 || isnan(in1)", "isnan(in1) || cuarray_cge(in0, in1)"),
    _minmax("fmin", "Element-wise minimum of array elements.", "<=", "in0 < in1 || isnan(in1)",
            "in0 <= in1 || isnan(in1)", "isnan(in1) || cuarray_cle(in0, in1)"),
    # ---- floating-point classification and manipulation ----
    Ufunc("isfinite", 1, 1, _sigs(ALL, 1, "?"), "Test element-wise for finiteness (not infinity and not Not a Number).",
          integer="out0 = true;", any="out0 = isfinite(in0);"),
    Ufunc("isinf", 1, 1, _sigs(ALL, 1, "?"), "Test element-wise for positive or negative infinity.",
          integer="out0 = false;", any="out0 = isinf(in0);"),
    Ufunc("isnan", 1, 1, _sigs(ALL, 1, "?"), "Test element-wise for NaN and return result as a boolean array.",
          integer="out0 = false;", any="out0 = isnan(in0);"),
    Ufunc("isnat", 1, 1, ["M->?", "m->?"], "Test element-wise for NaT (not a time) and return result "
          "as a boolean array."),   # its bodies are datetime loops (datetimes.LOOPS)
    Ufunc("signbit", 1, 1, _sigs(FLOAT, 1, "?"), "Returns element-wise True where signbit is set (less than zero).",
          half="out0 = (in0.x & 0x8000u) != 0;", float="out0 = signbit(in0);"),
    _binary("copysign", "Change the sign of x1 to that of x2, element-wise.", FLOAT,
            half="out0 = cuarray_half_bits((in0.x & 0x7fffu) | (in1.x & 0x8000u));",
            float="out0 = copysign(in0, in1);"),
    _binary("nextafter", "Return the next floating-point value after x1 towards x2, element-wise.", FLOAT,
            half="out0 = cuarray_half_nextafter(in0, in1);", float="out0 = nextafter(in0, in1);"),
    _unary("spacing", "Return the distance between x and the nearest adjacent number.", FLOAT,
           half="out0 = cuarray_half_spacing(in0);", float="out0 = cuarray_spacing(in0);"),
    Ufunc("modf", 1, 2, [c + "->" + c + c for c in FLOAT],
          "Return the fractional and integral parts of an array, element-wise.", float="out0 = modf(in0, &out1);"),
    Ufunc("ldexp", 2, 1, ["ei->e", "fi->f", "el->e", "fl->f", "di->d", "dl->d"], "Returns x1 * 2**x2, element-wise.",
          float="out0 = cuarray_ldexp(in0, in1);"),
    Ufunc("frexp", 1, 2, [c + "->" + c + "i" for c in FLOAT],
          "Decompose the elements of x into mantissa and twos exponent.", float="out0 = frexp(in0, &out1);"),
    _unary("floor", "Return the floor of the input, element-wise.", "?" + INT + FLOAT,
           integer="out0 = in0;", float="out0 = floor(in0);"),
    _unary("ceil", "Return the ceiling of the input, element-wise.", "?" + INT + FLOAT,
           integer="out0 = in0;", float="out0 = ceil(in0);"),
    _unary("trunc", "Return the truncated value of the input, element-wise.", "?" + INT + FLOAT,
           integer="out0 = in0;", float="out0 = trunc(in0);"),
)

# Other names NumPy gives the same ufunc objects (`numpy.mod is numpy.remainder`).
ALIASES = {
    "true_divide": "divide", "mod": "remainder", "conj": "conjugate", "bitwise_not": "invert",
    # NumPy 2's array-API names
    "abs": "absolute", "pow": "power", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "bitwise_invert": "invert", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
}
BY_NAME = {row.name: row for row in UFUNCS}


def get(name):
    """The row for a ufunc name or alias."""
    try:
        return BY_NAME[ALIASES.get(name, name)]
    except KeyError:
        raise ValueError(f"cuarray has no ufunc named {name!r}") from None


def family(in_dtypes):
    """The dtype family whose body a loop uses: that of its first input, or 'mixed'."""
    d0 = in_dtypes[0]
    if len(in_dtypes) > 1 and {d0.kind, in_dtypes[1].kind} == {"i", "u"}:
        return "mixed"
    if d0.kind == "f" and d0.itemsize == 2:
        return "half"
    return _FAMILY[d0.kind]


def _lookup(row, chain):
    for key in chain:
        code = row.ops.get(key)
        if code:
            return code
    return None


def _half_on_floats(code, in_dtypes, out_dtypes):
    """Run a float body on float copies of the half operands; round the outputs once."""
    outer, inner, after = [], [], []
    for k, d in enumerate(in_dtypes):
        if d.itemsize == 2 and d.kind == "f":
            outer.append(f"const float _h_in{k} = in{k};")
            inner.append(f"const float in{k} = _h_in{k};")
    for k, d in enumerate(out_dtypes):
        if d.itemsize == 2 and d.kind == "f":
            outer.append(f"float _h_out{k};")
            inner.append(f"float& out{k} = _h_out{k};")
            after.append(f"out{k} = _h_out{k};")
    return "{ " + " ".join(outer) + " { " + " ".join(inner) + " " + code + " } " + " ".join(after) + " }"


def signature(in_dtypes, out_dtypes):
    return "".join(d.char for d in in_dtypes) + "->" + "".join(d.char for d in out_dtypes)


# int64 and uint64 have two type characters each on LP64 ('l'/'q', 'L'/'Q'); NumPy lists a
# mixed-sign loop once ('qQ->?') but may resolve to either character.
_LONG_AS_LONGLONG = str.maketrans("lL", "qQ")


@functools.lru_cache(maxsize=None)
def _body(name, in_dtypes, out_dtypes):
    row = get(name)
    if any(d.kind in "Mm" for d in in_dtypes + out_dtypes):
        return _datetimes.loop_body(row.name, in_dtypes, out_dtypes)
    sig = signature(in_dtypes, out_dtypes)
    if sig not in row.types and sig.translate(_LONG_AS_LONGLONG) not in row.types:
        raise TypeError(f"cuarray.{row.name} has no loop {signature(in_dtypes, out_dtypes)!r}; "
                        f"its loops are {', '.join(row.types)}")
    fam = family(in_dtypes)
    half = fam == "half"
    code = row.ops.get("half") if half else None
    wrap = half and code is None
    if code is None:
        code = _lookup(row, _CHAINS["float" if half else fam])
    d0 = in_dtypes[0]
    code = code.replace("{T}", "float" if wrap else _dt.ctype(d0))
    if "{U}" in code:
        code = code.replace("{U}", "unsigned long long" if d0.itemsize == 8 else "unsigned int")
    return _half_on_floats(code, in_dtypes, out_dtypes) if wrap else code


def body(name, in_dtypes, out_dtypes, datetime=False):
    """C statements computing ufunc `name` for one loop (NumPy dtypes after resolution).

    Datetime loops need `datetimes.PREAMBLE` in their kernel: callers that add it pass
    `datetime=True`; for the others (fuse, ufunc.at, scans, ...) they are a TypeError.
    """
    ins = tuple(numpy.dtype(d) for d in in_dtypes)
    outs = tuple(numpy.dtype(d) for d in out_dtypes)
    if not datetime and any(d.kind in "Mm" for d in ins + outs):
        raise TypeError(f"cuarray.{name}: datetime64/timedelta64 data is supported in ufunc "
                        "calls, reductions and sorts, not in this routine")
    return _body(name, ins, outs)


def _validate():
    """Every row well-formed and every loop with a body (run by the tests, not at import:
    start-up time is measured)."""
    supported = set(ALL)
    names = [row.name for row in UFUNCS]
    dup = {n for n in names if names.count(n) > 1} | (set(names) & set(ALIASES))
    assert not dup, f"duplicate ufunc names: {sorted(dup)}"
    for row in UFUNCS:
        assert set(row.ops) <= _KEYS, f"{row.name}: unknown families {set(row.ops) - _KEYS}"
        assert len(set(row.types)) == len(row.types), f"{row.name}: duplicate loops"
        for sig in row.types:
            ins, outs = sig.split("->")
            assert len(ins) == row.nin and len(outs) == row.nout, f"{row.name}: bad loop {sig}"
            if set(sig) & set("Mm"):
                assert sig in _datetimes.LOOPS.get(row.name, {}), f"{row.name}: no body for {sig}"
                continue
            assert set(ins + outs) <= supported, f"{row.name}: unsupported type in {sig}"
            fam = family([numpy.dtype(c) for c in ins])
            chain = _CHAINS["float" if fam == "half" else fam]
            assert (fam == "half" and row.ops.get("half")) or _lookup(row, chain), \
                f"{row.name}: no body for loop {sig}"

