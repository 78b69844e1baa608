"""Copies, casts, fill and assignment: thin users of the elementwise engine."""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._alloc import zeros  # noqa: F401  (here for the engines that use it)
from cuarray._core._lazy import lazy_module
from cuarray._core.dtypes import to_scalar
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._runtime import driver as _driver
from cuarray._runtime.device import Device, ensure_context, get_device_id
from cuarray._runtime import stream as _stream
from cuarray._runtime.memory_blocks import memset_words

# Datetime casts and the tiled transpose copy load with their first use.
_datetimes = lazy_module(globals(), "_datetimes", "cuarray._core.datetimes")
_transpose = lazy_module(globals(), "_transpose", "cuarray._core._transpose")

_copy_ops = {}
_fill_ops = {}
_datetime_casts = {}
_casts = {}   # (source dtype, dtype argument, casting) -> target dtype, see _cast_target


def _same_layout(a, b):
    """Both C-contiguous or both F-contiguous: the bytes copy one to one."""
    return (a._c_contig and b._c_contig) or (a._f_contig and b._f_contig)


def memcpy(dst_ptr, src_ptr, nbytes):
    """Same-layout copies go to the driver's memcpy: on an H100 it matched the copy kernel
    on 1 GiB, was 3% faster on 64 MiB pieces (concatenate) and cost 15 µs per small copy
    from Python where the kernel launch cost 24 µs."""
    if nbytes:
        ensure_context()
        _driver.check(_driver._drv().cuMemcpyAsync(dst_ptr, src_ptr, nbytes, _stream.current_stream_ptr()))


def into_out(res, out, name):
    """NumPy's `out=` for a routine that computed `res`: `res` itself when `out` is None,
    else `res` cast into `out`, which must be a cuarray array of res's shape."""
    if out is None:
        return res
    if not isinstance(out, ndarray):
        raise TypeError(f"cuarray.{name}: out must be a cuarray.ndarray, got "
                        f"{type(out).__name__}")
    if out._shape != res._shape:
        raise ValueError(f"output array does not match result of {name}: expected shape "
                         f"{res._shape}, got {out._shape}")
    copy_into(out, res)
    return out


def _copy_op(dtype, src=None):
    """dst = src, converting from the source's storage dtype `src` to `dtype`."""
    if dtype.char in "MmV" or (src is not None and src.char in "MmV"):
        return _special_copy(dtype, src if src is not None else dtype)
    op = _copy_ops.get(dtype.char)
    if op is None:
        op = _copy_ops[dtype.char] = Op(
            f"cuarray_copy_{dtype.char}", [Param("x", "in", dtype), Param("y", "out", dtype)], "y = x;")
    return op


class _StructCopy:
    """The copy of structured or void items: their bytes (`_copy_structs`)."""

    @staticmethod
    def launch(args):
        src, dst = args
        _copy_structs(dst, src)


def _special_copy(dtype, src):
    """The copy op of a cast involving datetime64/timedelta64 units or structured items."""
    if dtype.kind == "V" or src.kind == "V":
        if dtype != src:
            raise TypeError(f"cuarray copies structured data only to the same dtype; cannot "
                            f"cast {src!r} to {dtype!r}")
        return _StructCopy
    key = (src.str, dtype.str)
    op = _datetime_casts.get(key)
    if op is None:
        body = _datetimes.cast_body(src, dtype) if src != dtype else "y = x;"
        op = _datetime_casts[key] = Op(
            f"cuarray_cast_{src.char}_{dtype.char}", [Param("x", "in", src), Param("y", "out", dtype)],
            body, preamble=_datetimes.PREAMBLE)
    return op


def _fill_op(dtype):
    op = _fill_ops.get(dtype.char)
    if op is None:
        op = _fill_ops[dtype.char] = Op(
            f"cuarray_fill_{dtype.char}", [Param("v", "scalar", dtype), Param("y", "out", dtype)], "y = v;")
    return op


