"""ufunc.at (unbuffered in-place, repeated indices accumulate) and ufunc.reduceat.

`at` runs the indexing scatter kernel with an atomic update per addressed element (repeated
elements a thread or a warp holds first sum their values: one atomic for them all):
atomicAdd for add/subtract on float32/64, (u)int32/64 and complex (two adds), the
integer atomicMax/Min/And/Or/Xor where they exist, a compare-and-swap loop for every
other op on 4- and 8-byte types, a masked 32-bit compare-and-swap for 1- and 2-byte
types, and one in-order thread for complex128 ops other than add/subtract (no 16-byte
atomic). Values are computed in the ufunc's loop types and cast back to the array's
dtype, as NumPy does. add/subtract into a few hundred elements accumulate in each
block's shared-memory copy first (`_gather_scatter._vector_scatter`).
"""
import os

import numpy

from cuarray._core import _indexing
from cuarray._core import dtypes as _dt
from cuarray._core import ufunc_table as _table
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import normalize_axis, prod

_f16 = numpy.dtype(numpy.float16)
_f32 = numpy.dtype(numpy.float32)
_i64 = numpy.dtype(numpy.int64)
_PY_SCALARS = (bool, int, float, complex)

_ADD_NATIVE = "fdiIlLqQ"     # types with a hardware atomicAdd (64-bit ints through unsigned)
_UNSIGNED = {4: "unsigned int", 8: "unsigned long long"}


def _need(a, what):
    if not isinstance(a, ndarray):
        from cuarray._core.host_policy import device_array
        return device_array(a, what, prefix="")
    return a


# ---- at ---------------------------------------------------------------------------------------

def _apply_fn(A, loop, body, unary):
    """`_cu_apply(cur[, in1])`: the ufunc on one element, in loop types, cast back to A."""
    ct = _dt.ctype
    if unary:
        L0, LO = loop
        return (f"__device__ __forceinline__ {ct(A)} _cu_apply(const {ct(A)} _cur) {{\n"
                f"  const {ct(L0)} in0 = cuarray_cast<{ct(L0)}>(_cur); {ct(LO)} out0;\n"
                f"  {body}\n  return cuarray_cast<{ct(A)}>(out0);\n}}\n")
    L0, L1, LO = loop
    return (f"__device__ __forceinline__ {ct(A)} _cu_apply(const {ct(A)} _cur, const {ct(L1)} in1) {{\n"
            f"  const {ct(L0)} in0 = cuarray_cast<{ct(L0)}>(_cur); {ct(LO)} out0;\n"
            f"  {body}\n  return cuarray_cast<{ct(A)}>(out0);\n}}\n")


def _cas_fn(A, unary):
    """`_cu_at(p[, v])` as a compare-and-swap loop on the element's word."""
    ct = _dt.ctype(A)
    args, argv = ("char* _p", "") if unary else ("char* _p, const _cu_in1 _v", ", _v")
    size = A.itemsize
    if size in (4, 8):
        U = _UNSIGNED[size]
        return (f"__device__ __forceinline__ void _cu_at({args}) {{\n"
                f"  {U}* q = ({U}*)_p; {U} old = *q, assumed;\n"
                f"  do {{ assumed = old; {ct} cur; memcpy(&cur, &assumed, {size});\n"
                f"       const {ct} nw = _cu_apply(cur{argv}); {U} nb; memcpy(&nb, &nw, {size});\n"
                f"       old = atomicCAS(q, assumed, nb); }} while (old != assumed);\n}}\n")
    sub = "unsigned char" if size == 1 else "unsigned short"
    lanes = "0xffu" if size == 1 else "0xffffu"
    # The element lives inside an aligned 32-bit word: swap the whole word, change our bytes.
    return (f"__device__ __forceinline__ void _cu_at({args}) {{\n"
            f"  unsigned int* q = (unsigned int*)((unsigned long long)_p & ~3ull);\n"
            f"  const unsigned int sh = (unsigned int)((unsigned long long)_p & 3ull) * 8u;\n"
            f"  const unsigned int mask = {lanes} << sh;\n"
            f"  unsigned int old = *q, assumed;\n"
            f"  do {{ assumed = old; const {sub} bits = ({sub})((assumed & mask) >> sh); {ct} cur;"
            f" memcpy(&cur, &bits, {size});\n"
            f"       const {ct} nw = _cu_apply(cur{argv}); {sub} nb; memcpy(&nb, &nw, {size});\n"
            f"       old = atomicCAS(q, assumed, (assumed & ~mask) | ((unsigned int)nb << sh));"
            f" }} while (old != assumed);\n}}\n")


