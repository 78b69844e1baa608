"""Modules a module uses only inside functions that a program's first array operations
do not call: imported on first use, so `import cuarray` does not compile and run them
(start-up time is measured with and without Python's bytecode cache).

    transfer = lazy_module(globals(), "transfer", "cuarray._core.transfer")

binds a stand-in whose first attribute access imports the module and rebinds the name
in the owning module's globals to the module itself: the functions that read the name
find the module from then on, at the cost of any other global lookup. Hand the name to
no other module (`from x import transfer` would copy the stand-in).
"""
import sys


class _LazyModule:
    __slots__ = ("_namespace", "_name", "_module")

    def __init__(self, namespace, name, module):
        self._namespace = namespace
        self._name = name
        self._module = module

    def _load(self):
        __import__(self._module)
        module = sys.modules[self._module]
        self._namespace[self._name] = module
        return module

    def __getattr__(self, attr):
        return getattr(self._load(), attr)

    def __repr__(self):
        return f"<module {self._module!r}, imported on first use>"


def lazy_module(namespace, name, module):
    """The module `module` if it is loaded, else a stand-in that imports it on first use
    and then replaces itself with it as `namespace[name]`."""
    loaded = sys.modules.get(module)
    return loaded if loaded is not None else _LazyModule(namespace, name, module)
