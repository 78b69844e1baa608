"""`import cuarray` loads only what a program's first array operations need; every public
name it leaves out still works, loaded on first use (CPU, fresh processes)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Modules the cold-start rows' first calls (`arange`, `a + 1`, `a.sum()`, `sin(a)`) must not
# load either.
FIRST_CALLS_LEAVE_UNLOADED = [
    "cuarray._core.transfer", "cuarray._core._copy", "cuarray._core.scan",
    "cuarray._core.datetimes", "cuarray._core._transpose", "cuarray._core._argwhole",
    "cuarray._core._reductions_stats",
]

# Modules `import cuarray` must not load: not used by `a + 1`, `a.sum()`, `sin(a)`.
LAZY_MODULES = [
    "cuarray._core.raw", "cuarray._core.kernel", "cuarray._runtime.runtime_api",
    "cuarray._runtime.texture", "cuarray._runtime.paths", "cuarray.cuda.runtime",
    "cuarray.cuda.compiler", "cuarray.linalg", "cuarray.fft", "cuarray.random", "cuarray.scipy",
    "cuarray._core.fusion", "cuda.bindings.driver", "cuda.bindings.nvrtc", "cuda.core",
    "tempfile",   # only a disk-cache write needs it
    "cuarray._runtime.pinned", "cuarray.cuda.pinned_memory",   # the first host transfer does
    "cuarray._core.structured",
    # every subpackage, and the routine modules other than creation's
    "cuarray.testing", "cuarray.jit", "cuarray.profiler", "cuarray.lib", "cuarray.polynomial",
    "cuarray.typing", "cuarray.cublas", "cuarray.cusparse", "cuarray.cusolver",
    "cuarray.lapack", "cuarray.signal", "cuarray.distributed", "cuarray._routines.manipulation",
    "cuarray._routines.joining", "cuarray._routines.padding", "cuarray._routines.sorting",
    # heavy dependencies, and what none of the first calls needs
    "nvmath", "cuda.cccl", "scipy", "dask", "numpy.random", "numpy.fft", "numpy.polynomial",
    "numpy.ma", "numpy.testing",
    "hashlib",     # OpenSSL: the kernel cache hashes with CPython's built-in SHA-256
    "fractions", "decimal",   # datetime unit ratios are exact integers
    "json",        # read with a disk-cache entry's metadata
    "string",      # kernel templates (its Template regex compiles at import)
    # what the first calls do not reach: host transfers, the copy engine, scans, datetime
    # loops, the tiled transpose copy, mean/var/std and the arg- and nan-reductions, the
    # routine-name table, Dask's registration
    *FIRST_CALLS_LEAVE_UNLOADED, "cuarray._routines._names", "cuarray._dask_backend",
]


def _run(code):
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", PYTHONPATH=str(ROOT / "src"))
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_import_leaves_these_modules_unloaded():
    loaded = _run("import sys, cuarray; loaded = sorted(m for m in %r if m in sys.modules); "
                  "import json; print(json.dumps(loaded))" % (LAZY_MODULES,))
    assert loaded == []


def test_names_of_lazy_engines_resolve():
    """The public names whose modules load on first use, and the private ones other
    modules reach them by."""
    code = """
import json, sys, cuarray
from cuarray import asarray, copyto, mean
from cuarray._core import _reductions, _copy
from cuarray._core._reductions_stats import nanstd
from cuarray._core.transfer import array
out = [asarray is cuarray.asarray, cuarray.asanyarray is asarray, copyto is cuarray.copyto,
       mean is cuarray.mean is cuarray.ndarray.mean.__globals__["_rs"].mean,
       nanstd is cuarray.nanstd,
       array is cuarray.array, cuarray.asnumpy.__name__,
       _copy.zeros is sys.modules["cuarray._core._alloc"].zeros,
       _copy.to_scalar is sys.modules["cuarray._core.dtypes"].to_scalar,
       hasattr(_reductions, "mean"),
       all(n in dir(cuarray) for n in ("asarray", "asanyarray", "copyto", "mean", "argmax")),
       cuarray.ndarray.cumsum.__name__, cuarray.add.accumulate.__name__]
print(json.dumps(out))
"""
    assert _run(code) == [True, True, True, True, True, True, "asnumpy", True, True, False,
                          True, "cumsum", "accumulate"]


def test_lazy_names_resolve():
    code = """
import json, cuarray, cuarray.cuda as cc
from cuarray.cuda import runtime, compiler
out = [cuarray.RawKernel.__name__, cuarray.RawModule.__name__, cuarray.ElementwiseKernel.__name__,
       cuarray.ReductionKernel.__name__, cuarray.cumsum.__name__, cuarray.nancumprod.__name__,
       cc.runtime.__name__, cc.compiler.__name__, callable(cc.get_cuda_path), callable(cc.get_nvcc_path),
       runtime is cc.runtime, hasattr(runtime, "getDeviceCount"), hasattr(compiler, "CompileException"),
       hasattr(cuarray, "no_such_name"), hasattr(cc, "no_such_name"),
       cuarray.get_default_pinned_memory_pool() is cc.pinned_memory.get_default_pinned_memory_pool(),
       cc.PinnedMemoryPool is cc.pinned_memory.PinnedMemoryPool,
       cuarray.make_aligned_dtype.__name__, "PinnedMemory" in dir(cc), "runtime" in dir(cc)]
