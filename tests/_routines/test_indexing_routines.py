"""The indexing routines (`cuarray._routines.indexing`) against NumPy.

(Named test_indexing_routines.py: tests/_core/test_indexing.py has the plain name, and test
modules outside packages need unique basenames.) The diagonal planning is checked on the
CPU; the behaviour tests run on the emulated host device ("emu", the `xp` fixture) and on
the GPU ("gpu"), with fresh random inputs.
"""
import warnings

import numpy
import pytest

from cuarray._routines import indexing as R
from emulation import dtypes, pytest_generate_tests, rand, same  # noqa: F401  (the hook too)



def same_all(got, want):
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        same(g, w)


def raises_like(numpy_call, cuarray_call, exc):
    """Both calls raise `exc` with the same message."""
    with pytest.raises(exc) as want:
        numpy_call()
    with pytest.raises(exc) as got:
        cuarray_call()
    assert str(got.value) == str(want.value)


# ---- diagonal planning (CPU) ----------------------------------------------------------------------

@pytest.mark.parametrize("shape,offset,a1,a2", [
    ((4, 5), 0, 0, 1), ((4, 5), 2, 0, 1), ((4, 5), -3, 0, 1), ((4, 5), 9, 0, 1), ((4, 5), -9, 1, 0),
    ((2, 3, 4), 1, 2, 0), ((2, 3, 4), -1, -1, -2), ((3, 3, 3, 3), 0, 1, 3),
])
def test_diagonal_view_matches_numpy(shape, offset, a1, a2):
    x = numpy.arange(numpy.prod(shape)).reshape(shape)[..., ::-1]
    want = numpy.diagonal(x, offset, a1, a2)
    s, st, off = R.diagonal_view(x.shape, x.strides, offset, a1, a2)
    assert s == want.shape
    if want.size:
        assert st == want.strides
        assert want.__array_interface__["data"][0] - x.__array_interface__["data"][0] == off


@pytest.mark.parametrize("args,exc", [(((3,),), ValueError), (((3, 3), 0, 1, 1), ValueError),
                                      (((3, 3), 0, 0, 2), numpy.exceptions.AxisError)])
def test_diagonal_errors(args, exc):
    shape = args[0]
    raises_like(lambda: numpy.diagonal(numpy.zeros(shape), *args[1:]),
                lambda: R.diagonal_view(shape, (8,) * len(shape), *args[1:]), exc)


# ---- take / put ----------------------------------------------------------------------------------

@dtypes(emu="hD")
def test_take(xp, dtype, rng):
    x = rand((4, 5, 6), dtype, rng)
    d = xp.asarray(x)
    i = rng.integers(-6, 6, (2, 3))
    same(R.take(d, xp.asarray(i)), numpy.take(x, i % x.size))
    same(R.take(d, i, axis=2), numpy.take(x, i, axis=2))
    same(R.take(d, [7, -8, 2], axis=1, mode="clip"), numpy.take(x, [7, -8, 2], axis=1, mode="clip"))
    same(R.take(d, [7, -8, 2], axis=-1, mode="wrap"), numpy.take(x, [7, -8, 2], axis=-1, mode="wrap"))
    same(R.take(d, 3, axis=0), numpy.take(x, 3, axis=0))
    same(R.take(d, numpy.int8(-1), axis=1, mode="clip"), numpy.take(x, -1, axis=1, mode="clip"))


