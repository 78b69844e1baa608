"""CuPy's `cupy.cuda.driver`: contexts, modules, functions and launches on int handles."""
from cuarray._runtime.driver_api import *  # noqa: F401,F403
from cuarray._runtime.driver import CUDADriverError  # noqa: F401
