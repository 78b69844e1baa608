"""ndarray, dtypes, shape logic and the kernel engines."""
# ndarray's kernel-running methods are bound here, so that an array from any _core module
# has them (see _ndarray_methods.py for why they live apart from the class).
from cuarray._core import _ndarray_methods  # noqa: F401