def at_strategy(name, A, loop):
    """(kind, statement) for `name.at` on an array of dtype A with the resolved loop:
    kind is 'atomic', 'cas' or 'serial'; the statement uses `_p` (char*) and `_v`."""
    same = all(d == A for d in loop)
    c = A.char
    if same and name in ("add", "subtract"):
        neg = name == "subtract"
        if c in "fd":
            return "atomic", f"atomicAdd(({_dt.ctype(A)}*)_p, {'-' if neg else ''}_v);"
        if c in _ADD_NATIVE:
            U = _UNSIGNED[A.itemsize]
            v = f"({U})0 - ({U})_v" if neg else f"({U})_v"
            return "atomic", f"atomicAdd(({U}*)_p, {v});"
        if A.kind == "c":
            s = "-" if neg else ""
            return "atomic", (f"atomicAdd(&(({_dt.ctype(A)}*)_p)->re, {s}_v.re); "
                              f"atomicAdd(&(({_dt.ctype(A)}*)_p)->im, {s}_v.im);")
    if same and A.kind in "iu" and A.itemsize in (4, 8):
        fn = {"maximum": "atomicMax", "minimum": "atomicMin", "bitwise_and": "atomicAnd",
              "bitwise_or": "atomicOr", "bitwise_xor": "atomicXor", "fmax": "atomicMax",
              "fmin": "atomicMin"}.get(name)
        if fn is not None:
            if fn in ("atomicMax", "atomicMin"):   # signed and unsigned forms exist for both sizes
                T = _dt.ctype(A)
                return "atomic", f"{fn}(({T}*)_p, ({T})_v);"
            U = _UNSIGNED[A.itemsize]
            return "atomic", f"{fn}(({U}*)_p, ({U})_v);"
    if A.itemsize <= 8:
        return "cas", "_cu_at(_p, _v);"
    return "serial", f"*({_dt.ctype(A)}*)_p = _cu_apply(*({_dt.ctype(A)}*)_p, _v);"


def at_code(name, A, loop, nin):
    """(kind, statement, preamble) updating one element for `name.at` on dtype A with the
    resolved loop (NumPy dtypes: nin inputs, then the output)."""
    unary = nin == 1
    body = _table.body(name, loop[:nin], loop[nin:])
    if unary:
        kind, stmt = ("cas" if A.itemsize <= 8 else "serial"), None
    else:
        kind, stmt = at_strategy(name, A, loop)
    pre = _apply_fn(A, loop, body, unary)
    if not unary:
        pre = f"typedef {_dt.ctype(loop[1])} _cu_in1;\n" + pre
    if kind == "cas":
        pre += _cas_fn(A, unary)
        stmt = "_cu_at(_p);" if unary else "_cu_at(_p, _v);"
    elif kind == "serial" and unary:
        stmt = f"*({_dt.ctype(A)}*)_p = _cu_apply(*({_dt.ctype(A)}*)_p);"
    return kind, stmt, pre


_fast = {}   # layouts of `a`, of one integer index array and of the value -> FastScatter


