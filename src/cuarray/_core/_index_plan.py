"""Index planning for advanced and boolean indexing, pure Python (testable without a GPU).

`plan_index` turns a normalised key into a byte offset, the result's axes and the index
arrays' places: ints and slices become an offset and view axes, index arrays become
"advanced" axes whose broadcast shape goes in place of the indexed axes (adjacent advanced
indices) or first (separated ones), as NumPy places them. Kept apart from the kernels
(_gather_scatter.py, _compact.py) so that the rules read, and test, on their own.
"""
from cuarray._core import shapes as _sh


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
                # NumPy lets a mask axis of length 0 stand for any length (nothing is selected)
                if m != shape[d + j] and m != 0:
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
