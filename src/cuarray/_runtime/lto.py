"""Device functions compiled to LTO-IR by NVRTC (`-dlto`), for libraries that link them
into their own kernels with nvJitLink (cuFFT's JIT callbacks).

Results are kept in memory per (source, names, options, arch): the same callback
compiles once per process.
"""
import threading

from cuarray._runtime.compiler import INCLUDE_DIR, CompileException, _nvrtc, _nvrtc_check

_cache = {}
_lock = threading.Lock()
_nvjitlink = None


def compile_lto(source, name_expressions, options=(), arch="compute_90", name="lto"):
    """(LTO-IR bytes, {expression: lowered symbol name}) for `source` on `arch`."""
    key = (source, tuple(name_expressions), tuple(options), arch)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    nvrtc = _nvrtc()
    prog = _nvrtc_check(nvrtc.nvrtcCreateProgram(source.encode(), (name + ".cu").encode(), 0,
                                                 [], []))
    try:
        for expr in name_expressions:
            _nvrtc_check(nvrtc.nvrtcAddNameExpression(prog, expr.encode()))
        opts = [f"-arch={arch}", "-dlto", "-rdc=true", f"-I{INCLUDE_DIR}", "--std=c++17"]
        if any(o.startswith(("-std", "--std")) for o in options):
            opts.remove("--std=c++17")
        opts += list(options)
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(opts), [o.encode() for o in opts])
        if err != 0:
            size = _nvrtc_check(nvrtc.nvrtcGetProgramLogSize(prog))
            log = b" " * size
            _nvrtc_check(nvrtc.nvrtcGetProgramLog(prog, log))
            raise CompileException(log.rstrip(b"\0").decode(errors="replace"), source, name,
                                   opts)
        size = _nvrtc_check(nvrtc.nvrtcGetLTOIRSize(prog))
        ir = b" " * size
        _nvrtc_check(nvrtc.nvrtcGetLTOIR(prog, ir))
        lowered = {e: _nvrtc_check(nvrtc.nvrtcGetLoweredName(prog, e.encode())).decode()
                   for e in name_expressions}
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    with _lock:
        _cache[key] = (bytes(ir), lowered)
    return _cache[key]


def load_nvjitlink():
    """Load libnvJitLink (from the nvidia-nvjitlink wheel or the toolkit) into the process,
    so that a library which links LTO-IR at run time (cuFFT) finds it already loaded."""
    global _nvjitlink
    if _nvjitlink is None:
        from cuda.pathfinder import load_nvidia_dynamic_lib
        _nvjitlink = load_nvidia_dynamic_lib("nvJitLink")
    return _nvjitlink
