"""The CPU stand-in for the GPU defined in tests/_core/test_indexing.py, loaded once for
the other test files that run on it (this folder is on sys.path: tests/conftest.py)."""
import importlib.util
import os
import sys

_NAME = "_cuarray_indexing_stand_in"


def load():
    """test_indexing.py as a module, imported once under its own name."""
    if _NAME not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            _NAME, os.path.join(os.path.dirname(__file__), "_core", "test_indexing.py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[_NAME] = mod
        spec.loader.exec_module(mod)
    return sys.modules[_NAME]
