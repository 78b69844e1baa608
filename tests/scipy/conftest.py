"""Fixtures of the cuarray.scipy tests.

`cp` runs a test twice: on the GPU (marked `gpu`), and on machines without one through
the host emulation of `hostemu` (elementwise kernels built by g++ and run on host memory,
each also compiled for sm_90 by NVRTC). Tests needing cuBLAS, cuSOLVER, cuSPARSE or cuFFT
use `gpu_cp`, which only runs on a GPU.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import hostemu  # noqa: E402


@pytest.fixture(params=hostemu.BACKENDS)
def cp(request, monkeypatch):
    return hostemu.backend(request, monkeypatch)


@pytest.fixture
def gpu_cp():
    import cuarray
    return cuarray
