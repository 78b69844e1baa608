"""`python -m cuarray info` and `python -m cuarray demo`, run as a user would."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuarray._info import no_gpu_sentence
from cuarray._runtime.driver import CUDARuntimeError

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = "cuarray: no CUDA driver or GPU was found on this machine"


def _run(*args, **env):
    r = subprocess.run([sys.executable, "-m", "cuarray", *args], env=dict(os.environ, **env),
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def _gpu_available():
    import cuarray.cuda
    return cuarray.cuda.is_available()


def _assert_no_gpu(rc, out, err):
    assert rc == 1
    assert "Traceback" not in out + err
    assert err.strip().startswith(SENTENCE)
    assert len(err.strip().splitlines()) == 1


def test_sentence_keeps_the_driver_reason():
    e = CUDARuntimeError(100, "no CUDA driver or device was found: cuInit failed with "
                              "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
    assert no_gpu_sentence(e) == (f"{SENTENCE} (cuInit failed with CUDA_ERROR_NO_DEVICE: "
                                  "no CUDA-capable device is detected).")
    assert no_gpu_sentence(RuntimeError("")) == f"{SENTENCE}."


def test_info_hidden_gpu_prints_versions_then_one_sentence():
    rc, out, err = _run("info", CUDA_VISIBLE_DEVICES="")
    _assert_no_gpu(rc, out, err)
    for label in ("cuarray", "Python", "NumPy", "cuda-core", "cuda-bindings",
                  "cuda-pathfinder", "nvmath-python", "cuda-cccl", "NVRTC", "kernel cache"):
        assert any(line.startswith(label) for line in out.splitlines()), label


def test_info_on_this_machine():
    rc, out, err = _run("info")
    if not _gpu_available():
        _assert_no_gpu(rc, out, err)
        return
    import cuarray.cuda
    assert rc == 0, err
    assert "CUDA driver" in out
    assert cuarray.cuda.Device(0).name in out


def test_info_reports_cache_dir(tmp_path):
    (tmp_path / "k.cubin").write_bytes(b"0123456789")
    rc, out, err = _run("info", CUARRAY_CACHE_DIR=str(tmp_path), CUDA_VISIBLE_DEVICES="")
    line = next(line for line in out.splitlines() if line.startswith("kernel cache"))
    assert str(tmp_path) in line
    if f"{tmp_path} (" in line:  # the compiler may keep its files in a subdirectory
        assert "(10 B in 1 file)" in line


def test_demo_hidden_gpu_is_one_sentence():
    _assert_no_gpu(*_run("demo", CUDA_VISIBLE_DEVICES=""))


def test_no_command_is_a_usage_error():
    rc, _, err = _run()
    assert rc == 2 and "usage:" in err


@pytest.mark.gpu
def test_demo_on_gpu():
    rc, out, err = _run("demo")
    assert rc == 0, out + err
    assert "RawKernel saxpy" in out and "matches NumPy" in out
    assert "DIFFERS" not in out
