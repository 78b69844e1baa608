"""sort, argsort, lexsort, sort_complex, partition, argpartition and searchsorted against
NumPy, on both radix backends; the order helpers built for the host by g++ and checked
against NumPy's order; every kernel source compiled by NVRTC for sm_90."""
import ctypes
import os
import shutil
import subprocess

import numpy
import pytest

import cuarray
from cuarray._core import dtypes as _dt
from cuarray._core import elementwise as _ew
from cuarray._libs import cccl
from cuarray._core import _routines_searching as searching, _routines_sorting as sorting

DTYPES = [numpy.dtype(c) for c in "?bBhHiIqQefdFD"]
INCLUDE = os.path.join(os.path.dirname(_dt.__file__), "include")


# ---- CPU: argument handling ---------------------------------------------------------------
def test_sort_kind_and_order_checks():
    for kind in (None, "quicksort", "mergesort", "heapsort", "stable", "q", "Stable"):
        sorting._check_sort_args(kind, None, None)
    with pytest.raises(ValueError, match=r"sort kind must be one of 'quick', 'heap', or 'stable' \(got 'foo'\)"):
        sorting._check_sort_args("foo", None, None)
    with pytest.raises(ValueError, match="can't be provided at the same time"):
        sorting._check_sort_args("stable", None, True)
    with pytest.raises(ValueError, match="Cannot specify order"):
        sorting._check_sort_args(None, "x", None)
    with pytest.raises(ValueError, match="select kind must be 'introselect'"):
        sorting._check_partition("quick", None)


def test_kth_rules_match_numpy():
    assert sorting._kth(2, 5) == [2]
    assert sorting._kth([-1, 0, numpy.int8(3)], 5) == [4, 0, 3]
    for bad, n, exc, msg in [(5, 5, ValueError, r"kth\(=5\) out of bounds \(5\)"),
                             (-6, 5, ValueError, r"kth\(=-1\) out of bounds \(5\)"),
                             (True, 5, ValueError, "Booleans unacceptable"),
                             (1.5, 5, TypeError, "Partition index must be integer")]:
        with pytest.raises(exc, match=msg):
            sorting._kth(bad, n)
        with pytest.raises(exc):
            numpy.partition(numpy.zeros(n), bad)
    assert sorting._kth(0, 0, bounds=False) == [0]  # NumPy partitions empty arrays at any kth


def test_small_geometry_covers_rows():
    for n in [1, 2, 3, 31, 32, 33, 511, 512, 513, 2047, 2048]:
        P, E, threads = sorting.small_geometry(n)
        assert P >= n and P & (P - 1) == 0 and P < 2 * max(n, 1)
        assert E % P == 0 and E >= 512 and threads * 2 == E and threads <= 1024 and threads % 32 == 0


def test_subkeys_and_row_keys():
    assert sorting._subkeys(_Typed("f4"), True)[0][2:] == (numpy.dtype("u4"), 32)
    assert sorting._subkeys(_Typed("?"), False)[0][2:] == (numpy.dtype("u1"), 1)
    assert [k[3] for k in sorting._subkeys(_Typed("F"), True)] == [32, 34]
    assert [k[3] for k in sorting._subkeys(_Typed("D"), True)] == [64, 64, 2]
    assert sorting._row_key(1)[3] == 1 and sorting._row_key(1024)[3] == 10 and sorting._row_key(1025)[3] == 11


# ---- CPU: the order helpers on the host ------------------------------------------------------
def host_library(tmp_path, source, name):
    """Build `source` (cuarray's headers available) as a shared library with g++."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++ to build the order helpers for the host")
    cpp, lib = tmp_path / f"{name}.cpp", tmp_path / f"{name}.so"
    cpp.write_text("#include <string.h>\n#include <math.h>\n" + source)
    r = subprocess.run([gxx, "-std=c++17", "-O1", "-shared", "-fPIC", f"-I{INCLUDE}", "-o", str(lib), str(cpp)],
                       capture_output=True, text=True)
    if r.returncode and "_Float16" in r.stderr:
        pytest.skip("this g++ has no _Float16")
    assert r.returncode == 0, r.stderr[:5000]
    return ctypes.CDLL(str(lib))


def special_values(dtype, n, rng):
    """Random values with ties, and NaN, inf and -0.0 where the dtype has them."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(dtype)
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        x[::3] = rng.integers(0, 5, len(x[::3])).astype(dtype)
        return x
    if dtype.kind == "f":
        x = (rng.standard_normal(n) * 3).round(1).astype(dtype)
        for k, v in enumerate([numpy.nan, -numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0]):
            x[k::11] = v
        return x
    part = numpy.dtype(f"f{dtype.itemsize // 2}")
    z = numpy.empty(n, dtype)
    z.real, z.imag = special_values(part, n, rng), special_values(part, n, rng)[::-1]
    return z


