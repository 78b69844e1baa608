"""Shape, stride and basic-index planning: pure Python, testable without a GPU."""
import math
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


def intp_tuple(value):
    """A shape or axes argument as a tuple of ints, read as NumPy reads one
    (PyArray_IntpConverter): an integer or a sequence of integers, bools refused, NumPy's errors."""
    if type(value) is tuple or type(value) is list:
        items = value
    elif isinstance(value, (bool, numpy.bool_)):
        raise _not_a_shape(value)
    else:
        try:
            items = (operator.index(value),)
        except TypeError:
            # NumPy's PySequence_Check: anything indexable but a mapping
            if not hasattr(type(value), "__getitem__") or isinstance(value, dict):
                raise _not_a_shape(value) from None
            items = value
    dims = []
    for v in items:
        if type(v) is not int:
            if isinstance(v, (bool, numpy.bool_)):
                raise TypeError("an integer is required")
            v = operator.index(v)
        if not -2**63 <= v < 2**63:
            raise ValueError("Maximum allowed dimension exceeded")
        dims.append(v)
    return tuple(dims)


def _not_a_shape(value):
    return TypeError(f"expected a sequence of integers or a single integer, got '{value!r}'")


def order_code(order, default="C"):
    """An order argument as one of 'C', 'F', 'A', 'K' (NumPy's converter: None is the
    default, letters in either case, NumPy's errors)."""
    if order is None:
        return default
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    code = order.upper()
    if code not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return code


prod = math.prod  # of a shape; C speed


def contiguous_strides(shape, itemsize, order="C"):
    """Strides (bytes) of a contiguous array; size-1 and size-0 dims follow NumPy."""
    strides = []
    step = itemsize
    for n in reversed(shape) if order == "C" else shape:
        strides.append(step)
        if n > 1:  # a size-0 axis steps as a size-1 one (NumPy's _array_fill_strides)
            step *= n
    return tuple(reversed(strides)) if order == "C" else tuple(strides)


def is_c_contiguous(shape, strides, itemsize):
    """NumPy's C_CONTIGUOUS flag: unit axes do not count, and an empty array is contiguous
    whatever its strides."""
    step = itemsize
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1:
            if s != step:
                return 0 in shape
            step *= n
    return True


def is_f_contiguous(shape, strides, itemsize):
    """NumPy's F_CONTIGUOUS flag (as is_c_contiguous, axes read in the other order)."""
    step = itemsize
    for n, s in zip(shape, strides):
        if n != 1:
            if s != step:
                return 0 in shape
            step *= n
    return True


def one_long_axis(shape):
    """Whether at most one axis is longer than 1: contiguous strides in one order are then
    contiguous in the other too (for a non-empty array)."""
    return len(shape) - shape.count(1) <= 1


def keep_order(shape, strides):
    """The axes in NumPy's order='K' for one array, slowest first: nditer's stable insertion
    sort by decreasing |stride| (npyiter_find_best_axis_ordering), in which a zero stride (a
    broadcast or unit axis) compares with nothing, so such axes keep their C-order place."""
    fastest_first = []
    for ax in range(len(shape) - 1, -1, -1):
        s0 = abs(strides[ax]) if shape[ax] != 1 else 0
        pos = len(fastest_first)
        for i in range(len(fastest_first) - 1, -1, -1):
            other = fastest_first[i]
            s1 = abs(strides[other]) if shape[other] != 1 else 0
            if s0 and s1:
                if s1 <= s0:
                    break
                pos = i
        fastest_first.insert(pos, ax)
    return fastest_first[::-1]


def check_permutation(axes, ndim):
    """`axes` (ints) as non-negative axes, checked as NumPy's transpose checks them."""
    if len(axes) != ndim:
        raise ValueError("axes don't match array")
    perm = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise numpy.exceptions.AxisError(a, ndim)
        a %= ndim
        if a in perm:
            raise ValueError("repeated axis in transpose")
        perm.append(a)
    return perm


def normalize_axis(axis, ndim, argname=None):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer") from None
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim, argname)
    return axis % ndim if ndim else 0


def flat_or_axis(a, axis):
    """(a, axis) for a routine whose axis=None means the flattened array (take, delete,
    repeat, packbits ...): the array as 1-D and axis 0, else the axis normalized."""
    if axis is None:
        return a.reshape(-1), 0
    return a, normalize_axis(axis, a.ndim)


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
    oldn, olds = [], []  # unit axes dropped: their strides do not matter
    for n, s in zip(shape, strides):
        if n != 1:
            oldn.append(n)
            olds.append(s)
    if not oldn or not prod(new_shape):
        return contiguous_strides(new_shape, itemsize, order)
    newn = new_shape
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
    last = news[ni - 1] * (newn[ni - 1] if order == "F" else 1) if ni else itemsize
    for nk in range(ni, nn):
        news[nk] = last
    return tuple(news)


def c_reshape(size, shape, itemsize):
    """(shape, strides) of a C-contiguous array of `size` > 0 elements reshaped in C order to
    `shape`, a tuple of ints with at most one -1 (resolved in the shape returned); None for any
    other `shape` (other types, other negatives, a wrong size), which the general path resolves
    or rejects with NumPy's error."""
    for n in shape:
        if type(n) is not int or n < -1:
            return None
    if -1 in shape:
        known = -prod(shape)
        if known <= 0 or size % known or shape.count(-1) != 1:
            return None
        i = shape.index(-1)
        shape = shape[:i] + (size // known,) + shape[i + 1:]
    elif prod(shape) != size:
        return None
    strides = []  # contiguous_strides, inlined (7% of the fast path): every axis is >= 1 here
    step = itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return shape, tuple(reversed(strides))


def infer_reshape(size, new_shape):
    """Resolve the unknown dimension (any negative one) of new_shape, with NumPy's errors
    (_fix_unknown_dimension)."""
    unknown = None
    known = 1
    for i, n in enumerate(new_shape):
        if n < 0:
            if unknown is not None:
                raise ValueError("can only specify one unknown dimension")
            unknown = i
        else:
            known *= n
    if unknown is None and known == size:
        return new_shape
    if unknown is not None and known and size % known == 0:
        return new_shape[:unknown] + (size // known,) + new_shape[unknown + 1:]
    raise ValueError(f"cannot reshape array of size {size} into shape {_shape_str(new_shape)}")


def _shape_str(shape):
    """NumPy's convert_shape_to_string: leading unknown dimensions are left out, later ones
    print as 'newaxis', and no spaces: (4,newaxis), (7,)."""
    i = 0
    while i < len(shape) and shape[i] < 0:
        i += 1
    if i == len(shape):
        return "()"
    body = ",".join("newaxis" if n < 0 else str(n) for n in shape[i:])
    return f"({body},)" if len(shape) == 1 else f"({body})"


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
            out_strides.append(strides[dim] * step if n else strides[dim])  # NumPy: step 1 if empty
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
