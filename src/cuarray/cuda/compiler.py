"""CuPy's `cupy.cuda.compiler` names."""
from cuarray._runtime.compiler import CompileException, cache_dir  # noqa: F401