class _Typed:
    """What _subkeys reads of an array: its dtype."""

    def __init__(self, dtype):
        self.dtype = numpy.dtype(dtype)


@pytest.fixture(scope="module")
def order_lib(tmp_path_factory):
    src = [sorting.ORDER]
    for dt in DTYPES:
        T = _dt.ctype(dt)
        src.append(f'extern "C" void lt_{dt.name}(const {T}* a, const {T}* b, bool* o, long long n) '
                   f'{{ for (long long i = 0; i < n; ++i) o[i] = cuarray_lt(a[i], b[i]); }}')
        if dt.kind != "c":
            K = _dt.ctype(sorting._UNSIGNED[dt.itemsize])
            src.append(f'extern "C" void key_{dt.name}(const {T}* a, {K}* k, {K}* kz, {T}* back, long long n) '
                       f'{{ for (long long i = 0; i < n; ++i) {{ k[i] = cuarray_okey(a[i]); kz[i] = cuarray_okey_z(a[i]); '
                       f'back[i] = cuarray_from_okey(k[i], (const {T}*)0); }} }}')
    return host_library(tmp_path_factory.mktemp("order"), "\n".join(src), "order")


def _ptr(a):
    return ctypes.c_void_p(a.ctypes.data)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_host_order_matches_numpy(order_lib, dtype):
    rng = numpy.random.default_rng(0)
    x = special_values(dtype, 400, rng)
    # cuarray_lt is NumPy's order: a stable sort by it (insertion sort here) is numpy's
    a, b = x[:, None].repeat(len(x), 1).ravel(), x[None, :].repeat(len(x), 0).ravel()
    lt = numpy.empty(a.size, bool)
    getattr(order_lib, f"lt_{dtype.name}")(_ptr(a), _ptr(b), _ptr(lt), ctypes.c_longlong(a.size))
    lt = lt.reshape(len(x), len(x))
    rank = numpy.empty(len(x), numpy.int64)
    rank[numpy.argsort(x, kind="stable")] = numpy.arange(len(x))
    before = rank[:, None] < rank[None, :]
    # lt(a, b) implies a sorts before b; no lt either way means NumPy keeps the input order
    assert not (lt & ~before).any()
    assert (lt | lt.T | (x[:, None] == x[None, :]) | _both_nan(x)).all()
    if dtype.kind == "c":
        return
    K = sorting._UNSIGNED[dtype.itemsize]
    k, kz, back = numpy.empty(len(x), K), numpy.empty(len(x), K), numpy.empty_like(x)
    getattr(order_lib, f"key_{dtype.name}")(_ptr(x), _ptr(k), _ptr(kz), _ptr(back), ctypes.c_longlong(len(x)))
    numpy.testing.assert_array_equal(numpy.argsort(kz, kind="stable"), numpy.argsort(x, kind="stable"))
    numpy.testing.assert_array_equal(x[numpy.argsort(k, kind="stable")], numpy.sort(x))
    keep = ~numpy.isnan(x) if dtype.kind == "f" else slice(None)
    numpy.testing.assert_array_equal(back[keep].view(K), x[keep].view(K))  # bit-exact round trip
    if dtype.kind == "f":
        assert numpy.isnan(back[~keep]).all() and (k[~keep] == numpy.iinfo(K).max).all()


def _both_nan(x):
    n = numpy.isnan(x) if x.dtype.kind in "fc" else numpy.zeros(len(x), bool)
    return n[:, None] & n[None, :]


# ---- CPU: every kernel compiles ---------------------------------------------------------------
def nvrtc(source, name="k"):
    pytest.importorskip("cuda.bindings.nvrtc")
    from cuarray._runtime.compiler import compile_cubin
    return compile_cubin(source, (), (), "sm_90", name)


