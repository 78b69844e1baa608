"""CuPy's `cupy.cuda.nvtx`: NVTX ranges and markers for Nsight Systems' timeline.

Without an NVTX library (libnvToolsExt, from the `nvidia-nvtx` wheel or a CUDA toolkit)
every call does nothing; `available` says which. With the library but no profiler
attached, NVTX itself returns at once: a push/pop pair costs two ctypes calls.
"""
from cuarray._runtime import profiler as _p


def __getattr__(name):
    if name == "available":
        return _p.nvtx_available()
    raise AttributeError(f"module 'cuarray.cuda.nvtx' has no attribute {name!r}")


def _palette(id_color):
    return None if id_color < 0 else _p.COLORS[id_color % len(_p.COLORS)]


def Mark(message, id_color=-1):
    """A marker; `id_color` picks CuPy's palette (0 green, 1 blue, 2 yellow, 3 magenta,
    4 cyan, 5 red, 6 white), -1 none."""
    _p.mark(message, _palette(id_color))


def MarkC(message, argb_color=0):
    """A marker coloured 0xAARRGGBB."""
    _p.mark(message, argb_color)


def RangePush(message, id_color=-1):
    """Open a nested range on this thread; `id_color` as in `Mark`."""
    if id_color < 0:
        _p.range_push(message)
    else:
        _p.range_push(message, _palette(id_color))


def RangePushC(message, argb_color=0):
    """Open a nested range coloured 0xAARRGGBB."""
    _p.range_push(message, argb_color)


def RangePop():
    """Close the innermost range of this thread."""
    _p.range_pop()
