"""The ufunc objects (one per row of ufunc_table), NumPy's aliases, and the elementwise
helpers that are functions rather than ufuncs in NumPy (real, imag, angle, clip, where...)."""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.ufunc import make_ufuncs, ufunc  # noqa: F401

UFUNCS = make_ufuncs()
__all__ = sorted(UFUNCS) + ["abs", "conj", "mod", "true_divide", "bitwise_not", "bitwise_invert",
                            "acos", "acosh", "asin", "asinh", "atan", "atanh", "atan2",
                            "bitwise_left_shift", "bitwise_right_shift", "pow"]
globals().update(UFUNCS)

# NumPy 2's alternative names for the same ufuncs.
ALIASES = {
    "abs": "absolute", "conj": "conjugate", "mod": "remainder", "true_divide": "divide",
    "bitwise_not": "invert", "bitwise_invert": "invert", "acos": "arccos", "acosh": "arccosh",
    "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan", "atanh": "arctanh", "atan2": "arctan2",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift", "pow": "power",
}
for _alias, _name in ALIASES.items():
    globals()[_alias] = UFUNCS[_name]
ALL = dict(UFUNCS, **{a: UFUNCS[n] for a, n in ALIASES.items()})


def _need(a, name):
    if not isinstance(a, ndarray):
        from cuarray._core.host_policy import SCALARS, array_like, operand
        a = operand(a, name)
        return array_like(a) if isinstance(a, SCALARS) else a
    return a


def real(val):
    """cuarray version of `numpy.real` (a view for complex arrays)."""
    return _need(val, "real").real


def imag(val):
    """cuarray version of `numpy.imag` (a view for complex arrays)."""
    return _need(val, "imag").imag


def angle(z, deg=False):
    """cuarray version of `numpy.angle`."""
    z = _need(z, "angle")
    if z.dtype.kind == "c":
        r = UFUNCS["arctan2"](z.imag, z.real)
    else:
        # NumPy: angle(x) = arctan2(0, x) with a weak 0: uint8 gives float16, int16 float32
        # (CuPy's angle loops agree); NumPy's answer on an empty stand-in is the table.
        fdt = numpy.angle(numpy.empty(0, z.dtype)).dtype
        r = UFUNCS["arctan2"](fdt.type(0), z.astype(fdt, copy=False))
    if deg:
        r = UFUNCS["rad2deg"](r)
    return r


_where_ops = {}


def where(condition, x=None, y=None):
    """cuarray version of `numpy.where`; the one-argument form is `nonzero`."""
    if x is None and y is None:
        from cuarray._core import _routines_indexing  # fancy indexing loads on first use
        return _routines_indexing.nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    condition = _need(condition, "where")
    xs = [v for v in (x, y)]
    dts = []
    for k, v in enumerate(xs):
        if not isinstance(v, ndarray):
            from cuarray._core.host_policy import operand
            v = xs[k] = operand(v, "where")
        if isinstance(v, ndarray):
            dts.append(v.dtype)
        else:
            dts.append(v if isinstance(v, numpy.generic) else type(v))
    dt = numpy.result_type(*[d if not isinstance(d, numpy.generic) else d.dtype for d in dts]) \
        if all(not isinstance(d, type) for d in dts) else _weak_result(xs)
    dt = _dt.check_dtype(dt)
    shape_src = [condition] + [v for v in xs if isinstance(v, ndarray)]
    from cuarray._core.shapes import broadcast_shapes
    shape = broadcast_shapes(*[a._shape for a in shape_src])
    roles = tuple("in" if isinstance(v, ndarray) else "scalar" for v in xs)
    key = (dt.char, roles)
    op = _where_ops.get(key)
    if op is None:
        op = _where_ops[key] = Op(f"cuarray_where_{dt.char}_{''.join(r[0] for r in roles)}",
                                  [Param("c", "in", numpy.dtype(bool)), Param("x", roles[0], dt),
                                   Param("y", roles[1], dt), Param("z", "out", dt)], "z = c ? x : y;")
    from cuarray._core.dtypes import to_scalar
    vals = [v if isinstance(v, ndarray) else to_scalar(v, dt) for v in xs]
    if dt.kind in "Mm":   # datetimes of another unit: their counts converted first
        vals = [v.astype(dt) if isinstance(v, ndarray) and v.dtype != dt else v for v in vals]
    out = ndarray._alloc(shape, dt)
    if out.size:
        op.launch([condition] + vals + [out])
    return out


def _weak_result(xs):
    # NEP 50: Python scalars are weak against arrays; numpy.result_type implements it
    # when given the scalars themselves.
    return numpy.result_type(*[v.dtype if isinstance(v, ndarray) else v for v in xs])


def clip(a, min=None, max=None, out=None, *, a_min=None, a_max=None, **kwargs):
    """cuarray version of `numpy.clip` (NumPy 2 semantics: maximum then minimum). The bounds
    are `min`/`max` as in the Array API, or NumPy's `a_min`/`a_max`; without bounds the
    result is a copy, as in NumPy 2.1 and the Array API."""
    a_min = min if a_min is None else a_min
    a_max = max if a_max is None else a_max
    a = _need(a, "clip")
    r = a
    if a_min is not None:
        r = UFUNCS["maximum"](r, a_min, out=out, **kwargs) if out is not None else \
            UFUNCS["maximum"](r, a_min, **kwargs)
    if a_max is not None:
        r = UFUNCS["minimum"](r, a_max, out=out, **kwargs) if out is not None else \
            UFUNCS["minimum"](r, a_max, **kwargs)
    if r is a:
        if out is None:
            return a.copy()
        from cuarray._core._copy import copyto
        copyto(out, a)
        return out
    return r