def test_take_out_and_errors(xp, rng, monkeypatch):
    x = rng.standard_normal((3, 4))
    d = xp.asarray(x)
    out = xp.asarray(numpy.zeros((3, 2)))
    r = R.take(d, [3, 0], axis=1, out=out)
    assert r is out
    same(out, numpy.take(x, [3, 0], axis=1))
    outT = xp.asarray(numpy.zeros((2, 3))).T
    R.take(d, [1, 2], axis=1, out=outT)
    same(outT, numpy.take(x, [1, 2], axis=1))
    raises_like(lambda: numpy.take(x, [1], mode="foo"), lambda: R.take(d, [1], mode="foo"), ValueError)
    o32 = xp.asarray(numpy.zeros(2, numpy.float32))
    R.take(d, [1, 5], out=o32)
    same(o32, numpy.take(x, [1, 5]).astype(numpy.float32))
    raises_like(lambda: numpy.take(x, 12), lambda: R.take(d, 12), IndexError)
    raises_like(lambda: numpy.take(numpy.zeros((0, 2)), [0]),
                lambda: R.take(xp.asarray(numpy.zeros((0, 2))), [0]), IndexError)
    raises_like(lambda: numpy.take(x, numpy.array([1.5])), lambda: R.take(d, numpy.array([1.5])), TypeError)
    same(R.take(d, [1.5, 2.9]), numpy.take(x, [1.5, 2.9]))        # sequences are truncated, as in NumPy
    same(R.take(d, [12, -13]), x.reshape(-1)[[0, 11]])          # wraps, as CuPy's take
    monkeypatch.setenv("CUARRAY_CHECK_BOUNDS", "1")
    raises_like(lambda: numpy.take(x, [12]), lambda: R.take(d, [12]), IndexError)
    same(R.take(d, [12], mode="wrap"), numpy.take(x, [12], mode="wrap"))


NUMPY_2_5 = numpy.lib.NumpyVersion(numpy.__version__) >= "2.5.0.dev0"


@pytest.mark.parametrize("name, idx", [("take", [1, 5, 0]), ("compress", [0, 1, 1, 0, 0, 1])])
def test_take_out_casts_same_kind(xp, rng, name, idx):
    # NumPy 2.5's rule (numpy#30615): the result is cast into out; casts 'same_kind' refuses
    # still happen, with a DeprecationWarning. NumPy 2.4 checked the reverse cast (out to
    # the result) under 'safe', so it refused the complex out and allowed the int one.
    x = rng.standard_normal((3, 4)) * 5
    d = xp.asarray(x)
    want = x.take(idx) if name == "take" else x.compress(idx)
    for dt in (numpy.complex128, numpy.complex64, numpy.float32, numpy.int32, numpy.bool_):
        out = xp.asarray(numpy.zeros(3, dt))
        ref = numpy.zeros(3, dt)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert getattr(d, name)(idx, out=out) is out
            if NUMPY_2_5:
                getattr(x, name)(idx, out=ref)
        warned = [str(m.message).startswith("Implicit casting of output to a different kind")
                  for m in w if m.category is DeprecationWarning]
        assert warned == ([True] * (1 + NUMPY_2_5) if numpy.dtype(dt).kind in "bi" else [])
        same(out, want.astype(dt))
        if NUMPY_2_5:
            same(out, ref)


@dtypes(emu="bfF")
def test_put(xp, dtype, rng):
    x = rand((3, 5), dtype, rng)
    v = rand(4, dtype, rng)
    for mode, ind in (("raise", [0, 14, -1]), ("wrap", [16, -17, 3]), ("clip", [-3, 20, 7])):
        want, d = x.copy(), xp.asarray(x)
        numpy.put(want, ind, v[:2], mode=mode)                  # values repeat: v0, v1, v0
        R.put(d, ind, xp.asarray(v[:2]), mode=mode)
        same(d, want)
    want, d = x.copy(), xp.asarray(x)
    numpy.put(want, [1, 6], v[0])
    R.put(d, xp.asarray([1, 6]), v[0])
    same(d, want)
    want, dT = x.copy().T, xp.asarray(x).T                     # non-contiguous target, C order
    numpy.put(want, [0, 4, 9], v[:3])
    R.put(dT, [0, 4, 9], xp.asarray(v[:3]))
    same(dT, want)
    before = d.get()
    R.put(d, [0], xp.asarray(v[:0]))                             # empty values: nothing happens
    same(d, before)