def at(uf, a, indices, b=None):
    """ufunc.at on the GPU (cuarray version of `numpy.ufunc.at`): a[indices] = uf(a[indices], b)
    unbuffered, so repeated indices accumulate. Out-of-bounds indices wrap (raise under
    CUARRAY_CHECK_BOUNDS=1), as in indexing."""
    fk = None
    if type(a) is ndarray and type(indices) is ndarray and indices.dtype.kind in "iu" and \
            (b is None or type(b) is ndarray and b._mem is not a._mem):
        # The warm path: the same layouts as a call before, whose launch is replayed.
        fk = (uf, AT_UPDATE) + _indexing.scatter_key(a, indices, b)
        hit = _fast.get(fk)
        if hit is not None and not _indexing.check_bounds_enabled():
            return hit.run(a, indices, b)
    name = uf.__name__
    a = _need(a, f"cuarray.{name}.at")
    if uf.nout != 1 or uf.nin > 2:
        raise ValueError("Only unary and binary ufuncs supported at this time")
    unary = uf.nin == 1
    if unary and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if not unary and b is None:
        raise ValueError("second operand needed for ufunc")
    if not unary:
        if isinstance(b, ndarray):
            barg = b.dtype
        elif type(b) in _PY_SCALARS:
            barg = type(b)
        elif isinstance(b, numpy.generic):
            barg = b.dtype
        else:
            from cuarray._core.host_policy import operand
            b = operand(b, f"{name}.at")
            barg = b.dtype
        loop = tuple(uf._np.resolve_dtypes((a.dtype, barg, None)))
    else:
        loop = tuple(uf._np.resolve_dtypes((a.dtype, None)))
    for d in loop:
        _dt.check_dtype(d)
    plan, entries = _indexing.prepare(a, indices)
    A = a.dtype
    value = None
    if not unary:
        L1 = loop[1]
        if isinstance(b, ndarray):
            v = b if b.dtype == L1 else b.astype(L1)
            try:
                _indexing.value_strides(v._shape, v._strides, plan.shape)
            except ValueError:
                raise ValueError("array is not broadcastable to correct shape") from None
            value = ("array", v)
        else:
            from cuarray._core.ufunc import _to_loop_scalar
            value = ("scalar", _to_loop_scalar(b, L1, name))
    kind, stmt, pre = at_code(name, A, loop, uf.nin)
    tag = f"at_{name}_{A.char}{''.join(d.char for d in loop)}_{kind}"
    update = at_update(name, A, loop, kind)
    # a vector update is an atomicAdd of `_v`; a block's shared copy is added back with add's
    flush = at_strategy("add", A, loop)[1] if update == "vector" else None
    record = None
    if fk is not None and (b is None or b.dtype == loop[1]):
        record = lambda fs: _indexing.remember(_fast, fk, fs)   # noqa: E731
    _indexing.scatter_kernel(a, plan, entries, value, tag, stmt, pre, elem=_dt.ctype(A),
                             vdtype=None if unary else loop[1], serial=kind == "serial",
                             update=update, flush=flush, record=record)


# How ufunc.at's kernel runs a thread's updates (`_gather_scatter.gs_source`), where the
# update is a hardware atomicAdd of the value itself: 'vector' (the default) loads a
# contiguous 1-D index and value as vectors of a thread's consecutive elements and merges
# runs of one address before the atomics (other layouts take 'aggregate'); 'aggregate'
# sums repeated indices within a warp before the atomic; 'prefetch' and 'plain' are kept
# selectable with CUARRAY_AT_UPDATE for measurement.
AT_UPDATE = os.environ.get("CUARRAY_AT_UPDATE", "vector")


def at_update(name, A, loop, kind):
    """The update mode of `name.at` on dtype A with the resolved loop and strategy kind."""
    if kind == "serial" or AT_UPDATE == "plain":
        return "plain"
    if AT_UPDATE in ("vector", "aggregate") and kind == "atomic" and \
            name in ("add", "subtract") and A.char in _ADD_NATIVE and all(d == A for d in loop):
        return AT_UPDATE
    return "prefetch"


# ---- reduceat ---------------------------------------------------------------------------------

_reduceat_ops = {}


def _depth_error(ndim):
    return ValueError("object of too small depth for desired array" if ndim == 0 else
                      "object too deep for desired array")


def _indices(indices, n, name):
    """reduceat's indices as a 1-D device integer array; host indices are checked here.
    NumPy's conversion: arrays cast safely to intp, sequences of numbers unsafely."""
    from cuarray._core.transfer import asarray
    if isinstance(indices, ndarray):
        if not numpy.can_cast(indices.dtype, _i64, "safe"):
            raise TypeError(f"Cannot cast array data from {indices.dtype!r} to dtype('int64') "
                            f"according to the rule 'safe'")
        if indices.ndim != 1:
            raise _depth_error(indices.ndim)
        if _indexing.check_bounds_enabled():
            bad = _indexing.first_out_of_range(indices, 0, n)
            if bad is not None:
                raise IndexError(f"index {bad} out-of-bounds in {name}.reduceat [0, {n})")
        return indices
    if isinstance(indices, numpy.ndarray):
        if not numpy.can_cast(indices.dtype, _i64, "safe"):
            raise TypeError(f"Cannot cast array data from {indices.dtype!r} to dtype('int64') "
                            f"according to the rule 'safe'")
        h = indices.astype(_i64)
    else:
        h = numpy.asarray(indices)
        h = h.astype(_i64) if h.dtype.kind in "biuf" or h.size == 0 else h
    if h.ndim != 1:
        raise _depth_error(h.ndim)
    bad = h[(h < 0) | (h >= n)]
    if bad.size:
        raise IndexError(f"index {int(bad[0])} out-of-bounds in {name}.reduceat [0, {n})")
    return asarray(h)


