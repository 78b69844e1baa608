"""Types and values of the cuarray.jit translator.

A scalar's type is a `numpy.dtype`; a Python literal keeps its Python type (`int`,
`float`, `complex`) so that NumPy's weak-scalar rules (NEP 50) apply to it, as they do
to `x * 2` on arrays. Arrays are `Array` (a kernel argument: pointer, shape, byte
strides) or `Shared` (`__shared__` memory, 1-D and contiguous).
"""
import inspect

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.host_policy import host_error

_STRONG = {int: numpy.dtype(numpy.int64), float: numpy.dtype(numpy.float64),
           complex: numpy.dtype(numpy.complex128)}
_SAMPLE = {int: 0, float: 0.0, complex: 0j}
INT64 = numpy.dtype(numpy.int64)
UINT32 = numpy.dtype(numpy.uint32)
INT32 = numpy.dtype(numpy.int32)
BOOL = numpy.dtype(numpy.bool_)


class _Unknown:
    """The type of a variable read before the translator knows its type (a provisional
    pass, whose code is discarded)."""

    kind = "?"

    def __repr__(self):
        return "unknown"


UNKNOWN = _Unknown()


def is_weak(t):
    return t is int or t is float or t is complex


def strong(t):
    """The dtype a value of type `t` is stored in (Python int -> int64, ...)."""
    return _STRONG.get(t, t)


def is_scalar(t):
    return isinstance(t, numpy.dtype) or is_weak(t) or t is UNKNOWN


def ctype(t):
    """C type name of a scalar type in generated code."""
    return "long long" if t is UNKNOWN else _dt.ctype(strong(t))


def join(types):
    """The type a variable takes when assigned values of all `types` (NumPy's promotion)."""
    types = [strong(t) for t in types if t is not None and t is not UNKNOWN]
    if not types:
        return None
    t = types[0]
    for u in types[1:]:
        if u != t:
            t = numpy.result_type(t, u)
    return _dt.check_dtype(t)


def result_type(types):
    """numpy.result_type with Python literals weak."""
    return _dt.check_dtype(numpy.result_type(*[_SAMPLE[t] if is_weak(t) else t for t in types]))


class Keyed:
    """A translator type: equal to another of its class with the same `_key()`, hashed by
    it (types key the kernels' specializations)."""

    __slots__ = ()

    def __eq__(self, other):
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self):
        return hash(self._key())


class Array(Keyed):
    """A kernel argument array: one specialization per (dtype, ndim, C-contiguity)."""

    __slots__ = ("dtype", "ndim", "contig")

    def __init__(self, dtype, ndim, contig=True):
        self.dtype = _dt.check_dtype(dtype)
        self.ndim = int(ndim)
        self.contig = bool(contig)

    def _key(self):
        return (self.dtype, self.ndim, self.contig)

    def __repr__(self):
        return f"Array({self.dtype}, ndim={self.ndim}, contig={self.contig})"

    @property
    def cname(self):
        return f"_jit_array<{_dt.ctype(self.dtype)}, {self.ndim}>"


class Shared(Keyed):
    """A `__shared__` array (static or dynamic size), indexed as a 1-D C array."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = _dt.check_dtype(dtype)

    def _key(self):
        return ("shared", self.dtype)

    def __repr__(self):
        return f"Shared({self.dtype})"


# ---- values ---------------------------------------------------------------------------------
class Const:
    """A value known while translating: a literal, a global, a module, a function..."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    @property
    def type(self):
        v = self.value
        if isinstance(v, (bool, numpy.bool_)):
            return BOOL
        if isinstance(v, numpy.generic):
            return _dt.check_dtype(v.dtype)
        if isinstance(v, (int, float, complex)):
            return type(v)
        return None

    def __repr__(self):
        return f"Const({self.value!r})"


class Expr:
    """A value computed on the device: C expression `code` of type `type`."""

    __slots__ = ("code", "type")

    def __init__(self, code, type):
        self.code = code
        self.type = type

    def __repr__(self):
        return f"Expr({self.code!r}, {self.type})"


class Tuple:
    """A tuple of values (`x.shape`, `jit.grid(2)`, `(a, b)`), unpacked at translation."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = tuple(items)

    def __repr__(self):
        return f"Tuple({self.items!r})"


def type_of(v):
    """Scalar type of a value, or None for values that are not numbers."""
    if isinstance(v, Expr):
        return v.type if is_scalar(v.type) else None
    if isinstance(v, Const):
        return v.type
    return None


def arg_type(a, mode):
    """The translator type of one kernel argument (CuPy's rules; `mode='cuda'`, the default,
    keeps Python scalars 32-bit where they fit)."""
    from cuarray._core.ndarray import ndarray
    if isinstance(a, ndarray):
        return Array(a.dtype, a.ndim, a._c_contig)
    if isinstance(a, numpy.generic):
        return _dt.check_dtype(a.dtype)
    if isinstance(a, bool):
        return BOOL
    if mode == "cuda":
        if isinstance(a, int):
            return INT32 if -2**31 <= a < 2**31 else INT64
        if isinstance(a, float):
            return numpy.dtype(numpy.float32)
        if isinstance(a, complex):
            return numpy.dtype(numpy.complex64)
    elif isinstance(a, (int, float, complex)):
        return _STRONG[type(a)]
    if isinstance(a, numpy.ndarray):
        raise host_error("jit kernel", a)
    raise TypeError(f"cuarray.jit kernels take cuarray arrays, NumPy scalars and Python "
                    f"bool/int/float/complex, not {type(a).__name__}")


def describe(v):
    if isinstance(v, Const):
        o = v.value
        if inspect.ismodule(o):
            return f"module {o.__name__}"
        return f"{type(o).__name__} {o!r}" if not callable(o) else f"{getattr(o, '__name__', o)!r}"
    if isinstance(v, Tuple):
        return f"a tuple of {len(v.items)}"
    if isinstance(v, Expr):
        if isinstance(v.type, Array):
            return f"an array ({v.type.dtype}, {v.type.ndim}-d)"
        if isinstance(v.type, Shared):
            return f"shared memory ({v.type.dtype})"
        if v.type is None:
            return "a call that returns nothing"
        return f"a {strong(v.type)} value"
    return repr(v)


def types_text(types):
    return " and ".join(t.__name__ if is_weak(t) else str(t) for t in types)
