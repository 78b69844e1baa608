"""The ufunc object: NumPy's dtype resolution, then one elementwise launch.

`numpy.<name>.resolve_dtypes` is the only promotion table: promotion is never derived by
hand, so it matches NumPy's (NEP 50 included). Its answer, and the compiled op for it,
are cached per (argument kinds) so a warm call is one dict lookup, one allocation and one
launch.
"""
import operator

import numpy

from cuarray._core import _reductions
from cuarray._core import dtypes as _dt
from cuarray._core._lazy import lazy_module
from cuarray._core import ufunc_table as _table
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import broadcast_shapes
from cuarray._runtime.device import ensure_context as _ensure_context, get_device_id
from cuarray._runtime.peer import check_same_device as _check_same_device
from cuarray._runtime.memory import memset_zero as _memset_zero

# accumulate's engine and the datetime loops load with their first use.
scan = lazy_module(globals(), "scan", "cuarray._core.scan")
_datetimes = lazy_module(globals(), "_datetimes", "cuarray._core.datetimes")

_PY_SCALARS = (bool, int, float, complex)
_alloc = ndarray._alloc


from cuarray._core import host_policy as _hp  # noqa: E402
_host_error = _hp.host_error


class _Loop:
    """A resolved loop for one combination of argument kinds; `flat` caches the launch
    plans of the contiguous fast path (index 1: 16-byte aligned operands)."""

    __slots__ = ("op", "in_dtypes", "out_dtypes", "scalar_idx", "flat", "out0", "datetime",
                 "bounds")

    def __init__(self, op, in_dtypes, out_dtypes, scalar_idx, datetime=False, name=""):
        self.op = op
        self.in_dtypes = in_dtypes
        self.out_dtypes = out_dtypes
        self.out0 = out_dtypes[0]
        self.scalar_idx = scalar_idx
        self.flat = [None, None]
        self.datetime = datetime   # outputs of another unit are converted after the launch
        # A comparison of an integer array with a Python int as second operand: the int
        # range of the loop, for the warm path's out-of-range test (None: no test).
        dt = in_dtypes[1] if len(in_dtypes) == 2 and scalar_idx == (1,) else None
        self.bounds = _int_bounds(dt) if name in _COMPARE and dt is not None and \
            dt.kind in "iu" else None


_IDX32 = 2**31 - 4096


def _flat(loop, args, aligned):
    """The LaunchPlan of the loop's contiguous kernel for `args` (operands and outputs;
    `aligned`: every pointer 16-byte aligned), built at its first use."""
    plan = loop.flat[aligned] = loop.op.flat_entry(args, aligned)
    return plan


