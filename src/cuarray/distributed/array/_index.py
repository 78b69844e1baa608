"""Index bookkeeping of distributed arrays: which part of the whole array each chunk holds.

A chunk's region is a tuple of `range`s, one per axis (positive steps), normalised from
the user's index (slices and ints; an int keeps its axis as a range of one). Regions of
two chunks intersect in a region again (the common elements of two arithmetic
progressions form one), and a region inside a chunk maps to a tuple of slices of that
chunk's array. All of this is host arithmetic on a few integers per axis.
"""
import math


def normalize(shape, index):
    """The region (tuple of ranges) that `index` (slices/ints, as for a[index]) selects."""
    if not isinstance(index, tuple):
        index = (index,)
    if len(index) > len(shape):
        raise IndexError(f"index {index!r} has more entries than the array has axes "
                         f"({len(shape)})")
    index = index + (slice(None),) * (len(shape) - len(index))
    region = []
    for n, ix in zip(shape, index):
        if isinstance(ix, slice):
            start, stop, step = ix.indices(n)
            if step <= 0:
                raise ValueError(f"chunk indices need positive steps, got {ix!r}")
            r = range(start, stop, step)
        else:
            try:
                i = int(ix) if not isinstance(ix, bool) else None
            except (TypeError, ValueError):
                i = None
            if i is None:
                raise TypeError(f"a chunk index holds slices and ints, got {ix!r}")
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for an axis of size {n}")
            i %= n
            r = range(i, i + 1)
        region.append(r if len(r) else range(0))
    return tuple(region)


def normalize_map(shape, index_map):
    """{device: [region, ...]} from CuPy's index_map (an index or a list of them per device)."""
    if not isinstance(index_map, dict) or not index_map:
        raise TypeError("index_map must be a non-empty dict from device ids to indices")
    out = {}
    for dev, idx in index_map.items():
        if not isinstance(dev, int) or isinstance(dev, bool) or dev < 0:
            raise ValueError(f"index_map keys are device ids, got {dev!r}")
        idxs = idx if isinstance(idx, list) else [idx]
        out[dev] = [normalize(shape, i) for i in idxs]
    return out


def region_shape(region):
    return tuple(len(r) for r in region)


def to_slices(region):
    """The slices that select `region` from the whole array."""
    return tuple(slice(r.start, r.start + (len(r) - 1) * r.step + 1, r.step) if len(r)
                 else slice(0, 0) for r in region)


def _intersect1(a, b):
    if not len(a) or not len(b):
        return range(0)
    lo, hi = max(a[0], b[0]), min(a[-1], b[-1])
    if lo > hi:
        return range(0)
    step = a.step * b.step // math.gcd(a.step, b.step)
    # First element of a that is >= lo, then walk a until it also lies on b (at most
    # b.step / gcd steps: after that the residues repeat).
    k0 = -(-(lo - a[0]) // a.step)
    for k in range(k0, k0 + b.step // math.gcd(a.step, b.step)):
        x = a[0] + k * a.step
        if x > hi:
            break
        if (x - b[0]) % b.step == 0:
            return range(x, hi + 1, step)
    return range(0)


def intersect(r1, r2):
    """The region both regions hold, or None when they share no element."""
    out = tuple(_intersect1(a, b) for a, b in zip(r1, r2))
    return None if any(len(r) == 0 for r in out) else out


def local(region, inside):
    """Slices of the chunk holding `inside` that select `region` (a subregion of it)."""
    out = []
    for g, r in zip(region, inside):
        start = (g[0] - r.start) // r.step
        step = g.step // r.step if len(g) > 1 else 1
        out.append(slice(start, start + (len(g) - 1) * step + 1, step))
    return tuple(out)


def drop_axis(region, axis):
    return region[:axis] + region[axis + 1:]


def make_2d_index_map(i_partitions, j_partitions, devices):
    """An index_map for a 2-D matrix split into blocks (cuarray version of
    `cupyx.distributed.array.make_2d_index_map`): block (i, j) spans rows
    i_partitions[i]:i_partitions[i+1] and columns j_partitions[j]:j_partitions[j+1] and is
    held by every device of the set devices[i][j]."""
    if len(devices) != len(i_partitions) - 1 or \
            any(len(row) != len(j_partitions) - 1 for row in devices):
        raise ValueError(f"devices must be a {len(i_partitions) - 1} x "
                         f"{len(j_partitions) - 1} list of device sets")
    for parts in (i_partitions, j_partitions):
        if any(b < a for a, b in zip(parts, parts[1:])):
            raise ValueError(f"partition boundaries must not decrease: {list(parts)}")
    index_map = {}
    for i in range(len(i_partitions) - 1):
        for j in range(len(j_partitions) - 1):
            block = (slice(i_partitions[i], i_partitions[i + 1]),
                     slice(j_partitions[j], j_partitions[j + 1]))
            for dev in sorted(devices[i][j]):
                index_map.setdefault(dev, []).append(block)
    return index_map
