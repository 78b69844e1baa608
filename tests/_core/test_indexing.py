"""Advanced and boolean indexing (`cuarray._core._indexing`) against NumPy.

CPU tests: key planning (where the advanced axes go, result shapes, NumPy's errors), the
collapsing of result axes, the index width, and the gather, scatter and compaction kernels
compiled by NVRTC for sm_90.

Every behaviour test runs twice: on "emu", the emulated host device
(`cuarray._runtime.emulator`, which builds each generated kernel source with g++ and also
through NVRTC), and on the GPU (marked `gpu`). Random inputs are fresh per test.
"""
import re

import numpy
import pytest

import cuarray
from cuarray._core import _compact, _gather_scatter
from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core import _indexing as ix
from cuarray._runtime import compiler as _compiler
from emulation import dtypes, pytest_generate_tests, rand, same  # noqa: F401  (the hook too)

# ---- planning (CPU) ------------------------------------------------------------------------

def _entries(key):
    """A host key as planner entries, masks replaced by NumPy's nonzero arrays."""
    key = key if isinstance(key, tuple) else (key,)
    out = []
    for k in key:
        if isinstance(k, list):
            k = numpy.asarray(k)
            k = k.astype(numpy.intp) if k.size == 0 else k
        if isinstance(k, numpy.ndarray) and k.ndim == 0:
            k = bool(k) if k.dtype == bool else int(k)
        if isinstance(k, numpy.ndarray) and k.dtype == bool:
            out.extend(numpy.nonzero(k))
        else:
            out.append(k)
    return out


