"""ufunc.at and ufunc.reduceat (`cuarray._core._ufunc_at`) against NumPy.

CPU tests: which update each op and dtype gets (hardware atomic, compare-and-swap loop,
or the in-order thread), the update code compiled by NVRTC, and the argument errors.
Behaviour tests run on the emulated host device ("emu", the `xp` fixture) and on the GPU
("gpu").
"""

import numpy
import pytest

import cuarray
from cuarray._core import _gather_scatter
from cuarray._core import _ufunc_at as ua
from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import _SCALAR_KIND
from cuarray._core.ndarray import ndarray
from cuarray._runtime import compiler as _compiler
from cuarray._runtime import memory
from emulation import dtypes, pytest_generate_tests, rand, same  # noqa: F401  (the hook too)



def _fake(shape, dtype):
    """A cuarray array over a made-up device address (nothing reads it)."""
    mem = memory.UnownedMemory(0x7F00_0000_1000, 1 << 20, object(), 0)
    return ndarray(shape, dtype, memptr=memory.MemoryPointer(mem, 0))


# ---- strategies and code (CPU) -----------------------------------------------------------------

@pytest.mark.parametrize("name,a,loop,kind", [
    ("add", "f", "fff", "atomic"), ("add", "d", "ddd", "atomic"), ("add", "i", "iii", "atomic"),
    ("add", "q", "qqq", "atomic"), ("add", "Q", "QQQ", "atomic"), ("subtract", "I", "III", "atomic"),
    ("add", "F", "FFF", "atomic"), ("subtract", "D", "DDD", "atomic"), ("add", "e", "eee", "cas"),
    ("add", "b", "bbb", "cas"), ("add", "?", "???", "cas"), ("add", "q", "ddd", "cas"),
    ("multiply", "f", "fff", "cas"), ("multiply", "D", "DDD", "serial"), ("maximum", "i", "iii", "atomic"),
    ("minimum", "Q", "QQQ", "atomic"), ("maximum", "f", "fff", "cas"), ("maximum", "h", "hhh", "cas"),
    ("bitwise_and", "q", "qqq", "atomic"), ("bitwise_xor", "B", "BBB", "cas"), ("power", "D", "DDD", "serial"),
])
def test_strategy(name, a, loop, kind):
    got, stmt = ua.at_strategy(name, numpy.dtype(a), tuple(numpy.dtype(c) for c in loop))
    assert got == kind
    assert ("atomic" in stmt) == (kind == "atomic")


def _at_source(name, a, b, value_kind="scalar", nd=1):
    uf = getattr(numpy, name)
    A = numpy.dtype(a)
    loop = tuple(uf.resolve_dtypes((A, numpy.dtype(b), None)) if uf.nin == 2 else
                 uf.resolve_dtypes((A, None)))
    kind, stmt, pre = ua.at_code(name, A, loop, uf.nin)
    value = None if uf.nin == 1 else (
        ("scalar", _dt.ctype(loop[1]), _SCALAR_KIND[loop[1].char]) if value_kind == "scalar" else
        ("array", _dt.ctype(loop[1])))
    serial = (1, 1) if kind == "serial" else (_gather_scatter._BLOCK, _gather_scatter._UNROLL)
    return _gather_scatter.gs_source("k", "scatter", nd, ("long long",) * nd, False, "wrap", _dt.ctype(A),
                                     value, stmt, pre, *serial, ua.at_update(name, A, loop, kind))[0]


@pytest.mark.parametrize("name,a,loop,update", [
    ("add", "f", "fff", "vector"), ("subtract", "d", "ddd", "vector"), ("add", "q", "qqq", "vector"),
    ("add", "I", "III", "vector"), ("add", "F", "FFF", "prefetch"), ("add", "e", "eee", "prefetch"),
    ("add", "q", "ddd", "prefetch"), ("maximum", "i", "iii", "prefetch"), ("multiply", "f", "fff", "prefetch"),
    ("multiply", "D", "DDD", "plain"),
])
def test_update_mode(name, a, loop, update):
    A, lp = numpy.dtype(a), tuple(numpy.dtype(c) for c in loop)
    kind, _ = ua.at_strategy(name, A, lp)
    assert ua.at_update(name, A, lp, kind) == update