def compile_op(o, raw_ndim=(1, 3)):
    """Compile an elementwise Op for its parameter dtypes, flat and N-d layouts."""
    storage = [p.dtype for p in o.params]
    for nd in raw_ndim:
        raw = [(nd, nd == 1) if p.role == "raw" else None for p in o.params]
        for layout in (None, 2):
            src, _ = _ew.generate(o, storage, raw, layout, 1, False)
            nvrtc(src, o.name)


@pytest.mark.parametrize("kdt", ["u1", "u2", "u4", "u8"])
@pytest.mark.parametrize("vdt", [None, "u4", "u8"])
def test_radix_kernels_compile(kdt, vdt):
    kdt = numpy.dtype(kdt)
    vdt = None if vdt is None else numpy.dtype(vdt)
    nvrtc(sorting.radix_source(kdt, vdt), "radix")
    for dt in DTYPES:  # the in-place keys of _own_bits
        if dt.kind != "c" and dt.itemsize == kdt.itemsize:
            for z in ("", "_z"):
                nvrtc(sorting.radix_source(kdt, vdt, f"cuarray_okey{z}(cuarray_bitcast<{_dt.ctype(dt)}>(k))"), "radix")


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_small_sort_and_ops_compile(dtype):
    for n in (1, 33, 2048):
        P, E, _ = sorting.small_geometry(n)
        nvrtc(sorting.small_source(dtype, P, E), "small")
    u32, u64 = numpy.dtype("u4"), numpy.dtype("u8")
    compile_op(sorting.gather_op(dtype, u32))
    if dtype.kind != "c":
        for zc in (False, True):
            _, expr, kdt, bits = sorting._subkeys(_Typed(dtype), zc)[0]
            compile_op(sorting._key_op(True, dtype, expr, kdt, None))
            compile_op(sorting._key_op(True, dtype, expr, kdt, u32))
            compile_op(sorting._key_op(False, dtype, expr, kdt, u64))
        compile_op(sorting._fromkey_op(u64, dtype, sorting.key_bits(dtype)))
        if dtype.char in sorting._NATIVE_CUB:
            compile_op(sorting._canon_op(dtype, u32))
    else:
        for _, expr, kdt, _ in sorting._subkeys(_Typed(dtype), True):
            compile_op(sorting._key_op(True, dtype, expr, kdt, u32))
            compile_op(sorting._key_op(False, dtype, expr, kdt, u32))
    for side in ("left", "right"):
        compile_op(searching._search_op(dtype, dtype, side, None))
        compile_op(searching._search_op(dtype, dtype, side, numpy.dtype("i8")))


def test_index_ops_compile():
    for pdt in ("u4", "u8"):
        compile_op(sorting._pos_op(numpy.dtype(pdt)))
        compile_op(sorting.iota_op(numpy.dtype(pdt)))
    compile_op(sorting._key_op(False, None, "p / n", numpy.dtype("u4"), numpy.dtype("u4")))


# ---- GPU: against NumPy ------------------------------------------------------------------------
BACKENDS = ["own", "cccl"]


@pytest.fixture(params=BACKENDS)
def backend(request, monkeypatch):
    if request.param == "cccl" and cccl._module() is None:
        pytest.skip(f"cuda.compute is not usable here ({cccl._state['why']})")
    monkeypatch.setenv("CUARRAY_SORT_BACKEND", request.param)
    return request.param


SHAPES = [((0,), -1), ((1,), -1), ((7,), -1), ((300,), 0), ((2049,), -1), ((5000,), -1),
          ((3, 4, 5), 0), ((3, 4, 5), 1), ((3, 4, 5), -1), ((3, 4, 5), None), ((4, 3000), -1),
          ((3000, 3), 0), ((2, 0, 3), 1)]


def _check_sorted(x, axis):
    g = cuarray.asarray(x)
    r = sorting.sort(g, axis=axis)
    e = numpy.sort(x, axis=axis)
    assert r.shape == e.shape and r.dtype == e.dtype and r.flags.c_contiguous
    numpy.testing.assert_array_equal(r.get(), e)
    i = sorting.argsort(g, axis=axis)
    ei = numpy.argsort(x, axis=axis, kind="stable")
    assert i.dtype == numpy.int64
    numpy.testing.assert_array_equal(i.get(), ei)


