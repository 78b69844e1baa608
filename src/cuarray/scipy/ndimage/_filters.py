"""Filters (cuarray version of `scipy.ndimage`'s filter chapter).

Separable filters (correlate1d, uniform, Gaussian, min/max over a box, prewitt, sobel)
run as 1-D line passes, each pass writing the output's dtype as SciPy's do; everything
else runs the N-d tap kernel over the nonzero taps of its weights or footprint.
"""
import warnings

import numpy

import cuarray
from cuarray.scipy.ndimage import _filter_kernels as _k
from cuarray.scipy.ndimage._util import (check_axes, check_axis, check_input, check_mode,
                                         check_origin, contiguous, get_output, host_array,
                                         normalize_sequence, work_output)


def _acc_dtype(dtype, complex_weights=False):
    """What correlations accumulate in: float32 (complex64) for half/single input, as
    CuPy does, float64 (complex128) otherwise."""
    dtype = numpy.dtype(dtype)
    single = dtype.char in "efF"
    if dtype.kind == "c" or complex_weights:
        return numpy.dtype(numpy.complex64 if single else numpy.complex128)
    return numpy.dtype(numpy.float32 if single else numpy.float64)


def _line_passes(input, output, passes, cval, complex_output=False):
    """Run `passes` (axis, kind, weights or size, left, mode) one after another; every pass
    writes the output's dtype, the last one the output itself."""
    out = get_output(output, input, complex_output=complex_output)
    if not passes or input.size == 0:
        if input.size:
            out[...] = input
        return out
    target, finish = work_output(out, [input])
    src = contiguous(input)
    spare = None
    for k, (axis, kind, w, left, mode) in enumerate(passes):
        remaining = len(passes) - 1 - k
        if remaining % 2 == 0:
            dst = target
        else:
            if spare is None:
                spare = cuarray.empty(out.shape, dtype=out.dtype)
            dst = spare
        if dst is src:   # never filter in place
            dst = cuarray.empty(out.shape, dtype=out.dtype)
        acc = _acc_dtype(src.dtype, kind == "corr" and numpy.iscomplexobj(w))
        if kind == "corr":
            w = numpy.asarray(w, dtype=acc)
        _k.run_line(kind, mode, src, dst, axis, w, left, cval, acc)
        src = dst
    if src is not target:
        target[...] = src
    return finish()


def _check_weights_1d(weights):
    weights = host_array(weights)
    if weights.ndim != 1 or weights.shape[0] < 1:
        raise RuntimeError("no filter weights given")
    if weights.dtype.kind not in "biufc":
        raise TypeError(f"weights of type {weights.dtype} not supported")
    return weights


# ---- correlations -------------------------------------------------------------------------