def test_update_mode_selectable(monkeypatch):
    f = numpy.dtype("f")
    monkeypatch.setattr(ua, "AT_UPDATE", "aggregate")
    assert ua.at_update("add", f, (f, f, f), "atomic") == "aggregate"
    monkeypatch.setattr(ua, "AT_UPDATE", "prefetch")
    assert ua.at_update("add", f, (f, f, f), "atomic") == "prefetch"
    monkeypatch.setattr(ua, "AT_UPDATE", "plain")
    assert ua.at_update("add", f, (f, f, f), "atomic") == "plain"
    src = _at_source("add", "f", "f", "array")
    assert "__match_any_sync" not in src and "_pp[" not in src


@pytest.mark.parametrize("name,a,value_kind,nd", [
    ("add", "f", "array", 1), ("add", "d", "scalar", 1), ("subtract", "Q", "array", 2), ("add", "i", "array", 2),
    ("maximum", "f", "array", 1), ("negative", "e", None, 1)])
def test_aggregate_and_prefetch_sources_compile(name, a, value_kind, nd, monkeypatch):
    monkeypatch.setattr(ua, "AT_UPDATE", "aggregate")
    src = _at_source(name, a, a if value_kind else None, value_kind or "scalar", nd)
    assert ("__match_any_sync" in src) == (name in ("add", "subtract"))
    assert "_pp[" in src
    _compiler.compile_cubin(src, (), (), "sm_90", "cuarray_test")


@pytest.mark.parametrize("a,ict,value_kind,idx64", [
    ("f", "long long", "array", False), ("d", "int", "scalar", False), ("Q", "unsigned char", "array", True),
    ("i", "long long", "scalar", True)])
def test_vector_sources_compile(a, ict, value_kind, idx64):
    A = numpy.dtype(a)
    kind, stmt, pre = ua.at_code("add", A, (A, A, A), 2)
    value = (("scalar", _dt.ctype(A), _SCALAR_KIND[a]) if value_kind == "scalar" else
             ("array", _dt.ctype(A)))
    E = _gather_scatter._VECTOR
    src = _gather_scatter.gs_source("k", "scatter", 1, (ict,), idx64, "wrap", _dt.ctype(A), value, stmt, pre,
                                    _gather_scatter._BLOCK, E, "vector")[0]
    assert f"_cu_vec<{ict}, {E}>" in src and "__match_any_sync" not in src
    assert ("_vw" in src) == (value_kind == "array")
    _compiler.compile_cubin(src, (), (), "sm_90", "cuarray_test")
    # layouts the vector loop does not cover take the warp-aggregated loop
    src2 = _gather_scatter.gs_source("k", "scatter", 2, (ict,) * 2, idx64, "wrap", _dt.ctype(A), value, stmt,
                                     pre, _gather_scatter._BLOCK, E, "vector")[0]
    assert "_cu_vec<" not in src2.split("extern")[1] and "__match_any_sync" in src2
    # a few hundred bins: a block's copy in shared memory, added back with add's atomic
    flush = ua.at_strategy("add", A, (A, A, A))[1]
    U = _gather_scatter._RAW[A.itemsize]
    ident = 1 << (8 * A.itemsize - 1) if A.kind == "f" else 0
    src3 = _gather_scatter.gs_source("k", "scatter", 1, (ict,), idx64, "wrap", _dt.ctype(A), value, stmt, pre,
                                     _gather_scatter._BLOCK, E, "vector", (2048, flush, U, ident))[0]
    assert "__shared__ __align__(16) char _sm[2048]" in src3 and src3.count("__syncthreads") == 2
    _compiler.compile_cubin(src3, (), (), "sm_90", "cuarray_test")


