"""SciPy's uarray backend protocol for cuarray.scipy.fft (and, built by `protocol`, for
cuarray.scipy.linalg): with `scipy.fft.set_backend(cuarray.scipy.fft)`,
`scipy.fft.fft(gpu_array)` runs here.

SciPy hands each call to `__ua_function__` after `__ua_convert__` has accepted (or, when
coercing, moved to the GPU) the array arguments; a function the module lacks, or an
argument it cannot take, answers NotImplemented so that SciPy tries the next backend.
"""
import importlib

import numpy


def protocol(module_name):
    """(__ua_function__, __ua_convert__) dispatching to the module `module_name`."""
    def __ua_function__(method, args, kwargs):
        fn = getattr(importlib.import_module(module_name), method.__name__, None)
        if fn is None or method.__name__.startswith("_"):
            return NotImplemented
        return fn(*args, **kwargs)

    def __ua_convert__(dispatchables, coerce):
        from cuarray._core.ndarray import ndarray
        from cuarray._core.transfer import asarray
        out = []
        for d in dispatchables:
            v = d.value
            if d.type is numpy.ndarray and not isinstance(v, (ndarray, numpy.generic)):
                if not (coerce and d.coercible):
                    return NotImplemented
                try:
                    v = asarray(v)
                except (TypeError, ValueError):
                    return NotImplemented
            out.append(v)
        return out

    return __ua_function__, __ua_convert__


__ua_domain__ = "numpy.scipy.fft"
__ua_function__, __ua_convert__ = protocol("cuarray.scipy.fft")
