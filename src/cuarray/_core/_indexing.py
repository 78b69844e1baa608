"""Advanced and boolean indexing: `a[key]` and `a[key] = v` for keys that are not purely
ints, slices, None and Ellipsis.

A key is planned on the host (`plan_index`, pure Python): ints and slices become a byte
offset and view axes, index arrays become "advanced" axes whose broadcast shape goes in
place of the indexed axes (adjacent advanced indices) or first (separated ones), as
NumPy places them. One generated kernel then walks the result in C order: the gather
(getitem) moves raw bytes, the scatter (setitem, `ufunc.at`) writes raw bytes or runs a
statement on each addressed element. Out-of-bounds indices wrap, as CuPy's do;
`CUARRAY_CHECK_BOUNDS=1` makes them raise NumPy's IndexError instead (one device check
and one host read).

Boolean masks go through a stream compaction (`count` per tile of 4096 elements, one-block
exclusive scan of the tile counts, then a write pass that ranks elements with warp
ballots): `a[mask]` with a full mask writes the selected values directly; other masks
become `nonzero` index arrays. The selected count is read on the host once, to size the
result.
"""
import operator
import os

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core.ndarray import ndarray
from cuarray._runtime.compiler import c_identifier, compile_module
from cuarray._runtime.device import ensure_context
from cuarray._runtime.launch import ArgPacker
from cuarray._runtime import stream as _stream

_I64 = numpy.dtype(numpy.int64)
_BOOL = numpy.dtype(numpy.bool_)
# 32-bit indexing below this many elements/bytes; the margin covers the grid-stride step.
_I32_LIMIT = 2**31 - 2**24
_BLOCK = 256
_UNROLL = 4

_INVALID = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
            "or boolean arrays are valid indices")


def check_bounds_enabled():
    """True when CUARRAY_CHECK_BOUNDS asks out-of-bounds indices to raise (read per call)."""
    v = os.environ.get("CUARRAY_CHECK_BOUNDS")
    return bool(v) and v not in ("0", "false", "False")


# ---- planning (pure Python: testable without a GPU) -----------------------------------------

def _is_array(e):
    return hasattr(e, "shape") and hasattr(e, "dtype")


def _consumed(e):
    """Array axes an entry consumes."""
    if e is None or e is Ellipsis or e is True or e is False:
        return 0
    if _is_array(e):
        return len(e.shape) if e.dtype.kind == "b" else 1
    return 1


def check_key(shape, entries):
    """Validate a normalised key; the array axis each entry starts at.

    Entries are ints, slices, None, Ellipsis, Python bools (0-d masks) and arrays (anything
    with `shape` and `dtype`: integer index arrays and boolean masks). Raises NumPy's
    IndexError for two ellipses, too many indices, or a mask of the wrong shape.
    """
    ndim = len(shape)
    if sum(1 for e in entries if e is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(_consumed(e) for e in entries)
    if used > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {used} "
                         f"were indexed")
    axes = []
    d = 0
    for e in entries:
        axes.append(d)
        if e is Ellipsis:
            d += ndim - used
            continue
        if _is_array(e) and e.dtype.kind == "b":
            for j, m in enumerate(e.shape):
                if m != shape[d + j]:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {d + j}; size of "
                        f"axis is {shape[d + j]} but size of corresponding boolean axis is {m}")
        d += _consumed(e)
    return axes


def _shape_str(s):
    return str(tuple(s)).replace(" ", "")


class IndexPlan:
    """A planned index.

    offset: bytes from the array's pointer; shape: the result's shape; dims: per result
    axis (size, byte stride into the array, b) with b the axis of the broadcast index
    shape `bshape` it follows, or -1 for a view axis; arrays: per index array
    (entry position, size of the axis it indexes, that axis's byte stride, axis number).
    """

    __slots__ = ("offset", "shape", "dims", "bshape", "arrays")

    def __init__(self, offset, shape, dims, bshape, arrays):
        self.offset, self.shape, self.dims, self.bshape, self.arrays = offset, shape, dims, bshape, arrays

    def __repr__(self):
        return (f"IndexPlan(offset={self.offset}, shape={self.shape}, dims={self.dims}, "
                f"bshape={self.bshape}, arrays={self.arrays})")


