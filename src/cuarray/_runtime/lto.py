"""Device functions compiled to LTO-IR by NVRTC (`-dlto`), for libraries that link them
into their own kernels with nvJitLink (cuFFT's JIT callbacks).

Results are kept in memory per (source, names, options, arch): the same callback
compiles once per process.
"""
import threading

from cuarray._runtime.compiler import _compile

_cache = {}
_lock = threading.Lock()
_nvjitlink = None


def compile_lto(source, name_expressions, options=(), arch="compute_90", name="lto"):
    """(LTO-IR bytes, {expression: lowered symbol name}) for `source` on `arch`."""
    key = (source, tuple(name_expressions), tuple(options), arch)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    ir, lowered = _compile(source, options, name_expressions, arch, name, lto=True)
    with _lock:
        _cache[key] = (ir, lowered)
    return _cache[key]


def load_nvjitlink():
    """Load libnvJitLink (from the nvidia-nvjitlink wheel or the toolkit) into the process,
    so that a library which links LTO-IR at run time (cuFFT) finds it already loaded."""
    global _nvjitlink
    if _nvjitlink is None:
        from cuda.pathfinder import load_nvidia_dynamic_lib
        _nvjitlink = load_nvidia_dynamic_lib("nvJitLink")
    return _nvjitlink
