"""Discrete Fourier transforms on cuFFT (cuarray version of `numpy.fft`'s transforms).

Each call is planned in three pure steps, then run:
1. `_cook_1d` / `_cook_nd`: NumPy's argument rules give the axes and the length `n` of
   each 1-D transform (with NumPy's errors and deprecation warnings);
2. `_cook`: crop (a view) or zero-pad the input to the lengths cuFFT reads, and convert
   it to the dtype cuFFT reads (as CuPy: float16/float32/complex64 stay single precision,
   everything else is double);
3. `_passes`: split the axes into cuFFT plans of up to three axes each
   (`config.enable_nd_planning`), then each plan runs on the arrays as they lie when
   `cufft.plan_layout` finds a layout (and the pointers are aligned as cuFFT needs),
   else on a transposed dense copy.
Normalisation is one scaling kernel at the end, when the norm mode asks for one. A call
that needs no copy and one plan is memoised whole (`_recipe`): repeating it costs one
plan-cache lookup, one allocation and one cuFFT execution.

Inverse real transforms follow NumPy's definition exactly: the imaginary parts of the 0
and n/2 terms are dropped first (cuFFT's C2R leaves their effect undefined), and several
axes run as inverse complex transforms over the leading axes, then a 1-D C2R over the
last, never as one N-D C2R plan (cuFFT's assumes Hermitian symmetry along every axis).
"""
import functools
import math
import operator
import warnings

import numpy
from numpy.lib.array_utils import normalize_axis_index

from cuarray._core._copy import byte_extent
from cuarray._core._kernel_helpers import Cache
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray._libs import cufft as _cufft
from cuarray._libs import cufft_context as _plan_context
from cuarray._runtime.device import ensure_context
from cuarray._runtime.memory import OutOfMemoryError, get_default_memory_pool
from cuarray.fft import _callbacks, config

_F32, _F64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
_C64, _C128 = numpy.dtype(numpy.complex64), numpy.dtype(numpy.complex128)
_NORMS = (None, "backward", "ortho", "forward")
_SINGLE_TYPES = tuple(v for k, v in _cufft.TYPES.items() if k[1] == "F")
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


# ---- argument rules (pure: no device needed) ------------------------------------------------

def _check_array(a, name):
    if not isinstance(a, ndarray):
        raise not_device_error(name, a, "cuarray.fft.")


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')


def _swap_direction(norm):
    _check_norm(norm)
    return _SWAP[norm]


def _dtypes(dtype, value_type, name):
    """(dtype cuFFT reads, dtype of the result) for an input dtype, as CuPy converts."""
    single = dtype.char in "efF"
    if value_type == "R2C":
        if dtype.kind == "c":
            raise TypeError(f"cuarray.fft.{name} needs real input, got {dtype}; pass x.real, or "
                            "use the complex transform")
        return (_F32, _C64) if single else (_F64, _C128)
    c = _C64 if single else _C128
    if value_type == "C2R":
        return c, (_F32 if single else _F64)
    return c, c


def _scale_factor(norm, forward, n):
    """The factor NumPy applies for `norm`, or None for none."""
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if (norm == "forward") == forward:
        return 1.0 / n
    return None


def _invalid_n(n):
    return ValueError(f"Invalid number of FFT data points ({n}) specified.")


def _cook_1d(shape, n, axis, value_type):
    """((axis,), (n,)) of a 1-D transform, with NumPy's defaults and errors."""
    if n is not None:
        n = operator.index(n)
        if n < 1:
            raise _invalid_n(n)
    axis = normalize_axis_index(axis, len(shape))
    if n is None:
        n = 2 * (shape[axis] - 1) if value_type == "C2R" else shape[axis]
        if n < 1:
            raise _invalid_n(n)
    return (axis,), (n,)


_AXES_DEPRECATION = (
    "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future "
    "version of NumPy, this will raise an error and `s[i]` will correspond to the size along "
    "the transformed axis specified by `axes[i]`. To retain current behaviour, pass a sequence "
    "[0, ..., k-1] to `axes` for an array of dimension k.")