print(json.dumps(out))
"""
    assert _run(code) == ["RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel", "cumsum",
                          "nancumprod", "cuarray.cuda.runtime", "cuarray.cuda.compiler", True, True,
                          True, True, True, False, False, True, True, "make_aligned_dtype", True,
                          True]


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


def test_names_loaded_on_first_use_are_listed():
    code = """
import json, sys, cuarray
d = dir(cuarray)
before = sorted(m for m in sys.modules if m.startswith("cuarray."))
listed = all(n in d for n in ("pad", "concatenate", "linalg", "fft", "scipy", "RawKernel",
                              "cumsum", "matmul", "einsum", "sin", "ndarray", "__all__"))
a = cuarray.__all__
after = sorted(m for m in sys.modules if m.startswith("cuarray."))
print(json.dumps([listed, before == after, d == sorted(d), a is cuarray.__all__,
                  "concatenate" in a, "linalg" in a, "cuda" in a, "scipy" in a, "typing" in a,
                  "testing" in a, any(n.startswith("_") for n in a)]))
"""
    # dir() and __all__ load nothing; __all__ leaves out what would shadow another package
    # and `testing` (it needs pytest)
    assert _run(code) == [True, True, True, True, True, True, True, False, False, False, False]


def test_star_import_brings_every_public_name():
    code = """
import json, cuarray
ns = {}
exec("from cuarray import *", ns)
missing = [n for n in cuarray.__all__ if n not in ns]
print(json.dumps([missing, ns["pad"] is cuarray.pad, ns["linalg"] is cuarray.linalg,
                  ns["fuse"] is cuarray.fuse, ns["sin"] is cuarray.sin]))
"""
    assert _run(code) == [[], True, True, True, True]


def test_subpackage_import_forms():
    code = """
import json, pickle
import cuarray.scipy.special
from cuarray import fft
import cuarray
from cuarray.linalg import norm
out = [cuarray.scipy.special.erf.__name__, fft is cuarray.fft, norm is cuarray.linalg.norm,
       pickle.loads(pickle.dumps(cuarray.pad)) is cuarray.pad,
       pickle.loads(pickle.dumps(cuarray.linalg.norm)) is norm,
       pickle.loads(pickle.dumps(cuarray.ndarray)) is cuarray.ndarray,
       pickle.loads(pickle.dumps(cuarray.float32)) is cuarray.float32]
print(json.dumps(out))
"""
    assert _run(code) == ["erf", True, True, True, True, True, True]


def test_pickled_routine_loads_in_a_fresh_process():
    import pickle
    import cuarray
    blob = pickle.dumps([cuarray.pad, cuarray.linalg.norm, cuarray.ndarray])
    code = f"""
import json, pickle, sys
pad, norm, nd = pickle.loads({blob!r})
import cuarray
print(json.dumps([pad is cuarray.pad, norm is cuarray.linalg.norm, nd is cuarray.ndarray]))
"""
    assert _run(code) == [True, True, True]


def test_help_renders():
    code = """
import json, pydoc, cuarray
text = pydoc.render_doc(cuarray)
print(json.dumps(["concatenate" in text, "linalg" in text, "fuse" in text]))
"""
    assert _run(code) == [True, True, True]


def test_first_calls_and_transfers_after_lazy_loads(emulated):
    """The cold-start rows' calls, then a host transfer (pinned staging loads with it) and
    a pickled array, on the emulated device."""
    import pickle

    import numpy
    cp = emulated
    a = cp.arange(1000, dtype=cp.float32)
    ref = numpy.arange(1000, dtype=numpy.float32)
    s = (a + 1).sum()
    b = cp.sin(a)
    t = a.sum()
    cp.cuda.Device().synchronize()
    assert float(s) == float((ref + 1).sum()) and float(t) == float(ref.sum())
    numpy.testing.assert_allclose(cp.asnumpy(b), numpy.sin(ref), rtol=1e-6)
    c = pickle.loads(pickle.dumps(a[::7]))
    assert isinstance(c, cp.ndarray)
    numpy.testing.assert_array_equal(c.get(), ref[::7])
    pool = cp.get_default_pinned_memory_pool()
    assert pool is cp.cuda.pinned_memory.get_default_pinned_memory_pool()


def test_warm_kernel_cache_first_calls_leave_nvrtc_unloaded(tmp_path):
    """The cold-start rows' first calls in a fresh process (null driver of
    tools/host_overhead.py): with the kernels on disk, NVRTC and cuda.core stay unloaded,
    and so do the engines those calls do not use."""
    code = """
import json, sys
from host_overhead import install
install()
import cuarray as xp
a = xp.arange(1000, dtype=xp.float32)
(a + 1).sum()
xp.sin(a)
a.sum()
xp.cuda.Device().synchronize()
print(json.dumps(sorted(m for m in ("cuda.bindings.nvrtc", "cuda.core") + %r if m in sys.modules)))
""" % (tuple(FIRST_CALLS_LEAVE_UNLOADED),)
    env = dict(os.environ, CUARRAY_CACHE_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "tools")]))
    runs = []
    for _ in range(2):   # the first fills the cache
        r = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
    assert runs == [["cuda.bindings.nvrtc"], []]
