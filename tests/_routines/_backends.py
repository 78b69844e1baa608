"""The `cp` fixture of the routine tests: cuarray on the GPU, or through the host emulation
of tests/scipy/hostemu.py on machines without one."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scipy"))
import hostemu  # noqa: E402


@pytest.fixture(params=hostemu.BACKENDS)
def cp(request, monkeypatch):
    return hostemu.backend(request, monkeypatch)
