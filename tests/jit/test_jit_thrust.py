"""cuarray.jit.thrust (sequential algorithms over iterators) and N-d array rows `x[i]` in
kernels: generated code compiles (CPU), misuse is refused by name, results match NumPy
(GPU, one row per thread)."""

import numpy
import pytest

import cuarray
from cuarray import jit
from cuarray._runtime.compiler import compile_cubin
from cuarray.jit._compile import translate_kernel
from cuarray.jit._types import Array

import emulation  # noqa: E402

T = jit.thrust
i32, i64, f32, f64 = (numpy.dtype(c) for c in "iqfd")


def build(func, *types):
    src, name = translate_kernel(func, types)
    assert compile_cubin(src, arch="sm_90", name=name)[0]
    return src


def k_sort(x):
    row = x[jit.threadIdx.x]
    T.sort(T.device, row.begin(), row.end())


def k_stable_by_key(k, v):
    i = jit.threadIdx.x
    T.stable_sort_by_key(T.seq, k[i].begin(), k[i].end(), v[i].begin())


def k_stats(x, out):
    # per row: sum, count of 3, index of the first 2, sortedness, sorted-search positions
    i = jit.threadIdx.x
    row = x[i]
    out[i, 0] = T.reduce(T.device, row.begin(), row.end())
    out[i, 1] = T.count(T.device, row.begin(), row.end(), 3)
    out[i, 2] = T.find(T.device, row.begin(), row.end(), 2) - row.begin()
    out[i, 3] = T.is_sorted(T.device, row.begin(), row.end())
    T.sort(T.device, row.begin(), row.end())
    out[i, 4] = T.lower_bound(T.device, row.begin(), row.end(), 4) - row.begin()
    out[i, 5] = T.upper_bound(T.device, row.begin(), row.end(), 4) - row.begin()
    out[i, 6] = T.binary_search(T.device, row.begin(), row.end(), 4)
    out[i, 7] = T.unique(T.device, row.begin(), row.end()) - row.begin()


def k_scans(x, inc, exc, diff, rev):
    i = jit.threadIdx.x
    row = x[i]
    T.inclusive_scan(T.device, row.begin(), row.end(), inc[i].begin())
    T.exclusive_scan(T.device, row.begin(), row.end(), exc[i].begin(), 10)
    T.adjacent_difference(T.device, row.begin(), row.end(), diff[i].begin())
    T.reverse_copy(T.device, row.begin(), row.end(), rev[i].begin())


def k_moves(x, idx, g, y, z):
    i = jit.threadIdx.x
    T.gather(T.device, idx.begin(), idx.end(), x[i].begin(), g[i].begin())
    T.sequence(T.device, y[i].begin(), y[i].end(), i, 2)
    T.replace(T.device, y[i].begin(), y[i].end(), 4, -1)
    T.fill(T.device, z[i].begin(), z[i].begin() + 3, 9)
    z[i, 3] = T.inner_product(T.device, x[i].begin(), x[i].end(), x[i].begin(), 0)


def test_thrust_calls_compile():
    src = build(k_sort, Array(i32, 2))
    assert "_jit_thrust_sort(" in src and "_jit_view<1>" in src
    build(k_sort, Array(f64, 2, False))
    build(k_stable_by_key, Array(f32, 2), Array(i64, 2))
    build(k_stats, Array(i32, 2), Array(i64, 2))
    build(k_scans, *(Array(i64, 2),) * 5)
    build(k_moves, Array(i32, 2), Array(i64, 1), Array(i32, 2), Array(i32, 2), Array(i64, 2))


def test_thrust_misuse_is_refused():
    def no_policy(x):
        T.sort(x.begin(), x.end())

    def not_iterators(x):
        T.sort(T.device, x, x)

    def two_d_begin(x):
        T.sort(T.device, x.begin(), x.end())

    def mixed(x, y):
        T.copy(T.device, x.begin(), y.end(), x.begin())

    with pytest.raises(TypeError, match="execution policy"):
        build(no_policy, Array(i32, 1))
    with pytest.raises(TypeError, match="must be an iterator"):
        build(not_iterators, Array(i32, 1))
    with pytest.raises(TypeError, match="1-D arrays"):
        build(two_d_begin, Array(i32, 2))
    with pytest.raises(TypeError, match="same type"):
        build(mixed, Array(i32, 1), Array(f32, 1))


@pytest.fixture(params=emulation.BACKENDS)
def cp(request, monkeypatch):
    """cuarray on the GPU, or through the host emulation (threads of 1-D launches one
    after another: exact for these kernels, whose threads never talk to each other)."""
    return emulation.backend(request, monkeypatch)


