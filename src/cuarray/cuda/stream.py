"""CuPy's `cupy.cuda.stream`: streams, events and the current stream."""
from cuarray._runtime.stream import (  # noqa: F401
    Stream, ExternalStream, Event, get_current_stream, get_elapsed_time)