def test_take_and_put_along_axis(xp, rng):
    x = rng.standard_normal((4, 5, 3))
    d = xp.asarray(x)
    for axis in (0, 1, -1):
        i = numpy.argsort(x, axis=axis)[(slice(None),) * (axis % 3) + (slice(0, 2),)]
        same(R.take_along_axis(d, xp.asarray(i), axis), numpy.take_along_axis(x, i, axis))
        want = x.copy()
        numpy.put_along_axis(want, i, -1.0, axis)
        dd = xp.asarray(x)
        R.put_along_axis(dd, xp.asarray(i), -1.0, axis)
        same(dd, want)
    flat = rng.integers(0, 60, 7)
    same(R.take_along_axis(d, flat, None), numpy.take_along_axis(x, flat, None))
    want, dT = x.copy().T, xp.asarray(x).T      # axis=None writes a.flat (NumPy 2.4 cannot)
    flat = want.reshape(-1)
    flat[[1, 5]] = 9.0
    R.put_along_axis(dT, [1, 5], 9.0, None)
    same(dT, flat.reshape(want.shape))
    raises_like(lambda: numpy.take_along_axis(x, numpy.zeros((1, 1, 1)), 1),
                lambda: R.take_along_axis(d, numpy.zeros((1, 1, 1)), 1), IndexError)
    raises_like(lambda: numpy.take_along_axis(x, numpy.zeros((1, 1), int), 1),
                lambda: R.take_along_axis(d, numpy.zeros((1, 1), int), 1), ValueError)
    raises_like(lambda: numpy.take_along_axis(x, numpy.zeros((1, 1), int), None),
                lambda: R.take_along_axis(d, numpy.zeros((1, 1), int), None), ValueError)


# ---- choose / compress / select ----------------------------------------------------------------

@dtypes(emu="qd")
def test_choose(xp, dtype, rng):
    ch = rand((3, 4, 5), dtype, rng)
    a = rng.integers(0, 3, (4, 5))
    same(R.choose(xp.asarray(a), xp.asarray(ch)), numpy.choose(a, ch))
    same(R.choose(a[0], [xp.asarray(ch[0, 0]), xp.asarray(ch[1]), xp.asarray(ch[2, :, :1])]),
         numpy.choose(a[0], [ch[0, 0], ch[1], ch[2, :, :1]]))
    same(R.choose(a + 2, xp.asarray(ch), mode="clip"), numpy.choose(a + 2, ch, mode="clip"))
    same(R.choose(a - 7, xp.asarray(ch), mode="wrap"), numpy.choose(a - 7, ch, mode="wrap"))
    out = xp.asarray(numpy.zeros((4, 5), dtype))
    assert R.choose(a, xp.asarray(ch), out=out) is out
    same(out, numpy.choose(a, ch))


def test_choose_errors(xp):
    ch = numpy.arange(6).reshape(2, 3)
    for a in ([0, 2, 1], [0, -1, 1]):
        raises_like(lambda: numpy.choose(a, ch), lambda: R.choose(a, xp.asarray(ch)), ValueError)
    raises_like(lambda: numpy.choose([0], []), lambda: R.choose([0], []), ValueError)
    raises_like(lambda: numpy.choose([0.5], ch), lambda: R.choose([0.5], xp.asarray(ch)), TypeError)
    raises_like(lambda: numpy.choose([0], ch, mode="x"), lambda: R.choose([0], xp.asarray(ch), mode="x"),
                ValueError)


def test_compress_and_extract(xp, rng):
    x = rng.standard_normal((4, 6))
    d = xp.asarray(x)
    c = rng.random(6) > 0.4
    same(R.compress(c, d, axis=1), numpy.compress(c, x, axis=1))
    same(R.compress(c[:4], d, axis=0), numpy.compress(c[:4], x, axis=0))
    same(R.compress(xp.asarray(c), d), numpy.compress(c, x))
    same(R.compress([0, 1, 0, 0, 0, 0, 0, 0], d[0]), numpy.compress([0, 1, 0, 0, 0, 0, 0, 0], x[0]))
    out = xp.asarray(numpy.zeros((4, int(c.sum()))))
    assert R.compress(c, d, axis=1, out=out) is out
    raises_like(lambda: numpy.compress([0, 1, 0, 0, 0, 0, 1], x[0]),
                lambda: R.compress([0, 1, 0, 0, 0, 0, 1], d[0]), IndexError)
    raises_like(lambda: numpy.compress([[1]], x), lambda: R.compress([[1]], d), ValueError)
    cond = rng.integers(0, 3, (4, 6))
    same(R.extract(cond, d), numpy.extract(cond, x))
    same(R.extract(xp.asarray(cond > 1), d.T), numpy.extract(cond > 1, x.T))
    same(R.extract([1, 0, 1], d), numpy.extract([1, 0, 1], x))


