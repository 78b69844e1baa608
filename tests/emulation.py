"""Running cuarray on the emulated host device (`cuarray._runtime.emulator`) in tests.

The fixtures in tests/conftest.py use it: `xp` (a test's "emu" variant, also run on GPU
machines), `cp` (the "emu" variant only where no GPU is present; the "gpu" variant runs
there instead) and `emulated`. `emulate(monkeypatch)` installs the emulated device and
keeps what it compiles apart from real kernels: the caches of compiled kernels and
per-stream scratch are emptied for the test, so emulated and real kernels never meet.
With `standins=True` the routines built on libraries (cuBLAS dot and norm, CUB sorts) and
the block-cooperative ones the `cp` tests call are NumPy stand-ins reading and writing the
same host memory.

Also the helpers of the emu/GPU behaviour tests: `dtypes`, `pytest_generate_tests`,
`rand`, `same`.
"""
import ctypes
import importlib
import sys

import numpy
import pytest

import cuarray
from cuarray._runtime import emulator as _emulator

_DRIVER = []


def host_driver():
    """The one emulated device of the test run: kernel caches that outlive a test keep
    handles it still resolves."""
    if not _DRIVER:
        from cuarray._runtime import compiler
        _DRIVER.append(_emulator.HostDriver(
            _emulator.HostBuilder(compiler.INCLUDE_DIR, compiler.header_hash())))
    return _DRIVER[0]


def _host_address(host):
    """The bytes of a contiguous host array as they lie (C or F order), as the driver copies them."""
    if isinstance(host, int):
        return host
    if not (host.flags.c_contiguous or host.flags.f_contiguous):
        raise ValueError("host copies need contiguous memory")
    return host.ctypes.data

# Caches of compiled kernels and per-stream scratch: emulated and real ones must never meet.
_CACHES = [("cuarray._core._copy", "_copy_ops"), ("cuarray._core._copy", "_fill_ops"),
           ("cuarray._core._copy", "_datetime_casts"),
           ("cuarray._core._gather_scatter", "_flag_ops"), ("cuarray._core._gather_scatter", "_kernels"),
           ("cuarray._core._compact", "_compact_kernels"), ("cuarray._core._compact", "_mask_ops"),
           ("cuarray._core._ops", "_where_ops"), ("cuarray._core._ufunc_at", "_reduceat_ops"),
           ("cuarray._core.scan", "_ops"), ("cuarray._core.scan", "_status"),
           ("cuarray._core._argwhole", "_kernels"), ("cuarray._core._argwhole", "_part"),
           ("cuarray._core._indexing", "_fast"), ("cuarray._core._indexing", "_fast_set"),
           ("cuarray._core._ufunc_at", "_fast"),
           ("cuarray._core._reductions", "_built"), ("cuarray._core._reductions", "_warm"),
           ("cuarray._routines.creation", "_arange_ops"), ("cuarray._core._routines_indexing", "_op"),
           ("cuarray._core._kernel_helpers", "_kernels"), ("cuarray._core._transpose", "_kernels"),
           ("cuarray._core._gemm_kernel", "_kernels"), ("cuarray._runtime.pinned", "_spare_events")]


def _swap_everywhere(put, replacements, only=None):
    """Replace functions wherever cuarray's modules (those named in `only`, if given) hold
    them, imported aliases included."""
    by_id = {id(old): new for old, new in replacements if old is not None}
    for name, mod in list(sys.modules.items()):
        if mod is not None and (name == "cuarray" or name.startswith("cuarray.")) and \
                (only is None or name in only):
            for attr, val in list(vars(mod).items()):
                new = by_id.get(id(val))
                if new is not None:
                    put(mod, attr, new)


class _Unbinder:
    """Undoes, at the test's end, what the stand-ins left in modules first imported during
    the test: such a module's `from ... import` bound a stand-in (a module cuarray loads on
    first use, say), which later tests would otherwise run instead of the kernels.
    monkeypatch arms it last, so its undo (setting `armed` back) runs first."""

    def __init__(self, standins):
        self.standins = standins   # (original, stand-in) pairs
        self.before = set(sys.modules)
        self._armed = False

    @property
    def armed(self):
        return self._armed

    @armed.setter
    def armed(self, value):
        if self._armed and not value:
            new = set(sys.modules) - self.before
            _swap_everywhere(setattr, [(f, old) for old, f in self.standins], only=new)
        self._armed = value