def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """cuarray version of `scipy.ndimage.correlate1d`."""
    input = check_input(input)
    weights = _check_weights_1d(weights)
    axis = check_axis(axis, input.ndim)
    mode = check_mode(mode)
    K = len(weights)
    if not -(K // 2) <= origin <= (K - 1) // 2:
        raise ValueError("Invalid origin; origin must satisfy -(len(weights) // 2) <= "
                         "origin <= (len(weights)-1) // 2")
    cplx = input.dtype.kind == "c" or weights.dtype.kind == "c"
    weights = weights.conj()    # SciPy correlates with conjugated complex weights
    if input.ndim == 0:
        return _line_passes(input.reshape(1), output, [(0, "corr", weights, K // 2 + origin,
                                                        mode)], cval, cplx).reshape(())
    return _line_passes(input, output, [(axis, "corr", weights, K // 2 + origin, mode)],
                        cval, cplx)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """cuarray version of `scipy.ndimage.convolve1d`."""
    weights = _check_weights_1d(weights)[::-1].conj()
    origin = -origin
    if not len(weights) & 1:
        origin -= 1
    return correlate1d(input, weights, axis, output, mode, cval, origin)


def _expand(arr, axes, ndim, fill):
    """An array over `axes` as one over all `ndim` axes (size-1 where not filtered)."""
    if len(axes) == ndim:
        return arr
    shape = [1] * ndim
    for a, s in zip(axes, arr.shape):
        shape[a] = s
    order = numpy.argsort(axes)
    return numpy.transpose(arr, order).reshape(shape) if arr.ndim else numpy.full(shape, fill)


def _origins_full(origins, axes, ndim):
    full = [0] * ndim
    for a, o in zip(axes, origins):
        full[a] = int(o)
    return full


def _tap_offsets(mask, origins):
    """Offsets (nnz x ndim) of the nonzero entries of `mask` for the given origins."""
    idx = numpy.argwhere(mask)
    centre = numpy.array([s // 2 + o for s, o in zip(mask.shape, origins)], dtype=numpy.int64)
    return (idx - centre).astype(numpy.int64), idx


def _run_taps(kind, input, out, mask, origins, mode, cval, values=None, acc=None, rank=None,
              user=None):
    """The N-d tap kernel over the nonzero entries of `mask` (full-rank)."""
    offs, idx = _tap_offsets(mask, origins)
    w = values[tuple(idx.T)] if values is not None else None
    target, finish = work_output(out, [input])
    src = contiguous(input)
    acc = acc if acc is not None else _k.scalar_dtype(src.dtype)
    _k.run_taps(kind, mode, src, target, offs, w, cval, acc, rank, user)
    return finish()


def _correlate_nd(input, weights, output, mode, cval, origin, convolution, axes):
    input = check_input(input)
    weights = host_array(weights)
    if weights.dtype.kind not in "biufc":
        raise TypeError(f"weights of type {weights.dtype} not supported")
    axes = check_axes(axes, input.ndim)
    if weights.ndim != len(axes):
        raise RuntimeError(f"weights.ndim ({weights.ndim}) must match len(axes) ({len(axes)})")
    origins = [int(o) for o in normalize_sequence(origin, len(axes))]
    if convolution:
        weights = weights[tuple([slice(None, None, -1)] * weights.ndim)]
    else:
        weights = weights.conj()    # SciPy correlates with conjugated complex weights
    if convolution:
        origins = [-o - (0 if s & 1 else 1) for o, s in zip(origins, weights.shape)]
    for o, s in zip(origins, weights.shape):
        if not -(s // 2) <= o <= (s - 1) // 2:
            raise ValueError("Invalid origin; origin must satisfy -(weights.shape[k] // 2) "
                             "<= origin[k] <= (weights.shape[k]-1) // 2")
    mode = check_mode(mode)
    cplx = input.dtype.kind == "c" or weights.dtype.kind == "c"
    out = get_output(output, input, complex_output=cplx)
    if input.size == 0:
        return out
    w = _expand(weights, axes, input.ndim, 1)
    full = _origins_full(origins, axes, input.ndim)
    acc = _acc_dtype(input.dtype, weights.dtype.kind == "c")
    if input.ndim == 0:
        out[...] = input * (w.sum() if w.size else 0)
        return out
    return _run_taps("corr", input, out, w != 0, full, mode, cval, w.astype(acc), acc)


def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.correlate`."""
    return _correlate_nd(input, weights, output, mode, cval, origin, False, axes)


def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.convolve`."""
    return _correlate_nd(input, weights, output, mode, cval, origin, True, axes)


# ---- uniform and Gaussian -----------------------------------------------------------------

def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """cuarray version of `scipy.ndimage.uniform_filter1d`."""
    return _filter1d(input, size, axis, output, mode, cval, origin, "mean")


def _filter1d(input, size, axis, output, mode, cval, origin, kind):
    """The running `kind` ('mean', 'min' or 'max'; only 'mean' takes complex input) over
    `size` elements along `axis`."""
    input = check_input(input, complex_ok=kind == "mean")
    axis = check_axis(axis, input.ndim)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    size = int(size)
    check_origin(origin, size)
    mode = check_mode(mode)
    return _line_passes(input, output, [(axis, kind, size, size // 2 + origin, mode)],
                        cval, input.dtype.kind == "c")


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """cuarray version of `scipy.ndimage.uniform_filter`."""
    input = check_input(input)
    axes = check_axes(axes, input.ndim)
    sizes = normalize_sequence(size, len(axes), "size")
    origins = normalize_sequence(origin, len(axes), "origin")
    modes = normalize_sequence(mode, len(axes), "mode")
    passes = []
    for ax, s, o, m in zip(axes, sizes, origins, modes):
        s = int(s)
        if s < 1:
            raise RuntimeError("incorrect filter size")
        check_origin(o, s)
        m = check_mode(m)
        if s > 1:
            passes.append((ax, "mean", s, s // 2 + int(o), m))
    return _line_passes(input, output, passes, cval, input.dtype.kind == "c")


def _gaussian_kernel1d(sigma, order, radius):
    """Samples of the `order`-th derivative of a normalised Gaussian on [-radius, radius].

    The derivative is q(x) * phi(x) with q a polynomial: d/dx (q phi) = (q' - x q / s^2) phi,
    a linear map on q's coefficients applied `order` times (starting from q = 1). The
    arithmetic is laid out as SciPy's (same numpy expressions), so the weights agree to
    the bit and integer outputs truncate alike.
    """
    if order < 0:
        raise ValueError("order must be non-negative")
    powers = numpy.arange(order + 1)
    sigma2 = sigma * sigma
    x = numpy.arange(-radius, radius + 1)
    phi = numpy.exp(-0.5 / sigma2 * x ** 2)
    phi = phi / phi.sum()
    if order == 0:
        return phi
    q = numpy.zeros(order + 1)
    q[0] = 1
    step = numpy.diag(powers[1:], 1) + numpy.diag(numpy.ones(order) / -sigma2, -1)
    for _ in range(order):
        q = step.dot(q)
    return (x[:, None] ** powers).dot(q) * phi


def _gaussian_radius(sigma, truncate, radius):
    if radius is not None:
        lw = radius
    else:
        lw = int(truncate * float(sigma) + 0.5)
    if not isinstance(lw, (int, numpy.integer)) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    return int(lw)


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0,
                      truncate=4.0, *, radius=None):
    """cuarray version of `scipy.ndimage.gaussian_filter1d`."""
    lw = _gaussian_radius(sigma, truncate, radius)
    weights = _gaussian_kernel1d(sigma, int(order), lw)[::-1]
    return correlate1d(input, weights, axis, output, mode, cval, 0)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0,
                    *, radius=None, axes=None):
    """cuarray version of `scipy.ndimage.gaussian_filter`."""
    input = check_input(input)
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    orders = normalize_sequence(order, n, "order")
    sigmas = normalize_sequence(sigma, n, "sigma")
    modes = normalize_sequence(mode, n, "mode")
    radiuses = normalize_sequence(radius, n, "radius")
    truncs = normalize_sequence(truncate, n, "truncate")
    passes = []
    for ax, s, o, m, r, t in zip(axes, sigmas, orders, modes, radiuses, truncs):
        m = check_mode(m)
        if s > 1e-15:
            lw = _gaussian_radius(s, t, r)
            w = _gaussian_kernel1d(s, int(o), lw)[::-1]
            passes.append((ax, "corr", w, lw, m))
    return _line_passes(input, output, passes, cval, input.dtype.kind == "c")


# ---- derivatives ---------------------------------------------------------------------------

def _edge(input, axis, output, mode, cval, smooth):
    input = check_input(input)
    axis = check_axis(axis, input.ndim)
    modes = [check_mode(m) for m in normalize_sequence(mode, input.ndim, "mode")]
    passes = [(axis, "corr", numpy.array([-1.0, 0.0, 1.0]), 1, modes[axis])]
    passes += [(ii, "corr", numpy.array(smooth), 1, modes[ii])
               for ii in range(input.ndim) if ii != axis]
    return _line_passes(input, output, passes, cval, input.dtype.kind == "c")


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """cuarray version of `scipy.ndimage.prewitt`."""
    return _edge(input, axis, output, mode, cval, [1.0, 1.0, 1.0])


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """cuarray version of `scipy.ndimage.sobel`."""
    return _edge(input, axis, output, mode, cval, [1.0, 2.0, 1.0])


def _sum_over_axes(input, derivative, output, mode, cval, extra_arguments, extra_keywords,
                   axes, square):
    """Sum over `axes` of derivative(input, axis, ...) (squared first if `square`), into
    output: the body shared by generic_laplace and generic_gradient_magnitude. True when
    something was summed (no axes: the input itself is copied)."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    if len(axes) == 0:
        if input.size:
            output[...] = input
        return False
    modes = normalize_sequence(mode, len(axes), "mode")
    derivative(input, axes[0], output, modes[0], cval, *extra_arguments, **extra_keywords)
    if square:
        cuarray.multiply(output, output, output)
    for ii in range(1, len(axes)):
        tmp = derivative(input, axes[ii], output.dtype, modes[ii], cval,
                         *extra_arguments, **extra_keywords)
        if square:
            cuarray.multiply(tmp, tmp, tmp)
        output += tmp
    return True


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0,
                    extra_arguments=(), extra_keywords=None, *, axes=None):
    """cuarray version of `scipy.ndimage.generic_laplace`."""
    input = check_input(input)
    output = get_output(output, input)
    axes = check_axes(axes, input.ndim)
    _sum_over_axes(input, derivative2, output, mode, cval, extra_arguments, extra_keywords,
                   axes, False)
    return output


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    """cuarray version of `scipy.ndimage.laplace`."""
    def derivative2(input, axis, output, mode, cval):
        return correlate1d(input, [1, -2, 1], axis, output, mode, cval, 0)
    return generic_laplace(input, derivative2, output, mode, cval, axes=axes)


def _sigma_full(sigma, axes, ndim):
    sig = normalize_sequence(sigma, len(axes), "sigma")
    if len(axes) < ndim:
        full = [0] * ndim
        for s, ax in zip(sig, axes):
            full[ax] = s
        sig = full
    return sig


def _gaussian_derivative(n):
    """A `derivative` for generic_laplace / generic_gradient_magnitude: the Gaussian filter
    differentiating `n` times along `axis`."""
    def derivative(input, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * input.ndim
        order[axis] = n
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)
    return derivative


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None,
                     **kwargs):
    """cuarray version of `scipy.ndimage.gaussian_laplace`."""
    input = check_input(input)
    axes = check_axes(axes, input.ndim)
    sigma = _sigma_full(sigma, axes, input.ndim)
    return generic_laplace(input, _gaussian_derivative(2), output, mode, cval,
                           extra_arguments=(sigma,), extra_keywords=kwargs, axes=axes)


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0,
                               extra_arguments=(), extra_keywords=None, *, axes=None):
    """cuarray version of `scipy.ndimage.generic_gradient_magnitude`."""
    input = check_input(input)
    output = get_output(output, input)
    axes = check_axes(axes, input.ndim)
    if _sum_over_axes(input, derivative, output, mode, cval, extra_arguments, extra_keywords,
                      axes, True):
        cuarray.sqrt(output, output, casting="unsafe")
    return output


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *,
                                axes=None, **kwargs):
    """cuarray version of `scipy.ndimage.gaussian_gradient_magnitude`."""
    input = check_input(input)
    axes = check_axes(axes, input.ndim)
    sigma = _sigma_full(sigma, axes, input.ndim)
    return generic_gradient_magnitude(input, _gaussian_derivative(1), output, mode, cval,
                                      extra_arguments=(sigma,), extra_keywords=kwargs,
                                      axes=axes)


# ---- footprint filters: min/max, rank, generic -----------------------------------------------

def _footprint(input, size, footprint, origin, axes, what="footprint"):
    """(full-rank boolean footprint, full-rank origins, separable sizes or None, axes)."""
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint provided")
        sizes = [int(s) for s in normalize_sequence(size, n, "size")]
        for s in sizes:
            if s < 1:
                raise RuntimeError("incorrect filter size")
        fp = numpy.ones(sizes, dtype=bool)
    else:
        if size is not None:
            warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
        fp = host_array(footprint).astype(bool)
        if fp.ndim != n:
            raise RuntimeError(f"{what}.ndim ({fp.ndim}) must match len(axes) ({n})")
    origins = [int(o) for o in normalize_sequence(origin, n, "origin")]
    for o, s in zip(origins, fp.shape):
        if s // 2 + o < 0 or s // 2 + o >= s:
            raise ValueError("invalid origin")
    return _expand(fp, axes, input.ndim, True), _origins_full(origins, axes, input.ndim), axes


def _min_or_max(input, size, footprint, structure, output, mode, cval, origin, minimum, axes):
    input = check_input(input, complex_ok=False)
    fp_given = footprint is not None
    if structure is not None and footprint is None:
        footprint = numpy.ones(host_array(structure).shape, dtype=bool)
    fp, origins, axes = _footprint(input, size, footprint, origin, axes)
    if fp_given and structure is None and not fp.any():
        raise ValueError("All-zero footprint is not supported.")
    kind = "min" if minimum else "max"
    if structure is None and fp.all():
        modes = normalize_sequence(mode, len(axes), "mode")
        mode_of = {ax: check_mode(m) for ax, m in zip(axes, modes)}
        passes = [(ax, kind, fp.shape[ax], fp.shape[ax] // 2 + origins[ax], mode_of[ax])
                  for ax in axes if fp.shape[ax] > 1]
        return _line_passes(input, output, passes, cval)
    mode = check_mode(mode)
    out = get_output(output, input)
    if input.size == 0:
        return out
    if structure is None:
        return _run_taps(kind, input, out, fp, origins, mode, cval)
    st = _expand(host_array(structure).astype(numpy.float64), axes, input.ndim, 0)
    acc = _acc_dtype(input.dtype)
    return _run_taps("grey_erode" if minimum else "grey_dilate", input, out, fp, origins,
                     mode, cval, st.astype(acc), acc)


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """cuarray version of `scipy.ndimage.minimum_filter1d`."""
    return _filter1d(input, size, axis, output, mode, cval, origin, "min")


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """cuarray version of `scipy.ndimage.maximum_filter1d`."""
    return _filter1d(input, size, axis, output, mode, cval, origin, "max")


def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.minimum_filter`."""
    return _min_or_max(input, size, footprint, None, output, mode, cval, origin, True, axes)


def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.maximum_filter`."""
    return _min_or_max(input, size, footprint, None, output, mode, cval, origin, False, axes)


def _rank(input, rank, size, footprint, output, mode, cval, origin, operation, axes):
    input = check_input(input, complex_ok=False)
    fp, origins, axes = _footprint(input, size, footprint, origin, axes)
    filter_size = int(fp.sum())
    if operation == "median":
        rank = filter_size // 2
    elif operation == "percentile":
        percentile = float(rank)
        if percentile < 0.0:
            percentile += 100.0
        if percentile < 0 or percentile > 100:
            raise RuntimeError("invalid percentile")
        rank = filter_size - 1 if percentile == 100.0 else int(filter_size * percentile / 100.0)
    rank = int(rank)
    if rank < 0:
        rank += filter_size
    if rank < 0 or rank >= filter_size:
        raise RuntimeError("rank not within filter footprint size")
    if rank == 0 or rank == filter_size - 1:
        minimum = rank == 0
        if fp.all():
            return _min_or_max(input, None, fp, None, output, mode, cval, origins, minimum,
                               None)
        mode = check_mode(mode)
        out = get_output(output, input)
        if input.size == 0:
            return out
        return _run_taps("min" if minimum else "max", input, out, fp, origins, mode, cval)
    mode = check_mode(mode)
    out = get_output(output, input)
    if input.size == 0:
        return out
    return _run_taps("rank", input, out, fp, origins, mode, cval, rank=rank)


def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.rank_filter`."""
    return _rank(input, rank, size, footprint, output, mode, cval, origin, "rank", axes)


def median_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                  origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.median_filter`."""
    return _rank(input, 0, size, footprint, output, mode, cval, origin, "median", axes)


def percentile_filter(input, percentile, size=None, footprint=None, output=None,
                      mode="reflect", cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.percentile_filter`."""
    return _rank(input, percentile, size, footprint, output, mode, cval, origin, "percentile",
                 axes)


def _user_function(function, in_dtype=None, out_dtype=None, reduction_ok=True):
    """The `user` description of a RawKernel or ReductionKernel for the kernel generator
    (see _filter_kernels.user_source)."""
    from cuarray._core import dtypes as _dt
    from cuarray._core.kernel import ReductionKernel
    from cuarray._core.raw import RawKernel
    if isinstance(function, RawKernel):
        return ("raw", function.code.replace("__global__", "__device__"), function.name)
    if reduction_ok and isinstance(function, ReductionKernel):
        if function.nin != 1 or function.nout != 1:
            raise TypeError("a ReductionKernel for generic_filter takes one input and one "
                            "output")
        xs, ys = function.in_params[0], function.out_params[0]
        xt = _dt.ctype(in_dtype) if xs.placeholder else _dt.ctype(xs.type)
        yt = _dt.ctype(out_dtype) if ys.placeholder else _dt.ctype(ys.type)
        defs = [f"typedef {xt} X;", f"typedef {yt} Y;"]
        named = {"X", "Y"}
        for s_, alias in ((xs, "X"), (ys, "Y")):
            if s_.placeholder and s_.type not in named:
                named.add(s_.type)
                defs.append(f"typedef {alias} {s_.type};")
        red = function.reduce_type
        if red is None:
            red = "Y"
        else:
            try:
                red = _dt.ctype(numpy.dtype(red))
            except TypeError:
                pass    # a C type name
        return ("reduction", "\n".join(defs) + "\n" + function.preamble, xs.name, ys.name,
                red, function.identity, function.map_expr, function.reduce_expr,
                function.post_map_expr)
    raise TypeError("bad function type: generic_filter takes a cuarray.RawKernel or "
                    "ReductionKernel (as cupyx.scipy.ndimage does), not a Python callable")


def generic_filter(input, function, size=None, footprint=None, output=None, mode="reflect",
                   cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.generic_filter`.

    As CuPy's: `function` is a RawKernel whose function, called once per output, receives
    the values under the footprint as doubles (`(const double* x, int n, double* y)`), or
    a ReductionKernel of one input and one output reduced over those values; no
    extra_arguments or extra_keywords.
    """
    input = check_input(input, complex_ok=False)
    fp, origins, axes = _footprint(input, size, footprint, origin, axes)
    mode = check_mode(mode)
    out = get_output(output, input)
    user = _user_function(function, input.dtype, out.dtype)
    if input.size == 0:
        return out
    return _run_taps("generic", input, out, fp, origins, mode, cval, user=user)


def generic_filter1d(input, function, filter_size, axis=-1, output=None, mode="reflect",
                     cval=0.0, origin=0):
    """cuarray version of `scipy.ndimage.generic_filter1d`.

    As CuPy's: `function` is a RawKernel `(const double* in, ptrdiff_t in_len,
    double* out, ptrdiff_t out_len)` called once per line on the line extended by
    `filter_size - 1` values of the boundary rule.
    """
    user = _user_function(function, reduction_ok=False)
    input = check_input(input, complex_ok=False)
    if filter_size < 1:
        raise RuntimeError("invalid filter size")
    filter_size = int(filter_size)
    axis = check_axis(axis, input.ndim)
    check_origin(origin, filter_size)
    mode = check_mode(mode)
    out = get_output(output, input)
    if input.size == 0:
        return out
    target, finish = work_output(out, [input])
    src = contiguous(input)
    _k.run_generic_lines(src, target, axis, filter_size, filter_size // 2 + int(origin), mode,
                         cval, user)
    return finish()
