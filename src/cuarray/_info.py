"""`python -m cuarray info`: what cuarray runs on, for bug reports and setup checks."""
import importlib.metadata
import os
import platform
import sys
from pathlib import Path

from cuarray._runtime import device, driver
from cuarray._runtime.compiler import cache_dir
from cuarray._version import __version__

# Distributions cuarray depends on, as pip names them.
_PACKAGES = (
    ("NumPy", "numpy"),
    ("cuda-core", "cuda-core"),
    ("cuda-bindings", "cuda-bindings"),
    ("cuda-pathfinder", "cuda-pathfinder"),
    ("nvmath-python", "nvmath-python"),
    ("cuda-cccl", "cuda-cccl"),
)
_NO_GPU = "cuarray: no CUDA driver or GPU was found on this machine"


def no_gpu_sentence(exc):
    """The one sentence printed when there is no usable GPU, with the driver's reason."""
    reason = str(exc).strip()
    # driver.init() words its errors "no CUDA driver or device was found: <why>"; keep the why.
    prefix = "no CUDA driver or device was found"
    if reason.startswith(prefix):
        reason = reason[len(prefix):].lstrip(":").strip()
        if reason.startswith("(") and reason.endswith(")"):
            reason = reason[1:-1]
    reason = reason.rstrip(".")
    return f"{_NO_GPU} ({reason})." if reason else f"{_NO_GPU}."


def _dist_version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _nvrtc_version():
    try:
        from cuda.bindings import nvrtc
        err, major, minor = nvrtc.nvrtcVersion()
    except Exception as e:  # NVRTC is a separate library that may be missing
        return f"not found ({type(e).__name__}: {e})"
    if int(err) != 0:
        return f"not usable ({err})"
    return f"{major}.{minor}"


def _dir_usage(path):
    files = size = 0
    for root, _, names in os.walk(path):
        for n in names:
            try:
                size += os.stat(os.path.join(root, n)).st_size
                files += 1
            except OSError:  # removed by a concurrent process
                pass
    return files, size


def _human(nbytes):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024


def _line(out, key, value):
    print(f"{key:<17}{value}", file=out)


def driver_string(v):
    """A driver version as CUDA numbers it: 13000 -> "13.0"."""
    return f"{v // 1000}.{v % 1000 // 10}"


def info(out=None, err=None):
    """Print versions, the kernel cache and the devices; return the exit status (1: no GPU)."""
    out, err = out or sys.stdout, err or sys.stderr
    _line(out, "cuarray", __version__)
    _line(out, "Python", f"{platform.python_version()} ({sys.executable})")
    for label, dist in _PACKAGES:
        _line(out, label, _dist_version(dist))
    _line(out, "NVRTC", _nvrtc_version())
    path = Path(cache_dir())
    if path.is_dir():
        files, size = _dir_usage(path)
        _line(out, "kernel cache",
              f"{path} ({_human(size)} in {files} file{'' if files == 1 else 's'})")
    else:
        _line(out, "kernel cache", f"{path} (not created yet)")

    try:
        version = driver.driver_version()
        count = driver.device_count()
    except driver.CUDARuntimeError as e:
        out.flush()
        print(no_gpu_sentence(e), file=err)
        return 1
    _line(out, "CUDA driver", f"{driver_string(version)} ({version})")
    for i in range(count):
        p = device.properties(i)
        _line(out, f"device {i}", f"{p['name']}: compute capability {p['major']}.{p['minor']}, "
              f"{p['sm_count']} SMs, {_human(p['total_memory'])}")
    return 0
