"""`time_range`: NVTX ranges around a block or a function (cuarray version of
`cupyx.profiler.time_range`)."""
import functools

from cuarray._runtime import profiler as _profiler


class time_range:
    """Mark a block (context manager) or every call of a function (decorator) as an NVTX
    range, visible in Nsight Systems' timeline.

    `color_id` picks CuPy's palette (green, blue, yellow, magenta, cyan, red, white);
    `argb_color` is 0xAARRGGBB; `sync=True` waits for the device before opening and
    before closing the range. Unlike CuPy, which raises when NVTX is missing, this marks
    nothing when no NVTX library (libnvToolsExt) is found: see
    `cuarray.profiler.nvtx_available()`.
    """

    def __init__(self, message=None, color_id=None, argb_color=None, sync=False):
        if color_id is not None and argb_color is not None:
            raise ValueError("Only either color_id or argb_color can be specified")
        self.message = message
        self.color_id = -1 if color_id is None else color_id
        self.argb_color = argb_color
        self.sync = sync

    def _color(self):
        if self.argb_color is not None:
            return self.argb_color
        if self.color_id < 0:
            return None
        return _profiler.COLORS[self.color_id % len(_profiler.COLORS)]

    def __enter__(self):
        if self.message is None:
            raise ValueError("when used as a context manager, the message argument cannot be "
                             "None")
        if self.sync:
            _synchronize()
        _profiler.range_push(self.message, self._color())
        return self

    def __exit__(self, *exc):
        if self.sync:
            _synchronize()
        _profiler.range_pop()

    def __call__(self, func):
        @functools.wraps(func)
        def inner(*args, **kwargs):
            message = self.message if self.message is not None else func.__name__
            with time_range(message, argb_color=self._color(), sync=self.sync):
                return func(*args, **kwargs)
        return inner


def _synchronize():
    from cuarray._runtime.device import Device
    Device().synchronize()
