"""The `cp` fixture of the routine tests: cuarray on the GPU, or through the host emulation
of tests/scipy/emulation.py on machines without one."""

import pytest

import emulation  # noqa: E402


@pytest.fixture(params=emulation.BACKENDS)
def cp(request, monkeypatch):
    return emulation.backend(request, monkeypatch)
