"""Where the CUDA toolkit is: `get_cuda_path`, `get_nvcc_path` (as CuPy finds them).

cuarray itself needs neither (NVRTC and the libraries come from wheels); these answer
programs that shell out to nvcc or read toolkit headers.
"""
import os
import shutil

_cuda_path = 0   # 0: not looked up yet; None: not found


def get_cuda_path():
    """The CUDA toolkit's root: $CUDA_PATH (or $CUDA_HOME), else the directory above the
    `nvcc` on PATH, else /usr/local/cuda when it exists; None when none is found."""
    global _cuda_path
    if _cuda_path == 0:
        _cuda_path = _find_cuda_path()
    return _cuda_path


def _find_cuda_path():
    for var in ("CUDA_PATH", "CUDA_HOME"):
        p = os.environ.get(var)
        if p and os.path.isdir(p):
            return p
    nvcc = shutil.which("nvcc")
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    if os.path.isdir("/usr/local/cuda"):
        return "/usr/local/cuda"
    return None


def get_nvcc_path():
    """The nvcc command: $NVCC if set (it may carry options), else `bin/nvcc` under
    `get_cuda_path()`, else None."""
    nvcc = os.environ.get("NVCC")
    if nvcc:
        return nvcc
    root = get_cuda_path()
    if root is None:
        return None
    p = os.path.join(root, "bin", "nvcc")
    return p if os.path.isfile(p) else None
