"""NEP 18: numpy functions called on cuarray arrays run cuarray's own routine."""
import importlib

_MODULES = {
    "numpy": "cuarray",
    "numpy.linalg": "cuarray.linalg",
    "numpy.fft": "cuarray.fft",
    "numpy.random": "cuarray.random",
}


def _lookup(func):
    mod = getattr(func, "__module__", "") or ""
    parts = mod.split(".")
    # numpy._core.fromnumeric.sum -> numpy; numpy.linalg._linalg.norm -> numpy.linalg
    public = "numpy." + parts[1] if len(parts) > 1 and parts[1] in ("linalg", "fft", "random") else "numpy"
    target = _MODULES.get(public)
    if target is None:
        return None
    try:
        m = importlib.import_module(target)
    except ImportError:
        return None
    return getattr(m, func.__name__, None)


def array_function(func, types, args, kwargs):
    from cuarray._core.ndarray import ndarray
    import numpy
    for t in types:
        if not issubclass(t, ndarray) and t is not numpy.ndarray:
            return NotImplemented
    impl = _lookup(func)
    if impl is None:
        name = f"{getattr(func, '__module__', 'numpy')}.{func.__name__}"
        raise TypeError(f"cuarray does not implement {name}; it cannot run on cuarray arrays "
                        f"(convert explicitly with cuarray.asnumpy(x) to run it on the host)")
    return impl(*args, **kwargs)