@pytest.mark.gpu
@pytest.mark.parametrize("shape,axis", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_sort_argsort_match_numpy(backend, dtype, shape, axis):
    rng = numpy.random.default_rng(1)
    n = int(numpy.prod(shape))
    x = special_values(dtype, max(n, 1), rng)[:n].reshape(shape)
    _check_sorted(x, axis)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["f4", "i8", "F"])
def test_sort_noncontiguous_and_0d(backend, dtype):
    rng = numpy.random.default_rng(2)
    x = special_values(dtype, 6000, rng).reshape(60, 100)
    g = cuarray.asarray(x)
    for view, ref in [(g[::2, ::3], x[::2, ::3]), (g.T, x.T), (g[:, ::-1], x[:, ::-1])]:
        for axis in (0, 1, None):
            numpy.testing.assert_array_equal(sorting.sort(view, axis=axis).get(), numpy.sort(ref, axis=axis))
            numpy.testing.assert_array_equal(sorting.argsort(view, axis=axis).get(),
                                             numpy.argsort(ref, axis=axis, kind="stable"))
    big = special_values(dtype, 9000, rng)
    gb = cuarray.asarray(big)[::3]
    numpy.testing.assert_array_equal(sorting.argsort(gb).get(), numpy.argsort(big[::3], kind="stable"))
    z = cuarray.asarray(numpy.array(3, dtype))
    with pytest.raises(numpy.exceptions.AxisError):
        sorting.sort(z)
    numpy.testing.assert_array_equal(sorting.sort(z, axis=None).get(), numpy.sort(numpy.array(3, dtype), axis=None))


@pytest.mark.gpu
def test_argsort_is_stable_with_many_ties(backend):
    rng = numpy.random.default_rng(3)
    for n in (1000, 70000):
        x = rng.integers(0, 4, n).astype(numpy.float32)
        x[::5] = -0.0
        numpy.testing.assert_array_equal(sorting.argsort(cuarray.asarray(x)).get(), numpy.argsort(x, kind="stable"))
    x = rng.integers(0, 3, (5, 4000)).astype(numpy.int8)
    numpy.testing.assert_array_equal(sorting.argsort(cuarray.asarray(x), axis=1, kind="quicksort").get(),
                                     numpy.argsort(x, axis=1, kind="stable"))


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("dtype", ["f4", "f8", "i4", "u8", "e"])
def test_sort_large(backend, dtype):
    rng = numpy.random.default_rng(4)
    x = special_values(dtype, 1 << 21, rng)
    _check_sorted(x, -1)
    _check_sorted(x.reshape(64, -1), -1)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["f4", "u2", "D"])
def test_sort_inplace(dtype):
    rng = numpy.random.default_rng(5)
    x = special_values(dtype, 3 * 2100, rng).reshape(3, 2100)
    for axis in (0, 1):
        g = cuarray.asarray(x)
        sorting.sort_inplace(g, axis)
        numpy.testing.assert_array_equal(g.get(), numpy.sort(x, axis=axis))
    g = cuarray.asarray(x)
    view = g[:, ::2]
    sorting.sort_inplace(view)
    e = x.copy()
    e[:, ::2].sort()
    numpy.testing.assert_array_equal(g.get(), e)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [10, 3000])
def test_lexsort(backend, n):
    rng = numpy.random.default_rng(6)
    keys = [rng.integers(0, 3, n).astype(numpy.int16), special_values("f8", n, rng),
            rng.integers(0, 2, n).astype(bool), special_values("F", n, rng)]
    numpy.testing.assert_array_equal(sorting.lexsort([cuarray.asarray(k) for k in keys]).get(), numpy.lexsort(keys))
    k2 = rng.integers(0, 4, (2, 3, n))
    numpy.testing.assert_array_equal(sorting.lexsort(cuarray.asarray(k2), axis=0).get(), numpy.lexsort(k2, axis=0))
    numpy.testing.assert_array_equal(sorting.lexsort(cuarray.asarray(k2)).get(), numpy.lexsort(k2))
    assert int(sorting.lexsort([cuarray.asarray(numpy.array(1))])) == numpy.lexsort([numpy.array(1)])
    with pytest.raises(TypeError, match="len > 0"):
        sorting.lexsort([])
    with pytest.raises(ValueError, match="same shape"):
        sorting.lexsort([cuarray.zeros(3), cuarray.zeros(4)])


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["b", "h", "H", "i8", "e", "f4", "f8", "F", "?"])
def test_sort_complex(dtype):
    rng = numpy.random.default_rng(7)
    x = special_values(dtype, 50, rng)
    r, e = sorting.sort_complex(cuarray.asarray(x)), numpy.sort_complex(x)
    assert r.dtype == e.dtype
    numpy.testing.assert_array_equal(r.get(), e)


