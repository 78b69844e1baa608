"""The replayed launches of the elementwise engine and the copy engine give what a freshly
planned launch gives, are keyed by everything that changes a plan, and stay bounded:

- `Op._plans`: N-d operand layouts -> collapsed strides, kernel, packer and grid;
- `_transpose._plans`: copy layouts -> the tiled transpose plan, or a refusal;
- `_copy._casts`: astype's dtype argument and casting rule -> the checked target dtype.

Random layouts cover size-1 axes, negative and zero (broadcast) strides, transposes and
byte offsets. Runs on the GPU and on the emulated host device (the `cp` fixture).
"""

import numpy
import pytest


from cuarray._core import _copy, _transpose
from cuarray._core import elementwise


@pytest.fixture
def plans_built(monkeypatch):
    """A list that records the key of every N-d plan built from here on."""
    built = []
    plan_nd = elementwise.Op._plan_nd

    def counting(self, args, arrays, key):
        built.append(key)
        return plan_nd(self, args, arrays, key)
    monkeypatch.setattr(elementwise.Op, "_plan_nd", counting)
    return built


# ---- random layouts, built the same way on the host and on the device ----------------------------
def _layout(rng, shape=None):
    """(base shape, [view steps]) of a random strided view of `shape` (random if None): sliced
    with steps of +-1 and +-2 and offsets, transposed, some unit axes new (stride 0). Sides
    stay under 16 so that copies stay in the elementwise engine (the tiled transpose takes
    wider ones), bases under 32 KiB (the host emulation stages small uploads only)."""
    while shape is None or numpy.prod(shape) > 128:
        shape = tuple(int(n) for n in rng.choice([1, 1, 2, 3, 5, 7], rng.integers(1, 5)))
    new = [d for d, n in enumerate(shape) if n == 1 and rng.random() < 0.5]
    kept = [n for d, n in enumerate(shape) if d not in new]
    perm = [int(p) for p in rng.permutation(len(kept))]
    pre = [kept[p] for p in numpy.argsort(perm)]       # transposed by perm, it has `kept`
    key = []
    for n in pre:
        step = int(rng.choice([1, 2, -1, -2]))
        start = int(rng.integers(0, abs(step))) if step > 0 else -1 - int(rng.integers(0, abs(step)))
        key.append(slice(start, None, step))
    base = tuple(n * abs(k.step) for n, k in zip(pre, key))
    steps = [("index", tuple(key)), ("transpose", tuple(perm))]
    for d in new:
        steps.append(("index", (slice(None),) * d + (None,)))
    return base, steps


def _build(xp, data, steps):
    v = xp.asarray(data) if xp is not numpy else data
    for kind, arg in steps:
        v = v[arg] if kind == "index" else v.transpose(arg)
    return v


def _pair(cp, rng, dtype, layout):
    """The same random view of fresh random data, on the host and on the device."""
    base, steps = layout
    data = (rng.standard_normal(base) * 10).astype(dtype)
    h, d = _build(numpy, data, steps), _build(cp, data, steps)
    assert h.shape == d.shape and h.strides == d.strides
    return h, d


def _broadcast_partner(rng, shape):
    """A shape that broadcasts against `shape`: leading axes dropped, others set to 1."""
    drop = int(rng.integers(0, len(shape) + 1))
    return tuple(1 if rng.random() < 0.3 else n for n in shape[drop:])