@dtypes(gpu="fd", emu="fd")
def test_at_keeps_signed_zeros(xp, dtype):
    # the shared-memory copy starts at -0.0, the identity of a float sum: elements no
    # index hits keep -0.0, and -0.0 + 0.0 gives +0.0, as in NumPy
    a = numpy.array([-0.0, -0.0, 0.0, -0.0, 1.0, -0.0], dtype)
    idx = numpy.array([1, 2, 4, 5, 5, 1, 2, 4], numpy.int64)
    v = numpy.array([0.0, -0.0, -1.0, -0.0, -0.0, 0.0, -0.0, 1.0], dtype)
    want = a.copy()
    numpy.add.at(want, idx, v)
    d = xp.asarray(a)
    xp.add.at(d, xp.asarray(idx), xp.asarray(v))
    g = d.get()
    numpy.testing.assert_array_equal(g, want)
    numpy.testing.assert_array_equal(numpy.signbit(g), numpy.signbit(want))


def test_shared_bytes():
    class Plan:
        arrays = [(0, 256, 4, 0)]
    assert _gather_scatter._shared_bytes(Plan, (0,)) == 1024
    Plan.arrays = [(0, 300, 8, 0)]
    assert _gather_scatter._shared_bytes(Plan, (0,)) == 4096
    Plan.arrays = [(0, 4096, 4, 0)]
    assert _gather_scatter._shared_bytes(Plan, (0,)) == 16384
    Plan.arrays = [(0, 4097, 4, 0)]
    assert _gather_scatter._shared_bytes(Plan, (0,)) is None     # too wide
    Plan.arrays = [(0, 256, -4, 0)]
    assert _gather_scatter._shared_bytes(Plan, (0,)) is None     # a reversed view
    Plan.arrays = [(0, 256, 4, 0)]
    assert _gather_scatter._shared_bytes(Plan, (8,)) is None     # the result axis moves too


_CASES = [("add", c, c) for c in "?bBhHiIlLqQefdFD"] + [
    ("subtract", c, c) for c in "bqeFD"] + [("multiply", c, c) for c in "?hfFD"] + [
    ("maximum", c, c) for c in "?bIqefD"] + [("minimum", c, c) for c in "BLd"] + [
    ("bitwise_or", c, c) for c in "?hQ"] + [("add", "i", "d"), ("divide", "f", "d"), ("power", "D", "D"),
                                          ("negative", "e", None), ("invert", "b", None), ("sqrt", "D", None)]


@pytest.mark.parametrize("name,a,b", _CASES, ids=[f"{n}-{a}{b or ''}" for n, a, b in _CASES])
def test_at_code_compiles(name, a, b):
    _compiler.compile_cubin(_at_source(name, a, b), (), (), "sm_90", "cuarray_test")


def test_at_argument_errors():
    a = _fake((4,), numpy.float32)
    with pytest.raises(ValueError, match="second operand provided when ufunc is unary"):
        cuarray.negative.at(a, [0], 1.0)
    with pytest.raises(ValueError, match="second operand needed for ufunc"):
        cuarray.add.at(a, [0])
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cuarray.add.at(a, [0], numpy.ones(1))
    with pytest.raises(TypeError, match="does not accept numpy.ndarray; move it to the GPU"):
        cuarray.add.at(numpy.zeros(3), [0], 1.0)
    with pytest.raises(ValueError, match="Only unary and binary ufuncs supported at this time"):
        cuarray.divmod.at(a, [0], 1.0)


def test_reduceat_argument_errors():
    a = _fake((4,), numpy.float32)
    for bad, exc in (([0, 5], IndexError), ([-1], IndexError), (numpy.array([0.5]), TypeError),
                     (numpy.array([[0]]), ValueError), (1, ValueError)):
        with pytest.raises(exc) as want:
            numpy.add.reduceat(numpy.ones(4, numpy.float32), bad)
        with pytest.raises(exc) as got:
            cuarray.add.reduceat(a, bad)
        assert str(got.value) == str(want.value)
    with pytest.raises(TypeError, match="cannot reduceat on a scalar"):
        cuarray.add.reduceat(_fake((), numpy.float32), [0])
    with pytest.raises(ValueError, match="reduceat only supported for binary functions"):
        cuarray.negative.reduceat(a, [0])
    with pytest.raises(numpy.exceptions.AxisError):
        cuarray.add.reduceat(a, [0], axis=1)