def plan_index(shape, strides, entries):
    """Plan a key whose boolean masks have been replaced by their `nonzero` arrays.

    NumPy's rules: ints, index arrays and 0-d booleans are the advanced indices (ints only
    when the key holds an array or a bool); their broadcast shape replaces them in place
    when they are adjacent in the key, and goes first otherwise.
    """
    entries = list(entries)
    if not any(e is Ellipsis for e in entries):
        entries.append(Ellipsis)  # trailing axes: after every entry, so adjacency is unchanged
    axes = check_key(shape, entries)
    ndim = len(shape)
    used = sum(_consumed(e) for e in entries)
    has_adv = any(_is_array(e) or e is True or e is False for e in entries)
    offset = 0
    view = []    # (size, stride, key position)
    advs = []    # (key position, shape, shown in a broadcast error)
    arrays = []
    for pos, (e, d) in enumerate(zip(entries, axes)):
        if e is None:
            view.append((1, 0, pos))
        elif e is Ellipsis:
            for j in range(ndim - used):
                view.append((shape[d + j], strides[d + j], pos))
        elif isinstance(e, slice):
            start, stop, step = e.indices(shape[d])
            n = len(range(start, stop, step))
            if n:
                offset += start * strides[d]
            view.append((n, strides[d] * step, pos))
        elif e is True or e is False:
            advs.append((pos, (1,) if e else (0,), True))
        elif _is_array(e):
            if e.dtype.kind == "b":
                raise TypeError("plan_index needs boolean masks replaced by their nonzero arrays")
            advs.append((pos, tuple(e.shape), True))
            arrays.append((pos, shape[d], strides[d], d))
        else:
            i = e
            n = shape[d]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {d} with size {n}")
            offset += (i % n) * strides[d]
            if has_adv:
                advs.append((pos, (), False))
    try:
        bshape = _sh.broadcast_shapes(*[s for _, s, _ in advs])
    except ValueError:
        shown = " ".join(_shape_str(s) for _, s, show in advs if show)
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with "
                         f"shapes {shown} ") from None
    bdims = [(n, 0, j) for j, n in enumerate(bshape)]
    if advs:
        first = min(p for p, _, _ in advs)
        adjacent = max(p for p, _, _ in advs) - first + 1 == len(advs)
    if not advs:
        dims = [(n, s, -1) for n, s, _ in view]
    elif adjacent:
        dims = [(n, s, -1) for n, s, p in view if p < first] + bdims + \
               [(n, s, -1) for n, s, p in view if p > first]
    else:
        dims = bdims + [(n, s, -1) for n, s, _ in view]
    return IndexPlan(offset, tuple(n for n, _, _ in dims), tuple(dims), bshape, tuple(arrays))


def collapse_dims(sizes, stride_lists):
    """Drop size-1 axes and merge neighbours contiguous in every stride list, keeping C order
    (the kernels' linear index stays the result's C-order index)."""
    keep = [d for d, n in enumerate(sizes) if n != 1]
    out_n, out_s = [], [[] for _ in stride_lists]
    for d in keep:
        n = sizes[d]
        if out_n and all(o[-1] == s[d] * n for o, s in zip(out_s, stride_lists)):
            out_n[-1] *= n
            for o, s in zip(out_s, stride_lists):
                o[-1] = s[d]
            continue
        out_n.append(n)
        for o, s in zip(out_s, stride_lists):
            o.append(s[d])
    return tuple(out_n), [tuple(o) for o in out_s]


def value_strides(vshape, vstrides, shape, what="value array"):
    """Strides of a value broadcast to `shape` for assignment (leading 1-axes dropped), or
    NumPy's ValueError."""
    vshape, vstrides = tuple(vshape), tuple(vstrides)
    while len(vshape) > len(shape) and vshape[0] == 1:
        vshape, vstrides = vshape[1:], vstrides[1:]
    try:
        if len(vshape) > len(shape):
            raise ValueError
        return _sh.broadcast_strides(vshape, vstrides, shape)
    except ValueError:
        raise ValueError(f"shape mismatch: {what} of shape {_shape_str(vshape)} could not be "
                         f"broadcast to indexing result of shape {_shape_str(shape)}") from None


# ---- keys -----------------------------------------------------------------------------------

def _host_index(k):
    """A host sequence or numpy array used as an index: an int, a bool, or a device array."""
    from cuarray._core import transfer
    if isinstance(k, numpy.ndarray):
        h = k
    else:
        try:
            h = numpy.asarray(k)
        except TypeError:   # a list holding device arrays: assembled on the device
            return _device_index(transfer.array(k))
    if h.dtype.kind == "f" and h.size == 0:
        h = h.astype(numpy.intp)   # an empty list indexes nothing, as in NumPy
    if h.dtype.kind not in "biu":
        raise IndexError(_INVALID if h.dtype.kind in "fcO" and not isinstance(k, numpy.ndarray)
                         else "arrays used as indices must be of integer (or boolean) type")
    if h.ndim == 0:
        return bool(h) if h.dtype.kind == "b" else int(h)
    return transfer.asarray(h)


def _device_index(k):
    kind = k.dtype.kind
    if kind == "b":
        return bool(k.get()) if k.ndim == 0 else k  # a 0-d mask's value sizes the result
    if kind in "iu":
        return k
    raise IndexError("arrays used as indices must be of integer (or boolean) type")


def normalize_key(key):
    """The key as a list of entries for `check_key`/`plan_index`; host index data is
    transferred to the device (an explicit transfer: the key asked for it)."""
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            out.append(k)
        elif isinstance(k, ndarray):
            out.append(_device_index(k))
        elif isinstance(k, (bool, numpy.bool_)):
            out.append(bool(k))
        elif isinstance(k, (int, numpy.integer)):
            out.append(int(k))
        elif isinstance(k, (list, numpy.ndarray)):
            out.append(_host_index(k))
        elif hasattr(k, "__cuda_array_interface__"):
            from cuarray._core import transfer
            out.append(_device_index(transfer.asarray(k)))
        elif hasattr(k, "__index__") and not isinstance(k, (float, complex)):
            out.append(operator.index(k))
        else:
            raise IndexError(_INVALID)
    return out


