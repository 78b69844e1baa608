"""Miscellaneous routines (NumPy reference: "Miscellaneous routines"): memory ranges and
overlap, listing the arrays of a namespace, the build configuration, CuPy's memoizing
decorator."""
import functools
import sys

import numpy
from numpy import iterable  # noqa: F401

from cuarray._core.ndarray import ndarray

__all__ = ["shares_memory", "may_share_memory", "byte_bounds", "who", "show_config", "memoize",
           "clear_memo", "iterable"]



class _Span:
    """A device array's address layout seen through NumPy's array interface: NumPy's overlap
    solver only does arithmetic on the pointer and strides, never reads the memory."""

    __slots__ = ("_a",)

    def __init__(self, a):
        self._a = a

    @property
    def __array_interface__(self):
        a = self._a
        return {"shape": a._shape, "strides": a._strides, "typestr": a.dtype.str,
                "data": (a._ptr, False), "version": 3}


def _overlap_test(fn, a, b, max_work):
    if isinstance(a, ndarray) != isinstance(b, ndarray):
        return False  # device and host memory never overlap
    if not isinstance(a, ndarray):
        return fn(a, b, max_work=max_work)
    if a._device_id != b._device_id or a.size == 0 or b.size == 0:
        return False
    return fn(numpy.asarray(_Span(a)), numpy.asarray(_Span(b)), max_work=max_work)


def shares_memory(a, b, max_work=None):
    """cuarray version of `numpy.shares_memory`: exact, by NumPy's own solver applied to the
    arrays' device addresses and strides (no device work)."""
    return _overlap_test(numpy.shares_memory, a, b, max_work)


def may_share_memory(a, b, max_work=None):
    """cuarray version of `numpy.may_share_memory` (address bounds by default)."""
    return _overlap_test(numpy.may_share_memory, a, b, max_work)



def byte_bounds(a):
    """cuarray version of `numpy.lib.array_utils.byte_bounds`: the device addresses of the
    first byte and one past the last byte `a` can reach (no device work)."""
    from numpy.lib.array_utils import byte_bounds as _bounds
    return _bounds(numpy.asarray(_Span(a)))


def who(vardict=None):
    """cuarray version of `numpy.who` (NumPy 1's), listing the cuarray arrays of `vardict`
    (the caller's globals by default): name, shape, bytes, type and the total bytes."""
    if vardict is None:
        vardict = sys._getframe().f_back.f_globals
    rows, seen, total = [], {}, 0
    for name in sorted(vardict):
        var = vardict[name]
        if not isinstance(var, ndarray):
            continue
        first = seen.setdefault(id(var), name)
        label = name if first == name else f"{name} ({first})"
        if first == name:
            total += var.nbytes
        rows.append((label, " x ".join(map(str, var.shape)), str(var.nbytes), var.dtype.name))
    if rows:
        w1, w2, w3 = (max(10, max(len(r[k]) for r in rows)) for k in range(3))
        head = f"Name {' ' * w1} Shape {' ' * w2} Bytes {' ' * w3} Type"
        print(f"{head}\n{'=' * (len(head) + 5)}\n")
        for r in rows:
            print(f"{r[0]} {' ' * (w1 - len(r[0]) + 4)} {r[1]} {' ' * (w2 - len(r[1]) + 5)} "
                  f"{r[2]} {' ' * (w3 - len(r[2]) + 5)} {r[3]}")
    print(f"\nUpper bound on total bytes  =       {total}")


def show_config(*, _full=False):
    """Prints cuarray's configuration: versions, the CUDA libraries found and the devices
    (what `python -m cuarray info` prints; CuPy's `show_config`)."""
    from cuarray import _info
    _info.info(sys.stdout, sys.stdout)
    sys.stdout.flush()


_memos = []


def memoize(for_each_device=False):
    """A decorator memoizing a function's result for each argument tuple (keyword arguments
    included, and the current device when `for_each_device`); `clear_memo` forgets them all
    (CuPy's `memoize`)."""
    def decorator(f):
        memo = {}
        _memos.append(memo)

        @functools.wraps(f)
        def wrapped(*args, **kwargs):
            dev = -1
            if for_each_device:
                from cuarray._runtime import device
                dev = device.get_device_id()
            key = (dev, args, frozenset(kwargs.items())) if kwargs else (dev, args)
            result = memo.get(key, memo)
            if result is memo:
                result = memo.setdefault(key, f(*args, **kwargs))
            return result
        return wrapped
    return decorator


def clear_memo():
    """Forgets every result memoized by `memoize`."""
    for memo in _memos:
        memo.clear()
