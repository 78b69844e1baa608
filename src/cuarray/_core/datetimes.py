"""datetime64 and timedelta64 on the device: int64 counts of a unit, NaT = INT64_MIN.

NumPy's `resolve_dtypes` picks the loop and the common unit (`M8[s] + m8[ms]` is an
`M8[ms]` loop); this module gives the loop's C body with NumPy's NaT rules, and the C
expression that converts a count from one unit to another (used for operands whose unit
differs from the loop's, and by `astype`). Conversions to a coarser unit round towards
minus infinity, as NumPy's do; datetimes in years or months convert to days through the
calendar, timedeltas through NumPy's average year (365.2425 days) and month (a twelfth).
"""
import functools
import math

import numpy

# C helpers, given to every kernel that handles datetimes as its preamble (kept out of the
# shared headers so that kernels without datetimes keep their cache keys).
PREAMBLE = r"""
#define CUARRAY_NAT (-9223372036854775807LL - 1)
CUARRAY_FN long long cuarray_dt_floordiv(long long a, long long b) {
  const long long q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
// v * num / den rounded down, NaT kept; the product wraps as NumPy's does (no trap).
CUARRAY_FN long long cuarray_dt_scale(long long v, long long num, long long den) {
  if (v == CUARRAY_NAT) return v;
  const long long p = (long long)((unsigned long long)v * (unsigned long long)num);
  return den == 1 ? p : cuarray_dt_floordiv(p, den);
}
// Days since 1970-01-01 of the first day of month `m` (months since 1970-01), and back:
// the proleptic Gregorian calendar in 400-year eras.
CUARRAY_FN long long cuarray_dt_months_to_days(long long m) {
  if (m == CUARRAY_NAT) return m;
  long long y = 1970 + cuarray_dt_floordiv(m, 12);
  const long long mo = m - cuarray_dt_floordiv(m, 12) * 12 + 1;
  y -= mo <= 2;
  const long long era = cuarray_dt_floordiv(y, 400);
  const long long yoe = y - era * 400;
  const long long doy = (153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}
CUARRAY_FN long long cuarray_dt_days_to_months(long long d) {
  if (d == CUARRAY_NAT) return d;
  const long long z = d + 719468;
  const long long era = cuarray_dt_floordiv(z, 146097);
  const long long doe = z - era * 146097;
  const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long long mp = (5 * doy + 2) / 153;
  const long long mo = mp < 10 ? mp + 3 : mp - 9;
  const long long y = yoe + era * 400 + (mo <= 2);
  return (y - 1970) * 12 + mo - 1;
}
CUARRAY_FN long long cuarray_dt_from_double(double r) {
  return (r < 9.2233720368547758e18 && r > -9.2233720368547758e18) ? (long long)r : CUARRAY_NAT;
}
"""

# Attoseconds per unit (exact integers: `fractions` stays out of `import cuarray`). A
# timedelta's year and month are NumPy's averages; for datetimes they are calendar units
# (_CALENDAR).
_ATTOSECONDS = {
    "Y": 31556952 * 10**18, "M": 2629746 * 10**18, "W": 604800 * 10**18, "D": 86400 * 10**18,
    "h": 3600 * 10**18, "m": 60 * 10**18, "s": 10**18, "ms": 10**15, "us": 10**12,
    "ns": 10**9, "ps": 10**6, "fs": 10**3, "as": 1,
}
_CALENDAR = {"Y": 12, "M": 1}     # months per calendar unit


def is_datetime(dtype):
    return dtype.kind in "Mm"


def _scale(expr, num, den=1):
    """C expression: `expr` times num/den (positive integers), in lowest terms."""
    g = math.gcd(num, den)
    num, den = num // g, den // g
    if num == den:
        return expr
    return f"cuarray_dt_scale({expr}, {num}LL, {den}LL)"


