"""cuarray version of `cupy.lib`: `stride_tricks`."""
from cuarray.lib import stride_tricks  # noqa: F401