@dtypes(emu="iBf")
def test_select(xp, dtype, rng):
    x = rand((3, 4), dtype, rng)
    conds = [rng.random((3, 4)) > 0.6, rng.random((1, 4)) > 0.3]
    choices = [x, rand((3, 1), dtype, rng)]
    same(R.select([xp.asarray(c) for c in conds], [xp.asarray(c) for c in choices], 7),
         numpy.select(conds, choices, 7))
    same(R.select([xp.asarray(conds[0])], [xp.asarray(x)], 1.5), numpy.select(conds[:1], [x], 1.5))
    same(R.select([xp.asarray(conds[0])], [xp.asarray(x)], -2), numpy.select(conds[:1], [x], -2))
    for v in (2, 300, 2.5, True):
        # NumPy copies a Python int choice as an int64 array under 'same_kind': unsigned
        # results refuse it (TypeError), narrower ones wrap.
        call = [lambda: numpy.select(conds[:1], [v], x),
                lambda: R.select([xp.asarray(conds[0])], [v], xp.asarray(x))]
        if dtype.kind == "u" and type(v) is int:
            raises_like(*call, TypeError)
        else:
            same(call[1](), call[0]())


def test_select_errors(xp):
    c, v = numpy.array([True]), numpy.array([1])
    raises_like(lambda: numpy.select([c], []), lambda: R.select([xp.asarray(c)], []), ValueError)
    raises_like(lambda: numpy.select([], []), lambda: R.select([], []), ValueError)
    raises_like(lambda: numpy.select([v], [v]), lambda: R.select([xp.asarray(v)], [xp.asarray(v)]),
                TypeError)


# ---- nonzero and friends -------------------------------------------------------------------------

@dtypes(emu="?fD")
def test_nonzero_family(xp, dtype, rng):
    x = rand((5, 7, 3), dtype, rng) * (rng.random((5, 7, 3)) > 0.5).astype(dtype)
    d = xp.asarray(x)
    same_all(R.nonzero(d), numpy.nonzero(x))
    same(R.argwhere(d), numpy.argwhere(x))
    same(R.flatnonzero(d), numpy.flatnonzero(x))
    same_all(R.nonzero(d.transpose(2, 0, 1)[::-1]), numpy.nonzero(x.transpose(2, 0, 1)[::-1]))
    same_all(R.nonzero(d[0, 0]), numpy.nonzero(x[0, 0]))
    same_all(R.nonzero(d[:0]), numpy.nonzero(x[:0]))
    same(R.argwhere(d[:0]), numpy.argwhere(x[:0]))


def test_nonzero_zero_d_and_many_tiles(xp, rng):
    raises_like(lambda: numpy.nonzero(numpy.array(1)), lambda: R.nonzero(xp.asarray(numpy.array(1))),
                ValueError)
    for v in (0, 3):
        same(R.argwhere(xp.asarray(numpy.array(v))), numpy.argwhere(numpy.array(v)))
    m = rng.random((3, 4100)) > 0.7
    same_all(R.nonzero(xp.asarray(m)), numpy.nonzero(m))
    same(xp.where(xp.asarray(m))[1], numpy.nonzero(m)[1])