def emulate(monkeypatch, standins=False, isolate=True):
    """Run cuarray on the emulated host device for the rest of the test.

    `isolate`: keep the test's compiled kernels and scratch apart (empty caches, ops keep
    their emulated kernels aside), as needed where real kernels also run (GPU machines);
    grids are kept small so grid-stride loops go round. `standins`: NumPy for the routines
    on libraries and block-cooperative kernels."""
    if not _emulator.have_compiler():
        pytest.skip("no g++ to build the kernels for the host emulation")
    _emulator.install(monkeypatch.setattr, host_driver())
    if isolate:
        _isolate(monkeypatch)
    if standins:
        library, placed = [], []
        for (mod, name), f in _standins().items():
            m = importlib.import_module(mod)
            placed.append((getattr(m, name), f))
            if name in _LIBRARY_ONLY:
                library.append(placed[-1])
            monkeypatch.setattr(m, name, f)
        # Routines only a library computes (cuBLAS's dot) have no kernel the host can run:
        # their stand-ins replace every alias, so a module imported before this test (one
        # that bound `dot` at its import) calls the stand-in too.
        _swap_everywhere(monkeypatch.setattr, library)
        monkeypatch.setattr(_Unbinder(placed), "armed", True)


def _isolate(monkeypatch):
    from cuarray._core import _ops, elementwise, reduction, scan
    from cuarray._runtime import pinned
    for mod, name in _CACHES:
        m = importlib.import_module(mod)
        monkeypatch.setattr(m, name, type(getattr(m, name))())  # an empty dict or Cache
    for uf in set(_ops.ALL.values()):
        monkeypatch.setattr(uf, "_loops", {})
    side = {}

    def own_kernels(method):
        def run(self, *args, **kwargs):   # ops made elsewhere keep separate emulated kernels
            names = [n for n in ("_kernels", "_plans") if hasattr(self, n)]   # Op has both
            # keyed by id() with the op held: a dropped op's id may be reused by a new
            # op, which must not find the old op's kernels
            entry = side.get(id(self))
            if entry is None or entry[0] is not self:
                entry = side[id(self)] = (self, {n: {} for n in names})
            own = entry[1]
            saved = [(n, getattr(self, n)) for n in names]
            for n in names:
                setattr(self, n, own[n])
            try:
                return method(self, *args, **kwargs)
            finally:
                for n, v in saved:
                    setattr(self, n, v)
        return run

    for cls, method in ((elementwise.Op, "launch"), (elementwise.Op, "flat_entry"),
                        (elementwise.Op, "launch_flat"),
                        (reduction.ReduceOp, "launch"), (scan.ScanOp, "launch")):
        monkeypatch.setattr(cls, method, own_kernels(getattr(cls, method)))
    _swap_everywhere(monkeypatch.setattr, [
        (elementwise._grid_cap, lambda: 3),    # few blocks: grid-stride loops go round
        (elementwise._sm_count, lambda: 1),    # reductions split their range early
        # Host copies straight to and from "device" (host) memory: the pinned pool keeps
        # no emulated staging buffers a real copy could later receive.
        (pinned.copy_host_to_device, lambda dst, host, nbytes, sp, sync: ctypes.memmove(
            dst, _host_address(host), nbytes)),
        (pinned.copy_device_to_host, lambda host, src, nbytes, sp, sync: ctypes.memmove(
            _host_address(host), src, nbytes)),
    ])


# ---- NumPy stand-ins for routines on libraries and block-cooperative kernels -------------------

def _up(x):
    from cuarray._core.transfer import asarray
    x = numpy.asarray(x)
    return asarray(x if x.flags.c_contiguous else x.copy())  # keeps 0-d results 0-d


def _host(x):
    from cuarray._core.ndarray import ndarray
    return x.get() if isinstance(x, ndarray) else x


_LIBRARY_ONLY = ("dot", "vdot")


