"""cuarray.ndarray: an N-d array in device memory (cuarray version of `cupy.ndarray`)."""
import builtins
import operator
from types import GenericAlias as _GenericAlias

from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._runtime import memory as _memory
from cuarray._runtime.memory import alloc_mem as _alloc_mem


class ndarray:
    """An N-dimensional array on a CUDA device (cuarray version of `cupy.ndarray`).

    Arithmetic runs on the device of the array; reading values on the host
    (`get()`, `item()`, printing) synchronises.
    """

    __slots__ = ("_shape", "_strides", "dtype", "_mem", "_ptr", "size", "_c_contig",
                 "_f_contig", "base", "_device_id", "__weakref__")
    __array_priority__ = 100.0
    # ndarray[Any, numpy.dtype[T]] in annotations (cuarray.typing.NDArray), as NumPy's.
    __class_getitem__ = classmethod(lambda cls, item: _GenericAlias(cls, item))

    def __init__(self, shape, dtype=float, memptr=None, offset=0, strides=None, order="C"):
        shape = _sh.normalize_shape(shape)
        dtype = _dt.check_dtype(dtype)
        order = order.upper() if isinstance(order, str) else order
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', got {order!r}")
        size = _sh.prod(shape)
        if strides is None:
            strides = _sh.contiguous_strides(shape, dtype.itemsize, order)
        else:
            strides = tuple(operator.index(s) for s in strides)
            if len(strides) != len(shape):
                raise ValueError("strides, if given, must be the same length as shape")
        if memptr is None:
            if offset:
                raise ValueError("offset needs memptr")
            memptr = _memory.alloc(size * dtype.itemsize)
            self.base = None
        else:
            self.base = None
        self._shape = shape
        self._strides = strides
        self.dtype = dtype
        self._mem = memptr.mem
        self._ptr = memptr.ptr + offset
        self._device_id = memptr.device_id
        self.size = size
        self._set_flags()

    def _set_flags(self):
        it = self.dtype.itemsize
        self._c_contig = _sh.is_c_contiguous(self._shape, self._strides, it)
        self._f_contig = _sh.is_f_contiguous(self._shape, self._strides, it)

    # ---- construction helpers (internal, fast) --------------------------------------------
    @classmethod
    def _alloc(cls, shape, dtype, order="C"):
        """A new array; shape a tuple of ints, dtype a numpy.dtype (both already valid)."""
        a = object.__new__(cls)
        it = dtype.itemsize
        n = 1
        for s in shape:
            n *= s
        mem = _alloc_mem(n * it)
        a._shape = shape
        a.dtype = dtype
        a._mem = mem
        a._ptr = mem.ptr
        a._device_id = mem.device_id
        a.size = n
        a.base = None
        nd = len(shape)
        if nd <= 1:
            a._strides = (it,) if nd else ()
            a._c_contig = a._f_contig = True
        elif order == "F":
            a._strides = _sh.contiguous_strides(shape, it, "F")
            a._c_contig = n == 0 or _sh.is_c_contiguous(shape, a._strides, it)
            a._f_contig = True
        else:
            a._strides = _sh.contiguous_strides(shape, it, "C")
            a._c_contig = True
            a._f_contig = n == 0 or _sh.is_f_contiguous(shape, a._strides, it)
        return a

    def _view(self, shape, strides, offset=0, dtype=None, contig=None):
        """A view sharing this array's memory; offset in bytes. `contig`: the view's (C, F)
        contiguity when the caller knows it (working it out is two thirds of a view's cost)."""
        v = object.__new__(type(self))
        v._shape = shape
        v._strides = strides
        v.dtype = self.dtype if dtype is None else dtype
        v._mem = self._mem
        v._ptr = self._ptr + offset
        v._device_id = self._device_id
        v.size = _sh.prod(shape)
        v.base = self if self.base is None else self.base
        if contig is None:
            v._set_flags()
        else:
            v._c_contig, v._f_contig = contig
        return v

    def _permute(self, axes):
        """A view with this array's axes in the order `axes` (a permutation already checked)."""
        shape, strides = self._shape, self._strides
        return self._view(tuple([shape[a] for a in axes]), tuple([strides[a] for a in axes]))

    # ---- attributes -----------------------------------------------------------------------
    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        v = self._reshape_view(_sh.intp_tuple(new_shape), "C")
        if v is None:
            raise AttributeError("Incompatible shape for in-place modification. Use `.reshape()` "
                                 "to make a copy with the desired shape.")
        self._shape, self._strides = v._shape, v._strides
        self._c_contig, self._f_contig = v._c_contig, v._f_contig

    @property
    def strides(self):
        return self._strides

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def data(self):
        return _memory.MemoryPointer(self._mem, self._ptr - self._mem.ptr)

    @property
    def device(self):
        from cuarray._runtime.device import Device
        return Device(self._device_id)

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
        from cuarray._routines.array_api import to_device
        return to_device(self, device, stream=stream)

    @property
    def flags(self):
        return Flags(self._c_contig, self._f_contig, self.base is None)

    @property
    def T(self):
        # Reversing the axes swaps C and F contiguity: the flags need no working out.
        return self._view(self._shape[::-1], self._strides[::-1],
                          contig=(self._f_contig, self._c_contig))

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return self.swapaxes(-1, -2)

    @property
    def real(self):
        if self.dtype.kind != "c":
            return self
        rd = _dt.real_dtype(self.dtype)
        return self._view(self._shape, self._strides, 0, rd)

    @real.setter
    def real(self, value):
        self.real[...] = value

    @property
    def imag(self):
        if self.dtype.kind != "c":
            from cuarray._routines.creation import zeros
            return zeros(self._shape, self.dtype)
        rd = _dt.real_dtype(self.dtype)
        return self._view(self._shape, self._strides, rd.itemsize, rd)

    @imag.setter
    def imag(self, value):
        if self.dtype.kind != "c":
            raise TypeError("array does not have imaginary part to set")
        self.imag[...] = value

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._shape[0]))

    # ---- host conversion ------------------------------------------------------------------
    def get(self, stream=None, order="C", out=None, blocking=True):
        """Copy to a numpy.ndarray (cuarray version of `cupy.ndarray.get`); synchronises."""
        from cuarray._core import transfer
        return transfer.to_host(self, stream=stream, order=order, out=out)

    def set(self, arr, stream=None):
        """Copy a numpy.ndarray of the same shape into this array."""
        from cuarray._core import transfer
        transfer.from_host_into(self, arr, stream=stream)

    def item(self, *args):
        if args:
            return self.get().item(*args)
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().item()

    def tolist(self):
        return self.get().tolist()

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed. Please use `.get()` or "
            "`cuarray.asnumpy(x)` to construct a NumPy array explicitly.")

    def _scalar(self, kind):
        if self.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        return kind(self.get().reshape(()))

    def __bool__(self):
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()" if self.size else
                             "The truth value of an empty array is ambiguous. Use a.size > 0")
        return bool(self.get().reshape(()))

    def __int__(self):
        return self._scalar(int)

    def __float__(self):
        return self._scalar(float)

    def __complex__(self):
        return self._scalar(complex)

    def __index__(self):
        if self.dtype.kind not in "biu" or self.ndim:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self.get())

    def __repr__(self):
        return repr(self.get())

    def __str__(self):
        return str(self.get())

    def __format__(self, spec):
        return format(self.get(), spec)

    # ---- shape manipulation ---------------------------------------------------------------
    def reshape(self, *shape, order="C", copy=None):
        """A view with the new shape when strides allow, else a copy (NumPy's rules)."""
        dims = shape[0] if len(shape) == 1 else shape
        if type(dims) is int:
            dims = (dims,)
        # Fast path (1.1 µs; the general path takes 1.6): a non-empty C-contiguous array read
        # in C order is a view with C strides for any shape of its size, so only the shape
        # needs checking. NumPy keeps the old strides for an unchanged shape: general path.
        if order == "C" and copy is None and self._c_contig and self.size and shape and \
                type(dims) is tuple:
            new = _sh.c_reshape(self.size, dims, self.dtype.itemsize)
            if new is not None and dims != self._shape:
                return self._view(new[0], new[1], contig=(True, _sh.one_long_axis(new[0])))
        return self._reshape(shape, order, copy)

    def _reshape(self, args, order, copy):
        """reshape's general path, its checks in NumPy's order."""
        order = _sh.order_code(order)
        if isinstance(copy, str):
            raise ValueError("strings are not allowed for 'copy' keyword. Use True/False/None "
                             "instead.")
        if not args:
            raise TypeError("reshape() takes exactly 1 argument (0 given)")
        dims = args[0] if len(args) == 1 else args
        if dims is None:  # NumPy: a view of the array as it is, whatever `copy` says
            return self._view(self._shape, self._strides, contig=(self._c_contig, self._f_contig))
        dims = _sh.intp_tuple(dims)
        if order == "K":
            raise ValueError("order 'K' is not permitted for reshaping")
        if order == "A":
            order = "F" if self._f_contig and not self._c_contig else "C"
        if copy:
            return self.copy(order)._reshape_view(dims, order)
        v = self._reshape_view(dims, order)
        if v is None:
            if copy is not None:  # a false `copy` forbids copying
                raise ValueError("Unable to avoid creating a copy while reshaping.")
            v = self.copy(order)._reshape_view(dims, order)
        return v

    def _reshape_view(self, shape, order):
        """This array as `shape` (ints; a negative one is the unknown) read in `order`, as a
        view, or None when its strides do not allow one (NumPy's rules)."""
        if shape == self._shape:  # NumPy keeps the strides, unit axes' included
            return self._view(shape, self._strides, contig=(self._c_contig, self._f_contig))
        shape = _sh.infer_reshape(self.size, shape)
        it = self.dtype.itemsize
        if self._c_contig if order == "C" else self._f_contig:
            other = self.size == 0 or _sh.one_long_axis(shape)  # contiguous the other way too
            return self._view(shape, _sh.contiguous_strides(shape, it, order),
                              contig=(True, other) if order == "C" else (other, True))
        strides = _sh.reshape_strides(self._shape, self._strides, it, shape, order)
        return None if strides is None else self._view(shape, strides)

    def ravel(self, order="C"):
        """A 1-D view when the layout allows, else a new 1-D array (NumPy's rules)."""
        src, order = self._in_flat_order(order)
        if src._c_contig if order == "C" else src._f_contig:
            return src._reshape_view((-1,), order)
        return src._flat_copy(order)

    def flatten(self, order="C"):
        """A new 1-D array of the elements read in `order`."""
        src, order = self._in_flat_order(order)
        return src._flat_copy(order)

    def _in_flat_order(self, order):
        """ravel's and flatten's `order` as (array, 'C' or 'F') to read: 'A' is F for Fortran
        arrays, 'K' reads memory order (a C- or F-contiguous array in its order, any other one
        as a view with its axes in NumPy's K order, read in C order)."""
        order = _sh.order_code(order)
        if order == "A":
            order = "F" if self._f_contig and not self._c_contig else "C"
        elif order == "K":
            if not (self._c_contig or self._f_contig):
                return self._permute(_sh.keep_order(self._shape, self._strides)), "C"
            order = "C" if self._c_contig else "F"
        return self, order

    def _flat_copy(self, order):
        flat = self.copy(order)
        # A new array nothing else holds: flatten it in place, so that it owns its memory
        # (base None) as NumPy's flattened copies do.
        flat._shape, flat._strides = (flat.size,), (flat.dtype.itemsize,)
        flat._c_contig = flat._f_contig = True
        return flat

    def transpose(self, *axes):
        if not axes or (len(axes) == 1 and axes[0] is None):
            return self.T
        axes = _sh.intp_tuple(axes[0] if len(axes) == 1 else axes)
        return self._permute(_sh.check_permutation(axes, len(self._shape)))

    def swapaxes(self, axis1, axis2):
        nd = len(self._shape)
        a1, a2 = _sh.normalize_axis(axis1, nd, "axis1"), _sh.normalize_axis(axis2, nd, "axis2")
        axes = list(range(nd))
        axes[a1], axes[a2] = a2, a1
        return self._permute(axes)

    def squeeze(self, axis=None):
        shape, strides = self._shape, self._strides
        if axis is None:
            keep = [d for d, n in enumerate(shape) if n != 1]
        else:
            # NumPy's method takes an int or a tuple (a list is refused, as by NumPy)
            axes = _sh.normalize_axes(axis if type(axis) is tuple else operator.index(axis),
                                      len(shape))
            for a in axes:
                if shape[a] != 1:
                    raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
            keep = [d for d in range(len(shape)) if d not in axes]
        if len(keep) == len(shape):
            return self  # as NumPy: nothing to squeeze gives the array itself, not a view
        # Unit axes never count for contiguity, so dropping them keeps the flags.
        return self._view(tuple([shape[d] for d in keep]), tuple([strides[d] for d in keep]),
                          contig=(self._c_contig, self._f_contig))

    def view(self, dtype=None, type=None):
        same = (self._c_contig, self._f_contig)
        if dtype is None:
            return self._view(self._shape, self._strides, contig=same)
        if isinstance(dtype, builtins.type) and issubclass(dtype, ndarray):
            return self._view(self._shape, self._strides, contig=same)
        dtype = _dt.check_dtype(dtype)
        old, new = self.dtype.itemsize, dtype.itemsize
        if old == new:
            return self._view(self._shape, self._strides, 0, dtype, contig=same)
        if self.ndim == 0:
            raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
        if self._strides[-1] != old and self._shape[-1] != 1:
            raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
        last = self._shape[-1] * old
        if last % new:
            raise ValueError("When changing to a smaller dtype, its size must be a divisor of the size "
                             "of original dtype" if new < old else
                             "When changing to a larger dtype, its size must be a divisor of the total "
                             "size in bytes of the last axis of the array.")
        shape = self._shape[:-1] + (last // new,)
        strides = self._strides[:-1] + (new,)
        return self._view(shape, strides, 0, dtype)

    # ---- copies and casts (the elementwise engine) ----------------------------------------
    def copy(self, order="C"):
        from cuarray._core import _copy
        return _copy.copy(self, order)

    def astype(self, dtype, order="K", casting="unsafe", subok=None, copy=True):
        from cuarray._core import _copy
        return _copy.astype(self, dtype, order, casting, copy)

    def fill(self, value):
        from cuarray._core import _copy
        _copy.fill(self, value)

    # ---- indexing -------------------------------------------------------------------------
    def __getitem__(self, key):
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
        from cuarray._core import _copy
        _copy.assign(view, value)


    # ---- arithmetic (ufuncs) --------------------------------------------------------------
    def __add__(self, other):
        return NotImplemented if _defer(other) else _u.add(self, other)

    def __radd__(self, other):
        return _u.add(other, self)

    def __iadd__(self, other):
        return _u.add(self, other, out=self)

    def __sub__(self, other):
        return NotImplemented if _defer(other) else _u.subtract(self, other)

    def __rsub__(self, other):
        return _u.subtract(other, self)

    def __isub__(self, other):
        return _u.subtract(self, other, out=self)

    def __mul__(self, other):
        return NotImplemented if _defer(other) else _u.multiply(self, other)

    def __rmul__(self, other):
        return _u.multiply(other, self)

    def __imul__(self, other):
        return _u.multiply(self, other, out=self)

    def __truediv__(self, other):
        return NotImplemented if _defer(other) else _u.divide(self, other)

    def __rtruediv__(self, other):
        return _u.divide(other, self)

    def __itruediv__(self, other):
        return _u.divide(self, other, out=self)

    def __floordiv__(self, other):
        return NotImplemented if _defer(other) else _u.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _u.floor_divide(other, self)

    def __ifloordiv__(self, other):
        return _u.floor_divide(self, other, out=self)

    def __mod__(self, other):
        return NotImplemented if _defer(other) else _u.remainder(self, other)

    def __rmod__(self, other):
        return _u.remainder(other, self)

    def __imod__(self, other):
        return _u.remainder(self, other, out=self)

    def __divmod__(self, other):
        return NotImplemented if _defer(other) else _u.divmod(self, other)

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
        from cuarray.linalg import _products
        return _products.matmul(self, other)

    def __rmatmul__(self, other):
        from cuarray.linalg import _products
        return _products.matmul(other, self)

    def __imatmul__(self, other):
        from cuarray.linalg import _products
        return _products.matmul(self, other, out=self)

    def __and__(self, other):
        return NotImplemented if _defer(other) else _u.bitwise_and(self, other)

    def __rand__(self, other):
        return _u.bitwise_and(other, self)

    def __iand__(self, other):
        return _u.bitwise_and(self, other, out=self)

    def __or__(self, other):
        return NotImplemented if _defer(other) else _u.bitwise_or(self, other)

    def __ror__(self, other):
        return _u.bitwise_or(other, self)

    def __ior__(self, other):
        return _u.bitwise_or(self, other, out=self)

    def __xor__(self, other):
        return NotImplemented if _defer(other) else _u.bitwise_xor(self, other)

    def __rxor__(self, other):
        return _u.bitwise_xor(other, self)

    def __ixor__(self, other):
        return _u.bitwise_xor(self, other, out=self)

    def __lshift__(self, other):
        return NotImplemented if _defer(other) else _u.left_shift(self, other)

    def __rlshift__(self, other):
        return _u.left_shift(other, self)

    def __ilshift__(self, other):
        return _u.left_shift(self, other, out=self)

    def __rshift__(self, other):
        return NotImplemented if _defer(other) else _u.right_shift(self, other)

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
                from cuarray.linalg import _products
                return _products.matmul(*inputs, **kwargs)
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
        import cuarray
        return cuarray

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
        return _r.argmax(self, axis, out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return _r.argmin(self, axis, out, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
        return _r.mean(self, axis, dtype, out, keepdims, where=where)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True):
        return _r.var(self, axis, dtype, out, ddof, keepdims, where=where)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True):
        return _r.std(self, axis, dtype, out, ddof, keepdims, where=where)

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
        from cuarray._routines import math as _m
        return _m.around(self, decimals, out)

    def repeat(self, repeats, axis=None):
        from cuarray._routines import rearranging
        return rearranging.repeat(self, repeats, axis)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        from cuarray._routines import math as _m
        return _m.trace(self, offset, axis1, axis2, dtype, out)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        """Sort in place (cuarray version of `numpy.ndarray.sort`)."""
        from cuarray._routines import sorting
        sorting.sort_inplace(self, axis=axis, kind=kind, order=order, stable=stable)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        from cuarray._routines import sorting
        return sorting.argsort(self, axis=axis, kind=kind, order=order, stable=stable)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        from cuarray._routines import sorting
        sorting.partition_inplace(self, kth, axis=axis, kind=kind, order=order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        from cuarray._routines import sorting
        return sorting.argpartition(self, kth, axis=axis, kind=kind, order=order)

    def searchsorted(self, v, side="left", sorter=None):
        from cuarray._routines import searching
        return searching.searchsorted(self, v, side, sorter)

    def take(self, indices, axis=None, out=None, mode="raise"):
        from cuarray._routines import indexing
        return indexing.take(self, indices, axis, out, mode)

    def put(self, indices, values, mode="raise"):
        from cuarray._routines import indexing
        return indexing.put(self, indices, values, mode)

    def nonzero(self):
        from cuarray._routines import indexing
        return indexing.nonzero(self)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        from cuarray._routines import indexing
        return indexing.diagonal(self, offset, axis1, axis2)

    def compress(self, condition, axis=None, out=None):
        from cuarray._routines import indexing
        return indexing.compress(condition, self, axis, out)

    def choose(self, choices, out=None, mode="raise"):
        from cuarray._routines import indexing
        return indexing.choose(self, choices, out, mode)

    def dot(self, b, out=None):
        from cuarray.linalg import _products
        return _products.dot(self, b, out=out)

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
        from cuarray._core import transfer
        return transfer.asarray, (self.get(),)


ndarray.__module__ = "cuarray"  # type(x) prints <class 'cuarray.ndarray'>, as CuPy's does


class Flags:
    """ndarray.flags: C_CONTIGUOUS, F_CONTIGUOUS, OWNDATA (read-only)."""

    __slots__ = ("c_contiguous", "f_contiguous", "owndata")

    def __init__(self, c, f, own):
        self.c_contiguous, self.f_contiguous, self.owndata = c, f, own

    _NAMES = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
              "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
              "OWNDATA": "owndata"}

    def __getitem__(self, name):
        try:
            return getattr(self, self._NAMES[name])
        except KeyError:
            raise KeyError(name) from None

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  OWNDATA : {self.owndata}")


# Operands that never take an operator over: the common case costs one set lookup.
_OWN = frozenset({ndarray, int, float, complex, bool})


def _defer(other):
    """NumPy's rule for forward binary operators (binop_override.h): give way to an operand
    of another type with a higher __array_priority__, so that its reflected method runs
    (`dense @ sparse` is the sparse matrix's __rmatmul__). Reflected and in-place operators
    never give way, as in NumPy."""
    if type(other) in _OWN or isinstance(other, ndarray):
        return False
    # NEP 13: an operand that sets __array_ufunc__ = None wants its reflected method called.
    if getattr(other, "__array_ufunc__", 0) is None:
        return True
    return getattr(other, "__array_priority__", 0.0) > ndarray.__array_priority__


from cuarray._core import _ops as _u  # noqa: E402  (ufuncs need the ndarray class first)
from cuarray._core.host_policy import comparison_operand as _cmp  # noqa: E402
_COMPARISONS = frozenset(("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"))
from cuarray._core import _reductions as _r  # noqa: E402
from cuarray._core import scan as _s  # noqa: E402