# ---- ufunc.at (emu and GPU) ---------------------------------------------------------------------

def _close(got, want, dtype):
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape
    rtol, atol = {"e": (2e-2, 0.5), "f": (1e-5, 1e-4), "F": (1e-5, 1e-4)}.get(
        numpy.dtype(dtype).char, (1e-12, 1e-12))
    wide = numpy.complex128 if g.dtype.kind == "c" else numpy.float64
    numpy.testing.assert_allclose(g.astype(wide), want.astype(wide), rtol=rtol, atol=atol)


def _values(name, dtype, shape, rng):
    if name == "multiply" and numpy.dtype(dtype).kind in "fc":
        return (1 + rng.uniform(-0.05, 0.05, shape)).astype(dtype)   # products stay finite
    if name == "multiply" and numpy.dtype(dtype).kind in "iu":
        return rng.integers(1, 3, shape).astype(dtype)
    return rand(shape, dtype, rng)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum"])
@dtypes(gpu="?bBhHiIlLqQefdFD", emu="bhfD")
def test_at_accumulates_repeated_indices(xp, name, dtype, rng):
    if name == "subtract" and dtype.kind == "b":
        pytest.skip("NumPy has no boolean subtract")
    a = _values(name, dtype, 9, rng)
    idx = rng.integers(-9, 9, 200)
    b = _values(name, dtype, 200, rng)
    want = a.copy()
    getattr(numpy, name).at(want, idx, b)
    d = xp.asarray(a)
    getattr(xp, name).at(d, xp.asarray(idx), xp.asarray(b))
    _close(d, want, dtype)


@pytest.mark.parametrize("update", ["vector", "aggregate", "prefetch", "plain"])
@dtypes(gpu="fdiIqQ", emu="fq")
def test_at_hot_indices(xp, dtype, rng, update, monkeypatch):
    # runs of equal indices (sorted, and a few bins) share warps: the aggregated path
    monkeypatch.setattr(ua, "AT_UPDATE", update)
    n = 3000
    for idx in (numpy.sort(rng.integers(0, 40, n)), rng.integers(-3, 3, n), numpy.zeros(n, numpy.int64),
                rng.integers(0, 5000, n)):
        a = rand(5000, dtype, rng)
        b = rand(n, dtype, rng)
        for name, val in (("add", b), ("subtract", b), ("add", b[:1].copy().reshape(())), ("add", 1)):
            if name == "subtract" and dtype.kind == "u":
                continue
            want = a.copy()
            getattr(numpy, name).at(want, idx, val)
            d = xp.asarray(a)
            getattr(xp, name).at(d, xp.asarray(idx), xp.asarray(val) if isinstance(val, numpy.ndarray) else val)
            if dtype.char == "f":
                # up to 3000 float32 terms in one element, summed in another order than
                # NumPy's: compare with the float64 sum, within n roundings of the largest
                # partial sum (an element that takes every update grows to ~1.5e4)
                exact = a.astype(numpy.float64)
                getattr(numpy, name).at(exact, idx, numpy.asarray(val, numpy.float64))
                g = d.get()
                assert g.dtype == want.dtype
                bound = n * 2.0 ** -24 * float(numpy.abs(exact).max())
                numpy.testing.assert_allclose(g, exact, rtol=1e-5, atol=max(2e-2, bound))
            else:
                _close(d, want, dtype)


