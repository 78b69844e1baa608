"""NVRTC compilation to cubin, with an in-memory and an on-disk cache.

NVRTC is driven through cuda.bindings.nvrtc rather than cuda.core's Program: user
kernels (RawKernel, RawModule) pass arbitrary NVRTC flags (`-std=c++17`,
`--use_fast_math`, `-D...`), which cuda.core's ProgramOptions cannot express. Loading
goes through the driver's library API (cuLibraryLoadData), whose CUkernel handles are
context-independent, so one load serves every device of the same architecture.
"""
import os
import re
import struct
import threading
import warnings

from cuarray._runtime import driver as _driver
from cuarray._runtime.driver import check

try:  # CPython's own SHA-256 (hashlib's digests): `import hashlib` loads OpenSSL, ~2 ms of start-up
    from _sha2 import sha256 as _small_sha256
except ImportError:
    try:
        from _sha256 import sha256 as _small_sha256
    except ImportError:
        from hashlib import sha256 as _small_sha256


def _sha256(data=b""):
    """A SHA-256 hash object: the built-in one, or OpenSSL's (about 5x faster) for inputs
    of 512 KiB and more (rare cubins), imported then."""
    if len(data) < 1 << 19:
        return _small_sha256(data)
    import hashlib
    return hashlib.sha256(data)


INCLUDE_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "_core", "include")
_FORMAT = b"CUARRAY-CUBIN-1\n"
_lock = threading.Lock()
_memory_cache = {}   # key -> (cubin bytes, lowered-name dict)
_modules = {}        # (key, device arch) -> Module
_header_hash = None
_nvrtc_version = None


class CompileException(Exception):
    """NVRTC refused the source (cuarray version of `cupy.cuda.compiler.CompileException`).

    The message holds the NVRTC log and the numbered source.
    """

    def __init__(self, log, source, name, options):
        self.log = log
        self.source = source
        self.name = name
        self.options = options
        numbered = "\n".join(f"{i + 1:4d} {line}" for i, line in enumerate(source.splitlines()))
        super().__init__(f"{log.strip()}\n\n=== source ({name}, options {list(options)}) ===\n{numbered}")

    def get_message(self):
        return self.log

    def dump(self, f):
        f.write(str(self))


def c_identifier(name):
    """`name` made a valid C identifier (dtype chars such as '?' appear in kernel names)."""
    if name.isascii() and name.replace("_", "a").isalnum():
        return name   # already one: no regex to compile in a fresh process's first calls
    return re.sub(r"[^0-9A-Za-z_]", lambda m: f"_x{ord(m.group()):02x}", name)


def cache_dir():
    """Where compiled kernels are kept: $CUARRAY_CACHE_DIR, else the user's cache directory."""
    d = os.environ.get("CUARRAY_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cuarray")


def _nvrtc():
    from cuda.bindings import nvrtc
    return nvrtc


def nvrtc_version():
    global _nvrtc_version
    if _nvrtc_version is None:
        _, major, minor = _nvrtc().nvrtcVersion()
        _nvrtc_version = (major, minor)
    return _nvrtc_version


def _toolchain():
    """The compiler's identity in cache keys: cuda-bindings' version, which moves with the
    CUDA toolkit (and NVRTC) it is built for. Asking NVRTC itself would load libnvrtc in
    every process, ~30 ms of start-up even when every kernel comes from the disk cache."""
    global _toolchain_id
    if _toolchain_id is None:
        import cuda.bindings
        _toolchain_id = f"cuda-bindings {cuda.bindings.__version__}"
    return _toolchain_id


_toolchain_id = None


def header_hash():
    """Hash of cuarray's own headers: part of every cache key, so that a changed header
    recompiles the kernels that include it."""
    global _header_hash
    if _header_hash is None:
        h = _sha256()
        for root, _, files in sorted(os.walk(INCLUDE_DIR)):
            for f in sorted(files):
                with open(os.path.join(root, f), "rb") as fh:
                    h.update(f.encode() + b"\0" + fh.read())
        _header_hash = h.hexdigest()[:16]
    return _header_hash


def _nvrtc_check(ret, prog=None):
    err = ret[0]
    if err != 0:
        nvrtc = _nvrtc()
        msg = nvrtc.nvrtcGetErrorString(err)[1].decode()
        raise RuntimeError(f"NVRTC error: {msg}")
    return ret[1] if len(ret) == 2 else ret[1:]


def compile_cubin(source, options=(), name_expressions=(), arch="sm_90", name="cuarray_kernel"):
    """Compile `source` to cubin for `arch`; returns (cubin bytes, {expression: lowered name}).

    Results are cached in memory and on disk, keyed by everything that changes the output.
    """
    options = tuple(options)
    name_expressions = tuple(name_expressions)
    key = _key(source, options, name_expressions, arch)
    hit = _memory_cache.get(key)
    if hit is not None:
        return hit
    hit = _disk_load(key)
    if hit is None:
        hit = _compile(source, options, name_expressions, arch, name)
        _disk_store(key, *hit)
    _memory_cache[key] = hit
    return hit


def _key(source, options, name_expressions, arch):
    h = _sha256()
    for part in (source, "\0".join(options), "\0".join(name_expressions), arch,
                 _toolchain(), header_hash()):
        h.update(part.encode())
        h.update(b"\1")
    return h.hexdigest()