@pytest.mark.gpu
@pytest.mark.parametrize("shape,axis,kth", [((20,), -1, 3), ((20,), 0, [0, -1, 5]), ((4, 3000), 1, 1500),
                                           ((30, 7), 0, (2, 4)), ((3, 4, 5), None, 17)])
def test_partition_argpartition(shape, axis, kth):
    rng = numpy.random.default_rng(8)
    x = special_values("f8", int(numpy.prod(shape)), rng).reshape(shape)
    g = cuarray.asarray(x)
    p = sorting.partition(g, kth, axis=axis).get()
    ip = sorting.argpartition(g, kth, axis=axis).get()
    ax = -1 if axis is None else axis
    flat = x.reshape(-1) if axis is None else x
    s = numpy.sort(flat, axis=ax)
    for k in numpy.atleast_1d(kth):
        numpy.testing.assert_array_equal(numpy.take(p, [k], axis=ax), numpy.take(s, [k], axis=ax))
    numpy.testing.assert_array_equal(numpy.take_along_axis(flat, ip, axis=ax), p)
    numpy.testing.assert_array_equal(numpy.sort(p, axis=ax), s)
    q = cuarray.asarray(x)
    sorting.partition_inplace(q, kth if axis is not None else 0, axis=-1 if axis is None else axis)
    assert numpy.array_equal(numpy.sort(q.get(), axis=ax), numpy.sort(x, axis=ax), equal_nan=True)
    assert sorting.argpartition(cuarray.asarray(numpy.array(2.0)), 0).get().tolist() == [0]
    with pytest.raises(ValueError, match="out of bounds"):
        sorting.partition(g, 10**6, axis=axis)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["?", "b", "u2", "i8", "e", "f4", "f8", "F", "D"])
def test_searchsorted(dtype):
    rng = numpy.random.default_rng(9)
    a = numpy.sort(special_values(dtype, 500, rng))
    v = special_values(dtype, 60, rng).reshape(3, 4, 5)
    ga, gv = cuarray.asarray(a), cuarray.asarray(v)
    for side in ("left", "right"):
        numpy.testing.assert_array_equal(searching.searchsorted(ga, gv, side).get(), numpy.searchsorted(a, v, side))
        perm = rng.permutation(len(a))
        shuffled = a[perm]
        sorter = numpy.argsort(shuffled, kind="stable")
        numpy.testing.assert_array_equal(
            searching.searchsorted(cuarray.asarray(shuffled), gv, side, sorter=cuarray.asarray(sorter)).get(),
            numpy.searchsorted(shuffled, v, side, sorter=sorter))
        scalar = v.flat[7].item()
        r = searching.searchsorted(ga, scalar, side)
        assert r.shape == () and int(r) == numpy.searchsorted(a, scalar, side)
    empty = cuarray.asarray(numpy.array([], dtype))
    assert searching.searchsorted(empty, gv).get().max() == 0


@pytest.mark.gpu
def test_searchsorted_promotes_and_errors():
    a = numpy.array([1, 2, 3, 5], numpy.int8)
    v = numpy.array([2.5, 300.0, -1e9])
    numpy.testing.assert_array_equal(searching.searchsorted(cuarray.asarray(a), cuarray.asarray(v)).get(),
                                     numpy.searchsorted(a, v))
    assert int(searching.searchsorted(cuarray.asarray(a), 2.5)) == numpy.searchsorted(a, 2.5)
    ga = cuarray.asarray(a)
    with pytest.raises(ValueError, match="search side must be 'left' or 'right' \\(got 'foo'\\)"):
        searching.searchsorted(ga, 1, side="foo")
    with pytest.raises(ValueError, match="object too deep"):
        searching.searchsorted(cuarray.zeros((2, 2)), 1)
    with pytest.raises(ValueError, match="sorter.size must equal a.size"):
        searching.searchsorted(ga, 1, sorter=cuarray.arange(2))
    with pytest.raises(TypeError, match="sorter must only contain integers"):
        searching.searchsorted(ga, 1, sorter=cuarray.zeros(4))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        searching.searchsorted(ga, numpy.array([1]))
