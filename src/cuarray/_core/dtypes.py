"""The dtypes cuarray supports, their C names in generated code, kind groups, and scalars
converted to a dtype by NumPy's rules."""
import numpy

_d = numpy.dtype

BOOL = (_d(numpy.bool_),)
SIGNED = (_d(numpy.int8), _d(numpy.int16), _d(numpy.int32), _d(numpy.int64))
UNSIGNED = (_d(numpy.uint8), _d(numpy.uint16), _d(numpy.uint32), _d(numpy.uint64))
FLOATING = (_d(numpy.float16), _d(numpy.float32), _d(numpy.float64))
COMPLEX = (_d(numpy.complex64), _d(numpy.complex128))
INTEGER = SIGNED + UNSIGNED
INEXACT = FLOATING + COMPLEX
NUMERIC = INTEGER + INEXACT
ALL = SUPPORTED = BOOL + NUMERIC

# Keyed by (kind, itemsize): 'l' and 'q' are distinct dtype objects for the same int64.
_CTYPE = {
    ("b", 1): "bool",
    ("i", 1): "signed char", ("i", 2): "short", ("i", 4): "int", ("i", 8): "long long",
    ("u", 1): "unsigned char", ("u", 2): "unsigned short", ("u", 4): "unsigned int",
    ("u", 8): "unsigned long long",
    ("f", 2): "half", ("f", 4): "float", ("f", 8): "double",
    ("c", 8): "complex<float>", ("c", 16): "complex<double>",
}
_NON_NUMERIC = {"U": "str", "S": "bytes", "O": "object", "V": "void"}


_checked = {}   # what check_dtype accepted, by its argument: every creation call asks


def check_dtype(dtype):
    """`numpy.dtype(dtype)` if cuarray supports it, else TypeError.

    Byte order is normalised to native: device memory has one byte order.
    """
    try:
        return _checked[dtype]
    except (KeyError, TypeError):   # TypeError: an unhashable spec such as a field list
        pass
    dt = _check_dtype(dtype)
    if len(_checked) < 256:
        try:
            _checked[dtype] = dt
        except TypeError:
            pass
    return dt


def _check_dtype(dtype):
    dt = dtype if isinstance(dtype, numpy.dtype) else numpy.dtype(dtype)
    if (dt.kind, dt.itemsize) in _CTYPE and dt.fields is None:
        return dt if dt.isnative else dt.newbyteorder("=")
    if dt.kind in "Mm":     # int64 counts of their unit in kernels; NaT is INT64_MIN
        return dt if dt.isnative else dt.newbyteorder("=")
    if dt.fields is not None and dt.subdtype is None:
        # Structured dtypes are bytes on the device, as in CuPy 14: copies, views, field
        # access and RawKernel pointers work on them, kernels that compute do not.
        _numeric_fields(dt, dt)
        return dt if dt.isnative else dt.newbyteorder("=")
    if dt.kind in _NON_NUMERIC or dt.subdtype is not None:
        raise TypeError("cuarray supports bool, integer, floating, complex, datetime64, "
                        f"timedelta64 and structured dtypes; got {dt!r}")
    # float128 / complex256: numeric, but the GPU has no long double.
    raise TypeError(f"cuarray does not support {dt!r}: GPUs have no long double; use "
                    f"{'complex128' if dt.kind == 'c' else 'float64'}")


def check_storage_dtype(dtype):
    """`check_dtype`, and also structured dtypes whose fields are numeric (CUDA vector types
    such as float4, C structs, nested or with sub-array fields), native byte order.

    Arrays of them can be made, copied to and from the host, viewed, sliced and passed to
    RawKernels as pointers, as CuPy's custom-struct kernels use them; no cuarray routine
    computes on their values.
    """
    try:
        return check_dtype(dtype)
    except TypeError:
        dt = dtype if isinstance(dtype, numpy.dtype) else numpy.dtype(dtype)
        if dt.fields is None:
            raise
    _check_fields(dt, dt)
    return dt if dt.isnative else dt.newbyteorder("=")


def _check_fields(dt, whole):
    for name, field in dt.fields.items():
        base = field[0].base   # the element type of a sub-array field such as (float32, (5, 5))
        if base.fields is not None:
            _check_fields(base, whole)
        elif (base.kind, base.itemsize) not in _CTYPE:
            raise TypeError(f"cuarray supports structured dtypes of numeric fields only; field "
                            f"{name!r} of {whole!r} is {base!r}")


def ctype(dtype):
    """C type name of `dtype` in cuarray's generated code (see include/cuarray/core.cuh)."""
    dt = dtype if isinstance(dtype, numpy.dtype) else numpy.dtype(dtype)
    try:
        return _CTYPE[dt.kind, dt.itemsize]
    except KeyError:
        if dt.kind in "Mm":
            return "long long"
        check_dtype(dt)
        raise


def is_structured(dtype):
    """A structured or void dtype: bytes that only copies, views and field access handle."""
    return dtype.kind == "V"


def is_complex(dtype):
    return numpy.dtype(dtype).kind == "c"


def real_dtype(dtype):
    """float32 for complex64, float64 for complex128, the dtype itself otherwise."""
    dt = numpy.dtype(dtype)
    return numpy.dtype(f"f{dt.itemsize // 2}") if dt.kind == "c" else dt


def _numeric_fields(dt, whole):
    """Structured dtypes of numeric fields only (nested, or sub-arrays of them): CuPy also
    carries string and unstructured void items, which cuarray refuses."""
    for name, field in dt.fields.items():
        base = field[0].base
        if base.fields is not None:
            _numeric_fields(base, whole)
        elif (base.kind, base.itemsize) not in _CTYPE:
            raise TypeError(f"cuarray supports structured dtypes of numeric fields only; field "
                            f"{name!r} of {whole!r} is {base!r}")


def to_scalar(value, dtype):
    """A Python/NumPy scalar as a NumPy scalar of `dtype` (NumPy's conversion rules)."""
    if dtype.kind in "Mm":
        from cuarray._core import datetimes
        return datetimes.scalar(value, dtype)
    if isinstance(value, numpy.generic) and value.dtype == dtype:
        return value
    if dtype.kind in "iu" and type(value) is float:
        # NumPy: a Python float goes through int() and must fit (NaN: ValueError)
        return to_scalar(int(value), dtype)
    if dtype.kind in "iu" and type(value) is int:
        info = numpy.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise OverflowError(f"Python integer {value} out of bounds for {dtype}")
        return dtype.type(value)
    if dtype.kind in "biu" and isinstance(value, (float, numpy.floating, complex, numpy.complexfloating)):
        return numpy.array(value).astype(dtype)[()]
    if dtype.kind != "c" and isinstance(value, (complex, numpy.complexfloating)):
        return numpy.array(value).real.astype(dtype)[()]
    return dtype.type(value)
