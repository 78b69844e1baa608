"""CuPy's `cupy.cuda.profiler`: turn the CUDA profiler's collection on and off."""
from cuarray._runtime.profiler import start as _start, stop as _stop


def start():
    """cuProfilerStart: begin collecting profile data (cuarray version of `cupy.cuda.profiler.start`)."""
    _start()


def stop():
    """cuProfilerStop: stop collecting profile data (cuarray version of `cupy.cuda.profiler.stop`)."""
    _stop()


def profile():
    """Collect profile data only inside a `with` block (as `cuarray.profiler.profile`)."""
    from cuarray.profiler import profile as _profile
    return _profile()
