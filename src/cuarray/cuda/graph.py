"""CuPy's `cupy.cuda.graph`: CUDA graphs made by stream capture."""
from cuarray._runtime.graph import Graph  # noqa: F401
