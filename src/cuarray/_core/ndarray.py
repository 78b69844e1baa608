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
        dtype = _dt.check_storage_dtype(dtype)
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
        else:
            key = (shape, it, order)
            lay = _layouts.get(key)
            if lay is None:
                lay = _contiguous_layout(shape, it, order)
                if len(_layouts) >= _LAYOUTS_MAX:
                    _layouts.pop(next(iter(_layouts), None), None)
                _layouts[key] = lay
            a._strides, a._c_contig, a._f_contig = lay
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
        key = (shape, strides, self.dtype.itemsize, tuple(axes))
        lay = _permutes.get(key)
        if lay is None:
            v = self._view(tuple([shape[a] for a in axes]), tuple([strides[a] for a in axes]))
            if len(_permutes) >= _PERMUTES_MAX:
                _permutes.pop(next(iter(_permutes), None), None)
            _permutes[key] = (v._shape, v._strides, (v._c_contig, v._f_contig))
            return v
        return self._view(lay[0], lay[1], contig=lay[2])

    # ---- attributes -----------------------------------------------------------------------
    @property
    def shape(self):
        """Tuple of array dimensions; assigning a shape reshapes in place (a view's shape must be compatible)."""
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
        """Tuple of bytes to step in each dimension."""
        return self._strides

    @property
    def ndim(self):
        """Number of dimensions."""
        return len(self._shape)

    @property
    def itemsize(self):
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def nbytes(self):
        """Bytes the elements take (size times itemsize)."""
        return self.size * self.dtype.itemsize

    @property
    def data(self):
        """The `cuarray.cuda.MemoryPointer` to the first element."""
        return _memory.MemoryPointer(self._mem, self._ptr - self._mem.ptr)

    @property
    def device(self):
        """The `cuarray.cuda.Device` the array lives on."""
        from cuarray._runtime.device import Device
        return Device(self._device_id)

    @property
    def flags(self):
        """Memory layout flags (C_CONTIGUOUS, F_CONTIGUOUS, OWNDATA)."""
        return Flags(self._c_contig, self._f_contig, self.base is None)

    @property
    def T(self):
        """The transposed array (a view)."""
        # Reversing the axes swaps C and F contiguity: the flags need no working out.
        return self._view(self._shape[::-1], self._strides[::-1],
                          contig=(self._f_contig, self._c_contig))

    @property
    def mT(self):
        """The transpose of the last two axes (a view)."""
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return self.swapaxes(-1, -2)

    @property
    def real(self):
        """The real part (a view for complex arrays; the array itself for real ones)."""
        if self.dtype.kind != "c":
            return self
        rd = _dt.real_dtype(self.dtype)
        return self._view(self._shape, self._strides, 0, rd)

    @real.setter
    def real(self, value):
        self.real[...] = value

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._shape[0]))

    # ---- host conversion ------------------------------------------------------------------
    def item(self, *args):
        if args:
            return self.get().item(*args)
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().item()

    def tolist(self):
        """cuarray version of `numpy.ndarray.tolist` (copies the array to the host)."""
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
        if order == "C" and copy is None:
            # A layout and shape seen before: one lookup and a handful of attribute sets.
            key = (self._shape, self._strides, self.dtype.itemsize, shape)
            try:
                hit = _reshapes.get(key)
            except TypeError:  # unhashable dims (a list): the general path reads them
                hit = None
            if hit is not None and _int_dims(shape):
                return self._cached_reshape(hit)
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
                v = self._view(new[0], new[1], contig=(True, _sh.one_long_axis(new[0])))
                _remember_reshape(key, shape, v, False)
                return v
        v = self._reshape(shape, order, copy)
        if order == "C" and copy is None:
            # a copy is the base of its reshaped view; a view's base is this array's
            _remember_reshape(key, shape, v, v.base is not (self if self.base is None else self.base))
        return v

    def _cached_reshape(self, hit):
        """reshape from a `_reshapes` entry: (copied, shape, strides, C, F, size)."""
        src = self.copy("C") if hit[0] else self
        v = object.__new__(type(self))
        _, v._shape, v._strides, v._c_contig, v._f_contig, v.size = hit
        v.dtype = src.dtype
        v._mem = src._mem
        v._ptr = src._ptr
        v._device_id = src._device_id
        v.base = src if src.base is None else src.base
        return v

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
        dtype = _dt.check_storage_dtype(dtype)
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


# (shape, itemsize, order) of a new N-d array (N > 1) -> its (strides, C flag, F flag):
# pure functions of the key; the oldest entry is dropped past _LAYOUTS_MAX.
_layouts = {}
_LAYOUTS_MAX = 1024


def _contiguous_layout(shape, it, order):
    order = "F" if order == "F" else "C"   # as _alloc reads it: anything but F is C
    strides = _sh.contiguous_strides(shape, it, order)
    empty = 0 in shape
    if order == "F":
        return strides, empty or _sh.is_c_contiguous(shape, strides, it), True
    return strides, True, empty or _sh.is_f_contiguous(shape, strides, it)


# (shape, strides, itemsize, axes) of a transpose -> the view's (shape, strides, (C, F)):
# its contiguity flags are the costly part; bounded as _layouts.
_permutes = {}
_PERMUTES_MAX = 1024


# C-order reshapes without copy=: (shape, strides, itemsize, reshape's positional arguments)
# -> (whether a copy is needed, then the result's shape, strides, C and F flags, size).
# All of it follows from the key, so entries never go stale; the oldest is dropped past
# _RESHAPES_MAX. A hit is used only for plain int dims: 10.0 and True hash and compare
# equal to 10 and 1 but are refused (or read differently) by the general path.
_reshapes = {}
_RESHAPES_MAX = 1024
_INT = frozenset((int,))


def _int_dims(args):
    """Whether reshape's positional arguments are ints or one tuple of ints."""
    dims = args[0] if len(args) == 1 else args
    return type(dims) is int or (type(dims) is tuple and _INT.issuperset(map(type, dims)))


def _remember_reshape(key, args, v, copied):
    if not _int_dims(args):
        return
    if len(_reshapes) >= _RESHAPES_MAX:
        _reshapes.pop(next(iter(_reshapes), None), None)
    _reshapes[key] = (copied, v._shape, v._strides, v._c_contig, v._f_contig, v.size)


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