@functools.lru_cache(maxsize=None)
def convert(expr, src, dst):
    """C expression: the count `expr` of dtype `src` in the unit of `dst` (both M8 or both
    m8, or one of them generic), NaT kept."""
    (su, sc), (du, dc) = numpy.datetime_data(src), numpy.datetime_data(dst)
    if (su, sc) == (du, dc) or su == "generic" or du == "generic":
        return expr
    per = _ATTOSECONDS
    if src.kind == "M" and (su in _CALENDAR) != (du in _CALENDAR):
        if su in _CALENDAR:     # months -> days -> the target unit
            days = f"cuarray_dt_months_to_days({_scale(expr, sc * _CALENDAR[su])})"
            return _scale(days, per["D"], per[du] * dc)
        months = f"cuarray_dt_days_to_months({_scale(expr, per[su] * sc, per['D'])})"
        return _scale(months, 1, dc * _CALENDAR[du])
    if src.kind == "M" and su in _CALENDAR:
        return _scale(expr, sc * _CALENDAR[su], dc * _CALENDAR[du])
    return _scale(expr, per[su] * sc, per[du] * dc)


def cast_body(src, dst):
    """C statement `y = x` for a cast that involves datetime64/timedelta64 (`astype`)."""
    if is_datetime(src) and src.kind == dst.kind:
        return f"y = {convert('x', src, dst)};"
    if dst.kind in "Mm" and src.kind in "fc":   # NumPy: NaN and out-of-range values give NaT
        return "y = cuarray_dt_from_double(cuarray_cast<double>(x));"
    if dst.kind in "Mm" and src.kind in "Mm":
        raise TypeError(f"Cannot cast {src!r} to {dst!r}: NumPy has no such cast")
    from cuarray._core.dtypes import ctype
    return f"y = cuarray_cast<{ctype(dst)}>(x);"   # the count itself (NaT is INT64_MIN)


_NAT2 = "(in0 == CUARRAY_NAT || in1 == CUARRAY_NAT)"
_WRAP = "(long long)((unsigned long long)in0 {} (unsigned long long)in1)"
_MAX = f"out0 = {_NAT2} ? CUARRAY_NAT : (in0 {{}} in1 ? in0 : in1);"
_FMAX = "out0 = in0 == CUARRAY_NAT ? in1 : (in1 == CUARRAY_NAT ? in0 : (in0 {} in1 ? in0 : in1));"
_FLOORDIV = f"out0 = ({_NAT2} || in1 == 0) ? 0 : cuarray_dt_floordiv(in0, in1);"


def _remainder(out):
    """`out` = in0 mod in1 for timedeltas (NaT where either is NaT or in1 is 0)."""
    return (f"{out} = ({_NAT2} || in1 == 0) ? CUARRAY_NAT : "
            "in0 - cuarray_dt_floordiv(in0, in1) * in1;")


_BY_INT = "out0 = (in0 == CUARRAY_NAT || in1 == 0) ? CUARRAY_NAT : in0 / in1;"
_BY_FLOAT = "out0 = in0 == CUARRAY_NAT ? CUARRAY_NAT : cuarray_dt_from_double((double)in0 / in1);"


def _compare(op):
    if op == "==":
        return "out0 = in0 == in1 && in0 != CUARRAY_NAT;"
    if op == "!=":
        return "out0 = in0 != in1 || in0 == CUARRAY_NAT;"
    return f"out0 = !{_NAT2} && in0 {op} in1;"


