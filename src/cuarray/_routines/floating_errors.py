"""Floating point error handling (NumPy reference: "Floating point error handling"). GPU
kernels never trap on floating-point errors: the settings are recorded and returned, as in
CuPy, and change nothing on the device."""
import contextlib
import contextvars

import numpy

__all__ = ["errstate", "seterr", "geterr", "seterrcall", "geterrcall"]


# ---- floating-point error handling ----------------------------------------------------------------
_ERR_KEYS = ("divide", "over", "under", "invalid")
_ERR_VALUES = ("ignore", "warn", "raise", "call", "print", "log")
_err = contextvars.ContextVar("cuarray_errstate",
                              default=(("divide", "warn"), ("over", "warn"), ("under", "ignore"),
                                       ("invalid", "warn"), ("call", None)))


def geterr():
    """cuarray version of `numpy.geterr`. GPU kernels never trap on floating-point errors:
    the setting is recorded (and returned here) but has no effect, as in CuPy."""
    state = dict(_err.get())
    state.pop("call")
    return state


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """cuarray version of `numpy.seterr`: records the setting and returns the old one; it has
    no effect on device computations (see `geterr`)."""
    old = geterr()
    new = dict(_err.get())
    for key, value in zip(_ERR_KEYS, (divide, over, under, invalid)):
        value = value if value is not None else all
        if value is not None:
            if value not in _ERR_VALUES:
                raise ValueError(f"invalid error handling mode {value!r}; expected one of {_ERR_VALUES}")
            new[key] = value
    _err.set(tuple(new.items()))
    return old


def geterrcall():
    """cuarray version of `numpy.geterrcall` (recorded only; see `geterr`)."""
    return dict(_err.get())["call"]


def seterrcall(func):
    """cuarray version of `numpy.seterrcall` (recorded only; see `geterr`)."""
    if func is not None and not callable(func) and not hasattr(func, "write"):
        raise ValueError("Only callable can be used as callback")
    old = geterrcall()
    new = dict(_err.get())
    new["call"] = func
    _err.set(tuple(new.items()))
    return old


class errstate(contextlib.ContextDecorator):
    """cuarray version of `numpy.errstate`: a context manager (and decorator) that sets
    `seterr`/`seterrcall` inside and restores them on exit. It changes nothing on the
    device: GPU kernels never trap on floating-point errors."""

    def __init__(self, *, call=numpy._NoValue, all=None, divide=None, over=None, under=None,
                 invalid=None):
        self._call = call
        self._kwargs = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._tokens = []

    def __enter__(self):
        token = _err.set(_err.get())
        seterr(**self._kwargs)
        if self._call is not numpy._NoValue:
            seterrcall(self._call)
        self._tokens.append(token)
        return self

    def __exit__(self, *exc):
        _err.reset(self._tokens.pop())
        return False
