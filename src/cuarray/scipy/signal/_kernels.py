"""The raw kernels of cuarray.scipy.signal: one source per operation, templated on the
element type and compiled once per (operation, type). Every kernel is a 1-D grid-stride
loop whose threads do not talk to each other."""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.raw import RawKernel

_cache = {}
BLOCK = 256


def ctype(dtype):
    return _dt.ctype(numpy.dtype(dtype))


def kernel(source, name, **subs):
    """The RawKernel `name` of `source` with `{KEY}` placeholders replaced by `subs`."""
    key = (name, source, tuple(sorted(subs.items())))
    k = _cache.get(key)
    if k is None:
        src = source
        if "T" in subs:
            # One identifier, so `{T}(0)` also works for `unsigned char`, `long long`.
            src = f"typedef {subs['T']} sig_t;\n" + src
            subs = dict(subs, T="sig_t")
        src = "#include <cuarray/core.cuh>\n" + src
        for s, v in subs.items():
            src = src.replace("{" + s + "}", str(v))
        k = _cache[key] = RawKernel(src, name)
    return k


def launch(k, n, args):
    """Launch a grid-stride kernel over n items (nothing to do when n is 0)."""
    if n <= 0:
        return
    grid = min((n + BLOCK - 1) // BLOCK, 65536)
    k((grid,), (BLOCK,), tuple(args))


def meta(values):
    """Integer parameters passed by value as one struct `{ long long v[n]; }`."""
    vals = [int(v) for v in values] or [0]
    dt = numpy.dtype([("v", numpy.int64, (len(vals),))])
    return numpy.array((vals,), dtype=dt)[()], len(vals)
