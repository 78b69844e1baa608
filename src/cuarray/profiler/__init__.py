"""Timing and profiling helpers (cuarray version of `cupyx.profiler`)."""
import contextlib

from cuarray._runtime import profiler as _profiler
from cuarray.profiler._benchmark import benchmark, _PerfCaseResult  # noqa: F401
from cuarray.profiler._time_range import time_range  # noqa: F401

__all__ = ["benchmark", "time_range", "profile", "nvtx_available"]


@contextlib.contextmanager
def profile():
    """Collect CUDA profile data only inside the `with` block (cuProfilerStart/Stop).

    With Nsight Systems, run `nsys profile --capture-range=cudaProfilerApi ...` for the
    block alone to be recorded.
    """
    _profiler.start()
    try:
        yield
    finally:
        _profiler.stop()


def nvtx_available():
    """True when NVTX ranges are recorded (an NVTX library was found); cuarray-only."""
    return _profiler.nvtx_available()
