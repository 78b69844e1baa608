"""lazy_module: a module imported on first attribute access, its name then rebound to it."""
import sys

import pytest

from cuarray._core._lazy import lazy_module


def _probe(tmp_path, monkeypatch, name, text):
    """A module `name` holding `text`, importable for this test and not yet imported."""
    (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)


def test_first_access_imports_and_rebinds(tmp_path, monkeypatch):
    _probe(tmp_path, monkeypatch, "cuarray_lazy_probe", "VALUE = 41\ndef f(x):\n    return x + 1\n")
    ns = {}
    ns["probe"] = lazy_module(ns, "probe", "cuarray_lazy_probe")
    stand_in = ns["probe"]
    assert "cuarray_lazy_probe" not in sys.modules
    assert "imported on first use" in repr(stand_in)
    assert stand_in.f(stand_in.VALUE) == 42
    module = sys.modules["cuarray_lazy_probe"]
    assert ns["probe"] is module
    assert stand_in.VALUE == 41   # a kept stand-in still answers, through the module


def test_loaded_module_is_returned_itself():
    import json
    ns = {}
    assert lazy_module(ns, "json", "json") is json
    assert ns == {}


def test_missing_attribute_and_module_raise(tmp_path, monkeypatch):
    _probe(tmp_path, monkeypatch, "cuarray_lazy_probe2", "A = 1\n")
    ns = {}
    ns["p"] = lazy_module(ns, "p", "cuarray_lazy_probe2")
    with pytest.raises(AttributeError):
        ns["p"].B
    ns["q"] = lazy_module(ns, "q", "cuarray_no_such_module_here")
    with pytest.raises(ModuleNotFoundError):
        ns["q"].A