def _result_order(a, order):
    if isinstance(order, str):
        order = order.upper()
    if order == "K" or order == "A" or order is None:
        return "F" if a._f_contig and not a._c_contig else "C"
    if order not in ("C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    return order


def _misaligned(a):
    """Items off their alignment: a field view of a packed structured array. Kernels would
    fault on them; bytes copies do not."""
    b = a.base
    if b is None or b.dtype.kind != "V":
        return False
    al = a.dtype.alignment
    return al > 1 and bool(a._ptr % al or any(s % al for s in a._strides))


def _special_into(dst, src):
    """copy_into for datetime units and packed fields; False when the plain path applies."""
    if src.dtype != dst.dtype and (src.dtype.char in "MmV" or dst.dtype.char in "MmV"):
        _copy_op(dst.dtype, src.dtype).launch((src, dst))   # units converted; structs raise
        return True
    if _misaligned(dst):        # a packed field: computed aligned, then moved as bytes
        tmp = ndarray._alloc(dst._shape, dst.dtype)
        copy_into(tmp, src)
        _copy_structs(_bytes_item(dst), _bytes_item(tmp))
        return True
    if _misaligned(src):
        if src.dtype == dst.dtype and src._shape == dst._shape:
            _copy_structs(_bytes_item(dst), _bytes_item(src))
        else:
            copy_into(dst, copy(src))
        return True
    return False


def _bytes_item(a):
    """`a` as items of void type of its itemsize (what `_copy_structs` moves as bytes)."""
    return a._view(a._shape, a._strides, 0, numpy.dtype(f"V{a.dtype.itemsize}"))


def copy_into(dst, src):
    """dst[...] = src for device arrays (src broadcast to dst's shape, cast to dst's dtype)."""
    if dst._device_id != get_device_id():   # writing another device's array: copy there
        with Device(dst._device_id):
            return copy_into(dst, src)
    if src._device_id != dst._device_id:
        from cuarray._core import transfer
        src = transfer.to_device(src, dst._device_id)
    elif src._mem is dst._mem and src is not dst and _overlap(src, dst):
        src = copy(src)  # NumPy semantics for overlapping views such as a[1:] = a[:-1]
    sd, dd = src.dtype, dst.dtype
    # (two attribute reads: only datetimes and views into structured arrays need _special_into)
    if (sd.char in "MmV" or dd.char in "MmV" or (src.base is not None and src.base.dtype.kind == "V")
            or (dst.base is not None and dst.base.dtype.kind == "V")) and _special_into(dst, src):
        return
    if src.dtype == dst.dtype and src._shape == dst._shape:
        if _same_layout(src, dst):
            memcpy(dst._ptr, src._ptr, src.nbytes)
            return
        if dst.dtype.fields is None and _transpose.transpose_copy(src, dst):
            return
    if dst.dtype.fields is not None or src.dtype.fields is not None:
        return _copy_structs(dst, src)
    _copy_op(dst.dtype).launch((src, dst))


def copy(a, order="C"):
    if a.base is not None and a.base.dtype.kind == "V" and _misaligned(a):
        out = ndarray._alloc(a._shape, a.dtype, _result_order(a, order))
        _copy_structs(_bytes_item(out), _bytes_item(a))
        return out
    out = ndarray._alloc(a._shape, a.dtype, _result_order(a, order))
    if a.size:
        if _same_layout(a, out):
            memcpy(out._ptr, a._ptr, a.nbytes)
        elif a.dtype.fields is not None:
            _copy_structs(out, a)
        elif not _transpose.transpose_copy(a, out):
            _copy_op(a.dtype).launch((a, out))
    return out


_BYTE = numpy.dtype(numpy.uint8)


def _copy_structs(dst, src):
    """dst[...] = src for arrays of one structured dtype, in any layout: the copy kernel
    moves each element as its bytes (a view with one more axis, over the element's bytes)."""
    if src.dtype != dst.dtype:
        raise TypeError(f"cuarray copies structured arrays only between arrays of one dtype; "
                        f"got {src.dtype} into {dst.dtype}")
    k = dst.dtype.itemsize
    _copy_op(_BYTE).launch((src._view(src._shape + (k,), src._strides + (1,), 0, _BYTE),
                            dst._view(dst._shape + (k,), dst._strides + (1,), 0, _BYTE)))


def _cast_target(src, dtype, casting):
    """`check_dtype(dtype)`, after NumPy's check that `src` casts to it under `casting`.

    Remembered for dtype arguments that are dtypes, types or strings (hashable, and
    compared safely): numpy.can_cast alone costs 0.4 µs of a 6 µs astype.
    """
    key = (src, dtype, casting)
    known = isinstance(dtype, (numpy.dtype, type, str)) and type(casting) is str
    if known:
        dt = _casts.get(key)
        if dt is not None:
            return dt
    dt = _dt.check_dtype(dtype)
    if not numpy.can_cast(src, dt, casting):
        raise TypeError(f"Cannot cast array data from {src!r} to {dt!r} according to the "
                        f"rule '{casting}'")
    if known:
        if len(_casts) >= 1024:
            _casts.clear()
        _casts[key] = dt
    return dt


def astype(a, dtype, order="K", casting="unsafe", copy=True):
    dtype = _cast_target(a.dtype, dtype, casting)
    if not (a._c_contig or a._f_contig) and _misaligned(a):
        a = globals()["copy"](a)
    order = _result_order(a, order)
    if not copy and dtype == a.dtype and (a._c_contig if order == "C" else a._f_contig):
        return a
    out = ndarray._alloc(a._shape, dtype, order)
    if a.size and not (dtype == a.dtype and _transpose.transpose_copy(a, out)):
        _copy_op(dtype, a.dtype).launch((a, out))
    return out


def fill(a, value):
    if a.size == 0:
        return
    if isinstance(value, ndarray):
        copy_into(a, value)
        return
    if a.dtype.kind == "V" or _misaligned(a):
        if a.dtype.kind == "V":
            from cuarray._core import structured
            return structured.fill(a, value)
        tmp = ndarray._alloc(a._shape, a.dtype)
        fill(tmp, value)
        return copy_into(a, tmp)
    v = to_scalar(value, a.dtype)
    it = a.dtype.itemsize
    if it <= 4 and (a._c_contig or a._f_contig) and not a._ptr % it and a.dtype.fields is None:
        # Elements of 1, 2 or 4 bytes filling one span: the driver's memset of their bit
        # pattern, no kernel (ones(1000) float32: 1 µs less host time).
        memset_words(a._ptr, int.from_bytes(v.tobytes(), "little"), it, a.size)
        return
    _fill_op(a.dtype).launch((v, a))


def assign(view, value):
    """view[...] = value, where value is a scalar, a device array or host data."""
    if isinstance(value, ndarray):
        extra = value.ndim - view.ndim
        if extra > 0 and view.ndim and all(n == 1 for n in value._shape[:extra]):
            # NumPy drops a value's leading length-1 dims: a[:] = b[None] of a 1-d a (a
            # 0-d view is mostly one element, a[i] = b, where NumPy refuses b of ndim > 1)
            value = value._view(value._shape[extra:], value._strides[extra:])
        if value._shape != view._shape:
            from cuarray._core.shapes import broadcast_shapes
            if broadcast_shapes(view._shape, value._shape) != view._shape:
                raise ValueError(f"could not broadcast input array from shape {value._shape} "
                                 f"into shape {view._shape}")
        if view.size:
            copy_into(view, value)
        return
    if isinstance(value, (bool, int, float, complex, numpy.generic)):
        fill(view, value)
        return
    # Host data assigned into device memory is an explicit transfer.
    from cuarray._core import transfer
    assign(view, transfer.asarray(value, dtype=view.dtype))


def byte_extent(a):
    """(first, one past the last) device address `a` can reach; (0, 0) for an empty array,
    which overlaps nothing."""
    lo = hi = a._ptr
    for n, st in zip(a._shape, a._strides):
        if n > 1:
            if st > 0:
                hi += (n - 1) * st
            else:
                lo += (n - 1) * st
        elif n == 0:
            return 0, 0
    return lo, hi + a.dtype.itemsize


def _overlap(a, b):
    (alo, ahi), (blo, bhi) = byte_extent(a), byte_extent(b)
    return alo < bhi and blo < ahi and not (a._ptr == b._ptr and a._strides == b._strides)


def copyto(dst, src, casting="same_kind", where=True):
    """cuarray version of `numpy.copyto`: src broadcast into dst under NumPy's casting rule."""
    if not isinstance(dst, ndarray):
        raise TypeError(f"copyto() argument 1 must be a cuarray.ndarray, not {type(dst).__name__}")
    if isinstance(src, ndarray):
        sdt = src.dtype
    elif isinstance(src, (bool, int, float, complex)):
        sdt = None  # a weak Python scalar: NumPy checks only that the value fits
    elif isinstance(src, numpy.generic):
        sdt = src.dtype
    elif isinstance(src, numpy.ndarray):
        # CuPy's rule (host_policy): a size-1 NumPy array is its scalar, larger ones refused.
        if src.size != 1:
            raise ValueError("non-scalar numpy.ndarray cannot be used for copyto")
        if not numpy.can_cast(src, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from {src.dtype!r} to {dst.dtype!r} "
                            f"according to the rule '{casting}'")
        src = src.reshape(())[()]
        sdt = None
    else:
        from cuarray._core.host_policy import device_array
        src = device_array(src, "copyto")
        sdt = src.dtype
    if sdt is not None and not numpy.can_cast(sdt, dst.dtype, casting):
        raise TypeError(f"Cannot cast scalar from {sdt!r} to {dst.dtype!r} according to the rule "
                        f"'{casting}'")
    if where is True:
        assign(dst, src)
        return
    from cuarray._core import _ops
    if not isinstance(where, ndarray):
        where = numpy.bool_(where)
        if where:
            assign(dst, src)
        return
    assign(dst, _ops.where(where, src, dst))