def expand_masks(shape, entries):
    """Validate; replace each boolean mask (1-d or more) by its `nonzero` index arrays."""
    check_key(shape, entries)
    if not any(_is_array(e) and e.dtype.kind == "b" for e in entries):
        return entries
    out = []
    for e in entries:
        if _is_array(e) and e.dtype.kind == "b":
            out.extend(nonzero(e))
        else:
            out.append(e)
    return out


def _full_mask(a, entries):
    """The mask when the key is one boolean array covering every axis of `a`."""
    if len(entries) == 1:
        m = entries[0]
        if isinstance(m, ndarray) and m.dtype.kind == "b" and m.ndim == a.ndim and m.ndim:
            check_key(a._shape, entries)
            return m
    return None


def prepare(a, key):
    """(plan, entries) for `a[key]`, masks expanded."""
    entries = expand_masks(a._shape, normalize_key(key))
    return plan_index(a._shape, a._strides, entries), entries


# ---- getitem / setitem --------------------------------------------------------------------

def getitem(a, key):
    """a[key] for a key with index arrays, masks or bools (ndarray.__getitem__ calls this)."""
    entries = normalize_key(key)
    m = _full_mask(a, entries)
    if m is not None:
        return compress_flat(m, a)
    entries = expand_masks(a._shape, entries)
    return gather(a, plan_index(a._shape, a._strides, entries), entries)


def setitem(a, key, value):
    """a[key] = value; with repeated indices one of the writes wins, as in CuPy."""
    entries = normalize_key(key)
    m = _full_mask(a, entries)
    if m is not None:
        return _mask_assign(a, m, value)
    entries = expand_masks(a._shape, entries)
    scatter(a, plan_index(a._shape, a._strides, entries), entries, value)


def _value(value, dtype):
    """('scalar', numpy scalar) or ('array', device array of `dtype`) for an assigned value."""
    from cuarray._core import _copy, transfer
    if isinstance(value, ndarray):
        return "array", value if value.dtype == dtype else value.astype(dtype)
    if isinstance(value, (bool, int, float, complex, numpy.generic)):
        return "scalar", _copy.to_scalar(value, dtype)
    h = numpy.asarray(value)
    if h.ndim == 0:
        return "scalar", _copy.to_scalar(h[()], dtype)
    _dt.check_dtype(h.dtype)
    return "array", transfer.asarray(h.astype(dtype, copy=False))


# ---- bounds ---------------------------------------------------------------------------------

_flag_ops = {}


def first_out_of_range(x, lo, hi):
    """One value of integer array `x` outside [lo, hi), or None; one device pass and one
    host read (synchronises)."""
    if x.size == 0:
        return None
    from cuarray._core.elementwise import Op, Param
    op = _flag_ops.get(0)
    if op is None:
        op = _flag_ops[0] = Op(
            "cuarray_index_range_check",
            [Param("x", "in", _I64), Param("flag", "raw", _I64), Param("lo", "scalar", _I64),
             Param("hi", "scalar", _I64)],
            "if (x < lo || x >= hi) { if (atomicCAS((unsigned long long*)flag.data_, 0ull, 1ull) == 0ull)"
            " flag.data_[1] = x; }")
    flag = ndarray._alloc((2,), _I64)
    flag.data.memset_async(0, 16)
    op.launch((x, flag, numpy.int64(lo), numpy.int64(hi)))
    found, v = flag.get().tolist()
    return v if found else None


def _check_arrays(plan, entries):
    for pos, n, _, axis in plan.arrays:
        bad = first_out_of_range(entries[pos], -n, n)
        if bad is not None:
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")


def _check_empty_axes(plan, entries):
    """Indices into an empty axis cannot wrap: NumPy's IndexError, naming the first one."""
    for pos, n, _, axis in plan.arrays:
        x = entries[pos]
        if n == 0 and x.size:
            v = int(x.reshape(-1)[0:1].get()[0])
            raise IndexError(f"index {v} is out of bounds for axis {axis} with size 0")


# ---- the gather / scatter kernel ------------------------------------------------------------

_RAW = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long",
        16: "cu_b16"}
_RAW_KIND = {1: "B", 2: "H", 4: "I", 8: "Q", 16: ("s", 16, 8)}
_PRELUDE = r"""
#include <cuarray/core.cuh>
struct cu_b16 { unsigned long long lo, hi; };
"""
_kernels = {}