def _check(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype
    numpy.testing.assert_array_equal(got.get(), want)


# ---- elementwise plans -----------------------------------------------------------------------------
def test_replayed_plans_match_numpy_on_random_layouts(cp, plans_built):
    rng = numpy.random.default_rng(1009)
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x - 2 * y", "plan_cache_sub")
    for _ in range(60):
        dt = rng.choice([numpy.float32, numpy.int64, numpy.complex128])
        xl = _layout(rng)
        xh, x = _pair(cp, rng, dt, xl)
        yl = _layout(rng, _broadcast_partner(rng, xh.shape))
        for attempt in range(2):    # the second pass replays the plans of the first
            xh, x = _pair(cp, rng, dt, xl)    # new data and pointers, the same layout
            yh, y = _pair(cp, rng, dt, yl)
            before = len(plans_built)
            _check(x.copy(), xh.copy())
            wide = numpy.result_type(dt, numpy.float64)
            _check(x.astype(wide), xh.astype(wide))
            _check(k(x, y), xh - 2 * yh)
            o = cp.zeros(xh.shape[::-1], dt).T         # an F-ordered output: its own plan
            cp.subtract(x, y, out=o)
            _check(o, xh - yh)
            if attempt:
                assert len(plans_built) == before, "a repeated layout was planned again"


def test_scalars_and_raw_arguments_are_packed_per_call(cp, plans_built):
    k = cp.ElementwiseKernel("T x, T s, raw T r", "T z", "z = x * s + r[i % r.size()]",
                             "plan_cache_raw")
    rng = numpy.random.default_rng(1010)
    xh = rng.standard_normal((4, 6)).astype(numpy.float32)
    x = cp.asarray(xh)[:, ::-2]
    for s in (2, 3):
        for rh in (numpy.arange(5, dtype=numpy.float32), numpy.arange(7, dtype=numpy.float32)):
            got = k(x, numpy.float32(s), cp.asarray(rh))
            i = numpy.arange(12).reshape(4, 3)
            # x * s + r contracts to one fused multiply-add on the GPU (as in CuPy): NumPy's
            # separately rounded product may differ in the last bit.
            want = xh[:, ::-2] * s + rh[i % rh.size]
            assert got.shape == want.shape and got.dtype == want.dtype
            numpy.testing.assert_allclose(got.get(), want, rtol=1e-6, atol=1e-6)
    assert len(plans_built) == 1    # neither the scalar nor the raw array's size is in the plan
    k(x, numpy.float32(1), cp.asarray(numpy.zeros((2, 3), numpy.float32)))
    assert len(plans_built) == 2    # a raw array of another ndim: another kernel, another plan


def test_plan_keys(cp):
    """Same shape with other strides or dtypes never shares a plan; other offsets do."""
    op = _copy._copy_op(numpy.dtype(numpy.float64))
    op._plans.clear()
    rng = numpy.random.default_rng(1011)
    f = rng.standard_normal((4, 12)).astype(numpy.float32)
    i = rng.integers(-9, 9, (4, 12)).astype(numpy.int32)     # the same itemsize as float32
    views = [
        (f[:, ::2], cp.asarray(f)[:, ::2]),
        (f[:, 1::2], cp.asarray(f)[:, 1::2]),                # another offset: shares the plan
        (i[:, ::2], cp.asarray(i)[:, ::2]),                  # another dtype: its own plan
        (f[:, ::-2], cp.asarray(f)[:, ::-2]),                # other strides
        (f.reshape(12, 4)[::2].T, cp.asarray(f).reshape(12, 4)[::2].T),
    ]
    for h, d in views:
        assert d.shape == (4, 6) and not (d.flags.c_contiguous or d.flags.f_contiguous)
        _check(d.astype(numpy.float64), h.astype(numpy.float64))
    sources = [(k[0][1], k[0][2]) for k in op._plans]
    assert sorted(sources) == [((4, 32), "f"), ((48, -8), "f"), ((48, 8), "f"), ((48, 8), "i")]


def test_plans_are_bounded(cp, monkeypatch):
    monkeypatch.setattr(elementwise, "PLANS_PER_OP", 8)
    op = _copy._copy_op(numpy.dtype(numpy.int16))
    op._plans.clear()
    h = numpy.arange(2 * 40, dtype=numpy.int16).reshape(2, 40)
    d = cp.asarray(h)
    for n in range(2, 21):
        _check(d[:, :2 * n:2].copy(), h[:, :2 * n:2])
        assert 1 <= len(op._plans) <= 8
    _check(d[:, :4:2].copy(), h[:, :4:2])    # an evicted layout is planned again


def test_empty_and_mismatched_layouts_are_not_planned(cp):
    op = _copy._copy_op(numpy.dtype(numpy.float32))
    op._plans.clear()
    x = cp.zeros((3, 4), numpy.float32)
    for _ in range(2):
        with pytest.raises(ValueError):
            op.launch((x, cp.zeros((2, 4), numpy.float32)))
    op.launch((x[0, :0], cp.zeros((3, 0), numpy.float32)))     # broadcasts to no element
    assert op._plans == {}


# ---- transpose plans ---------------------------------------------------------------------------
def test_transpose_decisions_match_plan_and_are_bounded(cp, monkeypatch):
    launched = []

    class Recorder:
        def launch(self, grid, block, params, shared, stream):
            launched.append(grid)
    packer = elementwise.ArgPacker("PP" + "q" * 8)      # the tiled kernel is not run here
    monkeypatch.setattr(_transpose, "_kernel", lambda itemsize, idx64, tile: (Recorder(), packer))
    monkeypatch.setattr(_transpose, "_plans", {})
    rng = numpy.random.default_rng(1012)
    outcomes = set()
    for _ in range(300):
        shape = tuple(int(n) for n in rng.choice([1, 3, 16, 20, 33], rng.integers(2, 4)))
        perm = tuple(int(p) for p in rng.permutation(len(shape)))
        src = cp.empty(tuple(shape[p] for p in numpy.argsort(perm)), numpy.float32).transpose(perm)
        dst = cp.empty(shape, numpy.float32, order=rng.choice(["C", "F"]))
        want = _transpose.plan(shape, src.strides, dst.strides, 4) is not None and \
            not (src._c_contig and dst._c_contig) and not (src._f_contig and dst._f_contig)
        for _ in range(2):
            n = len(launched)
            assert _transpose.transpose_copy(src, dst) == want
            assert len(launched) == n + want
        assert len(_transpose._plans) <= 256
        outcomes.add(want)
    assert outcomes == {True, False}


# ---- astype's cast check -----------------------------------------------------------------------
@pytest.mark.parametrize("target", ["f8", numpy.float64, numpy.dtype("f8"), float, ">f8"])
def test_astype_targets_and_cast_errors(cp, target):
    a = cp.asarray(numpy.arange(6, dtype=numpy.float32))
    for _ in range(2):      # cached or not, the same answers and the same errors
        assert a.astype(target).dtype == numpy.dtype("f8")
        with pytest.raises(TypeError, match="according to the rule 'safe'"):
            a.astype(numpy.int8, casting="safe")
        with pytest.raises(ValueError):
            a.astype(target, casting="sometimes")
        with pytest.raises(TypeError, match="structured"):
            a.astype([("x", "f4")])                  # unhashable: never cached
        with pytest.raises(TypeError, match="structured dtypes; got"):
            a.astype("U3")
    assert a.astype(numpy.zeros(2, numpy.int16).dtype).dtype == numpy.int16
    assert len(_copy._casts) <= 1024


@pytest.mark.parametrize("ndim,divides", [(1, False), (2, True)])
def test_strided_index_math(ndim, divides):
    # a 1-D strided view (a[::2] + b[::2]) addresses element i at i * stride: no division
    # or remainder per element, and 32-bit arithmetic when the extent fits
    from cuarray._runtime.compiler import compile_cubin
    f32 = numpy.dtype(numpy.float32)
    op = elementwise.Op("cuarray_test_strided", [elementwise.Param("x", "in", f32),
                        elementwise.Param("y", "in", f32), elementwise.Param("z", "out", f32)],
                        "z = x + y;")
    src, kinds = elementwise.generate(op, [f32] * 3, [None] * 3, ndim, 1, False)
    loop = src[src.index("for (int _i"):]
    assert ("%" in loop or "/" in loop) == divides
    assert "long long _o" not in loop and set(kinds[1:]) <= {"P", "i"}
    assert compile_cubin(src, arch="sm_90")[0]
