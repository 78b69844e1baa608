"""Array creation routines beyond `creation.py` (NumPy reference: "Array creation routines"):
numerical ranges, grids, building matrices, creation from functions and host buffers
(files and text are in `io.py`).

Ranges and matrices are built by one kernel each, in NumPy's arithmetic order (one
rounding per NumPy operation, no fused multiply-add) so values match NumPy's.
"""
import operator

import numpy

from cuarray._core import _copy
from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import Cache
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _array_like, _device, _host_error
from cuarray._core.transfer import array
from cuarray._routines.creation import arange, empty, zeros
from cuarray._routines.manipulation import broadcast_arrays, moveaxis

_i64 = numpy.dtype(numpy.int64)
_bool = numpy.dtype(numpy.bool_)
_f64 = numpy.dtype(numpy.float64)
_NO_FMA = ("--fmad=false",)  # NumPy rounds after every multiply and add

__all__ = [
    "identity", "eye", "linspace", "logspace", "geomspace", "meshgrid", "mgrid", "ogrid", "diag",
    "diagflat", "tri", "tril", "triu", "vander", "fromfunction", "frombuffer", "fromiter",
    "fromstring",
]

_op = Cache()   # key -> Op, built on first use


def _typedef(name, dtype):
    # A one-word alias: functional casts such as T(1) cannot name "unsigned char".
    return f"typedef {_dt.ctype(dtype)} {name};"


# ---- ones on a diagonal -------------------------------------------------------------------------
def _diagonal_of(a, k):
    from cuarray._routines.indexing import diagonal
    return diagonal(a, k)


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """cuarray version of `numpy.eye`."""
    if device is not None:
        from cuarray._core.device_arg import scope
        with scope(device):
            return eye(N, M, k, dtype, order)
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    k = operator.index(k)
    out = zeros((N, M), dtype, order)
    d = _diagonal_of(out, k)
    if d.size:
        d.fill(1)
    return out


def identity(n, dtype=None, *, like=None):
    """cuarray version of `numpy.identity`."""
    return eye(n, dtype=float if dtype is None else dtype)


# ---- numerical ranges --------------------------------------------------------------------------
def _range_op(dt, roles):
    """y[k, ...] = start + k * step (NumPy's linspace arithmetic, rounded to dt each step)."""
    def build():
        p = [Param("start", roles[0], dt), Param("stop", roles[1], dt), Param("step", roles[2], dt),
             Param("delta", roles[3], dt), Param("zero", roles[4], _bool),
             Param("divv", "scalar", dt), Param("divle0", "scalar", _bool),
             Param("fix_end", "scalar", _bool), Param("inner", "scalar", _i64),
             Param("last", "scalar", _i64), Param("y", "out", dt)]
        body = ("const long long k = i / inner; const T kk = T(k); T v; "
                "if (divle0) v = T(kk * delta); "
                "else if (zero) v = T(T(kk / divv) * delta); "
                "else v = T(kk * step); "
                "v = T(v + start); "
                "if (fix_end && k == last) v = stop; "
                "y = v;")
        return Op(f"cuarray_linspace_{dt.char}_{''.join(r[0] for r in roles)}", p, body,
                  preamble=_typedef("T", dt), options=_NO_FMA)
    return _op(("linspace", dt.char, roles), build)


def _is_device(name, *xs):
    """True when an argument is a device array; host arrays are refused (no silent upload)."""
    found = False
    for x in xs:
        if isinstance(x, ndarray):
            found = True
        elif isinstance(x, (numpy.ndarray, list, tuple)):
            raise _host_error(name, x)
    return found


