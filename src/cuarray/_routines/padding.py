"""Padding arrays (NumPy reference: "Array manipulation routines", `pad`): every mode of
`numpy.pad` with NumPy's axis-by-axis algorithm, run as copies and reductions on device
views.

Pad widths, values and stat lengths are planning data read on the host (`pad_pairs`,
`_pad_width`: pure Python, testable without a GPU).
"""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _device, _order_of
from cuarray._routines.manipulation import moveaxis

__all__ = ["pad"]


def pad_pairs(x, ndim, as_index=False):
    """NumPy's `_as_pairs`: broadcast a pad specification to ((before, after),) * ndim
    (pure planning; `as_index` rounds to ints and refuses negatives)."""
    if x is None:
        return ((None, None),) * ndim
    if isinstance(x, ndarray):
        x = x.get()
    x = numpy.array(x)
    if as_index:
        x = numpy.round(x).astype(numpy.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return numpy.broadcast_to(x, (ndim, 2)).tolist()


def _at_axis(sl, axis):
    return (slice(None),) * axis + (sl,) + (Ellipsis,)


def _set_pad_area(padded, axis, width_pair, value_pair):
    padded[_at_axis(slice(None, width_pair[0]), axis)] = value_pair[0]
    padded[_at_axis(slice(padded._shape[axis] - width_pair[1], None), axis)] = value_pair[1]


def _get_edges(padded, axis, width_pair):
    left = width_pair[0]
    right = padded._shape[axis] - width_pair[1]
    return (padded[_at_axis(slice(left, left + 1), axis)],
            padded[_at_axis(slice(right - 1, right), axis)])


def _get_linear_ramps(padded, axis, width_pair, end_value_pair):
    from cuarray._routines.creation_more import linspace
    ramps = [linspace(end_value, edge.squeeze(axis), num=width, endpoint=False, dtype=padded.dtype,
                      axis=axis)
             for end_value, edge, width in zip(end_value_pair, _get_edges(padded, axis, width_pair),
                                               width_pair)]
    return ramps[0], ramps[1][_at_axis(slice(None, None, -1), axis)]


def _get_stats(padded, axis, width_pair, length_pair, stat_func):
    left_index = width_pair[0]
    right_index = padded._shape[axis] - width_pair[1]
    max_length = right_index - left_index
    left_length, right_length = length_pair
    if left_length is None or max_length < left_length:
        left_length = max_length
    if right_length is None or max_length < right_length:
        right_length = max_length
    if (left_length == 0 or right_length == 0) and stat_func in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    func = _stat_function(stat_func)
    integer = padded.dtype.kind in "iu"

    def stat(sl):
        s = func(padded[_at_axis(sl, axis)], axis=axis, keepdims=True)
        if integer:
            s.round(out=s)
        return s
    left = stat(slice(left_index, left_index + left_length))
    if left_length == right_length == max_length:
        return left, left
    return left, stat(slice(right_index - right_length, right_index))


def _stat_function(mode):
    from cuarray._core import _reductions
    if mode == "maximum":
        return _reductions.amax
    if mode == "minimum":
        return _reductions.amin
    if mode == "mean":
        from cuarray._core._reductions_stats import mean
        return mean
    from cuarray._routines.statistics import median
    return median


def _set_reflect_both(padded, axis, width_pair, method, original_period, include_edge=False):
    left_pad, right_pad = width_pair
    old_length = padded._shape[axis] - right_pad - left_pad
    if include_edge:
        old_length = old_length // original_period * original_period
        edge_offset = 1
    else:
        old_length = (old_length - 1) // (original_period - 1) * (original_period - 1) + 1
        edge_offset = 0
        old_length -= 1
    if left_pad > 0:
        chunk_length = min(old_length, left_pad)
        stop = left_pad - edge_offset
        left_chunk = padded[_at_axis(slice(stop + chunk_length, stop, -1), axis)]
        if method == "odd":
            left_chunk = 2 * padded[_at_axis(slice(left_pad, left_pad + 1), axis)] - left_chunk
        padded[_at_axis(slice(left_pad - chunk_length, left_pad), axis)] = left_chunk
        left_pad -= chunk_length
    if right_pad > 0:
        chunk_length = min(old_length, right_pad)
        start = -right_pad + edge_offset - 2
        right_chunk = padded[_at_axis(slice(start, start - chunk_length, -1), axis)]
        if method == "odd":
            right_chunk = 2 * padded[_at_axis(slice(-right_pad - 1, -right_pad), axis)] - right_chunk
        start = padded._shape[axis] - right_pad
        padded[_at_axis(slice(start, start + chunk_length), axis)] = right_chunk
        right_pad -= chunk_length
    return left_pad, right_pad


def _set_wrap_both(padded, axis, width_pair, original_period):
    left_pad, right_pad = width_pair
    period = padded._shape[axis] - right_pad - left_pad
    period = period // original_period * original_period
    new_left_pad = new_right_pad = 0
    if left_pad > 0:
        slice_end = left_pad + period
        chunk = padded[_at_axis(slice(slice_end - min(period, left_pad), slice_end), axis)]
        if left_pad > period:
            area = _at_axis(slice(left_pad - period, left_pad), axis)
            new_left_pad = left_pad - period
        else:
            area = _at_axis(slice(None, left_pad), axis)
        padded[area] = chunk
    if right_pad > 0:
        slice_start = -right_pad - period
        chunk = padded[_at_axis(slice(slice_start, slice_start + min(period, right_pad)), axis)]
        if right_pad > period:
            area = _at_axis(slice(-right_pad, -right_pad + period), axis)
            new_right_pad = right_pad - period
        else:
            area = _at_axis(slice(-right_pad, None), axis)
        padded[area] = chunk
    return new_left_pad, new_right_pad


_PAD_KWARGS = {
    "empty": [], "edge": [], "wrap": [], "constant": ["constant_values"],
    "linear_ramp": ["end_values"], "maximum": ["stat_length"], "mean": ["stat_length"],
    "median": ["stat_length"], "minimum": ["stat_length"], "reflect": ["reflect_type"],
    "symmetric": ["reflect_type"],
}


def _pad_width(pad_width, ndim):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for ax, width in pad_width.items():
            seq[ax] = (width, width) if isinstance(width, int) else tuple(width)
        pad_width = seq
    if isinstance(pad_width, ndarray):
        pad_width = pad_width.get()
    pw = numpy.asarray(pad_width)
    if pw.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [tuple(int(v) for v in p) for p in pad_pairs(pw, ndim, as_index=True)]


def pad(array, pad_width, mode="constant", **kwargs):
    """cuarray version of `numpy.pad`, every mode (and a callable mode, called once per 1-D
    view as NumPy does). Pad values, widths and stat lengths are planning data read on the
    host; the padding itself is copies and reductions on device views."""
    array = _device(array, "pad")
    pad_width = _pad_width(pad_width, array.ndim)
    shape = tuple(left + s + right for s, (left, right) in zip(array._shape, pad_width))
    padded = ndarray._alloc(shape, array.dtype, _order_of(array))
    area = tuple(slice(left, left + s) for s, (left, right) in zip(array._shape, pad_width))
    if callable(mode):
        padded.fill(0)
        padded[area] = array
        for axis in range(padded.ndim):
            view = moveaxis(padded, axis, -1)
            for ind in numpy.ndindex(view._shape[:-1]):
                mode(view[ind + (Ellipsis,)], pad_width[axis], axis, kwargs)
        return padded
    try:
        unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    except (KeyError, TypeError):
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    if array.size:
        padded[area] = array
    axes = range(padded.ndim)

    def roi(axis):  # the area already filled along the axes before `axis`
        return padded[(slice(None),) * (axis + 1) + area[axis + 1:]]

    if mode == "constant":
        values = pad_pairs(kwargs.get("constant_values", 0), padded.ndim)
        for axis, width_pair, value_pair in zip(axes, pad_width, values):
            _set_pad_area(roi(axis), axis, width_pair, value_pair)
    elif mode == "empty":
        pass
    elif array.size == 0:
        for axis, width_pair in zip(axes, pad_width):
            if array._shape[axis] == 0 and any(width_pair):
                raise ValueError(f"can't extend empty axis {axis} using modes other than 'constant' "
                                 "or 'empty'")
    elif mode == "edge":
        for axis, width_pair in zip(axes, pad_width):
            r = roi(axis)
            _set_pad_area(r, axis, width_pair, _get_edges(r, axis, width_pair))
    elif mode == "linear_ramp":
        ends = pad_pairs(kwargs.get("end_values", 0), padded.ndim)
        for axis, width_pair, value_pair in zip(axes, pad_width, ends):
            r = roi(axis)
            _set_pad_area(r, axis, width_pair, _get_linear_ramps(r, axis, width_pair, value_pair))
    elif mode in ("maximum", "minimum", "mean", "median"):
        lengths = pad_pairs(kwargs.get("stat_length"), padded.ndim, as_index=True)
        for axis, width_pair, length_pair in zip(axes, pad_width, lengths):
            r = roi(axis)
            _set_pad_area(r, axis, width_pair, _get_stats(r, axis, width_pair, length_pair, mode))
    elif mode in ("reflect", "symmetric"):
        method = kwargs.get("reflect_type", "even")
        include_edge = mode == "symmetric"
        for axis, (left, right) in zip(axes, pad_width):
            if array._shape[axis] == 1 and (left > 0 or right > 0):
                _set_pad_area(padded, axis, (left, right), _get_edges(padded, axis, (left, right)))
                continue
            r = roi(axis)
            while left > 0 or right > 0:
                left, right = _set_reflect_both(r, axis, (left, right), method, array._shape[axis],
                                                include_edge)
    elif mode == "wrap":
        for axis, (left, right) in zip(axes, pad_width):
            r = roi(axis)
            period = padded._shape[axis] - right - left
            while left > 0 or right > 0:
                left, right = _set_wrap_both(r, axis, (left, right), period)
    return padded
