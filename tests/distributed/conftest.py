"""Fixtures of the cuarray.distributed tests: `cp` as in tests/scipy (the GPU, or the host
emulation on machines without one)."""

import pytest

import emulation  # noqa: E402


@pytest.fixture(params=emulation.BACKENDS)
def cp(request, monkeypatch):
    return emulation.backend(request, monkeypatch)
