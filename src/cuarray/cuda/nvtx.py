"""CuPy's `cupy.cuda.nvtx`: NVTX ranges and markers for Nsight Systems' timeline.

Without an NVTX library (libnvToolsExt, or libnvtx3interop from the `nvidia-nvtx`
wheel) every call does nothing; `available` says whether one was found. Without a
profiler (no NVTX injection configured in the environment at import) the calls return
before reaching the library: NVTX would ignore them anyway.
"""
from cuarray._runtime import profiler as _p

# Read once: profilers set their injection variable before the program starts.
_quiet = not _p.injection_configured()
_encoded = {}


def __getattr__(name):
    if name == "available":
        return _p.nvtx_available()
    raise AttributeError(f"module 'cuarray.cuda.nvtx' has no attribute {name!r}")


def _palette(id_color):
    return None if id_color < 0 else _p.COLORS[id_color % len(_p.COLORS)]


def Mark(message, id_color=-1):
    """A marker; `id_color` picks CuPy's palette (0 green, 1 blue, 2 yellow, 3 magenta,
    4 cyan, 5 red, 6 white), -1 none."""
    if not _quiet:
        _p.mark(message, _palette(id_color))


def MarkC(message, argb_color=0):
    """A marker coloured 0xAARRGGBB."""
    if not _quiet:
        _p.mark(message, argb_color)


def RangePush(message, id_color=-1):
    """Open a nested range on this thread; `id_color` as in `Mark`."""
    if _quiet:
        return
    if id_color < 0:
        lib = _p._load()
        if lib:
            msg = _encoded.get(message)
            if msg is None:
                msg = str(message).encode()
                if type(message) is str and len(_encoded) < 4096:
                    _encoded[message] = msg
            lib.nvtxRangePushA(msg)
    else:
        _p.range_push(message, _palette(id_color))


def RangePushC(message, argb_color=0):
    """Open a nested range coloured 0xAARRGGBB."""
    if not _quiet:
        _p.range_push(message, argb_color)


def RangePop():
    """Close the innermost range of this thread."""
    if not _quiet:
        _p.range_pop()
