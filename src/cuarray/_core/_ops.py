"""The ufunc objects (one per row of ufunc_table) and NumPy's aliases. The elementwise
helpers that are functions rather than ufuncs in NumPy (real, imag, angle, clip, where)
are in _ufunc_like, loaded on first use (start-up time is measured) and reachable here."""
from cuarray._core._lazy import lazy_module
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

_like = lazy_module(globals(), "_like", "cuarray._core._ufunc_like")
_LIKE = frozenset(("real", "imag", "angle", "where", "clip"))


def __getattr__(name):
    # `_ops.where` and the others: read from _ufunc_like once, then kept here
    if name in _LIKE:
        value = globals()[name] = getattr(_like, name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
