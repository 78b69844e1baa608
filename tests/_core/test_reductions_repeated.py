"""The reductions' warm path (`_reductions._Warm`): a repeated call replays the launch the
general path planned, with new pointers.

CPU tests: over random shapes, layouts, dtypes and keywords, the warm call launches exactly
what the first (general) call launched and returns NumPy's dtype and shape (kernels are
recorded, not run); the cache's keys and bound. Behaviour tests run on the emulated host
device ("emu": the reduction kernels built by g++, CUDA threads as host threads) and on the
GPU ("gpu"), comparing values with NumPy on both calls.
"""
import warnings

import numpy
import pytest

import cuarray
from cuarray._core import _argwhole, _reductions, reduction
from cuarray._runtime import launch
from emulation import ALL, dtypes, emulate, pytest_generate_tests, rand  # noqa: F401  (the hook)



# ---- what the reductions are called with ------------------------------------------------------

def _call(mod, name, a, kw):
    """`name` of module `mod` (numpy or cuarray) on `a`: functions, and ufunc.reduce as 'add.reduce'."""
    if name.endswith(".reduce"):
        return getattr(mod, name.split(".")[0]).reduce(a, **kw)
    return getattr(mod, name)(a, **kw)


# name -> (keywords it takes besides axis/keepdims, dtype= values to try, input dtypes)
_FUNCS = {
    "sum": (("dtype",), (None, numpy.float64, "int64", numpy.dtype("f4")), ALL),
    "prod": (("dtype",), (None, numpy.complex128), ALL),
    "max": ((), (), ALL),
    "min": ((), (), ALL),
    "mean": (("dtype",), (None, numpy.float32), ALL),
    "var": (("dtype", "ddof"), (None, numpy.float64), ALL),
    "std": (("dtype", "ddof"), (None,), ALL),
    "all": ((), (), ALL),
    "any": ((), (), ALL),
    "count_nonzero": ((), (), ALL),
    "argmax": ((), (), ALL),
    "argmin": ((), (), ALL),
    "add.reduce": (("dtype",), (None, numpy.int64), ALL),
    "maximum.reduce": ((), (), ALL),
}


def _random_case(r):
    """(function, host array, the view of it to reduce as (start, step, transpose), keywords)."""
    name = list(_FUNCS)[r.integers(len(_FUNCS))]
    extra, dtypes, allowed = _FUNCS[name]
    dtype = numpy.dtype(allowed[r.integers(len(allowed))])
    ndim = int(r.integers(0, 4))
    shape = tuple(int(r.choice([0, 1, 2, 3, 5, 8, 33])) for _ in range(ndim))
    if r.random() < 0.4:   # square: transposes and reversals share the shape, not the strides
        shape = (int(r.choice([2, 3, 5])),) * ndim
    if r.random() < 0.15:
        shape, ndim = (int(r.choice([3000, 5000])),), 1  # split: partials and a second kernel
    host = numpy.asarray(rand(shape, dtype, r))
    view = (0, 1, False)
    if ndim and r.random() < 0.3:
        view = (int(r.integers(0, 2)), int(r.choice([1, 2, -1])), bool(r.random() < 0.5))
    kw = {}
    if name.startswith("arg"):
        axis = int(r.integers(-ndim, ndim)) if ndim and r.random() < 0.7 else None
    elif name.endswith(".reduce"):
        axis = int(r.integers(-ndim, ndim)) if ndim else None
    else:
        choices = [None] + list(range(-ndim, ndim))
        if ndim >= 2:
            choices.append(tuple(sorted(r.choice(ndim, 2, replace=False).tolist())))
        axis = choices[r.integers(len(choices))]
    kw["axis"] = axis
    if r.random() < 0.4:
        kw["keepdims"] = True
    if "dtype" in extra and r.random() < 0.4 and dtype.kind != "c":   # complex to real: a warning
        kw["dtype"] = dtypes[r.integers(len(dtypes))]
    if "ddof" in extra and r.random() < 0.4:
        kw["ddof"] = 1
    return name, host, view, kw


def _view(x, view):
    start, step, t = view
    x = x[start:][::step] if x.ndim else x
    return x.T if t else x


def _numpy(name, x, kw):
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # mean of empty slices
        return _call(numpy, name, x, kw)


# ---- the warm call launches what the general call launched (CPU) ------------------------------

