"""Test-run setup: markers, whether `gpu` tests can run here, and the fixtures that
choose where cuarray runs.

Tests marked `gpu` (or `multi_gpu(n)`) are skipped with the driver's reason when this
machine has no usable CUDA GPU, and `multi_gpu(n)` tests when it has fewer than n.
`CUARRAY_TEST_GPU=require` turns the no-GPU skip into a failure, so a run meant for a
GPU machine cannot pass by skipping; too few GPUs for a `multi_gpu` test stays a skip.

Fixtures (the emulated host device is `cuarray._runtime.emulator`; tests/emulation.py
installs it):
- `cp`: cuarray, twice: on the GPU (marked `gpu`), and on machines without one on the
  emulated device, with NumPy stand-ins for the library-backed routines;
- `gpu_cp`: cuarray on the GPU only (tests needing cuBLAS, cuSOLVER, cuSPARSE, cuFFT);
- `xp`: cuarray on "emu" or "gpu", as `emulation.pytest_generate_tests` parametrizes it
  in the modules that import that hook (the emu variant runs on GPU machines too);
- `emulated`: cuarray on the emulated device, for CPU tests of host-side paths.
"""
import functools
import os

import pytest

_REQUIRE = "CUARRAY_TEST_GPU"
_MARKERS = (
    "gpu: needs a CUDA GPU; skipped (or failed under CUARRAY_TEST_GPU=require) without one",
    "multi_gpu(n): needs n CUDA GPUs; skipped on machines with fewer",
    "slow: takes long; deselect with -m 'not slow'",
)


def pytest_configure(config):
    # pyproject.toml may declare them already; the suite must also run without it.
    known = {line.split(":")[0].split("(")[0].strip() for line in config.getini("markers")}
    for line in _MARKERS:
        if line.split(":")[0].split("(")[0] not in known:
            config.addinivalue_line("markers", line)
    value = os.environ.get(_REQUIRE, "")
    if value not in ("", "require"):
        raise pytest.UsageError(f"{_REQUIRE} must be 'require' or unset, not {value!r}")


@functools.cache
def _gpu():
    """(device count, name of device 0, None) or (0, None, why no GPU is usable)."""
    try:
        import cuarray.cuda
    except Exception as e:
        return 0, None, f"cuarray.cuda failed to import ({type(e).__name__}: {e})"
    try:
        if not cuarray.cuda.is_available():
            # is_available() only says no; the device count raises with the driver's reason.
            cuarray.cuda.runtime.getDeviceCount()
            return 0, None, "the driver reports no device"
        count = cuarray.cuda.runtime.getDeviceCount()
        device = cuarray.cuda.Device(0)
        device.mem_info  # creates the context: a listed device may still be unusable
        return count, f"{device.name} (sm_{device.compute_capability})", None
    except Exception as e:
        return 0, None, str(e) or type(e).__name__


def pytest_report_header(config):
    count, name, reason = _gpu()
    if reason is not None:
        return f"cuarray: no CUDA GPU: {reason}"
    return f"cuarray: {count} CUDA device{'s' if count != 1 else ''}; device 0: {name}"


_NO_GPU = pytest.StashKey[str]()


def pytest_collection_modifyitems(config, items):
    count, _, reason = _gpu()
    require = os.environ.get(_REQUIRE) == "require"
    for item in items:
        multi = item.get_closest_marker("multi_gpu")
        if item.get_closest_marker("gpu") is None and multi is None:
            continue
        if reason is not None:
            if require:
                item.stash[_NO_GPU] = reason
            else:
                item.add_marker(pytest.mark.skip(reason=f"no CUDA GPU: {reason}"))
            continue
        needed = 1
        if multi is not None:
            needed = multi.args[0] if multi.args else 2
        if count < needed:
            item.add_marker(pytest.mark.skip(
                reason=f"needs {needed} CUDA GPUs, this machine has {count}"))


def pytest_runtest_setup(item):
    reason = item.stash.get(_NO_GPU, None)
    if reason is not None:
        pytest.fail(f"{_REQUIRE}=require, but there is no CUDA GPU: {reason}", pytrace=False)


# tests/emulation.py is imported where a fixture needs it (tests/ is on sys.path: pytest
# puts a root conftest's folder there), so that this file also loads on its own.

@pytest.fixture(params=["emu", pytest.param("gpu", marks=pytest.mark.gpu)])
def cp(request, monkeypatch):
    import emulation
    return emulation.backend(request, monkeypatch)


@pytest.fixture
def gpu_cp():
    import cuarray
    return cuarray


@pytest.fixture
def xp(request, monkeypatch):
    import cuarray
    import emulation
    if not hasattr(request, "param"):
        raise pytest.UsageError(f"{request.node.name}: the xp fixture is parametrized by "
                                "emulation.pytest_generate_tests: import it into the module")
    if request.param == "emu":
        emulation.emulate(monkeypatch)
    return cuarray


@pytest.fixture
def emulated(monkeypatch):
    import cuarray
    import emulation
    emulation.emulate(monkeypatch)
    return cuarray


@pytest.fixture
def rng(request):
    """Random inputs for the emu/GPU behaviour tests: seeded from the test's id, so every
    run draws the same values (crc32, not hash(): str hashes change from run to run)."""
    import zlib
    import numpy
    return numpy.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


@pytest.fixture(autouse=True)
def _no_emulated_overruns():
    """An emulated kernel that writes past its allocation fails the test that ran it (on the
    host such a write corrupts the heap and aborts the process later, somewhere else)."""
    from cuarray._runtime import emulator
    before = len(emulator.OVERRUNS)
    yield
    new = emulator.OVERRUNS[before:]
    if new:
        del emulator.OVERRUNS[before:]
        pytest.fail(f"an emulated kernel wrote past the end of device allocations of "
                    f"{new} bytes", pytrace=False)