@dtypes(gpu="fdiQ", emu="fq")
def test_at_vector_layouts(xp, dtype, rng):
    # the vector loop (contiguous aligned index and value) and the layouts that fall back:
    # a misaligned or strided index, a broadcast value; sizes off the vector width, runs of
    # one index, negative and wrapping indices, 32-bit indices
    n = 1003
    runs = numpy.repeat(rng.integers(-60, 60, 200), rng.integers(1, 17, 200))[:n]
    for idx in (numpy.sort(rng.integers(0, 60, n)), runs, rng.integers(-60, 60, n).astype(numpy.int32),
                rng.integers(-60, 60, n)):
        b = rand(n + 1, dtype, rng)
        xb = xp.asarray(b)
        for key, vkey in ((slice(None), slice(None, n)), (slice(1, None), slice(2, None)),
                          (slice(None, None, 2), slice(None, n, 2)), (slice(None), 0)):
            # 60 bins take the shared-memory copy; 5000 (20 or 40 KB) the global atomics
            width = 60 if int(rng.integers(0, 2)) else 5000
            name = "add" if int(rng.integers(0, 2)) else "subtract"
            a = rand(width, dtype, rng)
            val = b[vkey]
            want = a.copy()
            getattr(numpy, name).at(want, idx[key], val)
            d = xp.asarray(a)
            getattr(xp, name).at(d, xp.asarray(idx)[key], xb[vkey])
            if dtype.char == "f":
                exact = a.astype(numpy.float64)
                getattr(numpy, name).at(exact, idx[key], numpy.asarray(val, numpy.float64))
                numpy.testing.assert_allclose(d.get(), exact, rtol=1e-5, atol=1e-3)
            else:
                _close(d, want, dtype)
    if xp is not numpy:
        assert any("_vector_sm" in k[0] for k in _gather_scatter._kernels)
        assert any(k[0].endswith("_vector") for k in _gather_scatter._kernels)


@pytest.mark.parametrize("name", ["bitwise_or", "bitwise_and", "bitwise_xor"])
@dtypes(gpu="?bBhHiIlLqQ", emu="B")
def test_at_bitwise(xp, name, dtype, rng):
    a = rand(7, dtype, rng)
    idx = rng.integers(0, 7, 100)
    b = (rng.integers(0, 256, 100) if dtype.kind != "b" else rng.random(100) > 0.5).astype(dtype)
    want = a.copy()
    getattr(numpy, name).at(want, idx, b)
    d = xp.asarray(a)
    getattr(xp, name).at(d, idx, xp.asarray(b))
    same(d, want)


def test_at_integer_sums_are_exact(xp, rng):
    idx = rng.integers(0, 5, 5000)
    want = numpy.zeros(5, numpy.int64)
    numpy.add.at(want, idx, 3)
    d = xp.asarray(numpy.zeros(5, numpy.int64))
    xp.add.at(d, xp.asarray(idx), 3)
    same(d, want)


def test_at_keys_and_broadcasting(xp, rng):
    a = rng.standard_normal((4, 6))
    d = xp.asarray(a)
    cases = [((rng.integers(0, 4, 10), slice(1, 4)), rng.standard_normal((10, 3))),
             ((slice(None), [0, 0, 5]), rng.standard_normal(3)),
             (a > 0.3, 2.5),
             ((rng.integers(-4, 4, (2, 3)), 2), rng.standard_normal((1, 3))),
             ((Ellipsis, [1, 1]), 1.0)]
    for key, b in cases:
        numpy.add.at(a, key, b)
        cuarray_key = tuple(xp.asarray(k) if isinstance(k, numpy.ndarray) else k for k in key) \
            if isinstance(key, tuple) else xp.asarray(key)
        xp.add.at(d, cuarray_key, xp.asarray(b) if isinstance(b, numpy.ndarray) else b)
        _close(d, a, numpy.float64)