_NONE_DEPRECATION = (
    "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will raise "
    "an error in a future version of NumPy. To use the default behaviour of the corresponding "
    "1-D transform, pass the value matching the default for its `n` parameter. To use the "
    "default behaviour for every axis, the `s` argument can be omitted.")


def _cook_nd(shape, s, axes, value_type, name, stacklevel=4):
    """(axes, lengths) of an N-D transform: NumPy's `_cook_nd_args`, checks and warnings.

    `stacklevel` points deprecation warnings at the user's call.
    """
    ndim = len(shape)
    shapeless = s is None
    if axes is not None:
        axes = [normalize_axis_index(ax, ndim) for ax in axes]
    if s is None:
        s = list(shape) if axes is None else [shape[ax] for ax in axes]
    else:
        s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn(_AXES_DEPRECATION, DeprecationWarning, stacklevel=stacklevel)
        axes = [normalize_axis_index(ax, ndim) for ax in range(-len(s), 0)]
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if not axes and value_type != "C2C":
        raise IndexError(f"cuarray.fft.{name} needs at least one axis to transform")
    if value_type == "C2R" and shapeless:
        s[-1] = (shape[axes[-1]] - 1) * 2
    if any(x is None for x in s):
        warnings.warn(_NONE_DEPRECATION, DeprecationWarning, stacklevel=stacklevel)
    lengths = []
    for k, (x, ax) in enumerate(zip(s, axes)):
        if x is None:
            x = 2 * (shape[ax] - 1) if value_type == "C2R" and k == len(axes) - 1 else shape[ax]
        elif x == -1:
            x = shape[ax]  # NumPy 2: -1 takes the input's length
        else:
            x = operator.index(x)
        lengths.append(x)
    # NumPy runs its 1-D transforms in this order; the first invalid length is reported.
    k = len(axes)
    order = list(range(k - 1)) + [k - 1] if value_type == "C2R" else \
        [k - 1] + list(range(k - 2, -1, -1))
    for i in order if k else ():
        if lengths[i] < 1:
            raise _invalid_n(lengths[i])
    return tuple(axes), tuple(lengths)


def _out_shape(shape, axes, lengths, value_type):
    """Shape of the result of transforming `shape` over `axes` to `lengths`."""
    out = list(shape)
    for ax, n in zip(axes, lengths):
        out[ax] = n
    if value_type == "R2C":
        out[axes[-1]] = lengths[-1] // 2 + 1
    return tuple(out)