# ---- values: on the GPU, and through the host emulation where it can run them ---------
gpu = pytest.mark.gpu


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dt", [numpy.int32, numpy.float64])
def test_sort_rows(cp, order, dt):
    xn = numpy.asarray(numpy.random.default_rng(0).integers(-50, 50, (64, 37)), dt)
    # an F-ordered array as the transpose of a C-ordered one (no copy kernel either way)
    base = cp.asarray(xn if order == "C" else numpy.ascontiguousarray(xn.T))
    x = base if order == "C" else base.T
    jit.rawkernel()(k_sort)((1,), (64,), (x,))
    got = base.get() if order == "C" else base.get().T
    numpy.testing.assert_array_equal(got, numpy.sort(xn, axis=1))


def test_stable_sort_by_key(cp):
    rng = numpy.random.default_rng(1)
    kn = rng.integers(0, 5, (32, 20)).astype(f32)
    vn = numpy.tile(numpy.arange(20), (32, 1)).astype(i64)
    k, v = cp.asarray(kn), cp.asarray(vn)
    jit.rawkernel()(k_stable_by_key)((1,), (32,), (k, v))
    order = numpy.argsort(kn, axis=1, kind="stable")
    numpy.testing.assert_array_equal(k.get(), numpy.take_along_axis(kn, order, 1))
    numpy.testing.assert_array_equal(v.get(), order)


def test_stats_against_numpy(cp):
    xn = numpy.random.default_rng(2).integers(0, 8, (16, 30)).astype(i32)
    out = cp.zeros((16, 8), i64)
    jit.rawkernel()(k_stats)((1,), (16,), (cp.asarray(xn), out))
    s = numpy.sort(xn, axis=1)
    want = numpy.stack([
        xn.sum(axis=1), (xn == 3).sum(axis=1),
        [r.tolist().index(2) if 2 in r else 30 for r in xn],
        [bool((numpy.diff(r) >= 0).all()) for r in xn],
        [numpy.searchsorted(r, 4, "left") for r in s], [numpy.searchsorted(r, 4, "right") for r in s],
        [4 in r for r in s], [len(numpy.unique(r)) for r in s]], axis=1)
    numpy.testing.assert_array_equal(out.get(), want)


def test_scans_against_numpy(cp):
    xn = numpy.random.default_rng(3).integers(-9, 9, (8, 25)).astype(i64)
    outs = [cp.zeros((8, 25), i64) for _ in range(4)]
    jit.rawkernel()(k_scans)((1,), (8,), (cp.asarray(xn), *outs))
    inc, exc, diff, rev = (o.get() for o in outs)
    numpy.testing.assert_array_equal(inc, numpy.cumsum(xn, axis=1))
    numpy.testing.assert_array_equal(exc, 10 + numpy.cumsum(xn, axis=1) - xn)
    numpy.testing.assert_array_equal(diff, numpy.diff(xn, axis=1, prepend=0))
    numpy.testing.assert_array_equal(rev, xn[:, ::-1])


def test_gather_sequence_replace_fill_inner_product(cp):
    xn = numpy.random.default_rng(4).integers(-9, 9, (6, 10)).astype(i32)
    idx = numpy.array([9, 0, 3, 3], i64)
    g, y = cp.zeros((6, 4), i32), cp.zeros((6, 5), i32)
    z = cp.zeros((6, 4), i64)
    jit.rawkernel()(k_moves)((1,), (6,), (cp.asarray(xn), cp.asarray(idx), g, y, z))
    numpy.testing.assert_array_equal(g.get(), xn[:, idx])
    seq = numpy.arange(6)[:, None] + 2 * numpy.arange(5)
    numpy.testing.assert_array_equal(y.get(), numpy.where(seq == 4, -1, seq))
    numpy.testing.assert_array_equal(z.get()[:, :3], 9)
    numpy.testing.assert_array_equal(z.get()[:, 3], (xn.astype(i64) ** 2).sum(axis=1))


def k_sets(a, b, out, lens):
    # sorted unique inputs: thrust's set operations are NumPy's set functions
    o0, o1, o2, o3 = out[0], out[1], out[2], out[3]
    lens[0] = T.set_difference(T.device, a.begin(), a.end(), b.begin(), b.end(), o0.begin()) \
        - o0.begin()
    lens[1] = T.set_intersection(T.device, a.begin(), a.end(), b.begin(), b.end(),
                                 o1.begin()) - o1.begin()
    lens[2] = T.set_symmetric_difference(T.device, a.begin(), a.end(), b.begin(), b.end(),
                                         o2.begin()) - o2.begin()
    lens[3] = T.set_union(T.device, a.begin(), a.end(), b.begin(), b.end(), o3.begin()) \
        - o3.begin()


