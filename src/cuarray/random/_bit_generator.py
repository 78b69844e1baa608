"""Bit generators: the source of random bits behind Generator and RandomState.

`Philox4x3210` is counter-based: its whole state is a 64-bit key and a 64-bit counter of
128-bit blocks, every output is a pure function of (key, counter, index), and each call
advances the counter past the blocks it used. `XORWOW` and `MRG32k3a` keep a fixed
number of sequential streams on the device (the same on every GPU), seeded from the key.
"""
import threading

import numpy

from cuarray._core.ndarray import ndarray
from cuarray._runtime.device import get_device_id, properties
from cuarray.random import _kernels

_BLOCK = 256
_U64 = (1 << 64) - 1
_compiled = {}  # (builder, args) -> _Kernel


class _Kernel:
    """A compiled kernel and the most blocks of it one SM holds (from its register count)."""

    __slots__ = ("fn", "_per_sm")

    def __init__(self, fn):
        self.fn = fn
        self._per_sm = None

    def grid(self, items):
        """Blocks for `items` threads of work: enough to fill the GPU once, no more."""
        if self._per_sm is None:
            regs = max(1, self.fn.num_regs)
            self._per_sm = max(1, min(8, 65536 // (((regs + 7) // 8 * 8) * _BLOCK)))
        sms = properties(get_device_id())["sm_count"]
        return max(1, min(-(-items // _BLOCK), self._per_sm * sms))

    def __call__(self, grid, args):
        self.fn((grid,), (_BLOCK,), args)


def kernel(builder, *args):
    """The compiled kernel `builder(*args)` from `_kernels`, built once per process."""
    key = (builder, args)
    k = _compiled.get(key)
    if k is None:
        from cuarray import RawKernel
        name, wrapper = builder(*args)
        k = _compiled[key] = _Kernel(
            RawKernel(_kernels.source(wrapper), name))
    return k


def _u64(x):
    return numpy.uint64(x & _U64)


class BitGenerator:
    """Base class of the bit generators (cuarray version of `cupy.random.BitGenerator`).

    `seed` is None (fresh OS entropy), an int or sequence of ints, a
    `numpy.random.SeedSequence`, or a cuarray array of ints (read to the host); the key is
    derived with `numpy.random.SeedSequence`, as NumPy and CuPy do.
    """

    _engine = None

    def __init__(self, seed=None):
        if type(self) is BitGenerator or self._engine is None:
            raise TypeError("BitGenerator is an abstract base class: use Philox4x3210, XORWOW "
                            "or MRG32k3a")
        if isinstance(seed, numpy.random.SeedSequence):
            self._seed_seq = seed
        else:
            if isinstance(seed, ndarray):
                seed = seed.get()
            self._seed_seq = numpy.random.SeedSequence(seed)
        self.lock = threading.Lock()

    @property
    def seed_seq(self):
        return self._seed_seq

    def _seed_key(self):
        return int(self._seed_seq.generate_state(1, numpy.uint64)[0])

    def spawn(self, n_children):
        """`n_children` independent bit generators of the same kind (from the SeedSequence)."""
        return [type(self)(seed=s) for s in self._seed_seq.spawn(n_children)]

    def random_raw(self, size=None, output=True):
        """Raw 32-bit words of the underlying generator, as a uint32 array.

        cuarray returns uint32 (the generators' native word); CuPy returns int32.
        """
        shape = () if size is None else _shape(size)
        out = ndarray._alloc(shape, numpy.dtype(numpy.uint32))
        self._raw(out)
        return out if output else None

    # Subclasses define _raw(out) (fill a contiguous uint32 array with raw words) and
    # _element(builder, bargs, out, n, args) (launch an element or row kernel over n
    # items; `args` sit between n and the engine's own arguments).


def _shape(size):
    if isinstance(size, (int, numpy.integer)):
        return (int(size),)
    return tuple(int(s) for s in size)


class Philox4x3210(BitGenerator):
    """Counter-based Philox4x32-10 (cuarray version of `cupy.random.Philox4x3210`).

    The state is a 64-bit key (from `seed`, or given as `key=`) and a 64-bit `counter` of
    128-bit blocks. Results depend only on (key, counter, index): the same on every run,
    every GPU and every launch configuration. `advance(delta)` skips `delta` blocks.
    Computed in cuarray's own kernels (not cuRAND).
    """

    _engine = "philox"

    def __init__(self, seed=None, *, counter=0, key=None):
        super().__init__(seed)
        self._key = self._seed_key() if key is None else int(key) & _U64
        self._counter = int(counter) & _U64

    def __repr__(self):
        return f"Philox4x3210(key={self._key:#x}, counter={self._counter})"

    @property
    def state(self):
        return {"bit_generator": "Philox4x3210",
                "state": {"key": self._key, "counter": self._counter}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or value.get("bit_generator") != "Philox4x3210":
            raise ValueError("state must be a dict from Philox4x3210.state")
        self._key = int(value["state"]["key"]) & _U64
        self._counter = int(value["state"]["counter"]) & _U64

    def advance(self, delta):
        """Skip `delta` 128-bit blocks; returns self."""
        with self.lock:
            self._counter = (self._counter + int(delta)) & _U64
        return self

    def _reserve(self, blocks):
        """(key, first block) for a call using `blocks` counter positions."""
        with self.lock:
            start = self._counter
            self._counter = (start + blocks) & _U64
        return _u64(self._key), _u64(start)

    def _bulk(self, builder, bargs, out, per_block, args):
        n = out.size
        blocks = -(-n // per_block)
        key, ctr = self._reserve(blocks)
        k = kernel(builder, *bargs)
        k(k.grid(blocks), (out, numpy.uint64(n), key, ctr, *args))

    def _raw(self, out):
        if out.size:
            self._bulk(_kernels.raw_kernel, (), out, 4, ())

    def _element(self, builder, bargs, out, n, args):
        key, ctr = self._reserve(n)
        k = kernel(builder, *bargs)
        k(k.grid(n), (out, numpy.int64(n), *args, key, ctr, None, numpy.int64(0)))


class _StatefulBitGenerator(BitGenerator):
    """A generator with `size` sequential streams on the device; stream t serves elements
    t, t + size, t + 2 size, ... of every call, so results do not depend on the GPU."""

    _default_size = 1 << 17

    def __init__(self, seed=None, *, size=None, key=None):
        super().__init__(seed)
        self._device_id = get_device_id()
        self._size = self._default_size if size is None else int(size)
        if self._size < 1:
            raise ValueError(f"size must be positive, got {size}")
        self._reseed(self._seed_key() if key is None else int(key) & _U64)

    def __repr__(self):
        return f"{type(self).__name__}(size={self._size})"

    def _reseed(self, key):
        self._states = ndarray._alloc((6 * self._size,), numpy.dtype(numpy.uint32))
        k = kernel(_kernels.init_kernel, self._engine)
        k(-(-self._size // _BLOCK), (self._states, numpy.int64(self._size), _u64(key)))

    @property
    def state(self):
        """The stream states as a host uint32 array (6 words per stream); synchronises."""
        return {"bit_generator": type(self).__name__, "size": self._size,
                "state": self._states.get()}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or value.get("bit_generator") != type(self).__name__:
            raise ValueError(f"state must be a dict from {type(self).__name__}.state")
        words = numpy.ascontiguousarray(value["state"], dtype=numpy.uint32)
        if words.shape != (6 * int(value["size"]),):
            raise ValueError("state['state'] must hold 6 words per stream")
        self._size = int(value["size"])
        from cuarray import asarray
        self._states = asarray(words)

    def _state_size(self):
        return self._size

    def _check_device(self):
        if get_device_id() != self._device_id:
            raise RuntimeError("This Generator state is allocated in a different device")

    def _raw(self, out):
        if out.size:
            self._element(_kernels.raw_stateful_kernel, (self._engine,), out, out.size, ())

    def _element(self, builder, bargs, out, n, args):
        self._check_device()
        k = kernel(builder, *bargs)
        k(-(-self._size // _BLOCK), (out, numpy.int64(n), *args, numpy.uint64(0),
                                      numpy.uint64(0), self._states, numpy.int64(self._size)))


class XORWOW(_StatefulBitGenerator):
    """Marsaglia's XORWOW with `size` device streams (cuarray version of `cupy.random.XORWOW`).

    Each stream is seeded from Philox of (key, stream index) instead of cuRAND's skip-ahead,
    and `size` defaults to 2^17 streams on every GPU (CuPy scales it with the SM count), so
    results are reproducible across devices; they differ from CuPy's bit stream.
    """

    _engine = "xorwow"


class MRG32k3a(_StatefulBitGenerator):
    """L'Ecuyer's MRG32k3a with `size` device streams (cuarray version of `cupy.random.MRG32k3a`).

    Streams are seeded as for `XORWOW`. Raw words are the combined value in [1, m1],
    m1 = 2^32 - 209, as cuRAND's are (a 32-bit word misses the top 209 values).
    """

    _engine = "mrg32k3a"
