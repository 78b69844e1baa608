"""cuarray.scipy: SciPy's API on the GPU (cuarray version of `cupyx.scipy`).

Subpackages load on first use: `cuarray.scipy.sparse`, `linalg`, `fft`, `fftpack`,
`special`, `ndimage`, `signal`, `interpolate`; `from cuarray.scipy import fftpack, linalg, sparse` works
too.
"""
import importlib

_SUBPACKAGES = ("fft", "fftpack", "interpolate", "linalg", "ndimage", "signal", "sparse", "spatial",
                "special", "stats")
__all__ = list(_SUBPACKAGES) + ["get_array_module"]


def __getattr__(name):
    if name in _SUBPACKAGES:
        return importlib.import_module(f"cuarray.scipy.{name}")
    raise AttributeError(f"module 'cuarray.scipy' has no attribute {name!r}")


def get_array_module(*args):
    """cuarray.scipy if any argument is a cuarray array or sparse matrix, else scipy
    (CuPy's `cupyx.scipy.get_array_module`)."""
    from cuarray._core.ndarray import ndarray
    for a in args:
        if isinstance(a, ndarray) or type(a).__module__.startswith("cuarray.scipy.sparse"):
            import cuarray.scipy
            return cuarray.scipy
    import scipy
    return scipy
