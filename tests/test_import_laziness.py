"""`import cuarray` loads only what a program's first array operations need; every public
name it leaves out still works, loaded on first use (CPU, fresh processes)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Modules `import cuarray` must not load: not used by `a + 1`, `a.sum()`, `sin(a)`.
LAZY_MODULES = [
    "cuarray._core.raw", "cuarray._core.kernel", "cuarray._runtime.runtime_api",
    "cuarray._runtime.texture", "cuarray._runtime.paths", "cuarray.cuda.runtime",
    "cuarray.cuda.compiler", "cuarray.linalg", "cuarray.fft", "cuarray.random", "cuarray.scipy",
    "cuarray._core.fusion", "cuda.bindings.driver", "cuda.bindings.nvrtc", "cuda.core",
    "tempfile",   # only a disk-cache write needs it
]


def _run(code):
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", PYTHONPATH=str(ROOT / "src"))
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_import_leaves_these_modules_unloaded():
    loaded = _run("import sys, json, cuarray; print(json.dumps(sorted(m for m in %r if m in sys.modules)))"
                  % (LAZY_MODULES,))
    assert loaded == []


def test_lazy_names_resolve():
    code = """
import json, cuarray, cuarray.cuda as cc
from cuarray.cuda import runtime, compiler
out = [cuarray.RawKernel.__name__, cuarray.RawModule.__name__, cuarray.ElementwiseKernel.__name__,
       cuarray.ReductionKernel.__name__, cuarray.cumsum.__name__, cuarray.nancumprod.__name__,
       cc.runtime.__name__, cc.compiler.__name__, callable(cc.get_cuda_path), callable(cc.get_nvcc_path),
       runtime is cc.runtime, hasattr(runtime, "getDeviceCount"), hasattr(compiler, "CompileException"),
       hasattr(cuarray, "no_such_name"), hasattr(cc, "no_such_name")]
print(json.dumps(out))
"""
    assert _run(code) == ["RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel", "cumsum",
                          "nancumprod", "cuarray.cuda.runtime", "cuarray.cuda.compiler", True, True,
                          True, True, True, False, False]


def test_from_imports_of_lazy_names():
    code = """
import json
from cuarray import RawKernel, ElementwiseKernel, cumsum
from cuarray.cuda import get_cuda_path, runtime
import cuarray
print(json.dumps([RawKernel is cuarray.RawKernel, ElementwiseKernel is cuarray.ElementwiseKernel,
                  cumsum is cuarray.cumsum, runtime is cuarray.cuda.runtime]))
"""
    assert _run(code) == [True, True, True, True]
