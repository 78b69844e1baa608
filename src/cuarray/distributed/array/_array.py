"""`DistributedArray`: one array held as chunks on several devices of this process.

Each chunk is a cuarray array on its device plus the region of the whole array it holds.
Work on a chunk runs on the chunk's device; a chunk needed on another device travels by a
peer copy (`cuarray.asarray` inside `Device(dev)`), ordered on both devices' streams.
Overlaps between chunks are read through the array's mode (see `_modes`).
"""
import numpy
import numpy.lib.mixins

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray._runtime.device import Device
from cuarray.distributed.array import _index
from cuarray.distributed.array._modes import REPLICA, as_mode


class _Chunk:
    __slots__ = ("array", "region")

    def __init__(self, array, region):
        self.array, self.region = array, region


def _on(dev, view):
    """`view` (an array of any device) as an array of device `dev` (the view itself there)."""
    with Device(dev):
        return cuarray.asarray(view)


class DistributedArray(numpy.lib.mixins.NDArrayOperatorsMixin):
    """Multi-dimensional array split into chunks on several CUDA devices (cuarray version of
    `cupyx.distributed.array.DistributedArray`).

    Build one with `distributed_array`. `chunks_map` maps device ids to lists of
    (array, index) pairs. NumPy's ufuncs and operators run chunk by chunk on the chunks'
    devices; `sum`, `prod`, `max`, `min` reduce into the matching mode; `get()` (and
    `cuarray.asnumpy`, `numpy.asarray`) assemble the whole array on the host.
    """

    __array_priority__ = 200   # ahead of cuarray.ndarray: mixed expressions come here

    def __init__(self, shape, dtype, chunks_map, mode=REPLICA, comms=None):
        self._shape = tuple(int(s) for s in shape)
        self._dtype = numpy.dtype(dtype)
        self._mode = as_mode(mode)
        self._comms = comms
        self._chunks = {}
        for dev, chunks in chunks_map.items():
            lst = self._chunks[int(dev)] = []
            for c in chunks:
                if not isinstance(c, _Chunk):
                    array, index = c
                    c = _Chunk(array, _index.normalize(self._shape, index))
                if c.array._device_id != dev:
                    raise ValueError(f"a chunk for device {dev} lives on device "
                                     f"{c.array._device_id}")
                if c.array.shape != _index.region_shape(c.region):
                    raise ValueError(f"a chunk of shape {c.array.shape} cannot hold the "
                                     f"region {_index.to_slices(c.region)}")
                lst.append(c)

    # -- attributes ------------------------------------------------------------------------
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ndim = property(lambda self: len(self._shape))
    size = property(lambda self: int(numpy.prod(self._shape, dtype=numpy.int64)))
    nbytes = property(lambda self: self.size * self._dtype.itemsize)

    @property
    def mode(self):
        """How overlapping chunks combine: REPLICA, SUM, MAX, MIN or PROD (each also equals
        its name, 'replica', 'sum', ..., which older CuPy versions return)."""
        return self._mode

    def all_chunks(self):
        """{device: [chunk arrays]}, in the order of `index_map`."""
        return {dev: [c.array for c in cs] for dev, cs in self._chunks.items()}

    @property
    def comms(self):
        """The communicators this array was given (chunks move by peer copies, not NCCL)."""
        return {} if self._comms is None else self._comms

    @property
    def devices(self):
        """The ids of the devices holding chunks."""
        return frozenset(self._chunks)

    @property
    def index_map(self):
        """{device: [index, ...]}: the slices of the whole array each chunk holds."""
        return {dev: [_index.to_slices(c.region) for c in cs] for dev, cs in self._chunks.items()}

    def _items(self):
        return [(dev, c) for dev, cs in self._chunks.items() for c in cs]

    def _regions(self):
        return {dev: [c.region for c in cs] for dev, cs in self._chunks.items()}

    def _like(self, chunks, mode=None, dtype=None, shape=None):
        return DistributedArray(self._shape if shape is None else shape,
                                self._dtype if dtype is None else dtype, chunks,
                                self._mode if mode is None else mode, self._comms)

    def __repr__(self):
        return (f"<DistributedArray shape={self._shape} dtype={self._dtype} mode="
                f"{self._mode!r} chunks={ {d: len(c) for d, c in self._chunks.items()} }>")

    # -- modes and layouts -----------------------------------------------------------------
    def _to_replica(self):
        if self._mode is REPLICA:
            return self
        op = getattr(cuarray, self._mode.ufunc)
        items = self._items()
        out = {}
        for dev, c in items:
            with Device(dev):
                acc = c.array.copy()
                for dev2, c2 in items:
                    common = None if c2 is c else _index.intersect(c.region, c2.region)
                    if common is None:
                        continue
                    part = _on(dev, c2.array[_index.local(common, c2.region)])
                    dst = acc[_index.local(common, c.region)]
                    op(dst, part, out=dst)
            out.setdefault(dev, []).append(_Chunk(acc, c.region))
        return self._like(out, REPLICA)

    def _from_replica(self, mode):
        # Each element keeps its value in the first chunk holding it (in device order);
        # the others hold the mode's identity there.
        identity = mode.identity(self._dtype)
        items = self._items()
        out = {}
        for k, (dev, c) in enumerate(items):
            with Device(dev):
                a = c.array.copy()
                for _, c2 in items[:k]:
                    common = _index.intersect(c.region, c2.region)
                    if common is not None:
                        a[_index.local(common, c.region)] = identity
            out.setdefault(dev, []).append(_Chunk(a, c.region))
        return self._like(out, mode)

    def change_mode(self, mode):
        """The same values under another mode (a new array; peer copies where chunks overlap)."""
        mode = as_mode(mode)
        if mode is self._mode:
            return self
        rep = self._to_replica()
        return rep if mode is REPLICA else rep._from_replica(mode)

    def reshard(self, index_map):
        """The same values with the chunks `index_map` names (a new array, same mode)."""
        regions = _index.normalize_map(self._shape, index_map)
        if regions == self._regions():
            return self
        src = self._to_replica()
        out = {}
        for dev, rs in regions.items():
            with Device(dev):
                for region in rs:
                    a = cuarray.zeros(_index.region_shape(region), self._dtype)
                    for _, c2 in src._items():
                        common = _index.intersect(region, c2.region)
                        if common is not None:
                            a[_index.local(common, region)] = \
                                _on(dev, c2.array[_index.local(common, c2.region)])
                    out.setdefault(dev, []).append(_Chunk(a, region))
        res = self._like(out, REPLICA)
        return res if self._mode is REPLICA else res._from_replica(self._mode)

    # -- to the host -----------------------------------------------------------------------
    def get(self, stream=None, order="C", out=None, blocking=True):
        """The whole array as a numpy.ndarray (elements no chunk holds: the mode's identity,
        0 for REPLICA)."""
        fill = 0 if self._mode is REPLICA else self._mode.identity(self._dtype)
        src = self._to_replica()
        if out is None:
            out = numpy.full(self._shape, fill, dtype=self._dtype, order=order)
        elif not isinstance(out, numpy.ndarray) or out.shape != self._shape or \
                out.dtype != self._dtype:
            raise ValueError(f"out must be a numpy.ndarray of shape {self._shape} and dtype "
                             f"{self._dtype}")
        else:
            out[...] = fill
        for dev, c in src._items():
            with Device(dev):
                out[_index.to_slices(c.region)] = c.array.get(stream=stream)
        return out

    def asnumpy(self):
        """A copy of the whole array in host memory (as `get()`)."""
        return self.get()

    def __array__(self, dtype=None, copy=None):
        a = self.get()
        return a if dtype is None else a.astype(dtype, copy=False)

    # -- elementwise -----------------------------------------------------------------------
    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if method != "__call__":
            return NotImplemented
        f = getattr(cuarray, ufunc.__name__, None)
        if f is None:
            return NotImplemented
        return _elementwise(f, inputs, out, kwargs)

    # -- reductions ------------------------------------------------------------------------
    def _reduce(self, mode, axis, dtype=None, out=None, keepdims=False):
        if out is not None:        # CuPy's DistributedArray refuses these the same way
            raise RuntimeError("Argument `out` is not supported")
        if keepdims:
            raise RuntimeError("Argument `keepdims` is not supported")
        if axis is not None:
            if not isinstance(axis, int) or not -self.ndim <= axis < self.ndim:
                raise numpy.exceptions.AxisError(f"axis {axis!r} is out of bounds for array "
                                                 f"of dimension {self.ndim}")
            axis %= self.ndim
        src = self.change_mode(mode)
        fn = getattr(cuarray, mode.reduction)
        kw = {} if dtype is None else {"dtype": dtype}
        out = {}
        for dev, c in src._items():
            with Device(dev):
                r = fn(c.array, axis=axis, **kw)
            dtype = r.dtype
            region = () if axis is None else _index.drop_axis(c.region, axis)
            out.setdefault(dev, []).append(_Chunk(r, region))
        shape = () if axis is None else self._shape[:axis] + self._shape[axis + 1:]
        return self._like(out, mode, dtype, shape)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        """Sum along `axis` (an int or None); the result is in SUM mode."""
        from cuarray.distributed.array._modes import SUM
        return self._reduce(SUM, axis, dtype, out, keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        """Product along `axis`; the result is in PROD mode."""
        from cuarray.distributed.array._modes import PROD
        return self._reduce(PROD, axis, dtype, out, keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        """Maximum along `axis`; the result is in MAX mode."""
        from cuarray.distributed.array._modes import MAX
        return self._reduce(MAX, axis, None, out, keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        """Minimum along `axis`; the result is in MIN mode."""
        from cuarray.distributed.array._modes import MIN
        return self._reduce(MIN, axis, None, out, keepdims)

    def __matmul__(self, other):
        from cuarray.distributed.array._linalg import matmul
        return matmul(self, other)

    def __rmatmul__(self, other):
        from cuarray.distributed.array._linalg import matmul
        return matmul(other, self)

def _elementwise(f, inputs, out, kwargs):
    if kwargs.get("where", True) is not True:
        raise TypeError("where= is not supported on DistributedArray")
    dists = [x for x in inputs if isinstance(x, DistributedArray)]
    if not dists:    # only out= is distributed
        raise TypeError("a ufunc writing into a DistributedArray needs a DistributedArray "
                        "input; make the inputs distributed with distributed_array()")
    base = dists[0]._to_replica()
    regions = base._regions()
    args = []
    for x in inputs:
        if isinstance(x, DistributedArray):
            if x.shape != base.shape:
                raise ValueError(f"operands have shapes {base.shape} and {x.shape}: "
                                 f"distributed arrays combine with same-shape ones and scalars")
            x = x._to_replica()
            if x._regions() != regions:
                x = x.reshard(base.index_map)
            args.append(x)
        elif isinstance(x, ndarray) or (isinstance(x, numpy.ndarray) and x.ndim):
            raise TypeError("a DistributedArray combines with DistributedArrays and scalars; "
                            "make the array distributed with distributed_array(x, index_map)")
        else:
            args.append(x)
    results = None
    for dev, chunks in base._chunks.items():
        with Device(dev):
            for k, c in enumerate(chunks):
                r = f(*[a._chunks[dev][k].array if isinstance(a, DistributedArray) else a
                        for a in args], **kwargs)
                rs = r if isinstance(r, tuple) else (r,)
                if results is None:
                    results = [{} for _ in rs]
                for res, piece in zip(results, rs):
                    res.setdefault(dev, []).append(_Chunk(piece, c.region))
    outs = tuple(DistributedArray(base.shape, next(iter(res.values()))[0].array.dtype, res,
                                  REPLICA, base._comms) for res in results)
    if out is not None:
        for o, r in zip(out, outs):
            _assign(o, r)
        outs = tuple(out)
    return outs if len(outs) > 1 else outs[0]


def _assign(dst, src):
    """dst takes src's values in its own layout, mode and dtype (in-place operators)."""
    if not isinstance(dst, DistributedArray):
        raise TypeError(f"out must be a DistributedArray, got {type(dst).__name__}")
    if dst.shape != src.shape:
        raise ValueError(f"out has shape {dst.shape}, the result {src.shape}")
    if not numpy.can_cast(src.dtype, dst.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc output from dtype('{src.dtype}') to "
                        f"dtype('{dst.dtype}') with casting rule 'same_kind'")
    r = src.reshard(dst.index_map).change_mode(dst.mode)
    for dev, cs in r._chunks.items():
        for c in cs:
            if c.array.dtype != dst.dtype:
                with Device(dev):
                    c.array = c.array.astype(dst.dtype)
    dst._chunks = r._chunks


def distributed_array(array, index_map, mode="replica", comms=None):
    """A DistributedArray holding `array` (host data, a cuarray array of any device, or a
    DistributedArray) as the chunks `index_map` names (cuarray version of
    `cupyx.distributed.array.distributed_array`). The values are `array`'s in every mode."""
    mode = as_mode(mode)
    if isinstance(array, DistributedArray):
        d = array.reshard(index_map).change_mode(mode)
        return DistributedArray(d.shape, d.dtype, d._chunks, d._mode, comms)
    if not isinstance(array, ndarray):
        array = numpy.asarray(array)
    regions = _index.normalize_map(array.shape, index_map)
    chunks = {}
    for dev, rs in regions.items():
        for region in rs:
            view = array[_index.to_slices(region)]
            with Device(dev):
                a = cuarray.array(view, copy=True)   # own memory: chunks must not alias
            chunks.setdefault(dev, []).append(_Chunk(a, region))
    d = DistributedArray(array.shape, array.dtype, chunks, REPLICA, comms)
    return d if mode is REPLICA else d._from_replica(mode)
