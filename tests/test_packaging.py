"""The package's metadata, and that `import cuarray` works on a machine with no GPU."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "cuarray"


@pytest.fixture(scope="module")
def project():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def _names(reqs):
    return {Requirement(r).name for r in reqs}


def test_metadata(project):
    p = project["project"]
    assert p["name"] == "cuarray"
    assert p["requires-python"] == ">=3.10"
    assert _names(p["dependencies"]) == {
        "numpy", "cuda-core", "cuda-bindings", "cuda-pathfinder", "nvmath-python", "cuda-cccl"}
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "cuarray._version.__version__"}


def test_extras(project):
    extras = project["project"]["optional-dependencies"]
    assert {"cu12", "cu13", "test"} <= set(extras)
    assert {"nvidia-cuda-nvrtc-cu12", "nvidia-cublas-cu12", "nvidia-cufft-cu12",
            "nvidia-curand-cu12", "nvidia-cusolver-cu12", "nvidia-cusparse-cu12",
            "nvidia-cuda-runtime-cu12", "cuda-bindings"} <= _names(extras["cu12"])
    cu13 = {Requirement(r).name: Requirement(r) for r in extras["cu13"]}
    assert {"nvrtc", "cudart", "cublas", "cufft", "curand", "cusolver", "cusparse"} <= \
        cu13["cuda-toolkit"].extras
    assert cu13["cuda-bindings"].specifier.contains("13.0.0")
    assert not cu13["cuda-bindings"].specifier.contains("12.9.0")
    assert {"pytest", "pytest-timeout", "scipy", "hypothesis"} <= _names(extras["test"])


def test_pytest_markers(project):
    markers = project["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("gpu:") for m in markers)
    assert any(m.startswith("slow:") for m in markers)


def test_version_matches():
    import cuarray
    from cuarray._version import __version__
    assert cuarray.__version__ == __version__


@pytest.mark.parametrize("pattern", ["*.py", "*.cuh"])
def test_installed_package_is_complete(pattern):
    # Run from an installed wheel (CI), every module and header must have come with it; a
    # package directory without __init__.py is silently left out of the wheel.
    import cuarray
    installed = Path(cuarray.__file__).parent
    want = {p.relative_to(SRC) for p in SRC.rglob(pattern) if "__pycache__" not in p.parts}
    have = {p.relative_to(installed) for p in installed.rglob(pattern)}
    assert want <= have, f"missing from the installed package: {sorted(map(str, want - have))}"


def test_import_without_gpu():
    code = ("import sys, cuarray; print(cuarray.cuda.is_available()); "
            "print('cupy' in sys.modules)")
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "False"]


def test_src_never_imports_cupy():
    pattern = re.compile(r"^\s*(import\s+cupy\b|from\s+cupy\b)", re.M)
    offenders = [str(p.relative_to(ROOT)) for p in SRC.rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
