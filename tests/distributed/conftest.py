"""Fixtures of the cuarray.distributed tests: `cp` as in tests/scipy (the GPU, or the host
emulation on machines without one)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "scipy"))
import hostemu  # noqa: E402


@pytest.fixture(params=hostemu.BACKENDS)
def cp(request, monkeypatch):
    return hostemu.backend(request, monkeypatch)
