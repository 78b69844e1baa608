"""The lazy-import table of cuarray's routines matches what the modules export."""
import importlib

from cuarray._routines._names import NAMES


def test_table_matches_modules_all():
    by_module = {}
    for name, mod in NAMES.items():
        by_module.setdefault(mod, set()).add(name)
    for mod, names in by_module.items():
        assert set(importlib.import_module(f"cuarray._routines.{mod}").__all__) == names, mod


def test_names_resolve_on_the_package():
    import cuarray
    for name, mod in NAMES.items():
        assert getattr(cuarray, name) is not None, name