def test_at_casts_back_each_update(xp):
    a = numpy.zeros(3, numpy.int64)
    numpy.add.at(a, [0, 0, 0, 2], 1.7)            # int(int(int(0 + 1.7) + 1.7) + 1.7)
    d = xp.asarray(numpy.zeros(3, numpy.int64))
    xp.add.at(d, [0, 0, 0, 2], 1.7)
    same(d, a)
    f = numpy.zeros(2, numpy.float32)
    numpy.add.at(f, [1, 1], numpy.array([0.5, 0.25]))
    d = xp.asarray(numpy.zeros(2, numpy.float32))
    xp.add.at(d, [1, 1], xp.asarray(numpy.array([0.5, 0.25])))
    same(d, f)


def test_at_unary_ops(xp, rng):
    a = rng.standard_normal(6)
    idx = [0, 0, 1, 5, 5, 5]
    want = a.copy()
    numpy.negative.at(want, idx)
    d = xp.asarray(a)
    xp.negative.at(d, idx)
    same(d, want)
    i8 = rng.integers(-100, 100, 5).astype(numpy.int8)
    want = i8.copy()
    numpy.invert.at(want, [1, 1, 1, 4])
    d = xp.asarray(i8)
    xp.invert.at(d, [1, 1, 1, 4])
    same(d, want)


def test_at_complex128_products_run_in_order(xp, rng):
    a = rand(5, numpy.complex128, rng)
    idx = rng.integers(0, 5, 40)
    b = (1 + 0.1 * rand(40, numpy.complex128, rng)).astype(numpy.complex128)
    want = a.copy()
    numpy.multiply.at(want, idx, b)
    d = xp.asarray(a)
    xp.multiply.at(d, xp.asarray(idx), xp.asarray(b))
    _close(d, want, numpy.complex128)


def test_at_errors_on_the_device(xp, monkeypatch):
    d = xp.asarray(numpy.zeros(3))
    with pytest.raises(ValueError, match="array is not broadcastable to correct shape"):
        xp.add.at(d, [0, 1], xp.asarray(numpy.ones(3)))
    monkeypatch.setenv("CUARRAY_CHECK_BOUNDS", "1")
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        xp.add.at(d, [0, 5], 1.0)


def test_scatter_functions(xp, rng):
    from cuarray._routines.indexing import scatter_add, scatter_max, scatter_min
    a = rng.standard_normal((5, 3)).astype(numpy.float32)
    idx = rng.integers(0, 5, 30)
    v = rng.standard_normal((30, 3)).astype(numpy.float32)
    for fn, uf in ((scatter_add, numpy.add), (scatter_max, numpy.maximum), (scatter_min, numpy.minimum)):
        want = a.copy()
        uf.at(want, idx, v)
        d = xp.asarray(a)
        fn(d, xp.asarray(idx), xp.asarray(v))
        _close(d, want, numpy.float32)


# ---- ufunc.reduceat (emu and GPU) ---------------------------------------------------------------

@pytest.mark.parametrize("indices", [[0, 4, 1, 5, 7], [0], [3, 3, 2], [], [7, 0], [2, 2, 2]])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_reduceat_indices(xp, indices, axis, rng):
    x = rng.standard_normal((8, 9, 8)).astype(numpy.float32)
    want = numpy.add.reduceat(x, indices, axis=axis)
    got = xp.add.reduceat(xp.asarray(x), indices, axis=axis)
    _close(got, want, numpy.float32)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or", "bitwise_xor"])
@dtypes(gpu="?bBhHiIlLqQefdFD", emu="?qe")
def test_reduceat_ops(xp, name, dtype, rng):
    uf = getattr(numpy, name)
    x = _values(name, dtype, (3, 11), rng)
    try:
        want = uf.reduceat(x, [0, 4, 2, 9], axis=1)
    except TypeError:
        pytest.skip(f"NumPy has no {name} loop for {dtype}")
    got = getattr(xp, name).reduceat(xp.asarray(x), xp.asarray(numpy.array([0, 4, 2, 9])), axis=1)
    _close(got, want, dtype)