def _compile(source, options, name_expressions, arch, name, lto=False):
    """(cubin bytes, {expression: lowered name}); with `lto`, LTO-IR (`-dlto`) instead."""
    nvrtc = _nvrtc()
    prog = _nvrtc_check(nvrtc.nvrtcCreateProgram(source.encode(), (name + ".cu").encode(), 0, [], []))
    try:
        for expr in name_expressions:
            _nvrtc_check(nvrtc.nvrtcAddNameExpression(prog, expr.encode()))
        opts = [f"-arch={arch}", *(("-dlto", "-rdc=true") if lto else ()), f"-I{INCLUDE_DIR}",
                "--std=c++17"]
        if any(o.startswith(("-std", "--std")) for o in options):
            opts.remove("--std=c++17")
        opts += list(options)
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(opts), [o.encode() for o in opts])
        if err != 0:
            size = _nvrtc_check(nvrtc.nvrtcGetProgramLogSize(prog))
            log = b" " * size
            _nvrtc_check(nvrtc.nvrtcGetProgramLog(prog, log))
            raise CompileException(log.rstrip(b"\0").decode(errors="replace"), source, name, opts)
        get_size, get = ((nvrtc.nvrtcGetLTOIRSize, nvrtc.nvrtcGetLTOIR) if lto else
                         (nvrtc.nvrtcGetCUBINSize, nvrtc.nvrtcGetCUBIN))
        code = b" " * _nvrtc_check(get_size(prog))
        _nvrtc_check(get(prog, code))
        lowered = {}
        for expr in name_expressions:
            lowered[expr] = _nvrtc_check(nvrtc.nvrtcGetLoweredName(prog, expr.encode())).decode()
        return bytes(code), lowered
    finally:
        nvrtc.nvrtcDestroyProgram(prog)


def _path(key):
    return os.path.join(cache_dir(), key[:2], key + ".cubin")


def _disk_load(key):
    path = _path(key)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    # Any damage (truncated, foreign, corrupted) means: recompile.
    try:
        if not data.startswith(_FORMAT):
            return None
        off = len(_FORMAT)
        digest = data[off:off + 32]
        body = data[off + 32:]
        if _sha256(body).digest() != digest:
            return None
        (meta_len,) = struct.unpack_from("<Q", body, 0)
        import json   # here, not at import (start-up time)
        meta = json.loads(body[8:8 + meta_len].decode())
        cubin = body[8 + meta_len:]
        return cubin, dict(meta["lowered"])
    except Exception:
        return None


def _disk_store(key, cubin, lowered):
    path = _path(key)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        import json
        meta = json.dumps({"lowered": lowered}).encode()
        body = struct.pack("<Q", len(meta)) + meta + cubin
        data = _FORMAT + _sha256(body).digest() + body
        # Write then rename: a concurrent reader sees the old file or the whole new one.
        import tempfile   # here, not at import: it loads shutil, bz2, lzma, random (~4 ms)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError as e:
        _warn_unwritable(e)


_warned = False


def _warn_unwritable(e):
    """A read-only, missing or full cache directory costs a recompile in the next process,
    not a failure: kernels stay cached in memory. Say so once per process."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(f"cuarray: kernels cannot be cached on disk in {cache_dir()!r} "
                      f"({e.strerror or e}); they are kept in memory for this process only "
                      "(set CUARRAY_CACHE_DIR to a writable directory)", RuntimeWarning,
                      stacklevel=3)


def cache_size():
    """Bytes used by the on-disk kernel cache."""
    total = 0
    for root, _, files in os.walk(cache_dir()):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total


class Module:
    """A cubin loaded with the driver's library API (one per source and architecture)."""

    __slots__ = ("library", "lowered", "_functions", "_unload", "__weakref__")

    def __init__(self, cubin, lowered):
        drv = _driver._drv()
        self.library = check(drv.cuLibraryLoadData(cubin, None, None, 0, None, None, 0))
        self.lowered = lowered
        self._functions = {}
        # The driver that loaded it unloads it, even if another one is current by then
        # (the emulated host device's modules outlive the tests that made them).
        self._unload = drv.cuLibraryUnload

    def get_function(self, name):
        fn = self._functions.get(name)
        if fn is None:
            from cuarray._runtime.launch import Function
            mangled = self.lowered.get(name, name)
            try:
                kernel = check(_driver._drv().cuLibraryGetKernel(self.library, mangled.encode()))
            except _driver.CUDADriverError as e:
                raise AttributeError(f"no kernel named {name!r} in this module ({e})") from None
            fn = self._functions[name] = Function(kernel, name, self)
        return fn

    def get_global(self, name):
        """(device pointer, size in bytes) of a __device__ variable, for the current device."""
        from cuarray._runtime.device import ensure_context
        ensure_context()
        mangled = self.lowered.get(name, name)
        dptr, size = check(_driver._drv().cuLibraryGetGlobal(self.library, mangled.encode()))
        return int(dptr), size

    def __del__(self):
        try:
            self._unload(self.library)
        except Exception:
            pass


def device_arch():
    from cuarray._runtime.device import get_device_id, properties
    p = properties(get_device_id())
    return f"sm_{p['major']}{p['minor']}"


def compile_module(source, options=(), name_expressions=(), name="cuarray_kernel"):
    """Compile (or fetch from cache) and load `source` for the current device's architecture."""
    arch = device_arch()
    options = tuple(options)
    name_expressions = tuple(name_expressions)
    mkey = (source, options, name_expressions, arch)
    mod = _modules.get(mkey)
    if mod is None:
        with _lock:
            mod = _modules.get(mkey)
            if mod is None:
                cubin, lowered = compile_cubin(source, options, name_expressions, arch, name)
                mod = _modules[mkey] = Module(cubin, lowered)
    return mod
