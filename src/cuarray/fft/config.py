"""FFT settings and the cuFFT plan cache (cuarray version of `cupy.fft.config`).

`enable_nd_planning`: when True (the default), `fftn`/`rfftn` and friends transform up
to three axes with one multi-dimensional cuFFT plan; when False, one axis at a time.

`get_plan_cache()` gives this thread's least-recently-used plan cache for the current
device. A repeated transform of the same shape and layout reuses its plan (a hit);
evicted plans are destroyed and their work areas go back to the memory pool.
"""
import collections
import threading

from cuarray._runtime.device import get_device_id
from cuarray.fft._callbacks import set_cufft_callbacks  # noqa: F401

enable_nd_planning = True
# Multi-GPU 1-D transforms (cuFFTXt) are not available: True makes them raise.
use_multi_gpus = False
_devices = None

_tls = threading.local()


class _Node:
    """One cached plan: its key, the plan and the bytes its work area holds."""

    __slots__ = ("key", "plan", "memsize")

    def __init__(self, key, plan):
        self.key, self.plan, self.memsize = key, plan, plan.memsize

    def __repr__(self):
        return f"key: {self.key}, plan type: {self.plan.plan_type}, memory usage: {self.memsize}"


class PlanCache:
    """A per-thread, per-device LRU cache of cuFFT plans (as `cupy.fft._cache.PlanCache`).

    `size` caps the number of plans and `memsize` the bytes of their work areas; -1 lifts a
    cap, 0 disables the cache (every transform then makes and drops its own plan).
    Iterating gives (key, node) pairs, most recently used first.
    """

    def __init__(self, size=16, memsize=-1, dev=-1):
        self._validate(size, memsize)
        self._size, self._memsize = size, memsize
        self.dev = get_device_id() if dev == -1 else dev
        self._reset()

    def _reset(self):
        self._lru = collections.OrderedDict()  # key -> _Node, least recently used first
        self._curr_memsize = 0
        self.hits = 0
        self.misses = 0

    @staticmethod
    def _validate(size, memsize):
        for name, v in (("size", size), ("memsize", memsize)):
            if not isinstance(v, int) or isinstance(v, bool) or v < -1:
                raise ValueError(f"plan cache {name} must be an int >= -1 (-1: unlimited, 0: "
                                 f"disabled), got {v!r}")

    @property
    def is_enabled(self):
        return self._size != 0 and self._memsize != 0

    # ---- dict-like access (as CuPy's) ---------------------------------------------------
    def get(self, key, default=None):
        if not self.is_enabled:
            return default
        node = self._lru.get(key)
        if node is None:
            self.misses += 1
            return default
        self._lru.move_to_end(key)
        self.hits += 1
        return node.plan

    def __getitem__(self, key):
        plan = self.get(key)
        if plan is None and self.is_enabled:
            raise KeyError(f"plan not found for key: {key}")
        return plan

    def __setitem__(self, key, plan):
        if not self.is_enabled:
            return
        if self._memsize > 0 and plan.memsize > self._memsize:
            raise RuntimeError(f"the plan memsize is too large: its work area takes "
                               f"{plan.memsize} bytes, the cache allows {self._memsize}")
        self._add(key, plan)

    def __delitem__(self, key):
        if not self.is_enabled:
            return
        node = self._lru.pop(key, None)
        if node is None:
            self.misses += 1
            raise KeyError(f"plan not found for key: {key}")
        self.hits += 1
        self._curr_memsize -= node.memsize

    def __iter__(self):
        for key in reversed(self._lru):
            yield key, self._lru[key]

    def __len__(self):
        return len(self._lru)

    def _add(self, key, plan):
        old = self._lru.pop(key, None)
        if old is not None:
            self._curr_memsize -= old.memsize
        node = _Node(key, plan)
        self._evict(self._size - 1 if self._size != -1 else -1,
                    self._memsize - node.memsize if self._memsize != -1 else -1)
        self._lru[key] = node
        self._curr_memsize += node.memsize

    def _put(self, key, plan):
        """Cache a new plan unless the cache is off or the plan alone exceeds `memsize`."""
        if self.is_enabled and not (self._memsize > 0 and plan.memsize > self._memsize):
            self._add(key, plan)

    def _evict(self, size, memsize):
        """Drop least recently used plans until at most `size` plans of `memsize` bytes remain."""
        lru = self._lru
        while lru and not ((size == -1 or len(lru) <= size) and
                           (memsize == -1 or self._curr_memsize <= memsize)):
            _, node = lru.popitem(last=False)
            self._curr_memsize -= node.memsize

    # ---- CuPy's methods -----------------------------------------------------------------
    def set_size(self, size):
        self._validate(size, self._memsize)
        self._evict(size, self._memsize)
        self._size = size

    def get_size(self):
        return self._size

    def get_curr_size(self):
        return len(self._lru)

    def set_memsize(self, memsize):
        self._validate(self._size, memsize)
        self._evict(self._size, memsize)
        self._memsize = memsize

    def get_memsize(self):
        return self._memsize

    def get_curr_memsize(self):
        return self._curr_memsize

    def clear(self):
        """Drop every plan (their work areas return to the pool) and reset the counters."""
        self._reset()

    def show_info(self):
        print(self)

    def __repr__(self):
        size = "(unlimited)" if self._size == -1 else self._size
        memsize = "(unlimited)" if self._memsize == -1 else self._memsize
        lines = [f"------------------- cuFFT plan cache (device {self.dev}) -------------------",
                 f"cache enabled? {self.is_enabled}",
                 f"current / max size   : {len(self._lru)} / {size} (counts)",
                 f"current / max memsize: {self._curr_memsize} / {memsize} (bytes)",
                 f"hits / misses: {self.hits} / {self.misses} (counts)",
                 "",
                 "cached plans (most recently used first):"]
        lines += [repr(node) for _, node in self]
        return "\n".join(lines) + "\n"


def _caches():
    try:
        return _tls.caches
    except AttributeError:
        _tls.caches = {}
        return _tls.caches


def get_plan_cache():
    """This thread's plan cache for the current device, made on first use (cuarray version
    of `cupy.fft.config.get_plan_cache`)."""
    dev = get_device_id()
    caches = _caches()
    cache = caches.get(dev)
    if cache is None:
        cache = caches[dev] = PlanCache(dev=dev)
    return cache


def show_plan_cache_info():
    """Print every plan cache of this thread, one per device that has used cuFFT."""
    print("=============== cuFFT plan cache info (all devices) ===============")
    caches = _caches()
    for dev in sorted(caches):
        caches[dev].show_info()


def set_cufft_gpus(gpus):
    """Choose the GPUs of multi-GPU transforms (cuarray version of
    `cupy.fft.config.set_cufft_gpus`): an int n (the first n devices) or a list of ids.

    At least two GPUs, all present, are required, as in CuPy. cuarray runs no multi-GPU
    transform yet: with `use_multi_gpus = True` a 1-D complex transform raises.
    """
    global _devices
    if isinstance(gpus, int) and not isinstance(gpus, bool):
        devs = list(range(gpus))
    elif isinstance(gpus, (list, tuple)):
        devs = [int(g) for g in gpus]
    else:
        raise ValueError("gpus must be an int or a list of int.")
    if len(devs) <= 1:
        raise ValueError("Must use at least 2 GPUs.")
    from cuarray._runtime.driver import device_count
    n = device_count()
    missing = [d for d in devs if not 0 <= d < n]
    if missing:
        raise ValueError(f"GPUs {missing} do not exist: this machine has {n} CUDA device"
                         f"{'s' if n != 1 else ''}")
    _devices = tuple(devs)
