"""`benchmark`: CPU and GPU time of repeated calls (cuarray version of
`cupyx.profiler.benchmark`)."""
import math
import time

import numpy

from cuarray._runtime.device import Device, get_device_id
from cuarray._runtime.stream import Event, get_elapsed_time


class _PerfCaseResult:
    """Timings recorded by `benchmark`; `str()` gives CuPy's one-line summary.

    `cpu_times` has one entry per call and `gpu_times` one row per timed device, in seconds.
    """

    def __init__(self, name, ts, devices):
        if ts.ndim != 2 or ts.shape[0] != len(devices) + 1 or ts.shape[1] == 0:
            raise ValueError("timings must have one row for the CPU and one per device, and at "
                             "least one column")
        self.name = name
        self._ts = ts
        self._devices = devices

    @property
    def cpu_times(self):
        """CPU time of each call, in seconds (a numpy array)."""
        return self._ts[0]

    @property
    def gpu_times(self):
        """GPU time of each call, in seconds: one row per device (a numpy array)."""
        return self._ts[1:]

    @staticmethod
    def _to_str_per_item(device_name, t):
        us = t * 1e6
        s = f"    {device_name}:{us.mean():9.03f} us"
        if t.size > 1:
            s += f"   +/-{us.std():6.03f} (min:{us.min():9.03f} / max:{us.max():9.03f}) us"
        return s

    def to_str(self, show_gpu=False):
        parts = [self._to_str_per_item("CPU", self._ts[0])]
        if show_gpu:
            parts += [self._to_str_per_item(f"GPU-{d}", self._ts[1 + k])
                      for k, d in enumerate(self._devices)]
        return f"{self.name:<20s}:" + " ".join(parts)

    def __str__(self):
        return self.to_str(show_gpu=True)

    __repr__ = __str__


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None, n_warmup=10,
              max_duration=math.inf, devices=None):
    """Time `func(*args, **kwargs)` on the CPU and, with CUDA events, on each of `devices`
    (cuarray version of `cupyx.profiler.benchmark`).

    Each timed call is bracketed by an event recorded on the current stream of every
    device before it and one after it; the call's GPU time is the time between the two
    (so it waits for the GPU after every call). Stops early once `max_duration` seconds
    have been spent.
    """
    if name is None:
        name = func.__name__
    if not callable(func):
        raise ValueError("`func` should be a callable object.")
    if not isinstance(args, tuple):
        raise ValueError("`args` should be of tuple type.")
    if not isinstance(kwargs, dict):
        raise ValueError("`kwargs` should be of dict type.")
    if not isinstance(n_repeat, int):
        raise ValueError("`n_repeat` should be an integer.")
    if not isinstance(name, str):
        raise ValueError("`name` should be a string.")
    if not isinstance(n_warmup, int):
        raise ValueError("`n_warmup` should be an integer.")
    if not numpy.isreal(max_duration):
        raise ValueError("`max_duration` should be given in seconds")
    if devices is None:
        devices = (get_device_id(),)
    if not isinstance(devices, tuple):
        raise ValueError("`devices` should be of tuple type")
    return _repeat(func, args, kwargs, n_repeat, name, n_warmup, max_duration, devices)


def _on(device, fn):
    with Device(device):
        return fn()


def _repeat(func, args, kwargs, n_repeat, name, n_warmup, max_duration, devices):
    starts = [_on(d, Event) for d in devices]
    ends = [_on(d, Event) for d in devices]
    for _ in range(n_warmup):
        func(*args, **kwargs)
    for ev, d in zip(starts, devices):
        _on(d, ev.record)
        ev.synchronize()
    cpu, gpu = [], [[] for _ in devices]
    spent = 0.0
    for _ in range(n_repeat):
        for ev, d in zip(starts, devices):
            _on(d, ev.record)
        t1 = time.perf_counter()
        func(*args, **kwargs)
        t2 = time.perf_counter()
        cpu.append(t2 - t1)
        for ev, d in zip(ends, devices):
            _on(d, ev.record)
        for ev in ends:
            ev.synchronize()
        for k, (e1, e2) in enumerate(zip(starts, ends)):
            gpu[k].append(get_elapsed_time(e1, e2) * 1e-3)
        spent += time.perf_counter() - t1
        if spent > max_duration:
            break
    return _PerfCaseResult(name, numpy.asarray([cpu] + gpu, dtype=numpy.float64), devices)