def test_place_and_putmask(xp, rng):
    x = rng.standard_normal((4, 5))
    for view in (lambda a: a, lambda a: a.T[::2]):
        want, d = view(x.copy()), view(xp.asarray(x))
        m = want > 0
        numpy.place(want, m, [1, 2, 3])
        R.place(d, m, [1, 2, 3])
        same(d, want)
        want, d = view(x.copy()), view(xp.asarray(x))
        m = want < 0.2
        numpy.putmask(want, m, numpy.array([10.0, 20.0, 30.0]))
        R.putmask(d, xp.asarray(m), xp.asarray(numpy.array([10.0, 20.0, 30.0])))
        same(d, want)
        numpy.putmask(want, ~m, -1.0)
        R.putmask(d, xp.asarray(~m), -1.0)
        same(d, want)
    want, d = x.copy(), xp.asarray(x)
    numpy.putmask(want, want > 0, want[::-1].copy())
    R.putmask(d, d > 0, d[::-1])
    same(d, want)
    e = numpy.zeros(3)
    raises_like(lambda: numpy.place(e, [True, False, True], []),
                lambda: R.place(xp.asarray(e), [True, False, True], []), ValueError)
    raises_like(lambda: numpy.place(e, [True], [1]), lambda: R.place(xp.asarray(e), [True], [1]),
                ValueError)
    raises_like(lambda: numpy.putmask(e, [True], [1]), lambda: R.putmask(xp.asarray(e), [True], [1]),
                ValueError)
    raises_like(lambda: numpy.putmask(e.astype(numpy.int64), [True] * 3, numpy.array([1.5])),
                lambda: R.putmask(xp.asarray(e.astype(numpy.int64)), [True] * 3, numpy.array([1.5])),
                TypeError)
    R.place(xp.asarray(e), [False] * 3, [])                     # nothing to place: no error


# ---- diagonals, triangles, index arithmetic -------------------------------------------------------

def test_diagonal(xp, rng):
    x = rng.standard_normal((3, 4, 5))
    d = xp.asarray(x)
    for args in ((0, 0, 1), (1, 2, 0), (-2, 1, 2), (7, 0, 1)):
        same(R.diagonal(d, *args), numpy.diagonal(x, *args))
    v = R.diagonal(d, 0, 1, 2)
    v[...] = 0                                                  # a writable view, as in CuPy
    want = x.copy()
    for i in range(4):
        want[:, i, i] = 0
    same(d, want)


def test_index_helpers(xp):
    same_all(R.diag_indices(4, 3), numpy.diag_indices(4, 3))
    same_all(R.diag_indices_from(xp.asarray(numpy.zeros((3, 3)))), numpy.diag_indices_from(numpy.zeros((3, 3))))
    for n, k, m in ((4, 0, None), (4, 1, 6), (5, -2, 3), (3, 9, None), (0, 0, 2)):
        same_all(R.tril_indices(n, k, m), numpy.tril_indices(n, k, m))
        same_all(R.triu_indices(n, k, m), numpy.triu_indices(n, k, m))
    a = numpy.zeros((3, 5))
    same_all(R.tril_indices_from(xp.asarray(a), 1), numpy.tril_indices_from(a, 1))
    same_all(R.triu_indices_from(xp.asarray(a), -1), numpy.triu_indices_from(a, -1))
    for f, g in ((numpy.diag_indices_from, R.diag_indices_from), (numpy.tril_indices_from, R.tril_indices_from)):
        raises_like(lambda: f(numpy.zeros(3)), lambda: g(xp.asarray(numpy.zeros(3))), ValueError)
    raises_like(lambda: numpy.diag_indices_from(numpy.zeros((3, 4))),
                lambda: R.diag_indices_from(xp.asarray(numpy.zeros((3, 4)))), ValueError)
    same_all(R.ix_([0, 2], [True, False, True, True], numpy.array([], int)),
             numpy.ix_([0, 2], [True, False, True, True], numpy.array([], int)))
    raises_like(lambda: numpy.ix_([[0]]), lambda: R.ix_([[0]]), ValueError)
    same(R.indices((2, 3, 4)), numpy.indices((2, 3, 4)))
    same(R.indices((2, 3), dtype=numpy.float32), numpy.indices((2, 3), dtype=numpy.float32))
    same_all(R.indices((2, 0, 3), sparse=True), numpy.indices((2, 0, 3), sparse=True))


def test_mask_indices(xp):
    def triu(m, k):     # the device triu: what cuarray.triu computes, made from indexing pieces
        r, c = R.indices(m.shape, sparse=True)
        return m * (c - r >= k)
    same_all(R.mask_indices(4, triu, 1), numpy.mask_indices(4, numpy.triu, 1))