def test_reduceat_dtype_out_and_views(xp, rng):
    x = rng.integers(-100, 100, (6, 5)).astype(numpy.int8)
    d = xp.asarray(x)
    same(xp.add.reduceat(d, [0, 2]), numpy.add.reduceat(x, [0, 2]))              # int8 -> int64
    same(xp.add.reduceat(d, [0, 2], dtype=numpy.int8), numpy.add.reduceat(x, [0, 2], dtype=numpy.int8))
    same(xp.add.reduceat(d.T[::-1], [1, 3], axis=1), numpy.add.reduceat(x.T[::-1], [1, 3], axis=1))
    out = xp.asarray(numpy.zeros((5, 2), numpy.float64)).T
    r = xp.add.reduceat(d, [0, 4], axis=0, out=out)
    assert r is out
    same(out, numpy.add.reduceat(x, [0, 4], axis=0).astype(numpy.float64))
    same(xp.add.reduceat(xp.asarray(numpy.ones((2, 0))), [0], axis=0), numpy.ones((1, 0)))


@dtypes(gpu="fdi", emu="f")
def test_at_warm_path_replays_the_launch(xp, dtype, rng, monkeypatch):
    # A second call with the layouts of a first replays its launch: new arrays, new data
    # and the same answers as NumPy; the general path is not entered again.
    from cuarray._core import _indexing
    n, width = 1003, 300
    idx = rng.integers(-width, width, n)
    for round_ in range(3):
        a, b = rand(width, dtype, rng), rand(n, dtype, rng)
        want = a.copy()
        numpy.add.at(want, idx, b)
        numpy.negative.at(want, idx[:7])
        d, xi, xb = xp.asarray(a), xp.asarray(idx), xp.asarray(b)
        with monkeypatch.context() as m:
            if round_ == 2 and xp is not numpy:
                def general(*args):
                    raise AssertionError("the warm path went through the general path")
                m.setattr(_indexing, "prepare", general)
            xp.add.at(d, xi, xb)
            xp.negative.at(d, xi[:7])
        _close(d, want, dtype)
    if xp is not numpy:   # one replayable launch for add.at, one for negative.at
        assert sum(1 for k in ua._fast if k[3] == dtype and k[4] == (width,)) == 2


@dtypes(gpu="f", emu="f")
def test_at_warm_path_keys(xp, dtype, rng, monkeypatch):
    # What the key holds: an index misaligned for the vector loop, a value of another dtype
    # (cast first), a value sharing the target's memory, and the bounds check switched on
    # after a warm call each take the path their first call takes.
    n = 64
    idx = rng.integers(0, 50, n + 1)
    a = rand(100, dtype, rng)
    d = xp.asarray(a)
    want = a.copy()
    xi = xp.asarray(idx)
    for _ in range(2):
        for key in (slice(None, n), slice(1, None)):           # aligned, then misaligned
            b = rand(n, dtype, rng)
            numpy.add.at(want, idx[key], b)
            xp.add.at(d, xi[key], xp.asarray(b))
        b64 = rng.random(n)                                     # float64 into float32: cast
        numpy.add.at(want, idx[:n], b64)
        xp.add.at(d, xi[:n], xp.asarray(b64))
        numpy.add.at(want, idx[:n], want[:n].copy())            # the value is a view of the target
        xp.add.at(d, xi[:n], d[:n])
        _close(d, want, dtype)
    monkeypatch.setenv("CUARRAY_CHECK_BOUNDS", "1")
    bad = idx[:n].copy()
    bad[5] = 100
    with pytest.raises(IndexError, match="index 100 is out of bounds"):
        xp.add.at(d, xp.asarray(bad), xp.asarray(rand(n, dtype, rng)))


def test_at_warm_cache_is_bounded(xp, rng):
    if xp is numpy:
        pytest.skip("a cuarray cache")
    d = xp.asarray(numpy.zeros(8, numpy.float32))
    for k in range(1, 260):
        xp.add.at(d, xp.asarray(numpy.zeros(k, numpy.int64)), xp.asarray(numpy.ones(k, numpy.float32)))
    assert len(ua._fast) <= 256
    assert float(d.get()[0]) == sum(range(1, 260))
