"""The CUDA profiler switch (cuProfilerStart/Stop) and NVTX ranges.

NVTX: cuda-bindings 13 has no NVTX module, so ranges go through NVIDIA's NVTX v2 C
library (libnvToolsExt, e.g. from the `nvidia-nvtx-cu12` wheel or a CUDA toolkit) loaded
with ctypes. Without that library the range calls do nothing, and `nvtx_available()`
says so; profilers that inject NVTX through NVTX_INJECTION64_PATH still see cuProfiler
ranges but not these.
"""
import ctypes
import ctypes.util
import glob
import importlib.util
import os
import threading

from cuarray._runtime import driver as _driver
from cuarray._runtime.device import ensure_context
from cuarray._runtime.driver import check

# CuPy's palette for `color_id` (cupy.cuda.nvtx): green, blue, yellow, magenta, cyan, red, white.
COLORS = (0xFF00FF00, 0xFF0000FF, 0xFFFFFF00, 0xFFFF00FF, 0xFF00FFFF, 0xFFFF0000, 0xFFFFFFFF)

_lock = threading.Lock()
_lib = None     # the loaded library, False when none was found
_ARGB = 1       # NVTX_COLOR_ARGB
_ASCII = 1      # NVTX_MESSAGE_TYPE_ASCII


class _EventAttributes(ctypes.Structure):
    """nvtxEventAttributes_t (version 2, 48 bytes)."""

    _fields_ = [("version", ctypes.c_uint16), ("size", ctypes.c_uint16),
                ("category", ctypes.c_uint32), ("colorType", ctypes.c_int32),
                ("color", ctypes.c_uint32), ("payloadType", ctypes.c_int32),
                ("reserved0", ctypes.c_int32), ("payload", ctypes.c_uint64),
                ("messageType", ctypes.c_int32), ("message", ctypes.c_char_p)]


def start():
    """cuProfilerStart: begin collecting profile data in the current context."""
    ensure_context()
    check(_driver._drv().cuProfilerStart())


def stop():
    """cuProfilerStop: stop collecting profile data in the current context."""
    ensure_context()
    check(_driver._drv().cuProfilerStop())


def _candidates():
    name = ctypes.util.find_library("nvToolsExt")
    if name:
        yield name
    yield "libnvToolsExt.so.1"
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        yield from sorted(glob.glob(os.path.join(root, "nvtx", "lib", "libnvToolsExt.so*")))
        # The CUDA 13 wheel (`nvidia-nvtx`) ships NVTX 3's C entry points as
        # libnvtx3interop under nvidia/cu13/lib.
        for lib in ("libnvtx3interop.so*", "libnvToolsExt.so*"):
            yield from sorted(glob.glob(os.path.join(root, "cu*", "lib", lib)))
            yield from sorted(glob.glob(os.path.join(root, "nvtx", "lib", lib)))
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            yield from sorted(glob.glob(os.path.join(home, "lib64", "libnvToolsExt.so*")))


def _load():
    global _lib
    if _lib is None:
        with _lock:
            if _lib is None:
                _lib = False
                for path in _candidates():
                    try:
                        lib = ctypes.CDLL(path)
                        lib.nvtxRangePushA.argtypes = [ctypes.c_char_p]
                        lib.nvtxRangePushEx.argtypes = [ctypes.POINTER(_EventAttributes)]
                        lib.nvtxMarkA.argtypes = [ctypes.c_char_p]
                        lib.nvtxMarkEx.argtypes = [ctypes.POINTER(_EventAttributes)]
                    except (OSError, AttributeError):
                        continue
                    _lib = lib
                    break
    return _lib


def injection_configured():
    """True when a tool (Nsight Systems, Nsight Compute) has asked to receive NVTX calls.

    Tools inject themselves through NVTX_INJECTION64_PATH; without one, NVTX's own calls
    return at once by design, so skipping them changes nothing a profiler could see.
    """
    return bool(os.environ.get("NVTX_INJECTION64_PATH") or
                os.environ.get("NVTX_INJECTION32_PATH"))


def nvtx_available():
    """True when an NVTX library was found (ranges are recorded)."""
    return bool(_load())


def _emit(plain, extended, message, argb_color):
    """Call NVTX's ASCII entry point, or its attribute form when a colour is given."""
    msg = str(message).encode()
    if argb_color is None:
        plain(msg)
        return
    attr = _EventAttributes(version=2, size=ctypes.sizeof(_EventAttributes), colorType=_ARGB,
                            color=int(argb_color) & 0xFFFFFFFF, messageType=_ASCII, message=msg)
    extended(ctypes.byref(attr))


def range_push(message, argb_color=None):
    """Open a nested NVTX range; `argb_color` is 0xAARRGGBB or None for no color."""
    lib = _load()
    if lib:
        _emit(lib.nvtxRangePushA, lib.nvtxRangePushEx, message, argb_color)


def range_pop():
    """Close the innermost NVTX range of this thread."""
    lib = _load()
    if lib:
        lib.nvtxRangePop()


def mark(message, argb_color=None):
    """An instantaneous NVTX marker; `argb_color` is 0xAARRGGBB or None for no color."""
    lib = _load()
    if lib:
        _emit(lib.nvtxMarkA, lib.nvtxMarkEx, message, argb_color)