def _weak(x):
    """What numpy.result_type should see for x: a dtype for arrays, the value for scalars."""
    return x.dtype if isinstance(x, ndarray) else x


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """cuarray version of `numpy.linspace`: one kernel; `start`/`stop` may be device arrays
    (then `step` is a device array, and the all-steps-zero test NumPy does stays on the
    device)."""
    if device is not None:
        from cuarray._core.device_arg import scope
        with scope(device):
            return linspace(start, stop, num, endpoint, retstep, dtype, axis)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    dt = _dt.check_dtype(numpy.result_type(_weak(start), _weak(stop), 0.0))
    integer_dtype = dtype is not None and numpy.issubdtype(dtype, numpy.integer)
    fix_end = bool(endpoint and num > 1)
    if not _is_device("linspace", start, stop):
        # Scalars: NumPy's 0-d arithmetic for delta and step, on the host.
        delta = numpy.subtract(stop, start, dtype=dt.type)
        if div > 0:
            step = delta / div
            zero = bool(step == 0)
        else:
            step, zero = numpy.nan, False
        y = ndarray._alloc((num,), dt)
        if num:
            _range_op(dt, ("scalar",) * 5).launch(
                (dt.type(start), dt.type(stop), dt.type(step if div > 0 else delta), delta,
                 numpy.bool_(zero), dt.type(max(div, 1)), numpy.bool_(div <= 0),
                 numpy.bool_(fix_end), _i64.type(1), _i64.type(num - 1), y))
    else:
        from cuarray._core import _ops, _reductions
        delta = _ops.subtract(stop, start, dtype=dt)
        if div > 0:
            step = _ops.divide(delta, div)
            zero = _reductions.any(_ops.equal(step, 0))
        else:
            step, zero = numpy.nan, numpy.bool_(False)
        bshape = delta._shape
        inner = 1
        for s in bshape:
            inner *= s
        y = ndarray._alloc((num,) + bshape, dt)
        if y.size:
            vals = [start, stop, step if div > 0 else delta, delta, zero]
            roles = tuple("in" if isinstance(x, ndarray) else "scalar" for x in vals)
            vals = [x if isinstance(x, ndarray) else (numpy.bool_(x) if k == 4 else dt.type(x))
                    for k, x in enumerate(vals)]
            _range_op(dt, roles).launch(
                vals + [dt.type(max(div, 1)), numpy.bool_(div <= 0), numpy.bool_(fix_end),
                        _i64.type(inner), _i64.type(num - 1), y])
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if integer_dtype:
        from cuarray._core import _ops
        _ops.floor(y, out=y)
    if dtype is not None:
        y = y.astype(dtype, copy=False)
    return (y, step) if retstep else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """cuarray version of `numpy.logspace`."""
    from cuarray._core import _ops
    if isinstance(base, ndarray) and base.ndim:
        shapes = [x._shape if isinstance(x, ndarray) else numpy.shape(x) for x in (start, stop, base)]
        ndmax = len(numpy.broadcast_shapes(*shapes))
        start, stop, base = (_ndmin(x, ndmax) for x in (start, stop, base))
        from cuarray._routines.manipulation import expand_dims
        base = expand_dims(base, axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    r = _ops.power(base, y)
    return r if dtype is None else r.astype(dtype, copy=False)


def _ndmin(x, nd):
    x = _device(x, "logspace")
    return x.reshape((1,) * (nd - x.ndim) + x._shape) if x.ndim < nd else x


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """cuarray version of `numpy.geomspace`. Device `start`/`stop` are checked for zeros on
    the host (synchronises once), as NumPy raises for them."""
    from cuarray._core import _ops, _reductions
    on_device = _is_device("geomspace", start, stop)
    zeros_dt = numpy.zeros((), dtype).dtype
    dts = [x.dtype if isinstance(x, ndarray) else numpy.asarray(x).dtype for x in (start, stop)]
    dt = _dt.check_dtype(numpy.result_type(*dts, float(num), zeros_dt))
    dtype = dt if dtype is None else numpy.dtype(dtype)
    if not on_device:
        s = numpy.asarray(start).astype(dt)
        e = numpy.asarray(stop).astype(dt)
        if s == 0 or e == 0:
            raise ValueError("Geometric sequence cannot include zero")
        sign = numpy.sign(s)
        s = s / sign
        e = e / sign
        s, e, sign = s[()], e[()], sign[()]
        result = logspace(numpy.log10(s)[()], numpy.log10(e)[()], num=num, endpoint=endpoint,
                          base=10.0, dtype=dt)
    else:
        s = _device(start, "geomspace").astype(dt, copy=True)
        e = _device(stop, "geomspace").astype(dt, copy=True)
        if bool(_ops.logical_or(_reductions.any(_ops.equal(s, 0)), _reductions.any(_ops.equal(e, 0)))):
            raise ValueError("Geometric sequence cannot include zero")
        sign = _ops.sign(s)
        _ops.divide(s, sign, out=s)
        e = _ops.divide(e, sign)
        result = logspace(_ops.log10(s), _ops.log10(e), num=num, endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        result[0] = s
        if num > 1 and endpoint:
            result[-1] = e
    _ops.multiply(result, sign, out=result)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return result.astype(dtype, copy=False)


# ---- grids --------------------------------------------------------------------------------------
def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """cuarray version of `numpy.meshgrid`."""
    ndim = len(xi)
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    s0 = (1,) * ndim
    output = [_device(x, "meshgrid").reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + s0[2:])
        output[1] = output[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        output = broadcast_arrays(*output)
    if copy:
        output = tuple(x.copy() for x in output)
    return output


class _nd_grid:
    """`mgrid` (dense) and `ogrid` (sparse) (cuarray versions of `numpy.mgrid`/`ogrid`)."""

    __slots__ = ("sparse",)

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        try:
            size = []
            num_list = [0]
            for k in range(len(key)):
                step, start, stop = key[k].step, key[k].start, key[k].stop
                start = 0 if start is None else start
                step = 1 if step is None else step
                if isinstance(step, (numpy.complexfloating, complex)):
                    step = abs(step)
                    size.append(int(step))
                else:
                    size.append(int(numpy.ceil((stop - start) / step)))
                num_list += [start, stop, step]
            typ = numpy.result_type(*num_list)
            if self.sparse:
                nn = [arange(max(n, 0), dtype=typ) for n in size]
            else:
                from cuarray._routines.indexing import indices
                nn = indices(size, typ)
            for k, kk in enumerate(key):
                step = 1 if kk.step is None else kk.step
                start = 0 if kk.start is None else kk.start
                if isinstance(step, (numpy.complexfloating, complex)):
                    step = int(abs(step))
                    if step != 1:
                        step = (kk.stop - start) / float(step - 1)
                nn[k] = nn[k] * step + start
            if self.sparse:
                n = len(size)
                return tuple(g.reshape((1,) * k + (-1,) + (1,) * (n - k - 1)) for k, g in enumerate(nn))
            return nn
        except (IndexError, TypeError):
            step, stop, start = key.step, key.stop, key.start
            start = 0 if start is None else start
            if isinstance(step, (numpy.complexfloating, complex)):
                step_float = abs(step)
                step = length = int(step_float)
                if step != 1:
                    step = (key.stop - start) / float(step - 1)
                typ = numpy.result_type(start, stop, step_float)
                return arange(0, length, 1, dtype=typ) * step + start
            return arange(start, stop, step)


mgrid = _nd_grid(sparse=False)
ogrid = _nd_grid(sparse=True)


# ---- building matrices --------------------------------------------------------------------------
def diag(v, k=0):
    """cuarray version of `numpy.diag`; for a 2-D input the diagonal is copied, as in CuPy."""
    v = _device(v, "diag")
    if v.ndim == 1:
        n = v._shape[0] + abs(k)
        res = zeros((n, n), v.dtype)
        if v.size:
            _copy.copy_into(_diagonal_of(res, k), v)
        return res
    if v.ndim == 2:
        return _diagonal_of(v, k).copy()
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    """cuarray version of `numpy.diagflat`."""
    return diag(_device(v, "diagflat").ravel(), k)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """cuarray version of `numpy.tri`: one kernel."""
    N = max(operator.index(N), 0)
    M = N if M is None else max(operator.index(M), 0)
    k = operator.index(k)
    dt = _dt.check_dtype(dtype)
    out = ndarray._alloc((N, M), dt)
    if out.size:
        op = _op(("tri", dt.char), lambda: Op(
            f"cuarray_tri_{dt.char}", [Param("M", "scalar", _i64), Param("k", "scalar", _i64),
                                        Param("y", "out", dt)],
            "y = (i % M) - (i / M) <= k ? T(1) : T(0);", preamble=_typedef("T", dt)))
        op.launch((_i64.type(M), _i64.type(k), out))
    return out


def _triangle(m, k, lower, name):
    m = _device(m, name)
    k = operator.index(k)
    if m.ndim == 0:
        raise TypeError(f"{name} needs an array of at least 1 dimension")
    N, M = m._shape[-2:] if m.ndim >= 2 else (m._shape[0], m._shape[0])
    shape = m._shape if m.ndim >= 2 else (N, M)
    out = ndarray._alloc(shape, m.dtype)
    if out.size:
        test = "<=" if lower else ">="
        dt = m.dtype
        op = _op((name, dt.char), lambda: Op(
            f"cuarray_{name}_{dt.char}",
            [Param("x", "in", dt), Param("M", "scalar", _i64), Param("N", "scalar", _i64),
             Param("k", "scalar", _i64), Param("y", "out", dt)],
            f"const long long c = i % M, r = (i / M) % N; y = c - r {test} k ? x : T();",
            preamble=_typedef("T", dt)))
        op.launch((m, _i64.type(M), _i64.type(N), _i64.type(k), out))
    return out


def tril(m, k=0):
    """cuarray version of `numpy.tril`: one kernel (a 1-D input gives a 2-D result)."""
    return _triangle(m, k, True, "tril")


def triu(m, k=0):
    """cuarray version of `numpy.triu`: one kernel (a 1-D input gives a 2-D result)."""
    return _triangle(m, k, False, "triu")


def vander(x, N=None, increasing=False):
    """cuarray version of `numpy.vander`: one kernel; each power is the running product
    NumPy's multiply.accumulate computes, so the values match NumPy's."""
    x = _array_like(x, "vander")
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x._shape[0]
    N = n if N is None else operator.index(N)
    dt = _dt.check_dtype(numpy.promote_types(x.dtype, int))
    out = empty((n, N), dt)
    if out.size:
        # Integers multiply in the unsigned type of the same width: wraps like NumPy's.
        U = numpy.dtype(f"u{dt.itemsize}") if dt.kind == "i" else dt
        op = _op(("vander", x.dtype.char, dt.char), lambda: Op(
            f"cuarray_vander_{x.dtype.char}{dt.char}",
            [Param("x", "raw", x.dtype), Param("N", "scalar", _i64), Param("inc", "scalar", _bool),
             Param("y", "out", dt)],
            "const long long r = i / N, c = i % N; const long long e = inc ? c : N - 1 - c; "
            "const U xv = cuarray_cast<U>(cuarray_cast<T>(x[r])); U p = U(1); "
            "for (long long t = 0; t < e; ++t) p = U(p * xv); y = cuarray_cast<T>(p);",
            preamble=_typedef("T", dt) + _typedef("U", U), options=_NO_FMA))
        op.launch((x, _i64.type(N), numpy.bool_(increasing), out))
    return out


# ---- from functions and host data ------------------------------------------------------------------
def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """cuarray version of `numpy.fromfunction`: the index grids are built on the device and
    `function` is called once with them (cuarray arrays)."""
    from cuarray._routines.indexing import indices
    return function(*indices(shape, dtype=dtype), **kwargs)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """cuarray version of `numpy.frombuffer`: reads the host buffer and uploads it."""
    return array(numpy.frombuffer(buffer, dtype, count, offset))


def fromiter(iter, dtype, count=-1, *, like=None):
    """cuarray version of `numpy.fromiter`: consumes the iterator on the host, then uploads."""
    return array(numpy.fromiter(iter, dtype, count))


def fromstring(string, dtype=float, count=-1, *, sep, like=None):
    """cuarray version of `numpy.fromstring` (text parsed on the host, then uploaded)."""
    return array(numpy.fromstring(string, dtype, count, sep=sep))