class _Recorder:
    """Stands in for NVRTC and the launches: each kernel records (kernel, grid, block, arguments)."""

    def __init__(self, monkeypatch):
        self.calls = []
        self.packed = []
        self.planned = 0
        rec = self
        real_pack, real_launch = launch.ArgPacker.pack, reduction.ReduceOp.launch

        def pack(packer, args):
            rec.packed.append(tuple(args))
            return real_pack(packer, args)

        def planned(op, *args, **kwargs):   # the general path runs ReduceOp.launch
            rec.planned += 1
            return real_launch(op, *args, **kwargs)

        monkeypatch.setattr(launch.ArgPacker, "pack", pack)
        monkeypatch.setattr(reduction.ReduceOp, "launch", planned)
        monkeypatch.setattr(reduction, "compile_module", self.compile_module)
        monkeypatch.setattr(_argwhole, "compile_module", self.compile_module)

    def compile_module(self, source, options=(), name_expressions=(), name="kernel"):
        return _RecModule(self, source)

    def take(self, known):
        """The launches since the last take, pointers named: `known` maps pointer -> name, other
        device addresses read "ptr" (partials, and arrays made inside the call)."""
        def norm(v):
            if isinstance(v, int) and not isinstance(v, bool):
                return known.get(v, "ptr" if v >= 1 << 40 else v)
            return v
        calls = [(k, g, b, tuple(norm(v) for v in args)) for k, g, b, args in self.calls]
        self.calls = []
        return calls


class _RecModule:
    def __init__(self, rec, source):
        self.rec, self.source = rec, source

    def get_function(self, name):
        return _RecFunction(self.rec, name, self.source)


class _RecFunction:
    def __init__(self, rec, name, source):
        self.rec, self.name, self.source = rec, name, source

    def launch(self, grid, block, params_address, shared_mem=0, stream_ptr=0):
        self.rec.calls.append(((self.name, self.source), tuple(grid), tuple(block), self.rec.packed.pop()))

    def launch1d(self, grid, block, params_address, stream_ptr):
        self.launch((grid, 1, 1), (block, 1, 1), params_address, 0, stream_ptr)


@pytest.fixture
def recorder(monkeypatch):
    emulate(monkeypatch)   # host memory for the arrays; kernels are then recorded, not built
    return _Recorder(monkeypatch)


def test_warm_call_launches_what_the_general_call_launched(recorder, monkeypatch):
    """Each case runs on the general path (an empty cache), then twice on a cache shared by all
    cases, for a view and for a contiguous copy of it: same shape, other strides, so an entry
    keyed too loosely launches the other one's plan."""
    r = numpy.random.default_rng(20240611)
    shared = {}
    warm_hits = 0
    for _ in range(400):
        name, host, view, kw = _random_case(r)
        x = _view(host, view)
        case = (name, host.dtype, host.shape, view, kw)
        try:
            want = _numpy(name, x, kw)
        except (ValueError, TypeError):
            for _ in range(2):   # an error every time, and nothing cached
                with pytest.raises((ValueError, TypeError)):
                    _call(cuarray, name, _view(cuarray.asarray(host), view), kw)
            continue
        for g in (_view(cuarray.asarray(host), view), cuarray.asarray(x.copy(order="C"))):
            monkeypatch.setattr(_reductions, "_warm", {})
            recorder.take({})
            recorder.planned = 0
            first = _call(cuarray, name, g, kw)
            general = recorder.take({g._ptr: "in", first._ptr: "out"})
            planned = recorder.planned
            monkeypatch.setattr(_reductions, "_warm", shared)
            results = [first]
            for _ in range(2):
                recorder.planned = 0
                results.append(_call(cuarray, name, g, kw))
                assert recorder.take({g._ptr: "in", results[-1]._ptr: "out"}) == general, case
            for got in results:
                assert isinstance(got, cuarray.ndarray), case
                assert got.dtype == numpy.asarray(want).dtype and got.shape == numpy.shape(want), case
            # Every call with something to write takes the warm path the second time, but
            # whole-array argmax/argmin (the _argwhole kernels, or a flattened copy).
            cached = first.size > 0 and not (name.startswith("arg") and kw["axis"] is None)
            assert (planned, recorder.planned) == ((planned or 1, 0) if cached else (planned, planned)), case
            warm_hits += cached
    assert warm_hits > 400


# ---- keys and bound (CPU) ---------------------------------------------------------------------

def test_key_tells_layouts_and_keywords_apart(recorder):
    a = cuarray.asarray(numpy.arange(25, dtype=numpy.float32).reshape(5, 5))
    k = _reductions._key
    keys = {k("sum", a, None, False), k("sum", a, 0, False), k("sum", a, 0, True),
            k("sum", a, (0, 1), False), k("sum", a.T, 0, False), k("sum", a[:, ::2], 0, False),
            k("sum", cuarray.asarray(numpy.ones((5, 5))), 0, False), k("sum", a, 0, False, numpy.float64),
            k("prod", a, 0, False), k(("var", 1), a, 0, False), k(("var", 0), a, 0, False)}
    assert len(keys) == 11 and None not in keys
    # Same layout and dtype, other memory: one key (the pointer is read per call).
    assert k("sum", a[1:], 0, False) == k("sum", cuarray.asarray(numpy.ones((4, 5), numpy.float32)), 0, False)
    # Arguments of other types than the usual ones (maybe unhashable) take the general path.
    for axis, keepdims, dtype in [([0], False, None), (numpy.int64(0), False, None), ((0, [1]), False, None),
                                  ((numpy.int64(0),), False, None), (0, 1, None), (0, False, ["f4"])]:
        assert k("sum", a, axis, keepdims, dtype) is None
    assert k("sum", numpy.ones(3), None, False) is None


