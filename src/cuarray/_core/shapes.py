"""Shape, stride and basic-index planning: pure Python, testable without a GPU."""
import operator

import numpy


def normalize_shape(shape):
    """An int or a sequence of ints as a tuple of non-negative ints (NumPy's errors)."""
    if isinstance(shape, (int, numpy.integer)):
        shape = (operator.index(shape),)
    else:
        try:
            shape = tuple(operator.index(s) for s in shape)
        except TypeError:
            raise TypeError(f"expected a sequence of integers or a single integer, got {shape!r}") from None
    for s in shape:
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
    return shape


def prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def contiguous_strides(shape, itemsize, order="C"):
    """Strides (bytes) of a contiguous array; size-1 and size-0 dims follow NumPy."""
    strides = [0] * len(shape)
    step = itemsize
    dims = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    for i in dims:
        strides[i] = step
        step *= max(shape[i], 1)
    return tuple(strides)


def is_c_contiguous(shape, strides, itemsize):
    step = itemsize
    for n, s in zip(reversed(shape), reversed(strides)):
        if n == 0:
            return True
        if n != 1:
            if s != step:
                return False
            step *= n
    return True


def is_f_contiguous(shape, strides, itemsize):
    step = itemsize
    for n, s in zip(shape, strides):
        if n == 0:
            return True
        if n != 1:
            if s != step:
                return False
            step *= n
    return True


def normalize_axis(axis, ndim, argname="axis"):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer") from None
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    return axis % ndim if ndim else 0


def normalize_axes(axis, ndim, allow_duplicate=False):
    """None → all axes; int or tuple → sorted-as-given tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
    else:
        axes = (normalize_axis(axis, ndim),)
    if not allow_duplicate and len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return axes


def broadcast_shapes(*shapes):
    """NumPy's broadcasting of shapes, with NumPy's error message."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        off = ndim - len(s)
        for i, n in enumerate(s):
            j = i + off
            if n != 1:
                if out[j] == 1:
                    out[j] = n
                elif out[j] != n:
                    raise ValueError(
                        "operands could not be broadcast together with shapes "
                        + " ".join(str(tuple(x)).replace(" ", "") for x in shapes))
    return tuple(out)


def broadcast_strides(shape, strides, out_shape):
    """Strides of a view of (shape, strides) broadcast to out_shape (0 on broadcast axes)."""
    off = len(out_shape) - len(shape)
    res = [0] * len(out_shape)
    for i, (n, s) in enumerate(zip(shape, strides)):
        if n == out_shape[i + off]:
            res[i + off] = s if n != 1 else 0
        elif n != 1:
            raise ValueError(f"cannot broadcast shape {shape} to {out_shape}")
    return tuple(res)


def reshape_strides(shape, strides, itemsize, new_shape, order="C"):
    """Strides for viewing (shape, strides) as new_shape without a copy, or None if impossible.

    NumPy's _attempt_nocopy_reshape: match runs of old dims to runs of new dims that cover
    the same number of elements, and require each old run to be contiguous in `order`.
    """
    old = [(n, s) for n, s in zip(shape, strides) if n != 1]
    if prod(new_shape) == 0 or not old:
        return contiguous_strides(new_shape, itemsize, order)
    oldn = [n for n, _ in old]
    olds = [s for _, s in old]
    newn = list(new_shape)
    news = [0] * len(newn)
    oi = oj = 0
    ni = nj = 0
    no, nn = len(oldn), len(newn)
    while ni < nn and oi < no:
        np_, op = newn[ni], oldn[oi]
        nj, oj = ni + 1, oi + 1
        while np_ != op:
            if np_ < op:
                np_ *= newn[nj]
                nj += 1
            else:
                op *= oldn[oj]
                oj += 1
        for ok in range(oi, oj - 1):
            if order == "C":
                if olds[ok] != oldn[ok + 1] * olds[ok + 1]:
                    return None
            else:
                if olds[ok + 1] != oldn[ok] * olds[ok]:
                    return None
        if order == "C":
            news[nj - 1] = olds[oj - 1]
            for nk in range(nj - 1, ni, -1):
                news[nk - 1] = news[nk] * newn[nk]
        else:
            news[ni] = olds[oi]
            for nk in range(ni + 1, nj):
                news[nk] = news[nk - 1] * newn[nk - 1]
        ni, oi = nj, oj
    # trailing size-1 dims of the new shape
    last = news[ni - 1] * (newn[ni - 1] if order == "C" else 1) if ni else itemsize
    for nk in range(ni, nn):
        news[nk] = itemsize if order == "C" else last
    return tuple(news)


def infer_reshape(size, new_shape):
    """Resolve one -1 in new_shape (NumPy's errors)."""
    unknown = [i for i, n in enumerate(new_shape) if n == -1]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    for n in new_shape:
        if n < -1:
            raise ValueError("negative dimensions not allowed")
    if unknown:
        known = prod(n for n in new_shape if n != -1)
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape "
                             f"{_shape_str(new_shape)}")
        new_shape = list(new_shape)
        new_shape[unknown[0]] = size // known
        new_shape = tuple(new_shape)
    if prod(new_shape) != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {_shape_str(new_shape)}")
    return new_shape


def _shape_str(shape):
    return str(tuple(shape)) if len(shape) != 1 else f"({shape[0]},)"


def plan_basic_index(shape, strides, key):
    """Plan a basic index (ints, slices, None, Ellipsis) as (shape, strides, byte offset).

    Returns None when `key` holds something else (arrays, lists, booleans): the caller
    then takes the advanced-indexing path.
    """
    if not isinstance(key, tuple):
        key = (key,)
    n_ell = 0
    n_real = 0
    for k in key:
        if k is Ellipsis:
            n_ell += 1
        elif k is None:
            pass
        elif isinstance(k, slice):
            n_real += 1
        elif isinstance(k, (bool, numpy.bool_)):
            return None
        elif isinstance(k, (int, numpy.integer)):
            n_real += 1
        elif hasattr(k, "__index__") and not hasattr(k, "shape"):
            n_real += 1
        else:
            return None
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    ndim = len(shape)
    if n_real > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {n_real} were indexed")
    out_shape, out_strides = [], []
    offset = 0
    dim = 0
    for k in key:
        if k is None:
            out_shape.append(1)
            out_strides.append(0)
        elif k is Ellipsis:
            for _ in range(ndim - n_real):
                out_shape.append(shape[dim])
                out_strides.append(strides[dim])
                dim += 1
        elif isinstance(k, slice):
            start, stop, step = k.indices(shape[dim])
            n = len(range(start, stop, step))
            if n:
                offset += start * strides[dim]
            out_shape.append(n)
            out_strides.append(strides[dim] * step)
            dim += 1
        else:
            i = operator.index(k)
            n = shape[dim]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
            offset += (i % n) * strides[dim]
            dim += 1
    while dim < ndim:
        out_shape.append(shape[dim])
        out_strides.append(strides[dim])
        dim += 1
    return tuple(out_shape), tuple(out_strides), offset


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
