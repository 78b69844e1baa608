"""The methods of `ndarray` that launch kernels or call the engines: copies and casts,
indexing, operators, reductions and scans, sorting, products, host transfers, interop.

ndarray.py holds the array itself (memory, shape, strides, views) and imports none of the
engines, because the engines build arrays and so import ndarray.py. These methods sit above
both: they are written here as the body of `_Methods` and copied onto `ndarray` when
`cuarray._core` loads (its __init__ imports this module), so every import points down.
Methods whose engines are large or rarely used import them on first call (`import
cuarray` is timed): the products (`@`, `dot`: `_routines_linalg` loads cuBLAS through
nvmath, most of a second), fancy indexing, sorting, interop.
"""
import sys

from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core._lazy import lazy_module
from cuarray._core.host_policy import comparison_operand as _cmp
from cuarray._core.ndarray import _defer, ndarray

# Copies and casts, statistics, host transfers and scans load with their first call (the
# first array operations need none of them).
_copy = lazy_module(globals(), "_copy", "cuarray._core._copy")
_rs = lazy_module(globals(), "_rs", "cuarray._core._reductions_stats")   # mean, var, arg*
transfer = lazy_module(globals(), "transfer", "cuarray._core.transfer")
_s = lazy_module(globals(), "_s", "cuarray._core.scan")

_BOTH = (True, True)      # (C, F) contiguity of a view, for the 1-d indexing fast path
_NEITHER = (False, False)
_COMPARISONS = frozenset(("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"))



