"""NumPy stand-ins for the library calls cuarray.scipy.signal makes (cuFFT transforms,
cuSOLVER solves, block-cooperative reductions), for CPU runs of the signal tests under
`emulation`: the signal code around them (kernels, views, indexing, bookkeeping) then runs
as written, on host memory. On a GPU the real calls run instead."""
import numpy
import pytest
import scipy.fft
import scipy.linalg as scipy_linalg

import emulation

_FFT = ["fft", "ifft", "rfft", "irfft", "fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2"]
_REDUCE = {"sum": numpy.sum, "mean": numpy.mean, "median": numpy.median, "amax": numpy.max,
           "amin": numpy.min, "max": numpy.max, "min": numpy.min, "cumsum": numpy.cumsum,
           "argmax": numpy.argmax, "argmin": numpy.argmin, "prod": numpy.prod,
           "any": numpy.any, "all": numpy.all, "flatnonzero": numpy.flatnonzero,
           "nonzero": numpy.nonzero, "roots": numpy.roots, "sort_complex": numpy.sort_complex,
           "cov": numpy.cov}


def _wrap(f):
    import cuarray

    def g(*args, **kw):
        args = [cuarray.asnumpy(a) if isinstance(a, cuarray.ndarray) else a for a in args]
        kw = {k: (cuarray.asnumpy(v) if isinstance(v, cuarray.ndarray) else v)
              for k, v in kw.items() if k not in ("plan", "out", "overwrite_x", "workers")}
        r = f(*args, **kw)
        if isinstance(r, tuple):
            return tuple(cuarray.asarray(numpy.asarray(v)) for v in r)
        return cuarray.asarray(numpy.asarray(r))
    return g


def standins(monkeypatch):
    import cuarray
    import cuarray.fft
    import cuarray.linalg
    import cuarray.scipy.fft
    for name in _FFT:
        monkeypatch.setattr(cuarray.scipy.fft, name, _wrap(getattr(scipy.fft, name)))
        monkeypatch.setattr(cuarray.fft, name, _wrap(getattr(numpy.fft, name)))
    for name, f in _REDUCE.items():
        monkeypatch.setattr(cuarray, name, _wrap(f))
    from cuarray._core import _transpose
    # The tiled transpose is block-cooperative (2-D blocks): the elementwise copy instead.
    monkeypatch.setattr(_transpose, "transpose_copy", lambda src, dst: False)
    monkeypatch.setattr(cuarray.linalg, "solve", _wrap(numpy.linalg.solve))
    monkeypatch.setattr(cuarray, "eye", _wrap(numpy.eye))
    monkeypatch.setattr(cuarray.linalg, "eigvals", _wrap(numpy.linalg.eigvals))
    monkeypatch.setattr(cuarray.linalg, "pinv", _wrap(numpy.linalg.pinv))
    monkeypatch.setattr(cuarray.linalg, "inv", _wrap(numpy.linalg.inv))
    monkeypatch.setattr(cuarray.linalg, "eigh", _wrap(numpy.linalg.eigh))
    monkeypatch.setattr(cuarray, "take_along_axis", _wrap(numpy.take_along_axis))
    import cuarray.scipy.linalg
    monkeypatch.setattr(cuarray.scipy.linalg, "expm", _wrap(scipy_linalg.expm))
    monkeypatch.setattr(cuarray.linalg, "lstsq", _wrap(numpy.linalg.lstsq))
    monkeypatch.setattr(cuarray, "matmul", _wrap(numpy.matmul))
    monkeypatch.setattr(cuarray.ndarray, "__matmul__", _wrap(numpy.matmul))
    monkeypatch.setattr(cuarray.ndarray, "mean",
                        lambda self, axis=None, dtype=None, out=None, keepdims=False:
                        _wrap(numpy.mean)(self, axis=axis, keepdims=keepdims))
    monkeypatch.setattr(cuarray.ndarray, "sum",
                        lambda self, axis=None, dtype=None, out=None, keepdims=False:
                        _wrap(numpy.sum)(self, axis=axis, keepdims=keepdims))


@pytest.fixture(params=emulation.BACKENDS)
def xp(request, monkeypatch):
    """cuarray on the GPU, or under the host emulation with the NumPy stand-ins above."""
    cp = emulation.backend(request, monkeypatch)
    if request.param == "emu":
        standins(monkeypatch)
    return cp