def k_by_key(keys, vals, ko, vo, inc, exc, lens):
    ke, ve = T.reduce_by_key(T.device, keys.begin(), keys.end(), vals.begin(), ko.begin(),
                             vo.begin())
    lens[0] = ke - ko.begin()
    lens[1] = ve - vo.begin()
    T.inclusive_scan_by_key(T.device, keys.begin(), keys.end(), vals.begin(), inc.begin())
    T.exclusive_scan_by_key(T.device, keys.begin(), keys.end(), vals.begin(), exc.begin(), 100)


def k_misc(a, b, out):
    m1, m2 = T.mismatch(T.device, a.begin(), a.end(), b.begin())
    lo, hi = T.equal_range(T.device, a.begin(), a.end(), 5)
    c = T.make_constant_iterator(3)
    n = T.make_counting_iterator(numpy.int64(10))
    out[0] = m1 - a.begin()
    out[1] = m2 - b.begin()
    out[2] = lo - a.begin()
    out[3] = hi - a.begin()
    out[4] = T.reduce(T.device, c, c + 7)
    out[5] = T.reduce(T.device, n, n + 4)
    ke, ve = T.unique_by_key(T.device, a.begin(), a.end(), b.begin())
    out[6] = ke - a.begin()


def test_thrust_sets_and_keys_compile():
    build(k_sets, Array(i32, 1), Array(i32, 1), Array(i32, 2), Array(i64, 1))
    build(k_by_key, Array(i32, 1), Array(f64, 1), Array(i32, 1), Array(f64, 1), Array(f64, 1),
          Array(f64, 1), Array(i64, 1))
    build(k_misc, Array(i64, 1), Array(i64, 1), Array(i64, 1))


def test_set_operations_against_numpy(cp):
    rng = numpy.random.default_rng(5)
    an = numpy.unique(rng.integers(0, 40, 25)).astype(i32)
    bn = numpy.unique(rng.integers(0, 40, 25)).astype(i32)
    out = cp.zeros((4, 64), i32)
    lens = cp.zeros(4, i64)
    jit.rawkernel()(k_sets)((1,), (1,), (cp.asarray(an), cp.asarray(bn), out, lens))
    want = [numpy.setdiff1d(an, bn), numpy.intersect1d(an, bn), numpy.setxor1d(an, bn),
            numpy.union1d(an, bn)]
    got, n = out.get(), lens.get()
    for k, w in enumerate(want):
        assert n[k] == len(w)
        numpy.testing.assert_array_equal(got[k, :n[k]], w)


def test_by_key_against_numpy(cp):
    keys = numpy.array([1, 1, 2, 2, 2, 5, 1, 1, 7], i32)
    vals = numpy.arange(9, dtype=f64) + 0.5
    ko, vo = cp.zeros(9, i32), cp.zeros(9, f64)
    inc, exc = cp.zeros(9, f64), cp.zeros(9, f64)
    lens = cp.zeros(2, i64)
    jit.rawkernel()(k_by_key)((1,), (1,), (cp.asarray(keys), cp.asarray(vals), ko, vo,
                                           inc, exc, lens))
    runs = numpy.flatnonzero(numpy.diff(keys, prepend=keys[0] - 1))  # starts of equal runs
    sums = numpy.add.reduceat(vals, runs)
    assert lens.get().tolist() == [len(runs), len(runs)]
    numpy.testing.assert_array_equal(ko.get()[:len(runs)], keys[runs])
    numpy.testing.assert_allclose(vo.get()[:len(runs)], sums)
    run_id = numpy.cumsum(numpy.diff(keys, prepend=keys[0] - 1) != 0) - 1
    want_inc = numpy.array([vals[runs[r]:j + 1].sum() for j, r in enumerate(run_id)])
    numpy.testing.assert_allclose(inc.get(), want_inc)
    numpy.testing.assert_allclose(exc.get(), 100 + want_inc - vals)


def test_mismatch_equal_range_and_value_iterators(cp):
    an = numpy.array([1, 3, 5, 5, 5, 8, 9], i64)
    bn = numpy.array([1, 3, 5, 6, 5, 8, 9], i64)
    out = cp.zeros(7, i64)
    a = cp.asarray(an)
    jit.rawkernel()(k_misc)((1,), (1,), (a, cp.asarray(bn), out))
    lo, hi = numpy.searchsorted(an, 5, "left"), numpy.searchsorted(an, 5, "right")
    assert out.get().tolist() == [3, 3, lo, hi, 21, 10 + 11 + 12 + 13, len(numpy.unique(an))]
    numpy.testing.assert_array_equal(a.get()[:5], numpy.unique(an))
