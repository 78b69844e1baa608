"""Measurements (cuarray version of `scipy.ndimage`'s measurements chapter).

`label` is a GPU union-find (see _measure_kernels); it reads one number back, the count
of features. Per-label statistics map each element to the position of its label among
the requested ones (a device searchsorted), then accumulate with atomics; values come
back as cuarray arrays (0-d for one label), as CuPy's do; positions, centres of mass and
bounding boxes are host tuples and slices, as SciPy's.
"""
import numpy

import cuarray
from cuarray._core import scan as _scan
from cuarray._core.ndarray import ndarray
from cuarray._routines import sets as _sets
from cuarray._routines import sorting as _sorting
from cuarray.scipy.ndimage import _measure_kernels as _k
from cuarray.scipy.ndimage._morphology import _structure_host
from cuarray.scipy.ndimage._util import check_input, contiguous, host_array

_I64MAX = numpy.iinfo(numpy.int64).max


def label(input, structure=None, output=None):
    """cuarray version of `scipy.ndimage.label` (connected components by union-find on
    the GPU; reads the number of features back)."""
    input = check_input(input, complex_ok=False)
    nd = input.ndim
    structure = _structure_host(1, nd) if structure is None else host_array(structure)
    structure = numpy.asarray(structure).astype(bool)
    if structure.ndim != nd:
        raise RuntimeError("structure and input must have equal rank")
    if any(s != 3 for s in structure.shape):
        raise ValueError("structure dimensions must be equal to 3")
    if isinstance(output, ndarray):
        if output.shape != input.shape:
            raise ValueError("output shape not correct")
        out, give_array = output, False
    else:
        out = cuarray.empty(input.shape, dtype=numpy.int32 if output is None else output)
        give_array = True
    n = input.size
    if n == 0:
        return (out, 0) if give_array else 0
    src = contiguous(input)
    if nd == 0:
        src = src.reshape(1)
    Ldt = numpy.int32 if n < 2**31 - 1 else numpy.int64
    L = cuarray.empty(n, dtype=Ldt)
    _k.run_label("init", src, L)
    # Neighbours before the centre in raster order: the structure is symmetric in SciPy's
    # use, and the union is symmetric, so half of it is enough (all of it when asymmetric).
    offs = numpy.argwhere(structure) - 1 if nd else numpy.zeros((0, 1), numpy.int64)
    if nd and numpy.array_equal(structure, structure[tuple([slice(None, None, -1)] * nd)]):
        lin = numpy.ravel_multi_index(tuple((offs + 1).T), structure.shape) - \
            (structure.size // 2)
        offs = offs[lin < 0]
    else:
        offs = offs[numpy.any(offs != 0, axis=1)] if nd else offs
    if len(offs):
        _k.run_label("merge", src, L, offsets=offs)
    roots = cuarray.empty(n, dtype=numpy.uint8)
    _k.run_label("flatten", src, L, out=roots)
    csum = _scan.cumsum(roots, dtype=Ldt)
    count = int(csum[-1].get())
    flat = out if out.flags.c_contiguous else cuarray.empty(out.shape, dtype=out.dtype)
    _k.run_label("number", None, L, rank=csum, out=flat)
    if flat is not out:
        out[...] = flat
    return (out, count) if give_array else count


# ---- label bins --------------------------------------------------------------------------------

def _prepare(input, labels, index):
    """(C-contiguous input, int32 bin per element, number of bins, gather map to the
    requested shape or None for one region)."""
    input = check_input(input, complex_ok=False)
    src = contiguous(input)
    n = src.size
    if labels is None:
        return src, cuarray.zeros(n, dtype=numpy.int32), 1, None
    labels = check_input(labels, complex_ok=False)
    labels = contiguous(cuarray.broadcast_to(labels, input.shape)).reshape(n)
    if index is None:
        return src, cuarray.where(labels > 0, 0, -1).astype(numpy.int32), 1, None
    idx = host_array(index)
    uniq, inv = numpy.unique(idx.ravel(), return_inverse=True)
    u = cuarray.asarray(uniq.astype(numpy.result_type(uniq.dtype, labels.dtype)))
    pos = cuarray.searchsorted(u, labels)
    posc = cuarray.minimum(pos, len(uniq) - 1)
    bins = cuarray.where(u[posc] == labels, posc, -1).astype(numpy.int32)
    return src, bins, len(uniq), (inv.reshape(idx.shape), idx.shape)


def _gather(values, gmap):
    """Per-bin device values in the caller's index shape (0-d for one region)."""
    if gmap is None:
        return values.reshape(())
    inv, shape = gmap
    return values[cuarray.asarray(inv.ravel())].reshape(shape)


def _basic(input, labels, index):
    src, bins, nb, gmap = _prepare(input, labels, index)
    acc = cuarray.empty((nb, 4), dtype=numpy.float64)
    acc[:, :2] = 0
    acc[:, 2] = numpy.inf
    acc[:, 3] = -numpy.inf
    _k.run_stat("basic", src, bins, acc=acc)
    return src, bins, nb, gmap, acc


def sum_labels(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.sum_labels` (a cuarray array)."""
    if labels is None:
        return check_input(input).sum()
    _, _, _, gmap, acc = _basic(input, labels, index)
    return _gather(acc[:, 1], gmap)


sum = sum_labels


def mean(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.mean` (a cuarray array)."""
    _, _, _, gmap, acc = _basic(input, labels, index)
    return _gather(acc[:, 1] / acc[:, 0], gmap)


def variance(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.variance` (a cuarray array)."""
    src, bins, nb, gmap, acc = _basic(input, labels, index)
    means = contiguous(acc[:, 1] / acc[:, 0])
    ssq = cuarray.zeros(nb, dtype=numpy.float64)
    _k.run_stat("centered", src, bins, acc=ssq, aux=means)
    return _gather(ssq / acc[:, 0], gmap)


def standard_deviation(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.standard_deviation` (a cuarray array)."""
    return cuarray.sqrt(variance(input, labels, index))


def median(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.median` (a cuarray array; NaN for absent labels).

    Sorts the values by (label, value) and reads each label's middle one or two; the
    per-label counts come back to the host to place them.
    """
    src, bins, nb, gmap, acc = _basic(input, labels, index)
    flat = src.reshape(src.size).astype(numpy.float64)
    o1 = _sorting.argsort(flat, kind="stable")
    o2 = _sorting.argsort(bins[o1], kind="stable")
    vals = flat[o1][o2]
    counts = acc[:, 0].get().astype(numpy.int64)
    start = src.size - int(counts.sum())          # elements of no label sort first
    starts = start + numpy.concatenate([[0], numpy.cumsum(counts)[:-1]])
    lo = numpy.where(counts > 0, starts + (counts - 1) // 2, 0)
    hi = numpy.where(counts > 0, starts + counts // 2, 0)
    pick = cuarray.asarray(numpy.stack([lo, hi]))
    m = vals[pick]
    res = cuarray.where(cuarray.asarray(counts > 0), (m[0] + m[1]) / 2, numpy.nan)
    return _gather(res, gmap)


def _extreme(input, labels, index, col):
    _, _, _, gmap, acc = _basic(input, labels, index)
    dt = check_input(input).dtype
    v = acc[:, col]
    v = cuarray.where(acc[:, 0] > 0, v, 0)
    return _gather(v.astype(dt), gmap)


def minimum(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.minimum` (a cuarray array; 0 for absent labels)."""
    return _extreme(input, labels, index, 2)


def maximum(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.maximum` (a cuarray array; 0 for absent labels)."""
    return _extreme(input, labels, index, 3)


def _positions(input, labels, index):
    """(acc, host positions (nb, 2) of first min and max, gather map, shape)."""
    src, bins, nb, gmap, acc = _basic(input, labels, index)
    aux = contiguous(acc[:, 2:4])
    pos = cuarray.full((nb, 2), _I64MAX, dtype=numpy.int64)
    _k.run_stat("argext", src, bins, aux=aux, pos=pos)
    p = pos.get()
    p[p == _I64MAX] = 0
    return acc, p, gmap, check_input(input).shape


def _as_coords(flat, shape, gmap):
    coords = [tuple(int(c) for c in numpy.unravel_index(int(f), shape)) if shape else ()
              for f in flat]
    if gmap is None:
        return coords[0]
    inv, ishape = gmap
    out = [coords[k] for k in inv.ravel()]
    return out[0] if ishape == () else out


def minimum_position(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.minimum_position` (host tuples)."""
    _, p, gmap, shape = _positions(input, labels, index)
    return _as_coords(p[:, 0], shape, gmap)


def maximum_position(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.maximum_position` (host tuples)."""
    _, p, gmap, shape = _positions(input, labels, index)
    return _as_coords(p[:, 1], shape, gmap)


def extrema(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.extrema`: (minima, maxima, positions of minima,
    positions of maxima)."""
    acc, p, gmap, shape = _positions(input, labels, index)
    dt = check_input(input).dtype
    present = acc[:, 0] > 0
    mins = _gather(cuarray.where(present, acc[:, 2], 0).astype(dt), gmap)
    maxs = _gather(cuarray.where(present, acc[:, 3], 0).astype(dt), gmap)
    return mins, maxs, _as_coords(p[:, 0], shape, gmap), _as_coords(p[:, 1], shape, gmap)


def center_of_mass(input, labels=None, index=None):
    """cuarray version of `scipy.ndimage.center_of_mass` (host tuples of floats)."""
    src, bins, nb, gmap, acc = _basic(input, labels, index)
    nd = max(src.ndim, 1)
    mom = cuarray.zeros((nb, nd), dtype=numpy.float64)
    _k.run_stat("moments", src, bins, acc=mom)
    with numpy.errstate(invalid="ignore", divide="ignore"):
        com = mom.get() / acc[:, 1].get()[:, None]
    res = [tuple(float(v) for v in row[:src.ndim]) for row in com]
    if gmap is None:
        return res[0]
    inv, ishape = gmap
    out = [res[k] for k in inv.ravel()]
    return out[0] if ishape == () else out


def histogram(input, min, max, bins, labels=None, index=None):
    """cuarray version of `scipy.ndimage.histogram` (cuarray arrays of counts; a list of
    them for a sequence of labels)."""
    src, lb, nb, gmap = _prepare(input, labels, index)
    nbins = int(bins)
    counts = cuarray.zeros((nb, nbins), dtype=numpy.float64)
    aux = cuarray.asarray(numpy.array([float(min), float(max)]))
    _k.run_stat("hist", src, lb, acc=counts, aux=aux, nbins=nbins)
    counts = counts.astype(numpy.int64)
    if gmap is None:
        return counts[0]
    inv, ishape = gmap
    out = [counts[k] for k in inv.ravel()]
    return out[0] if ishape == () else out


def labeled_comprehension(input, labels, index, func, out_dtype, default,
                          pass_positions=False):
    """cuarray version of `scipy.ndimage.labeled_comprehension`: `func` is called on
    cuarray arrays of each label's values (and flat positions)."""
    as_scalar = numpy.isscalar(index)
    input = check_input(input)
    if labels is None:
        if index is not None:
            raise ValueError("index without defined labels")
        flat = input.ravel()
        return func(flat, cuarray.arange(input.size)) if pass_positions else func(flat)
    labels = cuarray.broadcast_to(check_input(labels), input.shape)
    if index is None:
        sel = labels > 0
        return func(input[sel], cuarray.flatnonzero(sel)) if pass_positions \
            else func(input[sel])
    idx = numpy.atleast_1d(host_array(index))
    if numpy.any(idx.astype(labels.dtype) != idx):
        raise ValueError(f"Cannot convert index values from <{idx.dtype}> to <{labels.dtype}> "
                         f"(labels' type) without loss of precision")
    out = numpy.full(idx.shape, default, dtype=out_dtype)
    res = cuarray.asarray(out)
    for k, lab in enumerate(idx.ravel()):
        sel = labels == lab
        if not bool(sel.any()):
            continue
        v = func(input[sel], cuarray.flatnonzero(sel)) if pass_positions else func(input[sel])
        res.ravel()[k] = v
    return res[0] if as_scalar else res


def find_objects(input, max_label=0):
    """cuarray version of `scipy.ndimage.find_objects` (host list of slices)."""
    input = check_input(input, complex_ok=False)
    if input.dtype.kind not in "iub":
        raise TypeError("input must be of an integer type")
    if max_label < 1:
        max_label = int(input.max().get()) if input.size else 0
    if max_label < 1:
        return []
    src = contiguous(input)
    flat = src.reshape(src.size)
    bins = cuarray.where((flat >= 1) & (flat <= max_label), flat.astype(numpy.int64) - 1, -1)
    nd = max(src.ndim, 1)
    pos = cuarray.empty((max_label, 2 * nd), dtype=numpy.int64)
    pos[:, :nd] = _I64MAX
    pos[:, nd:] = -1
    _k.run_stat("bbox", src, bins.astype(numpy.int32), pos=pos)
    p = pos.get()
    out = []
    for row in p:
        if row[nd] < 0:
            out.append(None)
        else:
            out.append(tuple(slice(int(row[d]), int(row[nd + d]) + 1)
                             for d in range(src.ndim)))
    return out


def value_indices(arr, *, ignore_value=None):
    """cuarray version of `scipy.ndimage.value_indices`: {value: tuple of cuarray index
    arrays}; reads the distinct values and their counts back."""
    arr = check_input(arr, complex_ok=False)
    if arr.dtype.kind not in "iub":
        raise ValueError("Parameter 'arr' must be an integer array")
    flat = contiguous(arr).reshape(arr.size)
    order = _sorting.argsort(flat, kind="stable")
    vals = flat[order]
    uniq, counts = _sets.unique(vals, return_counts=True)
    uh, ch = uniq.get(), counts.get()
    out = {}
    start = 0
    for v, c in zip(uh, ch):
        if ignore_value is None or v != ignore_value:
            sel = order[start:start + int(c)]
            out[v] = _unravel(sel, arr.shape)
        start += int(c)
    return out


def _unravel(flat, shape):
    """C-order coordinates of flat indices, one int64 array per axis."""
    coords = []
    stride = 1
    for s in reversed(shape):
        coords.append((flat // stride) % s)
        stride *= s
    return tuple(reversed(coords))
