"""CuPy's `cupy.cuda.compiler`: NVRTC compilation with cuarray's kernel cache."""
from cuarray._runtime import compiler as _compiler
from cuarray._runtime.compiler import CompileException, cache_dir  # noqa: F401


def get_nvrtc_version():
    """NVRTC's (major, minor) version."""
    return _compiler.nvrtc_version()


def get_cache_dir():
    return _compiler.cache_dir()


def compile_with_cache(source, options=(), arch=None, cache_dir=None, extra_source=None,
                       backend="nvrtc", *, enable_cooperative_groups=False,
                       name_expressions=None, log_stream=None, jitify=False):
    """Compile `source` with NVRTC (or take it from the cache) and load it: a
    `cuarray.cuda.function.Module` (cuarray version of `cupy.cuda.compiler.compile_with_cache`).

    `arch` must be None or the current device's ('sm_90' or '90'); `cache_dir` is set
    with CUARRAY_CACHE_DIR instead. `extra_source` is part of the cache key only, as in
    CuPy.
    """
    from cuarray.cuda.function import Module
    if backend != "nvrtc":
        raise ValueError(f"backend {backend!r} is not available: cuarray compiles with NVRTC")
    if arch is not None:
        want = _compiler.device_arch()
        given = arch if str(arch).startswith(("sm_", "compute_")) else f"sm_{arch}"
        if given.replace("compute_", "sm_") != want:
            raise ValueError(f"arch {arch!r} differs from the current device's {want}: the "
                             f"module is loaded on the current device")
    if cache_dir is not None and cache_dir != _compiler.cache_dir():
        raise ValueError("cache_dir cannot be chosen per call; set CUARRAY_CACHE_DIR")
    options = tuple(options)
    if extra_source is not None:
        options += (f"-DCUARRAY_EXTRA_SOURCE_HASH={hash_source(extra_source)}",)
    mod = Module()
    mod._mod = _compiler.compile_module(source, options, tuple(name_expressions or ()),
                                        name="compile_with_cache")
    return mod


def hash_source(text):
    import hashlib
    return hashlib.sha256(text.encode()).hexdigest()[:16]
