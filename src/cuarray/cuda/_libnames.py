"""Module-level `__getattr__` for the library modules: CuPy's camelCase name -> nvmath's."""
from cuarray._libs import bindings


def make_getattr(lib_name, module_name):
    def __getattr__(name):
        fn = bindings.lookup(lib_name, name)
        if fn is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return fn
    return __getattr__