def _standins():
    def cumsum(a, axis=None, dtype=None, out=None):
        from cuarray._core.host_policy import device_array
        from cuarray._core.ndarray import ndarray
        if not isinstance(a, ndarray):
            a = device_array(a, "cumsum")   # host data is refused as by the real scan
        r = _up(numpy.cumsum(_host(a), axis=axis, dtype=dtype))
        if out is not None:
            out[...] = r
            return out
        return r

    def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
        return _up(numpy.argsort(_host(a), axis=axis, kind="stable"))

    def sort(a, axis=-1, kind=None, order=None, *, stable=None):
        return _up(numpy.sort(_host(a), axis=axis, kind="stable"))

    def reduction(f, positional=("out", "keepdims")):
        # `positional`: the names of the stood-in function's arguments after `axis`, so that
        # keepdims or dtype given by position are honoured too
        def g(a, axis=None, *args, **kw):
            kw.update(zip(positional, args))
            kw.pop("out", None)
            return _up(numpy.asarray(f(_host(a), axis=axis, **{k: v for k, v in kw.items()
                                                                if k in ("dtype", "keepdims")})))
        return g

    def flatnonzero(a):
        return _up(numpy.flatnonzero(_host(a)))

    def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
               **kw):
        r = numpy.unique(_host(ar), return_index, return_inverse, return_counts, axis)
        return tuple(_up(x) for x in r) if isinstance(r, tuple) else _up(r)

    def dot(a, b, out=None):
        return _up(numpy.dot(_host(a), _host(b)))

    def vdot(a, b):
        return _up(numpy.vdot(_host(a), _host(b)))

    def norm(x, ord=None, axis=None, keepdims=False):
        return _up(numpy.linalg.norm(_host(x), ord, axis, keepdims))

    return {
        ("cuarray.linalg._products", "dot"): dot,
        ("cuarray.linalg._products", "vdot"): vdot,
        ("cuarray._core._routines_linalg", "dot"): dot,
        ("cuarray.linalg", "norm"): norm,
        ("cuarray._core.scan", "cumsum"): cumsum,
        ("cuarray._routines.sorting", "argsort"): argsort,
        ("cuarray._routines.sorting", "sort"): sort,
        ("cuarray._core._routines_sorting", "argsort"): argsort,
        ("cuarray._core._routines_sorting", "sort"): sort,
        ("cuarray._core._reductions", "amax"): reduction(numpy.max),
        ("cuarray._core._reductions", "amin"): reduction(numpy.min),
        ("cuarray._core._reductions", "sum"): reduction(numpy.sum, ("dtype", "out", "keepdims")),
        ("cuarray._core._reductions", "all"): reduction(numpy.all),
        ("cuarray._core._reductions", "any"): reduction(numpy.any),
        ("cuarray._core._reductions", "count_nonzero"): reduction(numpy.count_nonzero, ()),
        ("cuarray._routines.indexing", "flatnonzero"): flatnonzero,
        ("cuarray._routines.sets", "unique"): unique,
    }


# The variants of a `cp`-style fixture: the emulated device, and the GPU.
BACKENDS = ["emu", pytest.param("gpu", marks=pytest.mark.gpu)]


def backend(request, monkeypatch):
    """cuarray for the `cp` fixture's variant: on the GPU ("gpu"), or ("emu") through this
    emulation on machines without one (skipped where that variant cannot run)."""
    if request.param == "emu":
        if gpu_present():
            pytest.skip("a GPU is present: the gpu variant of this test runs instead")
        emulate(monkeypatch, standins=True, isolate=False)
    return cuarray


def gpu_present():
    try:
        return cuarray.is_available()
    except Exception:
        return False


# ---- backends and dtypes for the behaviour tests ---------------------------------------------

ALL = "?bBhHiIlLqQefdFD"
SOME = "?hqfD"          # what the emulation runs: one dtype per element size, few builds


def dtypes(gpu=ALL, emu=SOME):
    """Run the test for each dtype: all of `gpu` on the GPU, `emu` on the host emulation."""
    def mark(f):
        f._dtypes = (gpu, emu)
        return f
    return mark


def pytest_generate_tests(metafunc):
    if "xp" not in metafunc.fixturenames:
        return
    spec = getattr(metafunc.function, "_dtypes", None)
    if spec is None:
        metafunc.parametrize("xp", ["emu", pytest.param("gpu", marks=pytest.mark.gpu)],
                             indirect=True)
        return
    gpu, emu = spec
    params = [pytest.param("emu", numpy.dtype(c), id=f"emu-{numpy.dtype(c).name}") for c in emu]
    params += [pytest.param("gpu", numpy.dtype(c), marks=pytest.mark.gpu,
                            id=f"gpu-{numpy.dtype(c).name}") for c in gpu]
    metafunc.parametrize(("xp", "dtype"), params, indirect=["xp"])


def rand(shape, dtype, rng, low=-5, high=5):
    """Fresh random host data of any dtype (bools about half True, complex with both parts)."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind == "c":
        return (rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)).astype(dtype)
    if dtype.kind == "u":
        low = 0
    return rng.uniform(low, high, shape).astype(dtype)


def same(got, want):
    """Exact equality with NumPy: values (NaN equal to NaN), shape and dtype."""
    g = got.get() if isinstance(got, cuarray.ndarray) else numpy.asarray(got)
    want = numpy.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    numpy.testing.assert_array_equal(g, want)