def gs_source(name, kind, nd, idx_ctypes, idx64, mode, elem, value=None, stmt="",
              preamble="", block=_BLOCK, unroll=_UNROLL):
    """CUDA source and ArgPacker kinds of a gather or scatter kernel.

    kind 'gather': out[i] = element at the addressed place (type `elem`, raw bytes).
    kind 'scatter': `stmt` runs with `_p` (char*, the addressed element) and, when `value`
    is ('array', ctype) or ('scalar', ctype, packer kind), `_v` (the value for result
    element i). mode: 'wrap' or 'clip' for out-of-range indices.
    """
    I = "long long" if idx64 else "int"
    ik = "q" if idx64 else "i"
    sig, kinds = [], []
    gather = kind == "gather"
    sig.append(("const char* __restrict__ _base" if gather else "char* __restrict__ _base"))
    kinds.append("P")
    if gather:
        sig.append(f"{elem}* __restrict__ _out")
        kinds.append("P")
    vmode = value[0] if value else None
    if vmode == "array":
        sig.append("const char* __restrict__ _val" + "".join(f", const {I} _vs{d}" for d in range(nd)))
        kinds += ["P"] + [ik] * nd
    elif vmode == "scalar":
        sig.append(f"const {value[1]} _val")
        kinds.append(value[2])
    for k, ct in enumerate(idx_ctypes):
        sig.append(f"const char* __restrict__ _x{k}, const long long _n{k}, const {I} _a{k}" +
                   "".join(f", const {I} _xs{k}_{d}" for d in range(nd)))
        kinds += ["P", "q", ik] + [ik] * nd
    sig += [f"const {I} _sh{d}" for d in range(nd)] + [f"const {I} _ss{d}" for d in range(nd)]
    kinds += [ik] * (2 * nd)
    sig.append(f"const {I} _N")
    kinds.append(ik)

    nk = len(idx_ctypes)
    off = [f"{I} _r = i, _o = 0;" + (f" {I} _ov = 0;" if vmode == "array" else "") +
           "".join(f" {I} _o{k} = 0;" for k in range(nk)) + " (void)_r;"]
    for d in range(nd - 1, -1, -1):
        terms = [f"_o += _c * _ss{d};"] + ([f"_ov += _c * _vs{d};"] if vmode == "array" else []) + \
                [f"_o{k} += _c * _xs{k}_{d};" for k in range(nk)]
        if d:
            off.append(f"{{ const {I} _c = _r % _sh{d}; _r /= _sh{d}; {' '.join(terms)} }}")
        else:
            off.append(f"{{ const {I} _c = _r; {' '.join(terms)} }}")
    fix = "_j %= _n{k}; if (_j < 0) _j += _n{k};" if mode == "wrap" else "_j = _j < 0 ? 0 : _n{k} - 1;"
    for k, ct in enumerate(idx_ctypes):
        off.append(f"{{ long long _j = (long long)*(const {ct}*)(_x{k} + _o{k}); "
                   f"if ((unsigned long long)_j >= (unsigned long long)_n{k}) {{ {fix.format(k=k)} }} "
                   f"_o += ({I})_j * _a{k}; }}")
    offset_code = " ".join(off)
    step = block * unroll
    lines = [_PRELUDE, preamble,
             f'extern "C" __global__ void {name}({", ".join(sig)}) {{',
             f"  for ({I} _b = ({I})blockIdx.x * {step} + threadIdx.x; _b < _N; _b += ({I})gridDim.x * {step}) {{"]
    if gather:
        lines += [
            f"    {I} _off[{unroll}];",
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {unroll}; ++_u) {{ const {I} i = _b + _u * {block}; _off[_u] = 0;"
            f" if (i < _N) {{ {offset_code} _off[_u] = _o; }} }}",
            f"    {elem} _e[{unroll}];",
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {unroll}; ++_u) {{ if (_b + _u * {block} < _N)"
            f" _e[_u] = *(const {elem}*)(_base + _off[_u]); }}",
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {unroll}; ++_u) {{ const {I} i = _b + _u * {block};"
            f" if (i < _N) _out[i] = _e[_u]; }}",
        ]
    else:
        if vmode == "array":
            vload = f"const {value[1]} _v = *(const {value[1]}*)(_val + _ov);"
        elif vmode == "scalar":
            vload = f"const {value[1]} _v = _val;"
        else:
            vload = ""
        lines += [
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {unroll}; ++_u) {{ const {I} i = _b + _u * {block};"
            f" if (i < _N) {{ {offset_code} char* _p = _base + _o; {vload} {stmt} }} }}",
        ]
    lines += ["  }", "}"]
    return "\n".join(lines), kinds


def _extent(sizes, strides):
    return sum((n - 1) * abs(s) for n, s in zip(sizes, strides))


def _layout(plan, entries, vstrides=None):
    """Collapsed (sizes, src strides, value strides or None, per-array strides) and the
    index width needed."""
    arrs = [entries[pos] for pos, _, _, _ in plan.arrays]
    lists = [[s for _, s, _ in plan.dims]]
    for x in arrs:
        bst = _sh.broadcast_strides(x._shape, x._strides, plan.bshape)
        lists.append([0 if b < 0 else bst[b] for _, _, b in plan.dims])
    if vstrides is not None:
        lists.append(list(vstrides))
    sizes, cl = collapse_dims([n for n, _, _ in plan.dims], lists)
    n = _sh.prod(plan.shape)
    reach = _extent(sizes, cl[0]) + sum(abs(st) * max(m - 1, 0) for _, m, st, _ in plan.arrays)
    big = n >= _I32_LIMIT or reach >= _I32_LIMIT or any(_extent(sizes, s) >= _I32_LIMIT for s in cl)
    src = cl[0]
    ast = cl[1:1 + len(arrs)]
    vst = cl[-1] if vstrides is not None else None
    return sizes, src, vst, arrs, ast, big


def _launch(key, build, vals, n, block=_BLOCK, unroll=_UNROLL, grid=None):
    entry = _kernels.get(key)
    if entry is None:
        src, kinds = build()
        name = key[0]
        fn = compile_module(src, (), name=name).get_function(name)
        entry = _kernels[key] = (fn, ArgPacker(kinds))
    fn, packer = entry
    if grid is None:
        from cuarray._core.elementwise import _grid_cap
        grid = min((n + block * unroll - 1) // (block * unroll), _grid_cap())
    fn.launch((grid, 1, 1), (block, 1, 1), packer.pack(vals), 0, _stream.current_stream_ptr())


def _array_vals(vals, arrs, plan, ast):
    for x, (_, n, st, _), xs in zip(arrs, plan.arrays, ast):
        vals += [x._ptr, n, st]
        vals.extend(xs)


def gather(a, plan, entries, mode="wrap", out=None, check=True):
    """The planned `a[key]` as a new C-contiguous array (or written into `out`, a
    C-contiguous array of the result's shape and a's dtype). check: raise for
    out-of-bounds indices when CUARRAY_CHECK_BOUNDS is on (mode 'wrap' only)."""
    ensure_context()
    if check and mode == "wrap" and check_bounds_enabled():
        _check_arrays(plan, entries)
    _check_empty_axes(plan, entries)
    res = ndarray._alloc(plan.shape, a.dtype) if out is None else out
    if res.size == 0:
        return res
    sizes, src, _, arrs, ast, big = _layout(plan, entries)
    nd = len(sizes)
    it = a.dtype.itemsize
    ctypes_ = tuple(_dt.ctype(x.dtype) for x in arrs)
    key = (c_identifier(f"cuarray_gather_{it}_{nd}_{''.join(x.dtype.char for x in arrs)}_{mode}_"
                        f"{int(big)}"),)
    vals = [a._ptr + plan.offset, res._ptr]
    _array_vals(vals, arrs, plan, ast)
    vals += list(sizes) + list(src) + [res.size]
    _launch(key, lambda: gs_source(key[0], "gather", nd, ctypes_, big, mode, _RAW[it]), vals, res.size)
    return res


def scatter_kernel(a, plan, entries, value, tag, stmt="*({T}*)_p = _v;", preamble="",
                   elem=None, vdtype=None, serial=False, mode="wrap", check=True):
    """Run `stmt` on every element of `a` addressed by the plan.

    value: None, ('scalar', numpy scalar) or ('array', device array broadcastable to the
    result). `elem`: C type for `{T}` (default: raw bytes of a's itemsize); `vdtype`: the
    value's dtype as the kernel reads it (default: raw bytes). serial: one thread, in order.
    """
    ensure_context()
    if check and mode == "wrap" and check_bounds_enabled():
        _check_arrays(plan, entries)
    _check_empty_axes(plan, entries)
    n = _sh.prod(plan.shape)
    if n == 0:
        return
    it = a.dtype.itemsize
    elem = elem or _RAW[it]
    vmode = value[0] if value else None
    vstrides = None
    if vmode == "array":
        v = value[1]
        if v._mem is a._mem:
            v = v.copy()   # the value must not change while it is written (a[i] = a[::-1])
        vstrides = value_strides(v._shape, v._strides, plan.shape)
    sizes, src, vst, arrs, ast, big = _layout(plan, entries, vstrides)
    nd = len(sizes)
    ctypes_ = tuple(_dt.ctype(x.dtype) for x in arrs)
    vals = [a._ptr + plan.offset]
    if vmode == "array":
        vc = _dt.ctype(vdtype) if vdtype is not None else _RAW[v.dtype.itemsize]
        vspec = ("array", vc)
        vals.append(v._ptr)
        vals.extend(vst)
    elif vmode == "scalar":
        s = value[1]
        if vdtype is not None:
            from cuarray._core.elementwise import _SCALAR_KIND, _append_scalar
            vspec = ("scalar", _dt.ctype(vdtype), _SCALAR_KIND[vdtype.char])
            _append_scalar(vals, s)
        else:
            w = s.dtype.itemsize
            vspec = ("scalar", _RAW[w], _RAW_KIND[w])
            b = s.tobytes()
            vals.append(b if w == 16 else int.from_bytes(b, "little"))
    else:
        vspec = None
    _array_vals(vals, arrs, plan, ast)
    vals += list(sizes) + list(src) + [n]
    stmt = stmt.replace("{T}", elem)
    block, unroll = (1, 1) if serial else (_BLOCK, _UNROLL)
    key = (c_identifier(f"cuarray_scatter_{tag}_{it}_{nd}_{''.join(x.dtype.char for x in arrs)}_"
                        f"{vmode or 'none'}{vspec[1] if vspec else ''}_{mode}_{int(big)}"
                        f"{'_serial' if serial else ''}"), stmt, preamble)
    _launch(key, lambda: gs_source(key[0], "scatter", nd, ctypes_, big, mode, elem, vspec, stmt,
                                   preamble, block, unroll),
            vals, n, block, unroll, 1 if serial else None)


def scatter(a, plan, entries, value, mode="wrap"):
    """a[planned key] = value (broadcast to the result's shape, cast to a's dtype)."""
    vmode, v = _value(value, a.dtype)
    if vmode == "array":
        value_strides(v._shape, v._strides, plan.shape)   # NumPy's error before any work
    scatter_kernel(a, plan, entries, (vmode, v), "set", mode=mode)


# ---- boolean masks: stream compaction --------------------------------------------------------

_STEPS = 16          # elements per thread per tile: a tile is 256 * 16 = 4096 elements
_TILE = _BLOCK * _STEPS
_SCAN_BLOCK = 1024
_compact_kernels = {}

_COMPACT_PRELUDE = r"""
#include <cuarray/core.cuh>
struct cu_b16 { unsigned long long lo, hi; };
#define CU_B 256
#define CU_S 16
#define CU_W 8
template <class T> __device__ __forceinline__ bool _cu_pred(const T& x) { return cuarray_nonzero(x); }
"""


def _mask_ctype(dt):
    # bool masks are read as bytes: any nonzero byte is True, as NumPy reads them
    return "unsigned char" if dt.kind == "b" else _dt.ctype(dt)


def compact_source(name, mctype, mode, nd, elem=None):
    """Count, scan and write kernels of the compaction.

    mode 'select': out[pos] = element e of a strided source; 'coords': the C-order
    coordinates of e go to out[d * _sd + pos * _sp]; 'place': the strided destination's
    element e = vals[pos % nv].
    """
    M = mctype
    count = (
        f'extern "C" __global__ void {name}_count(const {M}* __restrict__ _m, const long long _n,'
        " long long* __restrict__ _cnt) {\n"
        "  const long long base = (long long)blockIdx.x * (CU_B * CU_S);\n"
        "  int c = 0;\n"
        "  #pragma unroll\n"
        "  for (int k = 0; k < CU_S; ++k) { const long long e = base + k * CU_B + threadIdx.x;"
        " if (e < _n) c += _cu_pred(_m[e]); }\n"
        "  #pragma unroll\n"
        "  for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);\n"
        "  __shared__ int s[CU_W];\n"
        "  if ((threadIdx.x & 31) == 0) s[threadIdx.x >> 5] = c;\n"
        "  __syncthreads();\n"
        "  if (threadIdx.x == 0) { int t = 0; for (int w = 0; w < CU_W; ++w) t += s[w]; _cnt[blockIdx.x] = t; }\n"
        "}\n")
    scan = (
        f'extern "C" __global__ void {name}_scan(long long* __restrict__ _cnt, const long long _nt) {{\n'
        "  __shared__ long long s[32];\n"
        "  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
        "  long long carry = 0;\n"
        f"  for (long long b = 0; b < _nt; b += {_SCAN_BLOCK}) {{\n"
        "    const long long i = b + threadIdx.x;\n"
        "    const long long v = i < _nt ? _cnt[i] : 0;\n"
        "    long long x = v;\n"
        "    #pragma unroll\n"
        "    for (int o = 1; o < 32; o <<= 1) { const long long y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }\n"
        "    if (lane == 31) s[w] = x;\n"
        "    __syncthreads();\n"
        "    if (w == 0) {\n"
        "      long long t = s[lane];\n"
        "      #pragma unroll\n"
        "      for (int o = 1; o < 32; o <<= 1) { const long long y = __shfl_up_sync(0xffffffffu, t, o); if (lane >= o) t += y; }\n"
        "      s[lane] = t;\n"
        "    }\n"
        "    __syncthreads();\n"
        "    if (i < _nt) _cnt[i] = carry + (w ? s[w - 1] : 0) + x - v;\n"
        "    carry += s[31];\n"
        "    __syncthreads();\n"
        "  }\n"
        "  if (threadIdx.x == 0) _cnt[_nt] = carry;\n"
        "}\n")
    if mode == "coords":
        params = "long long* __restrict__ _out, const long long _sd, const long long _sp" + \
            "".join(f", const long long _sh{d}" for d in range(nd))
        write = ["long long _r = e;"]
        for d in range(nd - 1, 0, -1):
            write.append(f"_out[{d} * _sd + pos * _sp] = _r % _sh{d}; _r /= _sh{d};")
        write.append("_out[pos * _sp] = _r;")
    else:
        strided = "".join(f", const long long _sh{d}, const long long _st{d}" for d in range(nd))
        addr = ["long long _r = e, _o = 0;"]
        for d in range(nd - 1, 0, -1):
            addr.append(f"_o += (_r % _sh{d}) * _st{d}; _r /= _sh{d};")
        addr.append("_o += _r * _st0;")
        if mode == "select":
            params = f"const char* __restrict__ _src, {elem}* __restrict__ _out" + strided
            write = addr + [f"_out[pos] = *(const {elem}*)(_src + _o);"]
        else:
            params = f"char* __restrict__ _dst, const {elem}* __restrict__ _vals, const long long _nv" + strided
            write = addr + [f"*({elem}*)(_dst + _o) = _vals[pos % _nv];"]
    body = " ".join(write)
    wr = (
        f'extern "C" __global__ void {name}_write(const {M}* __restrict__ _m, const long long _n,'
        f" const long long* __restrict__ _offs, {params}) {{\n"
        "  __shared__ int s[CU_S * CU_W];\n"
        "  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
        "  const long long base = (long long)blockIdx.x * (CU_B * CU_S);\n"
        "  unsigned bal[CU_S];\n"
        "  #pragma unroll\n"
        "  for (int k = 0; k < CU_S; ++k) {\n"
        "    const long long e = base + k * CU_B + threadIdx.x;\n"
        "    bal[k] = __ballot_sync(0xffffffffu, e < _n && _cu_pred(_m[e]));\n"
        "    if (lane == 0) s[k * CU_W + w] = __popc(bal[k]);\n"
        "  }\n"
        "  __syncthreads();\n"
        "  if (w == 0) {  // exclusive scan of the 128 (step, warp) counts, 4 per lane, in element order\n"
        "    const int v0 = s[4 * lane], v1 = s[4 * lane + 1], v2 = s[4 * lane + 2], v3 = s[4 * lane + 3];\n"
        "    const int t = v0 + v1 + v2 + v3;\n"
        "    int x = t;\n"
        "    #pragma unroll\n"
        "    for (int o = 1; o < 32; o <<= 1) { const int y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }\n"
        "    const int ex = x - t;\n"
        "    s[4 * lane] = ex; s[4 * lane + 1] = ex + v0; s[4 * lane + 2] = ex + v0 + v1; s[4 * lane + 3] = ex + v0 + v1 + v2;\n"
        "  }\n"
        "  __syncthreads();\n"
        "  const long long t0 = _offs[blockIdx.x];\n"
        "  const unsigned lt = (1u << lane) - 1u;\n"
        "  #pragma unroll\n"
        "  for (int k = 0; k < CU_S; ++k) {\n"
        "    if ((bal[k] >> lane) & 1u) {\n"
        "      const long long e = base + k * CU_B + threadIdx.x;\n"
        "      const long long pos = t0 + s[k * CU_W + w] + __popc(bal[k] & lt);\n"
        f"      {body}\n"
        "    }\n"
        "  }\n"
        "}\n")
    return "\n".join([_COMPACT_PRELUDE, count, scan, wr])


def _compact_fns(mdt, mode, nd, it):
    key = (mdt.char, mode, nd, it)
    fns = _compact_kernels.get(key)
    if fns is None:
        name = c_identifier(f"cuarray_compact_{mdt.char}_{mode}_{nd}_{it}")
        src = compact_source(name, _mask_ctype(mdt), mode, nd, _RAW.get(it))
        mod = compile_module(src, (), name=name)
        if mode == "coords":
            wk = ["P", "q", "P", "P", "q", "q"] + ["q"] * nd
        elif mode == "select":
            wk = ["P", "q", "P", "P", "P"] + ["q"] * (2 * nd)
        else:
            wk = ["P", "q", "P", "P", "P", "q"] + ["q"] * (2 * nd)
        fns = _compact_kernels[key] = (
            (mod.get_function(name + "_count"), ArgPacker(["P", "q", "P"])),
            (mod.get_function(name + "_scan"), ArgPacker(["P", "q"])),
            (mod.get_function(name + "_write"), ArgPacker(wk)))
    return fns


def _c_mask(m):
    if not m._c_contig:
        m = m.copy()
    return m


def _tiles(m, fns):
    """Launch count + scan; returns (tile offsets array with the total last, tile count)."""
    n = m.size
    nt = (n + _TILE - 1) // _TILE
    offs = ndarray._alloc((nt + 1,), _I64)
    sp = _stream.current_stream_ptr()
    (cfn, cpk), (sfn, spk), _ = fns
    cfn.launch((nt, 1, 1), (_BLOCK, 1, 1), cpk.pack([m._ptr, n, offs._ptr]), 0, sp)
    sfn.launch((1, 1, 1), (_SCAN_BLOCK, 1, 1), spk.pack([offs._ptr, nt]), 0, sp)
    return offs, nt


def _total(offs, nt):
    return int(offs[nt:nt + 1].get()[0])   # the one host read: it sizes the result


def _strided(a):
    """(sizes, strides) of `a` with C-order neighbours merged, for strided addressing."""
    sizes, (st,) = collapse_dims(list(a._shape), [list(a._strides)])
    if not sizes:
        return (1,), (0,)
    return sizes, st


def count_true(mask):
    """Number of nonzero elements of a device array (synchronises)."""
    ensure_context()
    if mask.size == 0:
        return 0
    m = _c_mask(mask)
    fns = _compact_fns(m.dtype, "coords", 1, 0)
    offs, nt = _tiles(m, fns)
    return _total(offs, nt)


def compress_flat(mask, src):
    """src[mask] for a mask of src's shape: the selected elements in C order (1-D).
    Reads the selected count on the host (synchronises)."""
    ensure_context()
    if mask.size != src.size:
        raise ValueError(f"mask of size {mask.size} does not match the array of size {src.size}")
    if mask.size == 0:
        return ndarray._alloc((0,), src.dtype)
    m = _c_mask(mask)
    sizes, st = _strided(src)
    nd, it = len(sizes), src.dtype.itemsize
    fns = _compact_fns(m.dtype, "select", nd, it)
    offs, nt = _tiles(m, fns)
    total = _total(offs, nt)
    out = ndarray._alloc((total,), src.dtype)
    if total:
        vals = [m._ptr, m.size, offs._ptr, src._ptr, out._ptr]
        for n, s in zip(sizes, st):
            vals += [n, s]
        wfn, wpk = fns[2]
        wfn.launch((nt, 1, 1), (_BLOCK, 1, 1), wpk.pack(vals), 0, _stream.current_stream_ptr())
    return out


def nonzero_coords(a, rows_first=True):
    """Coordinates of a's nonzero elements in C order as one int64 array: (ndim, count) when
    rows_first (nonzero), else (count, ndim) (argwhere). Synchronises once for the count."""
    ensure_context()
    nd = max(a.ndim, 1)
    shape = a._shape or (1,)
    if a.size == 0:
        return ndarray._alloc((nd, 0) if rows_first else (0, nd), _I64)
    m = _c_mask(a)
    fns = _compact_fns(m.dtype, "coords", nd, 0)
    offs, nt = _tiles(m, fns)
    total = _total(offs, nt)
    out = ndarray._alloc((nd, total) if rows_first else (total, nd), _I64)
    if total:
        sd, sp = (total, 1) if rows_first else (1, nd)
        vals = [m._ptr, m.size, offs._ptr, out._ptr, sd, sp] + list(shape)
        wfn, wpk = fns[2]
        wfn.launch((nt, 1, 1), (_BLOCK, 1, 1), wpk.pack(vals), 0, _stream.current_stream_ptr())
    return out


def nonzero(a):
    """Indices of the nonzero elements, one int64 array per axis (rows of one buffer)."""
    c = nonzero_coords(a)
    return tuple(c[d] for d in range(c.shape[0]))


def place_flat(dst, mask, vals, total=None):
    """dst.flat[i] = vals[k % vals.size] for the k-th True element i of mask (C order);
    `vals` a 1-D device array of dst's dtype. No host read."""
    ensure_context()
    if mask.size == 0 or vals.size == 0:
        return
    m = _c_mask(mask)
    v = vals if vals._c_contig else vals.copy()
    if v._mem is dst._mem:
        v = v.copy()
    sizes, st = _strided(dst)
    nd, it = len(sizes), dst.dtype.itemsize
    fns = _compact_fns(m.dtype, "place", nd, it)
    offs, nt = _tiles(m, fns)
    args = [m._ptr, m.size, offs._ptr, dst._ptr, v._ptr, v.size]
    for n, s in zip(sizes, st):
        args += [n, s]
    wfn, wpk = fns[2]
    wfn.launch((nt, 1, 1), (_BLOCK, 1, 1), wpk.pack(args), 0, _stream.current_stream_ptr())


_mask_ops = {}


def mask_fill(a, mask, v):
    """a[mask] = v for a mask of a's shape and a scalar or one-element value: one
    elementwise pass, no host read."""
    from cuarray._core.elementwise import Op, Param
    role = "in" if isinstance(v, ndarray) else "scalar"
    key = (a.dtype.char, role)
    op = _mask_ops.get(key)
    if op is None:
        op = _mask_ops[key] = Op(f"cuarray_mask_fill_{a.dtype.char}_{role}",
                                 [Param("m", "in", _BOOL), Param("v", role, a.dtype),
                                  Param("x", "out", a.dtype)], "x = v;", guard="m")
    if a.size:
        op.launch((mask if mask.dtype == _BOOL else mask.astype(_BOOL), v, a))


def _mask_assign(a, mask, value):
    vmode, v = _value(value, a.dtype)
    if vmode == "scalar":
        return mask_fill(a, mask, v)
    if v.ndim > 1:
        raise TypeError(f"NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                        f"input, input has {v.ndim} dimensions")
    if v.size == 1:
        return mask_fill(a, mask, v.reshape(()))
    total = count_true(mask)
    if v.size != total:
        raise ValueError(f"NumPy boolean array indexing assignment cannot assign {v.size} input "
                         f"values to the {total} output values where the mask is true")
    place_flat(a, mask, v)