class _Methods:
    """Written as a class body for reading; see the module docstring."""

    # ---- attributes that need the engines ----------------------------------------------
    @property
    def imag(self):
        """The imaginary part (a view for complex arrays; a new zero array for real ones)."""
        if self.dtype.kind != "c":
            return _copy.zeros(self._shape, self.dtype)
        rd = _dt.real_dtype(self.dtype)
        return self._view(self._shape, self._strides, rd.itemsize, rd)

    @imag.setter
    def imag(self, value):
        if self.dtype.kind != "c":
            raise TypeError("array does not have imaginary part to set")
        self.imag[...] = value

    # ---- host conversion ------------------------------------------------------------------
    def get(self, stream=None, order="C", out=None, blocking=True):
        """Copy to a numpy.ndarray (cuarray version of `cupy.ndarray.get`); synchronises
        unless `blocking` is False (then pass a pinned `out` and synchronize before reading)."""
        return transfer.to_host(self, stream=stream, order=order, out=out, blocking=blocking)

    def set(self, arr, stream=None):
        """Copy a numpy.ndarray of the same shape into this array."""
        transfer.from_host_into(self, arr, stream=stream)

    # ---- copies and casts (the elementwise engine) ----------------------------------------
    def copy(self, order="C"):
        return _copy.copy(self, order)

    def astype(self, dtype, order="K", casting="unsafe", subok=None, copy=True):
        return _copy.astype(self, dtype, order, casting, copy)

    def fill(self, value):
        _copy.fill(self, value)

    # ---- indexing -------------------------------------------------------------------------
    def __getitem__(self, key):
        # a[i] and a[i:j:k] of a 1-d array (the common calls): planned here, flags known
        tk = type(key)
        if (tk is int or tk is slice) and len(self._shape) == 1:
            n = self._shape[0]
            st = self._strides[0]
            if tk is int:
                if -n <= key < n:
                    return self._view((), (), (key + n if key < 0 else key) * st, contig=_BOTH)
            else:
                start, stop, step = key.indices(n)
                m = len(range(start, stop, step))
                if m:
                    s = st * step
                    return self._view((m,), (s,), start * st,
                                      contig=_BOTH if m == 1 or s == self.dtype.itemsize else _NEITHER)
                return self._view((0,), (st,), 0, contig=_BOTH)
        elif tk is int and self._shape:
            # a[i] of an N-d array: the first axis dropped; a C-contiguous array's rows are
            # C-contiguous, and F-contiguous too when at most one axis is longer than 1
            n = self._shape[0]
            if -n <= key < n:
                rest = self._shape[1:]
                off = (key + n if key < 0 else key) * self._strides[0]
                if self._c_contig:
                    return self._view(rest, self._strides[1:], off,
                                      contig=(True, 0 in rest or _sh.one_long_axis(rest)))
                return self._view(rest, self._strides[1:], off)
        plan = _sh.plan_basic_index(self._shape, self._strides, key)
        if plan is not None:
            return self._view(plan[0], plan[1], plan[2])
        from cuarray._core import _indexing
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value):
        plan = _sh.plan_basic_index(self._shape, self._strides, key)
        if plan is None:
            from cuarray._core import _indexing
            return _indexing.setitem(self, key, value)
        view = self._view(plan[0], plan[1], plan[2]) if plan[0] != self._shape or plan[2] else self
        _copy.assign(view, value)


    # ---- arithmetic (ufuncs) --------------------------------------------------------------
    def __add__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.add(self, other)
        return NotImplemented

    def __radd__(self, other):
        return _u.add(other, self)

    def __iadd__(self, other):
        return _u.add(self, other, out=self)

    def __sub__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.subtract(self, other)
        return NotImplemented

    def __rsub__(self, other):
        return _u.subtract(other, self)

    def __isub__(self, other):
        return _u.subtract(self, other, out=self)

    def __mul__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.multiply(self, other)
        return NotImplemented

    def __rmul__(self, other):
        return _u.multiply(other, self)

    def __imul__(self, other):
        return _u.multiply(self, other, out=self)

    def __truediv__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.divide(self, other)
        return NotImplemented

    def __rtruediv__(self, other):
        return _u.divide(other, self)

    def __itruediv__(self, other):
        return _u.divide(self, other, out=self)

    def __floordiv__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.floor_divide(self, other)
        return NotImplemented

    def __rfloordiv__(self, other):
        return _u.floor_divide(other, self)

    def __ifloordiv__(self, other):
        return _u.floor_divide(self, other, out=self)

    def __mod__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.remainder(self, other)
        return NotImplemented

    def __rmod__(self, other):
        return _u.remainder(other, self)

    def __imod__(self, other):
        return _u.remainder(self, other, out=self)

    def __divmod__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.divmod(self, other)
        return NotImplemented

    def __rdivmod__(self, other):
        return _u.divmod(other, self)

    def __pow__(self, other, modulo=None):
        if modulo is not None or _defer(other):
            return NotImplemented
        return _u.power(self, other)

    def __rpow__(self, other):
        return _u.power(other, self)

    def __ipow__(self, other):
        return _u.power(self, other, out=self)

    def __matmul__(self, other):
        if _defer(other):
            return NotImplemented
        from cuarray._core import _routines_linalg as _linalg
        return _linalg.matmul(self, other)

    def __rmatmul__(self, other):
        from cuarray._core import _routines_linalg as _linalg
        return _linalg.matmul(other, self)

    def __imatmul__(self, other):
        from cuarray._core import _routines_linalg as _linalg
        return _linalg.matmul(self, other, out=self)

    def __and__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.bitwise_and(self, other)
        return NotImplemented

    def __rand__(self, other):
        return _u.bitwise_and(other, self)

    def __iand__(self, other):
        return _u.bitwise_and(self, other, out=self)

    def __or__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.bitwise_or(self, other)
        return NotImplemented

    def __ror__(self, other):
        return _u.bitwise_or(other, self)

    def __ior__(self, other):
        return _u.bitwise_or(self, other, out=self)

    def __xor__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.bitwise_xor(self, other)
        return NotImplemented

    def __rxor__(self, other):
        return _u.bitwise_xor(other, self)

    def __ixor__(self, other):
        return _u.bitwise_xor(self, other, out=self)

    def __lshift__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.left_shift(self, other)
        return NotImplemented

    def __rlshift__(self, other):
        return _u.left_shift(other, self)

    def __ilshift__(self, other):
        return _u.left_shift(self, other, out=self)

    def __rshift__(self, other):
        if type(other) is ndarray or not _defer(other):
            return _u.right_shift(self, other)
        return NotImplemented

    def __rrshift__(self, other):
        return _u.right_shift(other, self)

    def __irshift__(self, other):
        return _u.right_shift(self, other, out=self)

    def __neg__(self):
        return _u.negative(self)

    def __pos__(self):
        return _u.positive(self)

    def __invert__(self):
        return _u.invert(self)

    def __abs__(self):
        return _u.absolute(self)

    def __lt__(self, other):
        return _u.less(self, _cmp(other))

    def __le__(self, other):
        return _u.less_equal(self, _cmp(other))

    def __gt__(self, other):
        return _u.greater(self, _cmp(other))

    def __ge__(self, other):
        return _u.greater_equal(self, _cmp(other))

    def __eq__(self, other):
        try:
            return _u.equal(self, _cmp(other))
        except TypeError:
            return NotImplemented

    def __ne__(self, other):
        try:
            return _u.not_equal(self, _cmp(other))
        except TypeError:
            return NotImplemented

    __hash__ = None

    # ---- NumPy protocols ------------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NEP 13: numpy.add(gpu, gpu) runs cuarray.add on the GPU."""
        uf = _u.ALL.get(ufunc.__name__)
        if uf is None:
            if ufunc.__name__ == "matmul" and method == "__call__":
                from cuarray._core import _routines_linalg as _linalg
                return _linalg.matmul(*inputs, **kwargs)
            return NotImplemented
        if "out" in kwargs and isinstance(kwargs["out"], tuple) and len(kwargs["out"]) == 1:
            kwargs["out"] = kwargs["out"][0]
        if uf.__name__ in _COMPARISONS:
            inputs = tuple(_cmp(x) for x in inputs)
        if method == "__call__":
            return uf(*inputs, **kwargs)
        return getattr(uf, method)(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        """NEP 18: numpy.<routine>(gpu) runs cuarray's routine of the same name."""
        from cuarray._core import _dispatch
        return _dispatch.array_function(func, types, args, kwargs)

    def __array_namespace__(self, *, api_version=None):
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
            raise ValueError(f"Unrecognized array API version: {api_version!r}")
        # The public namespace is the package this module belongs to: loaded already,
        # looked up rather than imported (an import would point up the layers).
        return sys.modules["cuarray"]

    # ---- flat iteration, bytes, files, devices --------------------------------------------
    @property
    def flat(self):
        """A flat iterator over the array in C order (`cuarray.flatiter`)."""
        from cuarray._core.flatiter import flatiter
        return flatiter(self)

    @flat.setter
    def flat(self, value):
        from cuarray._core.flatiter import flatiter
        flatiter(self)[:] = value

    def byteswap(self, inplace=False):
        """The items with their bytes reversed (the dtype unchanged); in place on request."""
        from cuarray._core.byteorder import byteswap
        return byteswap(self, inplace)

    def dumps(self):
        """The pickle of the array (its values are read on the host)."""
        import pickle
        return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)

    def dump(self, file):
        """Pickles the array to `file` (a path or a binary file)."""
        import os
        import pickle
        if isinstance(file, (str, os.PathLike)):
            with open(file, "wb") as f:
                pickle.dump(self, f, protocol=pickle.HIGHEST_PROTOCOL)
        else:
            pickle.dump(self, file, protocol=pickle.HIGHEST_PROTOCOL)

    def tofile(self, fid, sep="", format="%s"):
        """Writes the values to a file as NumPy's `tofile` does (read on the host first)."""
        self.get().tofile(fid, sep, format)

    def to_device(self, device, /, *, stream=None):
        """This array on `device` (Array API): itself when it is there, else a copy."""
        from cuarray._core.device_arg import device_id
        dev = device_id(device)
        if dev is None or dev == self._device_id:
            return self
        return transfer.to_device(self, dev)

    # ---- reductions and scans -------------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return _r.sum(self, axis, dtype, out, keepdims, initial, where)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return _r.prod(self, axis, dtype, out, keepdims, initial, where)

    def max(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        return _r.amax(self, axis, out, keepdims, initial, where)

    def min(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        return _r.amin(self, axis, out, keepdims, initial, where)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return _rs.argmax(self, axis, out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return _rs.argmin(self, axis, out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
        return _rs.mean(self, axis, dtype, out, keepdims, where=where)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
            mean=None):
        return _rs.var(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
            mean=None):
        return _rs.std(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        return _r.all(self, axis, out, keepdims, where=where)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        return _r.any(self, axis, out, keepdims, where=where)

    def ptp(self, axis=None, out=None, keepdims=False):
        return _r.ptp(self, axis, out, keepdims)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _s.cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return _s.cumprod(self, axis, dtype, out)

    def conj(self):
        return _u.conjugate(self) if self.dtype.kind == "c" else self

    def conjugate(self):
        return self.conj()

    def clip(self, min=None, max=None, out=None, **kwargs):
        return _u.clip(self, min, max, out, **kwargs)

    def round(self, decimals=0, out=None):
        from cuarray._core import _routines_indexing as _idx
        from cuarray._core import _routines_math as _math
        if out is not None:
            _idx._need(out, "round out=")
        return _math.around(self, decimals, out)

    def repeat(self, repeats, axis=None):
        from cuarray._core import _take_put
        return _take_put.repeat(self, repeats, axis)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        from cuarray._core import _routines_math as _math
        return _math.trace(self, offset, axis1, axis2, dtype, out)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        """Sort in place (cuarray version of `numpy.ndarray.sort`)."""
        from cuarray._core import _routines_sorting as _sorting
        _sorting.sort_inplace(self, axis=axis, kind=kind, order=order, stable=stable)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        from cuarray._core import _routines_sorting as _sorting
        return _sorting.argsort(self, axis=axis, kind=kind, order=order, stable=stable)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        from cuarray._core import _routines_sorting as _sorting
        _sorting.partition_inplace(self, kth, axis=axis, kind=kind, order=order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        from cuarray._core import _routines_sorting as _sorting
        return _sorting.argpartition(self, kth, axis=axis, kind=kind, order=order)

    def searchsorted(self, v, side="left", sorter=None):
        from cuarray._core import _routines_searching as _searching
        return _searching.searchsorted(self, v, side, sorter)

    def take(self, indices, axis=None, out=None, mode="raise"):
        from cuarray._core import _routines_indexing as _idx
        return _idx.take(self, indices, axis, out, mode)

    def put(self, indices, values, mode="raise"):
        from cuarray._core import _routines_indexing as _idx
        return _idx.put(self, indices, values, mode)

    def nonzero(self):
        from cuarray._core import _routines_indexing as _idx
        return _idx.nonzero(self)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        from cuarray._core import _routines_indexing as _idx
        return _idx.diagonal(self, offset, axis1, axis2)

    def compress(self, condition, axis=None, out=None):
        from cuarray._core import _routines_indexing as _idx
        return _idx.compress(condition, self, axis, out)

    def choose(self, choices, out=None, mode="raise"):
        from cuarray._core import _routines_indexing as _idx
        return _idx.choose(self, choices, out, mode)

    def dot(self, b, out=None):
        from cuarray._core import _routines_linalg as _linalg
        return _linalg.dot(self, b, out=out)

    # ---- interop --------------------------------------------------------------------------
    @property
    def __cuda_array_interface__(self):
        from cuarray._core import interop
        return interop.cuda_array_interface(self)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        from cuarray._core import interop
        return interop.to_dlpack(self, stream=stream, max_version=max_version,
                                 dl_device=dl_device, copy=copy)

    def toDlpack(self):
        """A legacy "dltensor" DLPack capsule (CuPy's `ndarray.toDlpack`)."""
        from cuarray._core import interop
        return interop.to_dlpack(self)

    def __dlpack_device__(self):
        return (2, self._device_id)  # kDLCUDA

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return transfer.asarray, (self.get(),)


_NOT_COPIED = frozenset({"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__"})
for _name, _value in list(vars(_Methods).items()):
    if _name not in _NOT_COPIED:
        for _f in (_value.fget, _value.fset) if isinstance(_value, property) else (_value,):
            if hasattr(_f, "__qualname__"):
                _f.__qualname__ = "ndarray." + _f.__name__  # help() and tracebacks name ndarray
        setattr(ndarray, _name, _value)
del _name, _value, _f
