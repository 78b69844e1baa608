"""CuPy's low-level library names (`cupy.cuda.cublas.sgemm`, `cusolver.dgesvd_bufferSize`,
`cusparse.spMV`, `curand.createGenerator`) over nvmath-python's bindings.

nvmath spells CuPy's camelCase names in snake case with the same arguments (handles,
pointers and enums as ints), so one rule maps them: `sgemmStridedBatched` ->
`sgemm_strided_batched`, `spMV_bufferSize` -> `sp_mv_buffer_size`.
"""
import importlib
import re

_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def snake(name):
    return re.sub("_+", "_", _SPLIT.sub("_", name)).lower()


def module(name):
    """nvmath.bindings.<name> (cublas, cusolverDn, cusparse, curand, cufft)."""
    return importlib.import_module(f"nvmath.bindings.{name}")


def lookup(lib_name, name):
    """The nvmath function for CuPy's `name`, or None."""
    if name.startswith("_"):
        return None
    lib = module(lib_name)
    fn = getattr(lib, snake(name), None)
    if fn is None:
        fn = getattr(lib, name, None)
    return fn if callable(fn) else None


def error_class(lib_name):
    """The library's exception class (nvmath's), or RuntimeError when it has none."""
    lib = module(lib_name)
    for n in dir(lib):
        if n.lower().endswith("error") and isinstance(getattr(lib, n), type):
            return getattr(lib, n)
    return RuntimeError