class ufunc:
    """A universal function on cuarray arrays (cuarray version of `numpy.ufunc`).

    Python scalars are weak (NEP 50); host arrays are refused with a TypeError that
    names `cuarray.asarray`.
    """

    def __init__(self, row):
        self.__name__ = self.name = row.name
        self.nin = row.nin
        self.nout = row.nout
        self.nargs = row.nin + row.nout
        self.types = list(row.types)
        self.identity = row.identity
        self.__doc__ = f"{row.doc}\n\ncuarray version of `numpy.{row.name}`."
        self._np = getattr(numpy, row.name)
        self._loops = {}
        # NumPy's logical ufuncs take any input as its truth value: with a Python scalar
        # they resolve to the bool loop and cast the arrays to bool whatever the rule.
        self._truth = row.name.startswith("logical_")

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    @property
    def ntypes(self):
        return len(self.types)

    # ---- resolution -----------------------------------------------------------------------
    def _resolve(self, key, args, dtype, casting, where):
        dts = []
        for a in args:
            if isinstance(a, ndarray):
                dts.append(a.dtype)
            elif type(a) is bool:
                dts.append(numpy.dtype(numpy.bool_))  # NEP 50: Python bool is not weak
            elif type(a) in _PY_SCALARS:
                dts.append(type(a))
            else:
                dts.append(a.dtype)
        ops = tuple(dts) + (None,) * self.nout
        if dtype is None:
            loop = self._np.resolve_dtypes(ops)
        else:
            loop = self._np.resolve_dtypes(ops, signature=(None,) * self.nin + (dtype,) * self.nout,
                                           casting=casting)
        in_dt, out_dt = loop[:self.nin], loop[self.nin:]
        for k, (src, dst) in enumerate(zip(dts, in_dt)):
            if isinstance(src, numpy.dtype) and isinstance(args[k], ndarray) and \
                    not numpy.can_cast(src, dst, casting) and not (self._truth and dst.kind == "b"):
                raise _casting_error(self.__name__, "input", k, src, dst, casting)
        for d in in_dt + out_dt:
            _dt.check_dtype(d)
        scalar_idx = tuple(k for k, a in enumerate(args) if not isinstance(a, ndarray))
        params = []
        for k in range(self.nin):
            params.append(Param(f"in{k}", "scalar" if k in scalar_idx else "in", in_dt[k]))
        for k in range(self.nout):
            params.append(Param(f"out{k}", "out", out_dt[k]))
        guard = None
        if where:
            params.append(Param("_where", "in", numpy.dtype(bool)))
            guard = "_where"
        body = _table.body(self.__name__, in_dt, out_dt, datetime=True)
        preamble = ""
        is_dt = any(d.kind in "Mm" for d in in_dt + out_dt)
        if is_dt:
            # Array operands in another unit than the loop's are converted in the kernel;
            # scalars were converted on the host (_to_loop_scalar).
            arg_dt = [a.dtype if isinstance(a, ndarray) else None for a in args]
            body = _datetimes.with_conversions(body, arg_dt, in_dt)
            preamble = _datetimes.PREAMBLE
        tag = "".join(d.char for d in in_dt + out_dt) + "".join(str(k) for k in scalar_idx)
        op = Op(f"cuarray_{self.__name__}_{tag}{'_w' if where else ''}", params, body, guard=guard,
                preamble=preamble)
        entry = self._loops[key] = _Loop(op, in_dt, out_dt, scalar_idx, is_dt, self.__name__)
        return entry

    # ---- call -----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        # The warm path: contiguous operands of one shape, no keywords: one dict lookup,
        # one allocation, one replay of the loop's LaunchPlan (everything derived from
        # dtypes and layout is cached). Each branch finds the loop and the values that
        # precede the output pointer; the allocation and the launch are shared.
        if not kwargs:
            nargs = len(args)
            loop = None
            if nargs == 2 and self.nin == 2 and self.nout == 1:
                x, y = args
                if type(x) is ndarray and x._c_contig:
                    ty = type(y)
                    if ty is ndarray:
                        if y._c_contig and x._shape == y._shape:
                            loop = self._loops.get((x.dtype.char, y.dtype.char))
                            fill = [x._ptr, y._ptr]
                            bits = x._ptr | y._ptr
                            dev2 = y._device_id
                            sdt = None
                    elif (ty is float or ty is int) and self.__name__ not in _POW:
                        loop = self._loops.get((x.dtype.char, ty))
                        if loop is not None:
                            b = loop.bounds
                            if b is not None and not b[0] <= y <= b[1]:
                                # NEP 50: one answer for every element, decided on the host
                                return _constant_compare(_out_of_range_answer(
                                    self.__name__, y, 1), x._shape)
                            sdt = loop.in_dtypes[1]
                            if ty is float and sdt.kind == "f":
                                # Packed as it is: struct rounds a double to the kernel's float
                                # type as NumPy's cast does (0.5 µs less than a NumPy scalar).
                                v = y
                            else:
                                try:
                                    v = _to_loop_scalar(y, sdt, self.__name__)
                                except OverflowError:  # comparisons answer; the general path knows
                                    return self._call(*args)
                            fill = [x._ptr, v] if sdt.kind != "c" else [x._ptr, v.real, v.imag]
                            bits = x._ptr
                            dev2 = x._device_id
            elif nargs == 1 and self.nin == 1 and self.nout == 1:
                x = args[0]
                if type(x) is ndarray and x._c_contig:
                    loop = self._loops.get((x.dtype.char,))
                    fill = [x._ptr]
                    bits = x._ptr
                    dev2 = x._device_id
                    sdt = None
            if loop is not None:
                o = _alloc(x._shape, loop.out0, "C")
                n = o.size
                if 0 < n < _IDX32:
                    p = o._ptr
                    fill.append(p)
                    fill.append(n)
                    dev = o._device_id   # the current device (the launch makes it current)
                    if x._device_id != dev or dev2 != dev:
                        _check_same_device(args, dev)
                    aligned = not (bits | p) & 15
                    plan = loop.flat[aligned]
                    if plan is None:
                        plan = _flat(loop, [x, y if sdt is None else v, o] if nargs == 2 else
                                     [x, o], aligned)
                    try:
                        plan.launch(fill, n)
                    except OverflowError:  # finite, past the float type's range: inf
                        if sdt is None:
                            raise
                        fill[1] = sdt.type(y)
                        plan.launch(fill, n)
                    return o
        elif len(kwargs) == 1:
            o = kwargs.get("out")
            if type(o) is ndarray and o._c_contig:
                done = self._into(args, o)
                if done is not None:
                    return done
        return self._call(*args, **kwargs)

    def _into(self, args, o):
        """The warm path with `out=`: contiguous arrays of one shape into a contiguous `out`
        of that shape and of the loop's result dtype; None where the general path is needed."""
        nargs = len(args)
        if nargs == 2 and self.nin == 2 and self.nout == 1:
            x, y = args
            if type(x) is not ndarray or type(y) is not ndarray or not (x._c_contig and y._c_contig):
                return None
            if not (x._shape == y._shape == o._shape and x._device_id == o._device_id):
                return None
            loop = self._loops.get((x.dtype.char, y.dtype.char))
            fill = [x._ptr, y._ptr, o._ptr]
        elif nargs == 1 and self.nin == 1 and self.nout == 1:
            x = args[0]
            if type(x) is not ndarray or not x._c_contig or x._shape != o._shape or \
                    x._device_id != o._device_id:
                return None
            loop = self._loops.get((x.dtype.char,))
            fill = [x._ptr, o._ptr]
        else:
            return None
        n = o.size
        if loop is None or o.dtype is not loop.out0 or not 0 < n < _IDX32:
            return None
        dev = get_device_id()
        if x._device_id != dev:
            _check_same_device(args, dev)
        bits = 0
        for p in fill:
            bits |= p
        aligned = not bits & 15
        plan = loop.flat[aligned]
        if plan is None:
            plan = _flat(loop, list(args) + [o], aligned)
        fill.append(n)
        plan.launch(fill, n)
        return o

    def _call(self, *args, out=None, where=True, casting="same_kind", order="K", dtype=None,
              signature=None, subok=True):
        nin = self.nin
        if len(args) != nin:
            if len(args) == self.nargs and out is None:
                args, out = args[:nin], args[nin:]
            else:
                raise TypeError(f"{self.__name__}() takes from {nin} to {self.nargs} positional "
                                f"arguments but {len(args)} were given")
        if signature is not None and dtype is None:
            dtype = signature[-1] if isinstance(signature, tuple) else signature
        key = []
        shape = None
        same = True
        for a in args:
            if isinstance(a, ndarray):
                c = a.dtype.char
                key.append(c if c not in "Mm" else a.dtype.str)   # datetimes: unit included
                if shape is None:
                    shape = a._shape
                elif a._shape != shape:
                    same = False
            elif type(a) in _PY_SCALARS:
                key.append(type(a))
            elif isinstance(a, numpy.generic):
                c = a.dtype.char
                key.append(("s", c if c not in "Mm" else a.dtype.str))
            else:
                # CUDA-protocol objects become views; host data raises (host_policy).
                return self._call(*[_hp.operand(x, self.__name__) for x in args], out=out,
                                  where=where, casting=casting, order=order, dtype=dtype)
        masked = where is not True
        if masked:
            if where is False:
                where = numpy.bool_(False)
            if not isinstance(where, ndarray):
                from cuarray._core.transfer import asarray
                where = asarray(numpy.asarray(where, dtype=bool)) if isinstance(where, (bool, numpy.bool_)) \
                    else None
                if where is None:
                    raise _host_error(self.__name__, where)
            if where.dtype != numpy.bool_:
                where = where.astype(numpy.bool_)
        key = (tuple(key), dtype, casting, masked)
        loop = self._loops.get(key)
        if loop is None:
            if dtype is not None:
                dtype = _dt.check_dtype(dtype)
            loop = self._resolve(key, args, dtype, casting, masked)
            if key[1:] == (None, "same_kind", False):
                # the warm path (__call__) finds a plain call's loop by the argument kinds alone
                self._loops[key[0]] = loop
        # Scalars become NumPy scalars of the loop's input type (NEP 50 overflow errors included).
        if loop.scalar_idx:
            args = list(args)
            for k in loop.scalar_idx:
                try:
                    args[k] = _to_loop_scalar(args[k], loop.in_dtypes[k], self.__name__)
                except OverflowError:
                    if self.__name__ not in _COMPARE:
                        raise
                    return _compare_out_of_range(self, args, k, out, where if masked else True)
            if self.__name__ in ("power", "float_power") and 1 in loop.scalar_idx:
                _check_int_power(loop.in_dtypes[1], args[1])
        if shape is None:
            shape = ()
        elif not same:
            shape = broadcast_shapes(*[a._shape for a in args if isinstance(a, ndarray)])
        if masked and where._shape != shape:
            shape = broadcast_shapes(shape, where._shape)
        outs = self._outputs(out, shape, loop.out_dtypes, casting, order, args)
        given = None
        if loop.datetime and out is not None:
            given = list(outs)   # an `out` in another unit gets the result converted
            outs = [o if o.dtype == d else (copy_into(_alloc(shape, d, "C"), o) if masked else
                                            _alloc(shape, d, "C"))
                    for o, d in zip(outs, loop.out_dtypes)]
        launch_args = list(args) + outs
        if masked:
            launch_args.append(where)
        if outs[0].size:
            loop.op.launch(launch_args)
        if given is not None:
            for g, o in zip(given, outs):
                if g is not o:
                    copy_into(g, o)
            outs = given
        if self.nout == 1:
            return outs[0]
        return tuple(outs)

    def _outputs(self, out, shape, out_dtypes, casting, order, args):
        if out is None:
            out = (None,) * self.nout
        elif isinstance(out, ndarray):
            out = (out,)
        elif not isinstance(out, tuple):
            raise TypeError(f"return arrays must be of ArrayType, got {type(out).__name__}") \
                if not isinstance(out, numpy.ndarray) else _host_error(self.__name__, out)
        if len(out) != self.nout:
            raise ValueError(f"The 'out' tuple must have exactly {self.nout} entries: one per ufunc output")
        res = []
        for k, (o, dt) in enumerate(zip(out, out_dtypes)):
            if o is None:
                res.append(_alloc(shape, dt, _order(order, args)))
                continue
            if not isinstance(o, ndarray):
                raise _host_error(self.__name__, o)
            if o._shape != shape:
                raise ValueError(f"non-broadcastable output operand with shape {o._shape} doesn't "
                                 f"match the broadcast shape {shape}")
            if o.dtype != dt and not numpy.can_cast(dt, o.dtype, casting):
                raise _casting_error(self.__name__, "output", k, dt, o.dtype, casting)
            res.append(o)
        return res

    # ---- methods --------------------------------------------------------------------------
    def outer(self, A, B, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        for x in (A, B):
            if not isinstance(x, ndarray) and type(x) not in _PY_SCALARS and not isinstance(x, numpy.generic):
                raise _host_error(self.__name__, x)
        a = A.reshape(A.shape + (1,) * (B.ndim if isinstance(B, ndarray) else 0)) \
            if isinstance(A, ndarray) else A
        return self(a, B, **kwargs)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return _reductions.reduce(self, array, axis, dtype, out, keepdims, initial, where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        return scan.accumulate(self, array, axis, dtype, out)

    # reduceat and at load the indexing engines on first use (`import cuarray` is timed).
    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        from cuarray._core import _ufunc_at
        return _ufunc_at.reduceat(self, array, indices, axis, dtype, out)

    def at(self, a, indices, b=None):
        from cuarray._core import _ufunc_at
        return _ufunc_at.at(self, a, indices, b)


_POW = ("power", "float_power")


def _order(order, args):
    if isinstance(order, str):
        order = order.upper()
    if order == "C":
        return "C"
    if order == "F":
        return "F"
    arrays = [a for a in args if isinstance(a, ndarray) and a.ndim > 1]
    if arrays and all(a._f_contig and not a._c_contig for a in arrays):
        return "F"
    return "C"


def _to_loop_scalar(v, dt, name):
    if dt.kind in "Mm":
        return _datetimes.scalar(v, dt)
    if isinstance(v, numpy.generic):
        return v.astype(dt) if v.dtype != dt else v
    if dt.kind == "b":
        return dt.type(bool(v))     # a logical ufunc's bool loop: the scalar's truth value
    if isinstance(v, bool) or dt.kind not in "iu":
        if dt.kind != "c" and isinstance(v, complex):
            return dt.type(v.real)
        return dt.type(v)
    if isinstance(v, float):
        return dt.type(v)
    bounds = _int_bounds(dt)
    if not bounds[0] <= v <= bounds[1]:
        raise OverflowError(f"Python integer {v} out of bounds for {dt}")
    return dt.type(v)


_INT_BOUNDS = {}   # dtype char -> (min, max): numpy.iinfo costs ~2 µs a call


def _int_bounds(dt):
    bounds = _INT_BOUNDS.get(dt.char)
    if bounds is None:
        info = numpy.iinfo(dt)
        bounds = _INT_BOUNDS[dt.char] = (int(info.min), int(info.max))
    return bounds


_COMPARE = {"less": operator.lt, "less_equal": operator.le, "greater": operator.gt,
            "greater_equal": operator.ge, "equal": operator.eq, "not_equal": operator.ne}


_BOOL = numpy.dtype(numpy.bool_)


def _out_of_range_answer(name, v, k):
    """The comparison's answer for every element when the Python int `v` (operand `k`) lies
    outside the array's integer type: any in-range value stands for the array (NEP 50)."""
    op = _COMPARE[name]
    return op(0, v) if k == 1 else op(v, 0)


def _constant_compare(value, shape):
    """A new bool array of `shape` holding `value`: one memset, no comparison kernel (the
    answer does not depend on the elements)."""
    res = _alloc(shape, _BOOL, "C")
    if res.size:
        if value:
            res.data.memset_async(1, res.size)
        else:
            _ensure_context()
            _memset_zero(res._ptr, res.size)
    return res


def _compare_out_of_range(uf, args, k, out, where):
    """NumPy 2's result for an integer array compared with a Python int outside its type's
    range: the same answer for every element, as for any in-range value (NEP 50)."""
    value = _out_of_range_answer(uf.__name__, args[k], k)
    arrays = [a for a in args if isinstance(a, ndarray)]
    shape = broadcast_shapes(*[a._shape for a in arrays]) if arrays else ()
    if where is not True:
        shape = broadcast_shapes(shape, where._shape)
    if out is None and where is True:
        return _constant_compare(value, shape)
    res = uf._outputs(out, shape, (_BOOL,), "same_kind", "K", arrays)[0]
    if res.size:
        if where is True:
            res.fill(value)
        else:
            from cuarray._core._copy import copyto
            copyto(res, numpy.bool_(value), where=where)
    return res


def copy_into(dst, src):
    """dst[...] = src converting units; returns dst."""
    from cuarray._core._copy import copy_into as _copy_into
    _copy_into(dst, src)
    return dst


def _check_int_power(dt, v):
    if dt.kind in "iu" and v < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _casting_error(name, which, k, src, dst, casting):
    """NumPy's own casting exception (a TypeError subclass), NumPy's message."""
    try:
        from numpy._core import _exceptions as ex
        cls = ex._UFuncInputCastingError if which == "input" else ex._UFuncOutputCastingError
        return cls(getattr(numpy, name), casting, src, dst, k)
    except (ImportError, AttributeError, TypeError):
        return TypeError(f"Cannot cast ufunc '{name}' {which} from {src!r} to {dst!r} with "
                         f"casting rule '{casting}'")


def make_ufuncs():
    """One cuarray ufunc per table row, by name."""
    return {row.name: ufunc(row) for row in _table.UFUNCS}