def test_calls_outside_the_warm_path_are_not_cached(recorder, monkeypatch):
    monkeypatch.setattr(_reductions, "_warm", {})
    a = cuarray.asarray(numpy.arange(12, dtype=numpy.float32).reshape(3, 4))
    out = cuarray.empty(4, numpy.float32)
    mask = cuarray.asarray(numpy.arange(12).reshape(3, 4) % 2 == 0)
    for _ in range(2):
        cuarray.sum(a, axis=0, out=out)
        cuarray.sum(a, axis=0, where=mask)
        cuarray.sum(a, axis=0, initial=1.0)
        cuarray.max(a, axis=[0])
        cuarray.argmax(a, axis=0, out=cuarray.empty(4, numpy.int64))
        cuarray.add.reduce(a, axis=0, out=out)
    assert _reductions._warm == {}
    for _ in range(2):
        cuarray.mean(a, axis=0, where=mask)   # counts the mask with a plain count_nonzero
        cuarray.var(a, ddof=1.5)              # takes a plain mean (dims kept) first
    assert {k[0] for k in _reductions._warm} == {"count_nonzero", "mean"}   # not the user's calls
    _reductions._warm.clear()
    a.sum(axis=0)
    assert list(_reductions._warm) == [_reductions._key("sum", a, 0, False)]


def test_cache_is_bounded(recorder, monkeypatch):
    monkeypatch.setattr(_reductions, "_warm", {})
    monkeypatch.setattr(_reductions, "_WARM_MAX", 5)
    arrays = [cuarray.asarray(numpy.ones(n, numpy.float32)) for n in range(1, 13)]
    for a in arrays:
        a.sum()
    assert len(_reductions._warm) == 5
    assert list(_reductions._warm) == [_reductions._key("sum", a, None, False) for a in arrays[-5:]]


# ---- values, first and warm call (emu and GPU) ------------------------------------------------

_VALUE_CASES = [   # (name, shape, keywords): row and column kernels, split ranges, views
    ("sum", (1000,), {}), ("sum", (3000,), {}), ("sum", (33, 40), {"axis": 0}),
    ("sum", (40, 70), {"axis": 1, "keepdims": True}), ("sum", (3, 4, 5), {"axis": (0, 2)}),
    ("max", (70,), {}), ("max", (9, 70), {"axis": -1}), ("min", (70, 9), {"axis": 0}),
    ("mean", (5, 70), {}), ("mean", (70, 5), {"axis": 1}), ("var", (6, 70), {"axis": 1, "ddof": 1}),
    ("std", (70,), {}), ("any", (70, 3), {"axis": 1}), ("all", (3, 70), {"axis": 0}),
    ("count_nonzero", (40, 70), {"axis": 1}), ("argmax", (5, 70), {"axis": 1}),
    ("argmin", (70, 5), {"axis": 0}), ("prod", (70,), {}),
    ("argmax", (3000,), {}), ("argmin", (9, 70), {}),   # _argwhole (the offset view: the engine)
]


@pytest.mark.parametrize("name,shape,kw", _VALUE_CASES)
@dtypes(gpu=ALL, emu="f")
def test_warm_values_match_numpy(xp, dtype, name, shape, kw, rng):
    if name in ("max", "min") and dtype.kind == "c":
        pytest.skip("complex max/min: left out as in test_reductions.py")
    low, high = (0.5, 1.5) if name == "prod" else (0, 5)   # sums away from 0: relative tolerances
    for _ in range(2):   # a fresh input each time: the warm call must read the new pointer
        x = numpy.asarray(rand(shape, dtype, rng, low, high))
        if name in ("any", "all", "count_nonzero"):   # some slices all zero, some all nonzero
            x[rng.random(shape) < (0.02 if name == "all" else 0.6)] = 0
        views = [(x, xp.asarray(x))]
        if len(shape) == 1:  # an offset view with the same layout as another array
            views.append((x[1:], xp.asarray(x)[1:]))
        for host, dev in views:
            for _ in range(2):
                got = _call(xp, name, dev, kw)
                want = _numpy(name, host, kw)
                assert got.dtype == numpy.asarray(want).dtype and got.shape == numpy.shape(want)
                tol = {"e": 2e-2, "f": 2e-5, "F": 2e-5}.get(dtype.char, 1e-12)
                numpy.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)
