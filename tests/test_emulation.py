"""The host emulation itself (tests/emulation.py): what one emulated test leaves behind
must not change what a later test runs."""
import sys
import types

import pytest

import emulation


def test_a_module_first_imported_under_the_standins_gets_the_real_functions_back():
    # A module imported for the first time while the NumPy stand-ins are in place binds
    # them with its `from ... import` (a module cuarray loads on first use does): at the
    # test's end it holds the real functions again, as the modules imported before do.
    from cuarray._core import _reductions
    real, name = _reductions.sum, "cuarray._core._standin_probe"
    with pytest.MonkeyPatch.context() as mp:
        emulation.emulate(mp, standins=True, isolate=False)
        probe = types.ModuleType(name)
        probe.sum = _reductions.sum            # what `from ..._reductions import sum` binds
        sys.modules[name] = probe
        assert probe.sum is not real
    try:
        assert _reductions.sum is real and probe.sum is real
    finally:
        del sys.modules[name]
