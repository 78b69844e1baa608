"""How overlapping chunks of a distributed array combine (CuPy's REPLICA, SUM, MAX, MIN, PROD).

REPLICA: every chunk holding an element holds its value. An op mode: the element's value
is the op (sum, max, ...) over the chunks holding it; a chunk not contributing to an
element holds the op's identity there.
"""
import numpy


class Mode:
    __slots__ = ("name", "ufunc", "reduction")

    def __init__(self, name, ufunc=None, reduction=None):
        self.name, self.ufunc, self.reduction = name, ufunc, reduction

    def __repr__(self):
        return self.name.upper()

    # Older CuPy versions name modes by strings: a mode equals its name.
    def __eq__(self, other):
        if isinstance(other, str):
            return other == self.name
        return self is other

    def __hash__(self):
        return hash(self.name)

    def __reduce__(self):
        return (_by_name, (self.name,))

    def identity(self, dtype):
        """The value a non-contributing chunk holds, in `dtype`."""
        dtype = numpy.dtype(dtype)
        if self.name == "sum":
            return dtype.type(0)
        if self.name == "prod":
            return dtype.type(1)
        if dtype.kind == "b":
            return dtype.type(self.name == "min")
        if dtype.kind in "iu":
            info = numpy.iinfo(dtype)
            return dtype.type(info.min if self.name == "max" else info.max)
        if dtype.kind == "c":
            raise TypeError(f"mode {self.name.upper()} is not defined for complex arrays")
        return dtype.type(-numpy.inf if self.name == "max" else numpy.inf)


REPLICA = Mode("replica")
SUM = Mode("sum", "add", "sum")
MAX = Mode("max", "maximum", "max")
MIN = Mode("min", "minimum", "min")
PROD = Mode("prod", "multiply", "prod")
MODES = {m.name: m for m in (REPLICA, SUM, MAX, MIN, PROD)}


def _by_name(name):
    return MODES[name]


def as_mode(mode):
    """A mode object from a mode or its name ('replica', 'sum', ...); None is REPLICA."""
    if mode is None:
        return REPLICA
    if isinstance(mode, Mode):
        return mode
    m = MODES.get(mode) if isinstance(mode, str) else None
    if m is None:   # CuPy raises RuntimeError here
        raise RuntimeError(f"unknown mode {mode!r}: `mode` must be one of {list(MODES)}")
    return m