def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    """ufunc.reduceat on the GPU (cuarray version of `numpy.ufunc.reduceat`): out[i] reduces
    array[indices[i]:indices[i+1]] along axis, or is array[indices[i]] where
    indices[i] >= indices[i+1]. Device indices are not checked (they wrap) unless
    CUARRAY_CHECK_BOUNDS=1; host indices are checked, as in NumPy."""
    name = uf.__name__
    _need(array, f"cuarray.{name}.reduceat")
    if uf.nin != 2 or uf.nout != 1:
        raise ValueError("reduceat only supported for binary functions")
    if array.ndim == 0:
        raise TypeError("cannot reduceat on a scalar")
    axis = normalize_axis(axis, array.ndim)
    n = array._shape[axis]
    idx = _indices(indices, n, name)
    m = idx.size
    arg = None if dtype is None else _dt.check_dtype(dtype)
    res = uf._np.reduceat(numpy.ones(1, array.dtype), [0], dtype=arg).dtype
    _dt.check_dtype(res)
    acc = _f32 if res == _f16 else res
    oshape = array._shape[:axis] + (m,) + array._shape[axis + 1:]
    if out is not None:
        _need(out, f"cuarray.{name}.reduceat out=")
        if out._shape != oshape:
            raise ValueError(f"output operand of {name}.reduceat has shape {out._shape}; the result "
                             f"has shape {oshape}")
    direct = out is not None and out._c_contig and out._mem is not array._mem
    res_arr = out if direct else ndarray._alloc(oshape, res)
    if res_arr.size:
        if n == 0:
            raise IndexError(f"index 0 out-of-bounds in {name}.reduceat [0, 0)")
        _reduceat_op(uf, array.dtype, acc, res).launch(
            (array, idx, numpy.int64(n), numpy.int64(m), numpy.int64(prod(array._shape[axis + 1:])),
             res_arr))
    if out is not None and not direct:
        from cuarray._core._copy import copy_into
        copy_into(out, res_arr)
        return out
    return res_arr


def _reduceat_op(uf, in_dt, acc, res):
    from cuarray._core.elementwise import Op, Param
    key = (uf.__name__, in_dt.char, acc.char, res.char)
    op = _reduceat_ops.get(key)
    if op is None:
        loop = uf._np.resolve_dtypes((acc, acc, None))
        A = _dt.ctype(acc)
        body = _table.body(uf.__name__, loop[:2], loop[2:])
        pre = (f"__device__ __forceinline__ {A} _red(const {A} in0, const {A} in1) "
               f"{{ {_dt.ctype(loop[2])} out0; {body} return cuarray_cast<{A}>(out0); }}")
        code = (
            "const long long ra_k = i % inner, ra_t = i / inner, ra_s = ra_t % m, ra_o = ra_t / m;\n"
            "long long ra_st = ix[ra_s];\n"
            "if ((unsigned long long)ra_st >= (unsigned long long)n) { ra_st %= n; if (ra_st < 0) ra_st += n; }\n"
            "long long ra_en = ra_s + 1 < m ? (long long)ix[ra_s + 1] : n;\n"
            "if (ra_en > n) ra_en = n;\n"
            "const long long ra_base = ra_o * n;\n"
            f"{A} ra_acc = cuarray_cast<{A}>(x[(ra_base + ra_st) * inner + ra_k]);\n"
            f"for (long long ra_j = ra_st + 1; ra_j < ra_en; ++ra_j) ra_acc = _red(ra_acc, cuarray_cast<{A}>(x[(ra_base + ra_j) * inner + ra_k]));\n"
            f"y = cuarray_cast<{_dt.ctype(res)}>(ra_acc);")
        op = _reduceat_ops[key] = Op(
            f"cuarray_reduceat_{uf.__name__}_{in_dt.char}{acc.char}{res.char}",
            [Param("x", "raw", in_dt), Param("ix", "raw", _i64), Param("n", "scalar", _i64),
             Param("m", "scalar", _i64), Param("inner", "scalar", _i64), Param("y", "out", res)],
            code, preamble=pre)
    return op