# NumPy's datetime loops by ufunc and signature ('q' is int64, 'd' float64).
LOOPS = {
    "add": {sig: f"out0 = {_NAT2} ? CUARRAY_NAT : {_WRAP.format('+')};"
            for sig in ("Mm->M", "mm->m", "mM->M")},
    "subtract": {sig: f"out0 = {_NAT2} ? CUARRAY_NAT : {_WRAP.format('-')};"
                 for sig in ("Mm->M", "mm->m", "MM->m")},
    "multiply": {
        "mq->m": f"out0 = in0 == CUARRAY_NAT ? CUARRAY_NAT : {_WRAP.format('*')};",
        "qm->m": f"out0 = in1 == CUARRAY_NAT ? CUARRAY_NAT : {_WRAP.format('*')};",
        "md->m": "out0 = in0 == CUARRAY_NAT ? CUARRAY_NAT : cuarray_dt_from_double(in0 * in1);",
        "dm->m": "out0 = in1 == CUARRAY_NAT ? CUARRAY_NAT : cuarray_dt_from_double(in0 * in1);",
    },
    # NumPy truncates timedelta / number, and floor_divide does the same for these loops.
    "divide": {"mq->m": _BY_INT, "md->m": _BY_FLOAT,
               "mm->d": f"out0 = {_NAT2} ? cuarray_f64(0x7ff8000000000000ULL) : "
                        "(double)in0 / (double)in1;"},
    "floor_divide": {"mq->m": _BY_INT, "md->m": _BY_FLOAT, "mm->q": _FLOORDIV},
    "remainder": {"mm->m": _remainder("out0")},
    "divmod": {"mm->qm": _FLOORDIV + " " + _remainder("out1")},
    "negative": {"m->m": "out0 = in0 == CUARRAY_NAT ? CUARRAY_NAT : -in0;"},
    "positive": {"m->m": "out0 = in0;"},
    "absolute": {"m->m": "out0 = in0 < 0 && in0 != CUARRAY_NAT ? -in0 : in0;"},
    "sign": {"m->m": "out0 = in0 > 0 ? 1 : (in0 < 0 ? -1 : 0);",    # NaT: -1, as NumPy 2.4
             # NumPy 2.5 gives float64 signs (NaT: NaN)
             "m->d": "out0 = in0 == CUARRAY_NAT ? cuarray_f64(0x7ff8000000000000ULL) : "
                     "(in0 > 0 ? 1.0 : (in0 < 0 ? -1.0 : 0.0));"},
    "maximum": {sig: _MAX.format(">=") for sig in ("mm->m", "MM->M")},
    "minimum": {sig: _MAX.format("<=") for sig in ("mm->m", "MM->M")},
    "fmax": {sig: _FMAX.format(">=") for sig in ("mm->m", "MM->M")},
    "fmin": {sig: _FMAX.format("<=") for sig in ("mm->m", "MM->M")},
    "isnat": {sig: "out0 = in0 == CUARRAY_NAT;" for sig in ("M->?", "m->?")},
    "isnan": {sig: "out0 = in0 == CUARRAY_NAT;" for sig in ("M->?", "m->?")},
    "isfinite": {sig: "out0 = in0 != CUARRAY_NAT;" for sig in ("M->?", "m->?")},
    "isinf": {sig: "out0 = false;" for sig in ("M->?", "m->?")},
}
for _name, _op in (("equal", "=="), ("not_equal", "!="), ("less", "<"), ("less_equal", "<="),
                   ("greater", ">"), ("greater_equal", ">=")):
    LOOPS[_name] = {"MM->?": _compare(_op), "mm->?": _compare(_op)}

_CHAR = str.maketrans("l", "q")


def loop_body(name, in_dtypes, out_dtypes):
    """The C body of ufunc `name`'s datetime loop for these resolved dtypes."""
    sig = ("".join(d.char for d in in_dtypes) + "->" +
           "".join(d.char for d in out_dtypes)).translate(_CHAR)
    code = LOOPS.get(name, {}).get(sig)
    if code is None:
        raise TypeError(f"cuarray.{name} has no datetime loop {sig!r}")
    return code


def with_conversions(body, arg_dtypes, loop_dtypes):
    """`body` run on the inputs converted from their arrays' units to the loop's."""
    outer, inner = [], []
    for k, (a, d) in enumerate(zip(arg_dtypes, loop_dtypes)):
        if a is not None and is_datetime(d) and a != d:
            outer.append(f"const long long _dt_in{k} = {convert(f'in{k}', a, d)};")
            inner.append(f"const long long in{k} = _dt_in{k};")
    if not outer:
        return body
    return "{ " + " ".join(outer) + " { " + " ".join(inner) + " " + body + " } }"


def scalar(value, dtype):
    """A datetime64/timedelta64 scalar (or anything NumPy converts) as the int64 count of
    `dtype`'s unit, which is what kernels take."""
    return numpy.asarray(value).astype(dtype).view(numpy.int64)[()]