def test_ravel_and_unravel(xp, rng):
    dims = (4, 5, 6)
    idx = [rng.integers(0, n, 7) for n in dims]
    for order in ("C", "F"):
        same(R.ravel_multi_index([xp.asarray(i) for i in idx], dims, order=order),
             numpy.ravel_multi_index(idx, dims, order=order))
        flat = rng.integers(0, 120, (2, 3))
        same_all(R.unravel_index(xp.asarray(flat), dims, order=order),
                 numpy.unravel_index(flat, dims, order=order))
    bad = ([0, 7, 3], [4, 0, -1])
    for mode in ("clip", "wrap", ("wrap", "clip")):
        same(R.ravel_multi_index(bad, (4, 5), mode=mode), numpy.ravel_multi_index(bad, (4, 5), mode=mode))
    same(R.ravel_multi_index(([0], [[1], [2]]), (3, 3)), numpy.ravel_multi_index(([0], [[1], [2]]), (3, 3)))
    same(R.ravel_multi_index((1, 2), (3, 3)), numpy.array(numpy.ravel_multi_index((1, 2), (3, 3))))
    same_all(R.unravel_index(17, (4, 5)), tuple(numpy.array(v) for v in numpy.unravel_index(17, (4, 5))))
    raises_like(lambda: numpy.ravel_multi_index(bad, (4, 5)), lambda: R.ravel_multi_index(bad, (4, 5)),
                ValueError)
    raises_like(lambda: numpy.ravel_multi_index(([0],), (3, 3)), lambda: R.ravel_multi_index(([0],), (3, 3)),
                ValueError)
    raises_like(lambda: numpy.ravel_multi_index(([0.5], [1]), (3, 3)),
                lambda: R.ravel_multi_index(([0.5], [1]), (3, 3)), TypeError)
    raises_like(lambda: numpy.ravel_multi_index(([0], [1]), (3, 3), order="K"),
                lambda: R.ravel_multi_index(([0], [1]), (3, 3), order="K"), ValueError)
    raises_like(lambda: numpy.unravel_index([20], (4, 5)), lambda: R.unravel_index([20], (4, 5)), ValueError)
    raises_like(lambda: numpy.unravel_index([-1], (4, 5)), lambda: R.unravel_index([-1], (4, 5)), ValueError)
    raises_like(lambda: numpy.unravel_index([1.0], (4, 5)), lambda: R.unravel_index([1.0], (4, 5)), TypeError)


@pytest.mark.parametrize("shape,wrap", [((5, 5), False), ((7, 3), True), ((7, 3), False), ((3, 3, 3), False),
                                        ((2, 6), False)])
def test_fill_diagonal(xp, shape, wrap):
    for val in (4.0, numpy.array([1.0, 2.0])):
        want = numpy.zeros(shape)
        numpy.fill_diagonal(want, val, wrap)
        for d in (xp.asarray(numpy.zeros(shape)), xp.asarray(numpy.zeros(shape[::-1])).T):
            R.fill_diagonal(d, xp.asarray(val) if isinstance(val, numpy.ndarray) else val, wrap)
            same(d, want)
    raises_like(lambda: numpy.fill_diagonal(numpy.zeros(3), 1),
                lambda: R.fill_diagonal(xp.asarray(numpy.zeros(3)), 1), ValueError)
    raises_like(lambda: numpy.fill_diagonal(numpy.zeros((2, 3, 2)), 1),
                lambda: R.fill_diagonal(xp.asarray(numpy.zeros((2, 3, 2))), 1), ValueError)


# ---- large (GPU) ---------------------------------------------------------------------------------

@pytest.mark.gpu
def test_large_compaction_and_take():
    import cuarray
    g = numpy.random.default_rng(1013)
    n = (1 << 23) + 5
    x = g.standard_normal(n).astype(numpy.float32)
    d = cuarray.asarray(x)
    same_all(R.nonzero(d > 0.5), numpy.nonzero(x > 0.5))
    same(R.flatnonzero(d), numpy.flatnonzero(x))
    i = g.integers(0, n, 1 << 20)
    same(R.take(d, cuarray.asarray(i)), x[i])
    m = g.random(n) > 0.5
    same(R.extract(cuarray.asarray(m), d), x[m])
    want = x.copy()
    numpy.place(want, m, x[:1000])
    R.place(d, cuarray.asarray(m), d[:1000].copy())
    same(d, want)