def _run_plan(x, plan, entries, start=0):
    """What the gather kernel computes for a plan over x's memory from element `start`, in
    NumPy (wrapping like the kernel)."""
    flat = x.reshape(-1)
    out = numpy.empty(plan.shape, x.dtype)
    arrs = [numpy.broadcast_to(entries[pos], plan.bshape) for pos, _, _, _ in plan.arrays]
    for idx in numpy.ndindex(*plan.shape):
        off = plan.offset
        b = [0] * len(plan.bshape)
        for c, (_, s, j) in zip(idx, plan.dims):
            off += c * s
            if j >= 0:
                b[j] = c
        for arr, (_, n, st, _) in zip(arrs, plan.arrays):
            off += (int(arr[tuple(b)]) % n) * st
        out[idx] = flat[start + off // x.itemsize]
    return out


_M = numpy.array([[True, False, True], [False, True, True]])
KEYS = [
    ([0, 1],), (slice(None), [0, 1]), (0, slice(None), [0, 2]), (slice(None), 0, [0, 2]),
    ([[0], [1]], slice(None), [0, 1, 2]), (Ellipsis, [0, 1]), ([0], None, [0]),
    (None, [0, 1], [[0], [1]], None), (True,), (False, 0), (slice(1, None, -1), [1, 2], slice(None, None, 2)),
    (_M,), (slice(None), _M[:, :, None].repeat(4, 2)[0]), (_M, [1]), (1, _M[1], Ellipsis, 2),
    ([1], Ellipsis, [2]), ([0, 1], True, [1, 0]), (slice(None), [0], Ellipsis, [0]),
    ([-1, -2, 1],), (slice(None), slice(None), slice(None), [[-1]]), (0, 1, [2], 3),
    (numpy.array(1), [0, 1]), ([], slice(None)), (slice(None), [[], []]), (slice(2, 2), [0]),
    (True, Ellipsis, False), ([[1, 0]], [[[0]], [[1]]]),
]


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_plan_matches_numpy(key):
    x = numpy.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    entries = _entries(key)
    plan = ix.plan_index(x.shape, x.strides, entries)
    want = x[key]
    assert plan.shape == want.shape
    assert (_run_plan(x, plan, entries) == want).all()


def test_plan_on_a_strided_view():
    x = numpy.arange(6 * 8 * 5).reshape(6, 8, 5)[::-2, 1::3, ::2]
    for key in [([2, 0],), (slice(None), [1, 0, 1]), (0, slice(None), [[2], [0]]), (Ellipsis, [-1, 0])]:
        entries = _entries(key)
        plan = ix.plan_index(x.shape, x.strides, entries)
        base = x.base
        off0 = x.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        same(_run_plan(base, plan, entries, off0 // x.itemsize), x[key])


@pytest.mark.parametrize("key", [
    (0, 0, 0), (Ellipsis, Ellipsis), (numpy.ones((2, 4), bool),), (slice(None), numpy.ones(4, bool)),
    ([0, 1], [0, 1, 2]), (0, [0, 1], [[0, 1, 2]] * 2), (True, [0, 1], [0, 1, 2]), (0, -4),
    (numpy.ones((2, 3, 1), bool),), ([0], 5),
], ids=range(10))
def test_plan_errors_are_numpys(key):
    x = numpy.zeros((2, 3))
    with pytest.raises(IndexError) as want:
        x[key]
    with pytest.raises(IndexError) as got:
        ix.check_key(x.shape, [numpy.asarray(k) if isinstance(k, list) else k for k in key])
        ix.plan_index(x.shape, x.strides, _entries(key))
    assert str(got.value) == str(want.value)


def test_array_indices_out_of_bounds_plan_without_error():
    # they wrap, as in CuPy; the device checks them only under CUARRAY_CHECK_BOUNDS
    assert ix.plan_index((2, 3), (24, 8), [numpy.array([5]), numpy.array([-9])]).shape == (1,)


def test_mask_error_message_names_numpys_axis():
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 0; "
                                         "size of axis is 3 but size of corresponding boolean axis is 4"):
        ix.check_key((3,), [numpy.ones(4, bool)])


@pytest.mark.parametrize("k", [1.0, "a", [0.5], [[0.5]], object(), 1j])
def test_invalid_index_types(k):
    with pytest.raises(IndexError) as want:
        numpy.zeros(3)[k]
    with pytest.raises(IndexError) as got:
        ix.normalize_key(k)
    assert str(got.value) == str(want.value)


def test_float_index_arrays_are_refused():
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        ix.normalize_key(numpy.array([1.0]))


def test_normalize_keeps_host_scalars_on_the_host():
    assert ix.normalize_key((numpy.int8(3), numpy.bool_(True), numpy.array(2), numpy.array(False),
                             None, Ellipsis, slice(1))) == [3, True, 2, False, None, Ellipsis, slice(1)]


def test_check_key_axes():
    assert ix.check_key((2, 3, 4, 5), [None, 0, Ellipsis, numpy.ones((4, 5), bool)]) == [0, 0, 1, 2]
    assert ix.check_key((2, 3), [True, [0], None]) == [0, 0, 1]


def test_collapse_keeps_c_order():
    # (2, 3, 1, 4) with contiguous strides merges to one axis; a broken stride keeps two
    assert _sh.collapse_dims([2, 3, 1, 4], [[96, 32, 7, 8]]) == ((24,), [(8,)])
    assert _sh.collapse_dims([2, 3, 4], [[96, 32, 8], [0, 0, 8]]) == ((6, 4), [(32, 8), (0, 8)])
    assert _sh.collapse_dims([1, 1], [[5, 6]]) == ((), [()])


def test_value_strides():
    assert ix.value_strides((1, 1, 4), (32, 32, 8), (2, 4)) == (0, 8)
    assert ix.value_strides((), (), (2, 4)) == (0, 0)
    with pytest.raises(ValueError, match=r"shape mismatch: value array of shape \(3,4\) could not be "
                                         r"broadcast to indexing result of shape \(2,4\)"):
        ix.value_strides((3, 4), (32, 8), (2, 4))
    with pytest.raises(ValueError, match=r"value array of shape \(2,2,4\)"):
        ix.value_strides((2, 2, 4), (64, 32, 8), (2, 4))


class _Idx:
    """A stand-in index array for planning: shape and byte strides only."""

    def __init__(self, shape, dtype=numpy.int64):
        self.shape = self._shape = shape
        self.dtype = numpy.dtype(dtype)
        self._strides = tuple(int(s) for s in numpy.empty(shape, self.dtype).strides)


def test_index_width_goes_64_bit_only_when_needed():
    small = _Idx((1000,))
    plan = ix.plan_index((1 << 20, 4), (16, 4), [small])
    assert _gather_scatter._layout(plan, [small])[-1] is False
    big = ix.plan_index((1 << 29, 4), (16, 4), [small])        # offsets reach 2^33 bytes
    assert _gather_scatter._layout(big, [small])[-1] is True
    many = _Idx((1 << 31,), numpy.int32)
    assert _gather_scatter._layout(ix.plan_index((10,), (4,), [many]), [many])[-1] is True


# ---- kernels compiled by NVRTC (CPU) ----------------------------------------------------------

def _nvrtc(src):
    _compiler.compile_cubin(src, (), (), "sm_90", "cuarray_test")


@pytest.mark.parametrize("nd", [0, 1, 3])
@pytest.mark.parametrize("idx64", [False, True])
def test_gather_and_scatter_compile(nd, idx64):
    idx_types = tuple(_dt.ctype(numpy.dtype(c)) for c in "bBhHiIlLqQ?")
    for mode in ("wrap", "clip"):
        for it in (1, 2, 4, 8, 16):
            _nvrtc(_gather_scatter.gs_source("g", "gather", nd, ("long long", "unsigned char"), idx64, mode, _gather_scatter._RAW[it])[0])
        _nvrtc(_gather_scatter.gs_source("g", "gather", nd, idx_types, idx64, mode, _gather_scatter._RAW[4])[0])
        _nvrtc(_gather_scatter.gs_source("s", "scatter", nd, ("int",), idx64, mode, _gather_scatter._RAW[16],
                            ("scalar", _gather_scatter._RAW[16], ("s", 16, 8)), "*(cu_b16*)_p = _v;")[0])
        _nvrtc(_gather_scatter.gs_source("s", "scatter", nd, (), idx64, mode, _gather_scatter._RAW[2],
                            ("array", _gather_scatter._RAW[2]), "*(unsigned short*)_p = _v;")[0])


_KERNEL = re.compile(r'extern "C" __global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)\(([^)]*)\)')


def _split_params(params):
    """A kernel's parameter list split at its top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in params:
        depth += (ch == "<") - (ch == ">")
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [p.strip() for p in out + [cur] if p.strip()]


def test_scatter_packs_one_kind_per_parameter():
    src, kinds = _gather_scatter.gs_source("s", "scatter", 2, ("int", "long long"), False, "wrap", "float",
                              ("array", "float"), "")
    params = _split_params(_KERNEL.search(src).group(2))
    assert len(params) == len(kinds) == 1 + 3 + 2 * (3 + 2) + 2 * 2 + 1


@pytest.mark.parametrize("mode", ["select", "coords", "place"])
def test_compaction_compiles(mode):
    for m in ("unsigned char", "half", "complex<double>", "long long"):
        for nd in (1, 4):
            _nvrtc(_compact.compact_source("c", m, mode, nd, _gather_scatter._RAW[8]))


# ---- getitem (emu and GPU) ------------------------------------------------------------------------

@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_getitem_keys(xp, key, rng):
    x = rng.standard_normal((2, 3, 4, 5)).astype(numpy.float32)
    same(xp.asarray(x)[key], x[key])


@dtypes()
def test_getitem_dtypes(xp, dtype, rng):
    x = rand((7, 6), dtype, rng)
    d = xp.asarray(x)
    i = rng.integers(-7, 7, 11)
    same(d[i], x[i])
    same(d[:, i % 6], x[:, i % 6])
    same(d[i, i % 6], x[i, i % 6])
    m = rand((7, 6), numpy.bool_, rng)
    same(d[m], x[m])
    same(d[m[:, 0]], x[m[:, 0]])


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[::-1, ::2], lambda a: a[1:, 3]])
@pytest.mark.parametrize("ishape", [(5,), (2, 3), ()])
def test_getitem_repeated_layout(xp, view, ishape, rng):
    """A device index array in the same layouts twice: the second call replays the first's
    launch (getitem's cache) with fresh data, negative indices and a strided index."""
    from cuarray._core import _indexing
    for _ in range(2):
        x = view(rng.standard_normal((9, 8)).astype(numpy.float32))
        i = rng.integers(-x.shape[0], x.shape[0], (2,) + ishape)[::2].reshape(ishape)
        di = xp.asarray(rng.integers(-x.shape[0], x.shape[0], (2,) + ishape))[::2].reshape(ishape)
        di[...] = xp.asarray(i)
        same(view(xp.asarray(numpy.ascontiguousarray(x.base if x.base is not None else x)))[di], x[i])
    assert any(k[4] == di.shape for k in _indexing._fast) or ishape == ()


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[::-1, ::2], lambda a: a[1:, 3]])
@pytest.mark.parametrize("ishape", [(5,), (2, 3)])
def test_setitem_repeated_layout(xp, view, ishape, rng, monkeypatch):
    """`a[idx] = v` in the same layouts again replays the first call's launch (setitem's
    cache) with fresh arrays; a value of another dtype, a value sharing the target's memory
    and the bounds check take the general path."""
    from cuarray._core import _indexing
    for round_ in range(3):
        x = view(rng.standard_normal((9, 8)).astype(numpy.float32))
        d = view(xp.asarray(numpy.ascontiguousarray(x.base if x.base is not None else x)))
        # distinct indices: with repeated ones which write wins is not defined
        i = rng.permutation(x.shape[0])[:int(numpy.prod(ishape))].reshape(ishape)
        i[..., 0] -= x.shape[0]
        v = rng.standard_normal(i.shape + x.shape[1:]).astype(numpy.float32)
        with monkeypatch.context() as m:
            if round_ == 2 and xp is not numpy:
                def general(*args, **kwargs):
                    raise AssertionError("the warm path went through the general path")
                m.setattr(_indexing, "scatter", general)
            d[xp.asarray(i)] = xp.asarray(v)
        x[i] = v
        same(d, x)
        v64 = rng.standard_normal(v.shape)
        d[xp.asarray(i)] = xp.asarray(v64)
        x[i] = v64
        same(d, x)
    if xp is not numpy:
        assert any(k[5] == ishape for k in _indexing._fast_set)
    if x.ndim == 1:
        d[xp.asarray(i)] = d[:i.size].reshape(i.shape)    # the value is a view of the target
        x[i] = x[:i.size].reshape(i.shape).copy()
        same(d, x)
    monkeypatch.setenv("CUARRAY_CHECK_BOUNDS", "1")
    bad = i.copy()
    bad.flat[0] = 50
    with pytest.raises(IndexError, match="out of bounds"):
        d[xp.asarray(bad)] = xp.asarray(v)


@pytest.mark.parametrize("view", [lambda a: a.T, lambda a: a[::-1, ::2], lambda a: a[1:, 3],
                                  lambda a: a.T[::2]])
def test_getitem_on_views(xp, view, rng):
    x = rng.standard_normal((9, 8)).astype(numpy.float64)
    v, dv = view(x), view(xp.asarray(x))
    i = rng.integers(0, v.shape[0], 5)
    same(dv[i], v[i])
    same(dv[v > 0], v[v > 0])
    same(dv[..., [0, -1]], v[..., [0, -1]])


@pytest.mark.parametrize("kind", ["list", "numpy", "device", "int32", "uint8", "0d"])
def test_index_kinds(xp, kind, rng):
    x = rng.standard_normal((5, 4)).astype(numpy.float32)
    d = xp.asarray(x)
    i = [3, 0, 4]
    key = {"list": i, "numpy": numpy.array(i), "device": xp.asarray(i),
           "int32": xp.asarray(numpy.array(i, numpy.int32)), "uint8": numpy.array(i, numpy.uint8),
           "0d": xp.asarray(numpy.array(2))}[kind]
    want = x[numpy.array(2)] if kind == "0d" else x[i]
    same(d[key], want)
    same(d[key, 1:], x[2, 1:] if kind == "0d" else x[i, 1:])


def test_out_of_bounds_indices_wrap(xp, rng):
    x = rng.standard_normal(5).astype(numpy.float32)
    i = numpy.array([5, 7, -6, -11, 2])
    same(xp.asarray(x)[i], x[i % 5])
    same(xp.asarray(x)[xp.asarray(i)], x[i % 5])


def test_check_bounds_raises_numpys_error(xp, monkeypatch):
    monkeypatch.setenv("CUARRAY_CHECK_BOUNDS", "1")
    d = xp.asarray(numpy.arange(3.0))
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 0 with size 3"):
        d[[0, 10]]
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 1 with size 3"):
        xp.asarray(numpy.zeros((2, 3)))[:, [-4]]
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        d[[3]] = 1
    same(d[[-3, 2]], numpy.array([0.0, 2.0]))


def test_empty_and_zero_d(xp):
    x = numpy.arange(12.0).reshape(3, 4)
    d = xp.asarray(x)
    for key in ([], ([], []), numpy.zeros((0, 2), numpy.int64), numpy.zeros((3, 4), bool),
                (slice(0, 0), [1, 2])):
        same(d[key], x[key])
    z = numpy.array(5.0)
    for key in (True, False, (None, True), (Ellipsis, False)):
        same(xp.asarray(z)[key], z[key])
    e = numpy.zeros((0, 3))
    same(xp.asarray(e)[[], 1:], e[[], 1:])
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        xp.asarray(e)[[0]]


def test_mask_selection_across_tiles(xp, rng):
    n = 3 * 4096 + 123        # several compaction tiles and a partial one
    x = rng.standard_normal(n).astype(numpy.float32)
    d = xp.asarray(x)
    same(d[d > 0.5], x[x > 0.5])
    same(d[xp.asarray(numpy.zeros(n, bool))], x[:0])
    same(d[xp.asarray(numpy.ones(n, bool))], x)
    m = numpy.frombuffer(rng.integers(0, 3, n, numpy.uint8).tobytes(), bool)  # bytes other than 0/1
    same(d[xp.asarray(m)], x[m.view(numpy.uint8) != 0])


# ---- setitem (emu and GPU) ------------------------------------------------------------------------

SET_CASES = [
    ([0, 2], 1.5), ((slice(None), [1, 3]), "row"), (([0, 1], [2, 0]), "vec"), ((Ellipsis, [4]), 7),
    (([[0], [2]], [1, 3]), "grid"), ((1, [0, 2]), "vec"), ((True, 0), 3.0), ((slice(None, None, -1), [0]), "col"),
]


@pytest.mark.parametrize("key,value", SET_CASES, ids=range(len(SET_CASES)))
def test_setitem_keys(xp, key, value, rng):
    x = rng.standard_normal((3, 5)).astype(numpy.float32)
    want = x.copy()
    d = xp.asarray(x)
    shape = want[key].shape
    v = value if not isinstance(value, str) else {
        "row": rng.standard_normal((1, 2)), "vec": rng.standard_normal(shape[-1:]),
        "grid": rng.standard_normal((2, 2)), "col": rng.standard_normal((3, 1))}[value]
    want[key] = v
    d[key] = xp.asarray(v) if isinstance(v, numpy.ndarray) else v
    same(d, want)


@dtypes()
def test_setitem_dtypes(xp, dtype, rng):
    x = rand((6, 5), dtype, rng)
    want = x.copy()
    d = xp.asarray(x)
    v = rand((3, 5), dtype, rng)
    want[[4, 0, 2]] = v
    d[[4, 0, 2]] = xp.asarray(v)
    want[:, [1, 3]] = v[0, 0]
    d[:, [1, 3]] = v[0, 0]
    m = rand((6, 5), numpy.bool_, rng)
    want[m] = v[1, 1]
    d[xp.asarray(m)] = v[1, 1]
    want[~m] = rand(int((~m).sum()), dtype, rng)
    d[xp.asarray(~m)] = xp.asarray(want[~m])
    same(d, want)


def test_setitem_values_cast_and_come_from_the_host(xp):
    x = numpy.zeros((3, 4), numpy.int8)
    d = xp.asarray(x)
    x[[0, 2]] = numpy.array([[1.7, 300.2, -2.5, 4.0]])
    d[[0, 2]] = [[1.7, 300.2, -2.5, 4.0]]
    x[:, [1]] = 2.9
    d[:, [1]] = 2.9
    d2 = xp.asarray(numpy.zeros(3, numpy.float32))
    d2[[1]] = xp.asarray(numpy.array([5], numpy.int64))
    same(d, x)
    same(d2, numpy.array([0, 5, 0], numpy.float32))


def test_setitem_repeated_indices_keep_one_of_the_writes(xp):
    d = xp.asarray(numpy.zeros(4))
    d[[1, 1, 1, 3]] = xp.asarray(numpy.array([10.0, 20.0, 30.0, 5.0]))
    h = d.get()
    assert h[1] in (10.0, 20.0, 30.0) and h[3] == 5.0 and h[0] == h[2] == 0


def test_setitem_from_an_overlapping_view(xp):
    x = numpy.arange(10.0)
    d = xp.asarray(x)
    x[[0, 1, 2, 3, 4]] = x[5:][::-1].copy()
    d[[0, 1, 2, 3, 4]] = d[5:][::-1]
    same(d, x)


def test_mask_assignment_rules(xp, rng):
    x = rng.standard_normal((3, 4))
    x[0, 0] = 1.0
    d = xp.asarray(x)
    m = x > 0
    k = int(m.sum())
    d[xp.asarray(m)] = xp.asarray(numpy.array([9.0]))            # one value: broadcast, no read
    x[m] = 9.0
    same(d, x)
    with pytest.raises(TypeError, match="requires a 0 or 1-dimensional input, input has 2 dimensions"):
        d[xp.asarray(m)] = xp.asarray(numpy.ones((1, k)))
    with pytest.raises(ValueError, match=f"cannot assign {k + 1} input values to the {k} output values"):
        d[xp.asarray(m)] = xp.asarray(numpy.ones(k + 1))
    with pytest.raises(ValueError, match="could not be broadcast to indexing result of shape"):
        d[[0, 1]] = xp.asarray(numpy.ones((3, 4)))


def test_setitem_on_a_view(xp, rng):
    x = rng.standard_normal((6, 8))
    d = xp.asarray(x)
    v, dv = x[::2, 1::2], d[::2, 1::2]
    v[[0, 2], [3, 1]] = -1
    dv[[0, 2], [3, 1]] = -1
    v[v > 0.5] = 0.25
    dv[dv > 0.5] = 0.25
    same(d, x)



def test_setitem_drops_the_values_leading_length_1_dims(xp, rng):
    # NumPy: a[:] = v with v of shape (1, ..., 1, *a[:].shape) (a[:] = b[None]); the same
    # v into one element (a[1] = v of ndim 2) is refused.
    x = rng.standard_normal((2, 3)).astype(numpy.float32)
    for key, vshape in (((), (1, 2, 3)), ((Ellipsis,), (1, 1, 3)), ((slice(None, None, -1),), (1, 2, 1)),
                        ((1,), (1, 3)), ((slice(None), slice(None, None, -2)), (1, 1, 2, 2)),
                        ((Ellipsis, None), (1, 2, 3, 1))):
        v = rng.integers(-9, 9, vshape).astype(numpy.int16)
        h, d = x.copy(), xp.asarray(x)
        h[key] = v
        d[key] = xp.asarray(v)
        same(d, h)
    d = xp.asarray(x)
    with pytest.raises(ValueError):
        d[1, 2] = xp.ones((1, 1))
    with pytest.raises(ValueError, match="could not broadcast"):
        d[:] = xp.ones((2, 2, 3))

# ---- large (GPU) --------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int8, numpy.complex128])
def test_large(dtype):
    rng = numpy.random.default_rng(1007)
    n = (1 << 22) + 17
    x = rand(n, dtype, rng)
    d = cuarray.asarray(x)
    i = rng.integers(-n, n, n)
    same(d[cuarray.asarray(i)], x[i])
    m = rng.random(n) > 0.3
    same(d[cuarray.asarray(m)], x[m])
    y = x.copy()
    y[i[:1000]] = x[:1000]
    d[cuarray.asarray(i[:1000])] = d[:1000].copy()
    got = d.get()
    keep = numpy.ones(n, bool)
    keep[i[:1000] % n] = False          # repeated positions may hold any of their writes
    same(got[keep], y[keep])
    x2 = rand((2048, 1500), dtype, rng)
    d2 = cuarray.asarray(x2)
    r = rng.integers(0, 2048, 3000)
    same(d2[r, 7:], x2[r, 7:])
    same(d2[:, r[:100] % 1500], x2[:, r[:100] % 1500])