def _in_lengths(lengths, value_type):
    """Lengths cuFFT reads along the axes: a C2R of length n reads n // 2 + 1 points."""
    if value_type == "C2R":
        return lengths[:-1] + (lengths[-1] // 2 + 1,)
    return lengths


def _c2c_passes(shape, axes, nd):
    # Length-1 axes are identities. NumPy transforms the last listed axis first.
    rev = [ax for ax in reversed(axes) if shape[ax] > 1]
    if not nd:
        return [((ax,), "C2C") for ax in rev]
    return [(tuple(reversed(rev[i:i + 3])), "C2C") for i in range(0, len(rev), 3)]


@functools.lru_cache(maxsize=1024)
def _passes(shape, axes, value_type, nd):
    """The cuFFT plans, in order, for distinct `axes` of an input of (cooked) `shape`.

    A list of (plan axes, value type); the real axis of an R2C/C2R plan comes last.
    """
    if value_type == "C2C":
        return tuple(_c2c_passes(shape, axes, nd))
    last, rest = axes[-1], axes[:-1]
    if value_type == "C2R":
        return tuple(_c2c_passes(shape, rest, nd) + [((last,), "C2R")])
    big = [ax for ax in rest if shape[ax] > 1]
    if nd and shape[last] > 1:
        return tuple([(tuple(big[-2:]) + (last,), "R2C")] + _c2c_passes(shape, big[:-2], nd))
    return tuple([((last,), "R2C")] + _c2c_passes(shape, big, nd))


@functools.lru_cache(maxsize=1024)
def _layout(in_shape, in_strides, in_item, out_shape, out_strides, out_item, plan_axes):
    return _cufft.plan_layout(in_shape, in_strides, in_item, out_shape, out_strides, out_item,
                              plan_axes)


def _aligned(in_ptr, out_ptr, offsets, align):
    """cuFFT needs its pointers aligned to the complex type, every execution's too."""
    return all((in_ptr + di) % align == 0 and (out_ptr + do) % align == 0 for di, do in offsets)


def _c_strides(shape, itemsize):
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _plan_order(plan_axes, value_type, strides):
    """Plan axes outermost first, as memory has them; an R2C/C2R real axis stays last."""
    if value_type == "C2C":
        return tuple(sorted(plan_axes, key=lambda ax: -strides[ax]))
    return tuple(sorted(plan_axes[:-1], key=lambda ax: -strides[ax])) + (plan_axes[-1],)


@functools.lru_cache(maxsize=1024)
def _recipe(shape, strides, dtype, axes, lengths, value_type, forward, norm, nd):
    """Everything but the arrays for a call that is one plan from `a` as it lies into a new
    C-ordered result (no crop, pad, conversion or copy), or None.

    (result shape, result dtype, plan key less the device, execution offsets, direction,
    scale factor): the repeated-call path is then one plan-cache lookup, one allocation
    and one cuFFT execution.
    """
    in_dtype, out_dtype = _dtypes(dtype, value_type, "")
    if (in_dtype != dtype or value_type == "C2R" or len(set(axes)) != len(axes) or
            any(n != shape[ax] for ax, n in zip(axes, lengths)) or 0 in shape):
        return None
    nd_ = len(shape)
    if nd_ > 1 and sorted(range(nd_), key=lambda i: -abs(strides[i])) != list(range(nd_)):
        return None  # the slow path allocates the result in the input's axis order
    passes = _passes(shape, axes, value_type, nd)
    if len(passes) != 1:
        return None
    plan_axes, vt = passes[0]
    plan_axes = _plan_order(plan_axes, vt, strides)
    out_shape = _out_shape(shape, axes, lengths, value_type)
    layout = _layout(shape, strides, dtype.itemsize, out_shape,
                     _c_strides(out_shape, out_dtype.itemsize), out_dtype.itemsize, plan_axes)
    if layout is None:
        return None
    n = tuple(shape[ax] for ax in plan_axes)
    if n == (1,) and vt != "C2C":
        return None  # a one-point real transform is a copy (see _execute)
    single = dtype in (_F32, _C64)
    fft_type = _cufft.TYPES[(vt, "F" if single else "D")]
    key = _cufft.plan_key(fft_type, n, layout, None)[:-1]
    offsets = _cufft.loop_offsets(layout.loops)
    align = 8 if single else 16
    if not _aligned(0, 0, offsets, align):
        return None
    direction = _cufft.FORWARD if forward else _cufft.INVERSE
    return out_shape, out_dtype, key, offsets, direction, \
        _scale_factor(norm, forward, math.prod(lengths)), align


# ---- device work ---------------------------------------------------------------------------

_ops = Cache()  # (kind, dtype char) -> Op


def _op(kind, dtype):
    """Elementwise kernels of this module: scaling, conjugation, both."""
    op = _ops.get((kind, dtype.char))  # the warm path: one dictionary lookup
    return op if op is not None else _ops((kind, dtype.char), lambda: _build_op(kind, dtype))


def _build_op(kind, dtype):
    from cuarray._core.elementwise import Op, Param
    body = {"scale": "y = x * f;", "conj": "y = conj(x);", "conj_scale": "y = conj(x) * f;"}[kind]
    params = [Param("x", "in", dtype), Param("y", "out", dtype)]
    if kind != "conj":
        params.insert(1, Param("f", "scalar", dtype))
    return Op(f"cuarray_fft_{kind}_{dtype.char}", params, body)


def _scale(x, factor, conj=False):
    """x *= factor (and x = conj(x)) in place."""
    if factor is None:
        if conj:
            _op("conj", x.dtype).launch((x, x))
        return
    _op("conj_scale" if conj else "scale", x.dtype).launch((x, x.dtype.type(factor), x))


def _empty(shape, dtype):
    return ndarray._alloc(tuple(shape), dtype, "C")


def _empty_like_order(a, shape, dtype):
    """A dense array of `shape` whose axes lie in memory in `a`'s order (NumPy's order='K'),
    so that a layout that fits `a` fits it too."""
    nd = len(shape)
    if a._c_contig or nd < 2:
        return _empty(shape, dtype)
    strides = a._strides
    perm = sorted(range(nd), key=lambda i: -abs(strides[i]))
    if perm == list(range(nd)):
        return _empty(shape, dtype)
    inv = [0] * nd
    for k, p in enumerate(perm):
        inv[p] = k
    return _empty([shape[p] for p in perm], dtype).transpose(inv)


def _same_memory(x, y):
    return x._ptr == y._ptr and x._strides == y._strides and x._shape == y._shape


def _overlap(x, y):
    (xl, xh), (yl, yh) = byte_extent(x), byte_extent(y)
    return xl < yh and yl < xh


def _cook(a, axes, lengths, dtype, owned):
    """Crop (a view) or zero-pad `a` to `lengths` along `axes` and convert it to `dtype`.

    Returns (array, owned): owned is True when the array is a buffer of this call's,
    which later passes may overwrite.
    """
    shape = a._shape
    crop = None
    pad = False
    for ax, n in zip(axes, lengths):
        if n < shape[ax]:
            crop = crop or [slice(None)] * len(shape)
            crop[ax] = slice(0, n)
        elif n > shape[ax]:
            pad = True
    if crop is not None:
        a = a[tuple(crop)]
    if pad:
        new = list(a._shape)
        for ax, n in zip(axes, lengths):
            new[ax] = n
        z = _empty(new, dtype)
        z.data.memset_async(0, z.nbytes)
        z[tuple(slice(0, m) for m in a._shape)] = a
        return z, True
    if a.dtype != dtype:
        return a.astype(dtype), True
    return a, owned


def _plan_for(key):
    if _plan_context.get_current_plan() is not None:
        return _plan_context.plan_for(key)  # a plan entered with `with plan:`
    if config.use_multi_gpus and key[0] in (0x29, 0x69) and len(key[1]) == 1:
        raise RuntimeError("multi-GPU cuFFT (cuarray.fft.config.use_multi_gpus = True) is not "
                           "available in cuarray; set use_multi_gpus = False")
    callbacks = _callbacks.current()
    if callbacks is not None:
        return _callback_plan(key, callbacks)
    cache = config.get_plan_cache()
    plan = cache.get(key)
    if plan is None:
        try:
            plan = _cufft.Plan(key)
        except Exception as e:
            if not (isinstance(e, OutOfMemoryError) or _cufft.is_alloc_failure(e)):
                raise
            # Cached plans' work areas go back to the pool, and the pool's cached blocks to
            # the driver (cuFFT allocates its own tables there); then try once more.
            cache.clear()
            get_default_memory_pool().free_all_blocks()
            plan = _cufft.Plan(key)
        cache._put(key, plan)
    return plan


def _callback_plan(key, callbacks):
    """A plan carrying `callbacks`, cached apart from plain plans of the same layout."""
    cache = config.get_plan_cache()
    ckey = key + (callbacks.key,)
    plan = cache.get(ckey)
    if plan is None:
        plan = _cufft.Plan(key, callbacks=callbacks)
        cache._put(ckey, plan)
    return plan


def _launch(a, res, layout, fft_type, n, direction):
    plan = _plan_for(_cufft.plan_key(fft_type, n, layout, ensure_context()))
    plan.execute(a._ptr, res._ptr, direction, _cufft.loop_offsets(layout.loops))


def _drop_dc_nyquist_imag(a, ax, n):
    """Zero the imaginary parts that NumPy's irfft ignores (the 0 and n/2 terms)."""
    idx = [slice(None)] * a.ndim
    idx[ax] = slice(0, 1) if n % 2 else slice(0, n // 2 + 1, n // 2)
    a[tuple(idx)].imag.fill(0)


def _execute(a, plan_axes, value_type, direction, n_last, out, owned):
    """One cuFFT plan over `plan_axes` of `a` (already in the dtype cuFFT reads).

    The result goes to `out` when its dtype and layout allow, else to a new array, or
    in place when `a` is this call's own buffer (C2C).
    """
    shape, strides = a._shape, a._strides
    last = plan_axes[-1]
    plan_axes = _plan_order(plan_axes, value_type, strides)
    if value_type == "C2C":
        out_shape, out_dtype = shape, a.dtype
        n = [shape[ax] for ax in plan_axes]
    else:
        out_shape = list(shape)
        if value_type == "R2C":
            out_shape[last] = shape[last] // 2 + 1
            out_dtype = _C64 if a.dtype == _F32 else _C128
        else:
            out_shape[last] = n_last
            out_dtype = _F32 if a.dtype == _C64 else _F64
        out_shape = tuple(out_shape)
        n = [shape[ax] for ax in plan_axes]
        n[-1] = n_last if value_type == "C2R" else shape[last]
    if value_type != "C2C" and n == [1]:
        # A one-point real transform is x[0] <-> X[0].real: a copy, no plan.
        res = out if out is not None and out.dtype == out_dtype and not _overlap(out, a) \
            else _empty_like_order(a, out_shape, out_dtype)
        res[...] = a if value_type == "R2C" else a.real
        return res
    fft_type = _cufft.TYPES[(value_type, "F" if a.dtype in (_F32, _C64) else "D")]
    if value_type == "C2R":
        if not owned:  # cuFFT's C2R overwrites its input: work on a dense copy
            return _execute_dense(a, plan_axes, value_type, direction, n, out_shape, out_dtype,
                                  fft_type, n_last)
        _drop_dc_nyquist_imag(a, last, n_last)
    res = layout = None
    if (out is not None and out.dtype == out_dtype and
            ((value_type == "C2C" and _same_memory(out, a)) or not _overlap(out, a))):
        res = out
    elif value_type == "C2C" and owned:
        res = a  # in place on this call's own buffer
    if res is not None:
        layout = _layout(shape, strides, a.dtype.itemsize, out_shape, res._strides,
                         out_dtype.itemsize, plan_axes)
        if layout is not None and res._ptr == a._ptr and layout.inembed is not None:
            layout = None  # in place only over dense batches, the layout cuFFT documents for it
    if layout is None:
        res = _empty_like_order(a, out_shape, out_dtype)
        layout = _layout(shape, strides, a.dtype.itemsize, out_shape, res._strides,
                         out_dtype.itemsize, plan_axes)
    align = 8 if fft_type in _SINGLE_TYPES else 16
    if layout is not None and not _aligned(a._ptr, res._ptr, _cufft.loop_offsets(layout.loops),
                                           align):
        layout = None  # e.g. a view starting one float in: copy to a fresh, aligned buffer
    if layout is None:
        return _execute_dense(a, plan_axes, value_type, direction, n, out_shape, out_dtype,
                              fft_type, n_last)
    _launch(a, res, layout, fft_type, n, direction)
    return res


def _execute_dense(a, plan_axes, value_type, direction, n, out_shape, out_dtype, fft_type,
                   n_last):
    """The plan over a C-ordered copy of `a` whose last axes are `plan_axes`.

    Returns a transposed view of the dense result, in `a`'s axis order.
    """
    nd = a.ndim
    perm = [ax for ax in range(nd) if ax not in plan_axes] + list(plan_axes)
    at = a.transpose(perm).copy()
    k = len(plan_axes)
    tail = tuple(range(nd - k, nd))
    if value_type == "C2R":
        _drop_dc_nyquist_imag(at, nd - 1, n_last)
    rt = at if value_type == "C2C" else _empty([out_shape[p] for p in perm], out_dtype)
    layout = _layout(at._shape, at._strides, at.dtype.itemsize, rt._shape, rt._strides,
                     out_dtype.itemsize, tail)
    _launch(at, rt, layout, fft_type, n, direction)
    inv = [0] * nd
    for i, p in enumerate(perm):
        inv[p] = i
    return rt.transpose(inv)


def _check_out(out, shape, dtype, name):
    if not isinstance(out, ndarray):
        raise TypeError(f"cuarray.fft.{name}: out must be a cuarray.ndarray, got "
                        f"{type(out).__name__}")
    if out._shape != shape:
        raise ValueError("output array has wrong shape.")
    if not numpy.can_cast(dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast cuarray.fft.{name} output from {dtype!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")


def _run(a, axes, lengths, norm, value_type, forward, out, owned, name):
    """Transform `a` over normalised `axes` to `lengths`, as NumPy's function `name` does."""
    _check_norm(norm)
    in_dtype, out_dtype = _dtypes(a.dtype, value_type, name)
    if out is None and not owned:
        r = _recipe(a._shape, a._strides, a.dtype, axes, lengths, value_type, forward, norm,
                    bool(config.enable_nd_planning))
        if r is not None and a._ptr % r[6] == 0:  # the repeated-call path
            out_shape, out_dtype, key, offsets, direction, factor, _ = r
            plan = _plan_for(key + (ensure_context(),))
            res = ndarray._alloc(out_shape, out_dtype, "C")
            plan.execute(a._ptr, res._ptr, direction, offsets)
            _scale(res, factor)
            return res
    if not axes:  # fftn over no axes: NumPy returns its input
        if out is None:
            return a
        _check_out(out, a._shape, a.dtype, name)
        out[...] = a
        return out
    if len(set(axes)) != len(axes):
        return _run_repeated(a, axes, lengths, norm, value_type, forward, out, owned, name)
    final_shape = _out_shape(a._shape, axes, lengths, value_type)
    if out is not None:
        _check_out(out, final_shape, out_dtype, name)
    a, owned = _cook(a, axes, _in_lengths(lengths, value_type), in_dtype, owned)
    if a.size == 0:
        res = _empty(final_shape, out_dtype)
    else:
        direction = _cufft.FORWARD if forward else _cufft.INVERSE
        passes = _passes(a._shape, axes, value_type, bool(config.enable_nd_planning))
        res = a
        for k, (plan_axes, vt) in enumerate(passes):
            res = _execute(res, plan_axes, vt, direction, lengths[-1],
                           out if k == len(passes) - 1 else None, owned)
            owned = True
        if res is a and not owned:  # only length-1 axes: still a new array, as NumPy's
            res = a.copy()
    factor = _scale_factor(norm, forward, math.prod(lengths))
    if out is None or res is out:
        _scale(res, factor)
        return res
    _scale(res, factor)
    out[...] = res
    return out


def _run_repeated(a, axes, lengths, norm, value_type, forward, out, owned, name):
    """Axes listed twice: one 1-D transform per entry, in NumPy's order, each cropping or
    padding to its own length."""
    k = len(axes)
    if value_type == "C2C":
        steps = [(i, "C2C") for i in reversed(range(k))]
    elif value_type == "R2C":
        steps = [(k - 1, "R2C")] + [(i, "C2C") for i in reversed(range(k - 1))]
    else:
        steps = [(i, "C2C") for i in range(k - 1)] + [(k - 1, "C2R")]
    for j, (i, vt) in enumerate(steps):
        a = _run(a, (axes[i],), (lengths[i],), norm, vt, forward,
                 out if j == len(steps) - 1 else None, owned, name)
        owned = True
    return a


# ---- public functions ----------------------------------------------------------------------

_cook_1d_cached = functools.lru_cache(maxsize=1024)(_cook_1d)


@functools.lru_cache(maxsize=1024)
def _cook_nd_cached(shape, axes, value_type, name):
    return _cook_nd(shape, None, axes, value_type, name)  # s is None: nothing to warn about


def _one(name, a, n, axis, norm, out, value_type, forward, overwrite=False):
    """`overwrite`: the caller gives `a` up (scipy.fft's overwrite_x): an inverse real
    transform then runs on it directly instead of on a copy."""
    _check_array(a, name)
    try:
        axes, lengths = _cook_1d_cached(a._shape, n, axis, value_type)
    except TypeError:  # unhashable arguments: let the rules say what is wrong
        axes, lengths = _cook_1d(a._shape, n, axis, value_type)
    return _run(a, axes, lengths, norm, value_type, forward, out, overwrite, name)


def _many(name, a, s, axes, norm, out, value_type, forward, overwrite=False):
    _check_array(a, name)
    try:
        if s is not None:
            raise TypeError
        axes, lengths = _cook_nd_cached(a._shape, axes, value_type, name)
    except TypeError:  # s given (it may warn), or axes unhashable
        axes, lengths = _cook_nd(a._shape, s, axes, value_type, name)
    return _run(a, axes, lengths, norm, value_type, forward, out, overwrite, name)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform (cuarray version of `numpy.fft.fft`).

    float16/float32/complex64 inputs give complex64, others complex128 (as CuPy).
    """
    return _one("fft", a, n, axis, norm, out, "C2C", True)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D inverse discrete Fourier transform (cuarray version of `numpy.fft.ifft`)."""
    return _one("ifft", a, n, axis, norm, out, "C2C", False)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D discrete Fourier transform (cuarray version of `numpy.fft.fft2`)."""
    return _many("fft2", a, s, axes, norm, out, "C2C", True)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D inverse discrete Fourier transform (cuarray version of `numpy.fft.ifft2`)."""
    return _many("ifft2", a, s, axes, norm, out, "C2C", False)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The N-D discrete Fourier transform (cuarray version of `numpy.fft.fftn`).

    Up to three axes run as one cuFFT plan (see `cuarray.fft.config.enable_nd_planning`).
    """
    return _many("fftn", a, s, axes, norm, out, "C2C", True)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The N-D inverse discrete Fourier transform (cuarray version of `numpy.fft.ifftn`)."""
    return _many("ifftn", a, s, axes, norm, out, "C2C", False)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-D discrete Fourier transform of real input (cuarray version of `numpy.fft.rfft`)."""
    return _one("rfft", a, n, axis, norm, out, "R2C", True)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of `rfft` (cuarray version of `numpy.fft.irfft`).

    float16/float32/complex64 inputs give float32, others float64 (as CuPy).
    """
    return _one("irfft", a, n, axis, norm, out, "C2R", False)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-D discrete Fourier transform of real input (cuarray version of `numpy.fft.rfft2`)."""
    return _many("rfft2", a, s, axes, norm, out, "R2C", True)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of `rfft2` (cuarray version of `numpy.fft.irfft2`)."""
    return _many("irfft2", a, s, axes, norm, out, "C2R", False)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The N-D discrete Fourier transform of real input (cuarray version of `numpy.fft.rfftn`)."""
    return _many("rfftn", a, s, axes, norm, out, "R2C", True)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of `rfftn` (cuarray version of `numpy.fft.irfftn`)."""
    return _many("irfftn", a, s, axes, norm, out, "C2R", False)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The FFT of a signal with Hermitian symmetry (cuarray version of `numpy.fft.hfft`)."""
    _check_array(a, "hfft")
    axes, lengths = _cook_1d(a._shape, n, axis, "C2R")
    norm = _swap_direction(norm)
    x = _empty(a._shape, _dtypes(a.dtype, "C2R", "hfft")[0])
    _op("conj", x.dtype).launch((a, x))
    return _run(x, axes, lengths, norm, "C2R", False, out, True, "hfft")


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of `hfft` (cuarray version of `numpy.fft.ihfft`)."""
    _check_array(a, "ihfft")
    axes, lengths = _cook_1d(a._shape, n, axis, "R2C")
    norm = _swap_direction(norm)
    res = _run(a, axes, lengths, "backward", "R2C", True, out, False, "ihfft")
    _scale(res, _scale_factor(norm, True, lengths[0]), conj=True)  # one pass for both
    return res
