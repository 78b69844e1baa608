"""The per-call caches of the host path: what their keys hold, their bounds, and that a hit
gives what the general path gives (NumPy's result) for arguments that compare equal to a
cached key but are read differently (10.0, True, numpy integers)."""
import numpy
import pytest

from cuarray._core import ndarray as _nd


@pytest.fixture
def reshapes(monkeypatch):
    """An empty reshape cache for the test (the test's entries do not leak out)."""
    monkeypatch.setattr(_nd, "_reshapes", {})
    return _nd


def _same_layout(c, n):
    assert c.shape == n.shape and c.strides == n.strides
    assert c.flags.c_contiguous == n.flags.c_contiguous
    assert c.flags.f_contiguous == n.flags.f_contiguous


def test_reshape_cache_hit_matches_numpy(cp, reshapes):
    rng = numpy.random.default_rng(19)
    n = rng.standard_normal((4, 6)).astype(numpy.float32)
    c = cp.asarray(n)
    for shape in [(24,), (2, 12), (3, 2, 4), (-1, 8), (6, 4)]:
        for _ in range(3):  # the first call fills the cache, the next two hit it
            r = c.reshape(*shape)
            _same_layout(r, n.reshape(*shape))
            assert r.base is c and r.data.ptr == c.data.ptr
            numpy.testing.assert_array_equal(r.get(), n.reshape(*shape))
            _same_layout(c.reshape(shape), n.reshape(shape))
    assert all(v[0] is False for v in reshapes._reshapes.values())


def test_reshape_cache_key_holds_layout_and_itemsize(cp, reshapes):
    n = numpy.arange(48, dtype=numpy.float32).reshape(6, 8)
    c = cp.asarray(n)
    for nv, cv in [(n, c), (n[:, ::2], c[:, ::2]), (n.T, c.T), (n.view(numpy.int16), c.view(numpy.int16))]:
        for _ in range(2):
            try:
                expect = nv.reshape(4, -1)
            except ValueError:
                continue
            got = cv.reshape(4, -1)
            _same_layout(got, expect)
            numpy.testing.assert_array_equal(got.get(), expect)
    keys = list(reshapes._reshapes)
    assert len(keys) == len(set(keys)) >= 3
    assert {k[2] for k in keys} == {4, 2}


def test_reshape_cache_copies_when_no_view_exists(cp, reshapes):
    n = numpy.arange(24, dtype=numpy.int32).reshape(4, 6)
    c = cp.asarray(n)
    nt, ct = n.T, c.T  # (6, 4) read in C order: no view of 24 elements exists
    results = [ct.reshape(24) for _ in range(3)]
    for r in results:
        numpy.testing.assert_array_equal(r.get(), nt.reshape(24))
        assert r.flags.c_contiguous and r.data.ptr != c.data.ptr
    assert len({r.data.ptr for r in results}) == 3  # a new copy every call
    (entry,) = reshapes._reshapes.values()
    assert entry[0] is True
    c[0, 0] = 99  # a copy, not a view: later writes to the source do not show
    assert int(results[2][0]) == 0


@pytest.mark.parametrize("dims, error", [((10.0, 2), TypeError), ((True, 20), None),
                                         ((numpy.int64(10), 2), None), ((10, 2.0), TypeError)])
def test_reshape_cache_refuses_equal_non_int_dims(cp, reshapes, dims, error):
    n = numpy.zeros(20, numpy.float32)
    c = cp.zeros(20, numpy.float32)
    key_dims = tuple(int(d) for d in dims)
    c.reshape(key_dims)  # fill the cache with the int key that `dims` compares equal to
    c.reshape(*key_dims)
    for args in [(dims,), dims]:
        if error is not None:
            with pytest.raises(error):
                n.reshape(*args)
            with pytest.raises(error):
                c.reshape(*args)
        else:
            try:
                expect = n.reshape(*args)
            except TypeError:  # NumPy refuses bools as dimensions
                with pytest.raises(TypeError):
                    c.reshape(*args)
                continue
            _same_layout(c.reshape(*args), expect)


def test_reshape_cache_skips_lists_copy_and_other_orders(cp, reshapes):
    c = cp.zeros((4, 6), numpy.float32)
    c.reshape([6, 4])
    c.reshape((6, 4), order="F")
    c.reshape((6, 4), copy=True)
    c.reshape(None)
    assert reshapes._reshapes == {}


def test_reshape_cache_is_bounded(cp, reshapes, monkeypatch):
    monkeypatch.setattr(_nd, "_RESHAPES_MAX", 8)
    c = cp.zeros(720, numpy.float32)
    shapes = [(d, 720 // d) for d in (2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 18)]
    for s in shapes:
        c.reshape(s)
        assert len(reshapes._reshapes) <= 8
    kept = [k[3] for k in reshapes._reshapes]
    assert kept == [(s,) for s in shapes[-8:]]  # the oldest entries went first
    for s in shapes:
        assert c.reshape(s).shape == s


def test_raw_kernel_signature_cache(cp, monkeypatch):
    from cuarray._core import raw
    monkeypatch.setattr(raw, "_sigs", {})
    k = cp.RawKernel(r'''extern "C" __global__ void k(float* x, int n, double s, float* y) {
        int i = threadIdx.x + blockIdx.x * blockDim.x;
        if (i < n) y[i] = x[i] * s + i;
    }''', "k")
    kc = cp.RawKernel(r'''#include <cuarray/core.cuh>
    extern "C" __global__ void kc(float* y, int n, complex<double> z) {
        int i = threadIdx.x + blockIdx.x * blockDim.x;
        if (i < n) y[i] = z.real() * i + z.imag();
    }''', "kc")
    rng = numpy.random.default_rng(190)
    xn = rng.standard_normal(100).astype(numpy.float32)
    x = cp.asarray(xn)
    for s in (2.0, -0.5, 3.0):   # one signature, three calls: the cached packer each time
        y = cp.zeros(100, numpy.float32)
        k((4,), [32], (x, numpy.int32(100), s, y))
        numpy.testing.assert_allclose(y.get(), xn * s + numpy.arange(100), rtol=1e-6)
    for z in (1 + 2j, 0.5 - 1j):
        y = cp.zeros(50, numpy.float32)
        kc(2, 32, (y, numpy.int32(50), z))
        numpy.testing.assert_allclose(y.get(), z.real * numpy.arange(50) + z.imag, rtol=1e-6)
    sig = raw._sigs[(cp.ndarray, numpy.int32, float, cp.ndarray)]
    assert sig[1] == (0, 1, 1, 0) and sig[2] == (0, 3)  # arrays at 0 and 3, the rest as given
    assert raw._sigs[(cp.ndarray, numpy.int32, complex)][2] is None  # split into two values
    assert len(raw._sigs) == 2
    with pytest.raises(TypeError):   # a Python int is a long long: 2**64 does not fit
        k((1,), (32,), (x, 2**64, 1.0, y))


@pytest.mark.parametrize("shape", [7, 0, (), (3, 4), (2, 0, 5), [3, 4], (numpy.int64(3), 4),
                                   -1, (3, -1), 2.0, (2.0, 3), "3"])
@pytest.mark.parametrize("dtype", [None, float, "f4", numpy.int16, numpy.dtype("c8")])
def test_zeros_and_empty_plain_calls_match_numpy(cp, shape, dtype):
    try:
        expect = numpy.zeros(shape, dtype)
    except Exception as e:
        for f in (cp.zeros, cp.empty):
            with pytest.raises(type(e)):
                f(shape, dtype)
        return
    z = cp.zeros(shape, dtype)
    assert z.shape == expect.shape and z.dtype == expect.dtype
    if expect.size:  # (NumPy 2.4 gives size-0 arrays zero strides; cuarray does not)
        assert z.strides == expect.strides
    numpy.testing.assert_array_equal(z.get(), expect)
    e = cp.empty(shape, dtype)
    assert e.shape == expect.shape and e.dtype == expect.dtype and e.flags.c_contiguous
    f = cp.zeros(shape, dtype, order="F")
    if expect.size:
        assert f.strides == numpy.zeros(shape, dtype, order="F").strides


def test_alloc_layout_cache(cp, monkeypatch):
    monkeypatch.setattr(_nd, "_layouts", {})
    monkeypatch.setattr(_nd, "_LAYOUTS_MAX", 4)
    shapes = [(2, 3), (3, 1, 4), (0, 5), (1, 7), (4, 1), (2, 2, 2)]
    for shape in shapes * 2:
        for dtype in ("f4", "c16", "i1"):
            for order in ("C", "F"):
                n = numpy.empty(shape, dtype, order=order)
                for _ in range(2):
                    c = cp.empty(shape, dtype, order=order)
                    assert c.shape == n.shape
                    if n.size:   # (NumPy gives size-0 arrays zero strides)
                        assert c.strides == n.strides
                    assert c.flags.c_contiguous == n.flags.c_contiguous
                    assert c.flags.f_contiguous == n.flags.f_contiguous
                assert len(_nd._layouts) <= 4
    # anything but "F" is read as C, as before the cache
    assert _nd._contiguous_layout((2, 3), 4, "K") == ((12, 4), True, False)
    assert _nd._contiguous_layout((2, 3), 4, "F") == ((4, 8), False, True)


def test_permute_and_moveaxis_caches(cp, monkeypatch):
    from cuarray._routines import manipulation
    monkeypatch.setattr(_nd, "_permutes", {})
    monkeypatch.setattr(_nd, "_PERMUTES_MAX", 3)
    monkeypatch.setattr(manipulation, "_moves", {})
    n = numpy.arange(4 * 8 * 16, dtype=numpy.float32).reshape(4, 8, 16)
    c = cp.asarray(n)
    views = [(n, c), (n[:, ::2], c[:, ::2]), (n[:1], c[:1]), (n.T, c.T)]
    for _ in range(2):
        for nv, cv in views:
            for src, dst in [(0, -1), (-1, 0), (1, 2), (2, 2)]:
                e, g = numpy.moveaxis(nv, src, dst), cp.moveaxis(cv, src, dst)
                _same_layout(g, e)
                assert g.base is c
                numpy.testing.assert_array_equal(g.get(), e)
            _same_layout(cv.transpose(1, 2, 0), nv.transpose(1, 2, 0))
            assert len(_nd._permutes) <= 3
    assert manipulation._moves[(3, 0, -1)] == (1, 2, 0)
    for bad in [(3, 0), (0, -4), (True, 0)]:
        try:
            numpy.moveaxis(n, *bad)
        except Exception as e:
            with pytest.raises(type(e)):
                cp.moveaxis(c, *bad)
        else:
            _same_layout(cp.moveaxis(c, *bad), numpy.moveaxis(n, *bad))
    assert (3, 3, 0) not in manipulation._moves


def test_host_address_matches_array_interface():
    from cuarray._runtime.pinned import _host_address
    base = numpy.zeros(64, numpy.float64)
    ro = numpy.zeros(8, numpy.int32)
    ro.flags.writeable = False
    arrays = [base, base[8:], base.reshape(8, 8).T, numpy.zeros((), numpy.int8), ro,
              numpy.zeros(4, [("x", "f4"), ("y", "i2")]), numpy.zeros(3, "M8[ns]"),
              numpy.frombuffer(bytearray(16), numpy.uint8)]
    for a in arrays:
        assert _host_address(a, a.nbytes, False) == a.__array_interface__["data"][0]
    assert _host_address(12345, 8, True) == 12345
    with pytest.raises(ValueError, match="read-only"):
        _host_address(ro, 4, True)
    with pytest.raises(ValueError, match="contiguous"):
        _host_address(base[::2], 8, False)
    with pytest.raises(ValueError, match="holds"):
        _host_address(base[60:], 64, False)


def test_int_and_slice_index_fast_paths_match_numpy(cp):
    rng = numpy.random.default_rng(1904)
    n1 = rng.standard_normal(12).astype(numpy.float32)
    n3 = rng.standard_normal((3, 4, 5)).astype(numpy.float32)
    c1, c3 = cp.asarray(n1), cp.asarray(n3)
    layouts = [(n1, c1), (n1[::-2], c1[::-2]), (n1[3:4], c1[3:4]), (n1[:0], c1[:0]),
               (n3, c3), (n3.T, c3.T), (n3[:, ::2], c3[:, ::2]), (n3[:, :1, :1], c3[:, :1, :1]),
               (n3[:, :0], c3[:, :0]), (n3[:1, :, 2:3], c3[:1, :, 2:3])]
    for nv, cv in layouts:
        size = nv.shape[0]
        for key in [0, 1, -1, size - 1, -size, size, -size - 1, slice(None), slice(2, 9),
                    slice(None, None, -1), slice(5, 1, -2), slice(3, 3), slice(-4, None, 3),
                    slice(1, 2), slice(100, 200), slice(None, None, 7)]:
            try:
                e = nv[key]
            except IndexError:
                with pytest.raises(IndexError):
                    cv[key]
                continue
            g = cv[key]
            _same_layout(g, e)
            assert g.base is (cv if cv.base is None else cv.base)
            if e.size:
                byte_offset = e.__array_interface__["data"][0] - nv.__array_interface__["data"][0] \
                    if isinstance(e, numpy.ndarray) else (key % size) * nv.strides[0]
                assert g.data.ptr - cv.data.ptr == byte_offset
                numpy.testing.assert_array_equal(g.get(), e)


def test_get_fast_path_matches_numpy(cp):
    from cuarray._runtime import syncdetect
    rng = numpy.random.default_rng(1905)
    for n in [rng.standard_normal(7).astype(numpy.float32), numpy.arange(12, dtype=numpy.int64).reshape(3, 4),
              numpy.array(2.5), numpy.zeros(3, [("x", "f4"), ("y", "i2")])]:
        c = cp.asarray(n)
        h = c.get()
        assert h.shape == n.shape and h.dtype == n.dtype and h.flags.c_contiguous
        numpy.testing.assert_array_equal(h, n)
    assert float(cp.asarray(numpy.array([3.5], numpy.float32))) == 3.5
    assert int(cp.asarray(numpy.int16(-7))) == -7
    assert cp.asarray(numpy.array([1 + 2j])).item() == 1 + 2j
    with syncdetect.allow_synchronize(False):   # the fast path still declares its wait
        with pytest.raises(syncdetect.DeviceSynchronized):
            float(cp.ones(1, numpy.float32))


def test_staging_events_are_reused_and_bounded(cp, monkeypatch):
    from cuarray._runtime import pinned
    from cuarray._runtime.stream import Event
    made = []

    class CountedEvent(Event):
        __slots__ = ()

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    # blocks of earlier uploads still waiting on their events would hand those over
    pinned.get_default_pinned_memory_pool().free_all_blocks()
    monkeypatch.setattr(pinned, "Event", CountedEvent)
    monkeypatch.setattr(pinned, "_spare_events", {})
    monkeypatch.setattr(pinned, "_SPARE_MAX", 2)
    rng = numpy.random.default_rng(1906)
    hosts = [rng.standard_normal(100 + 10 * i).astype(numpy.float32) for i in range(10)]
    devs = []
    for h in hosts:
        devs.append(cp.asarray(h))
        cp.cuda.Stream.null.synchronize()
    for h, d in zip(hosts, devs):
        numpy.testing.assert_array_equal(d.get(), h)
    assert 1 <= len(made) < len(hosts)   # later uploads recorded a finished copy's event
    assert all(len(v) <= 2 for v in pinned._spare_events.values())
    for (drv, dev), events in pinned._spare_events.items():
        assert all(e.device_id == dev for e in events)


def test_elementwise_kernel_warm_path_keys_storage_dtypes(cp):
    # `float32 x` reads float64 and float32 arrays alike (cast on load): one Op, two kernels
    k = cp.ElementwiseKernel("float32 x, T y", "T z", "z = x * 2 + y", "host_cache_ek")
    rng = numpy.random.default_rng(1907)
    for dt in (numpy.float64, numpy.float32, numpy.float64):
        xn = rng.standard_normal(33).astype(dt)
        yn = rng.standard_normal(34).astype(numpy.float32)
        x, y = cp.asarray(xn), cp.asarray(yn)
        for _ in range(2):   # the second call takes the warm path
            expect = xn.astype(numpy.float32) * 2 + yn[:33]
            numpy.testing.assert_allclose(k(x, y[:33]).get(), expect, rtol=1e-6)
            numpy.testing.assert_allclose(k(x, y[1:]).get(), xn.astype(numpy.float32) * 2 + yn[1:],
                                          rtol=1e-6)   # an unaligned operand: the other kernel
    (op,) = {op for op, _ in k._warm.values()}
    flat = sorted(key[1:] for key in op._kernels if key[0] == "flat")
    assert [a for a, _ in flat] == [False, False, True, True]
    assert {d for _, d in flat} == {(numpy.dtype("f8"), numpy.dtype("f4")),
                                    (numpy.dtype("f4"), numpy.dtype("f4"))}


@pytest.mark.parametrize("args", [(10,), (2, 20, 3), (-5, 5), (5, 0, -1), (0, 2**40, 2**38),
                                  (True, 5), (0.5, 3), (0, 7.0, 2),
                                  (3, 3)])
def test_arange_int_arguments_match_numpy(cp, args):
    e, g = numpy.arange(*args), cp.arange(*args)
    assert g.dtype == e.dtype and g.shape == e.shape
    numpy.testing.assert_array_equal(g.get(), e)


@pytest.mark.parametrize("dtype", ["?", "b", "B", "h", "H", "e", "i", "I", "f", "q", "d", "F", "D"])
def test_fill_by_memset_matches_numpy(cp, dtype):
    # 1-, 2- and 4-byte elements of a contiguous span are set by the driver's memset of
    # their bit pattern; others (and strided views) by the fill kernel
    for value in [1, 0, -1, 2.5, True, 255, 1e10, -0.0, float("nan")]:
        n = numpy.empty((3, 5), dtype)
        try:
            with numpy.errstate(all="ignore"):
                n.fill(value)
        except (OverflowError, ValueError, TypeError) as e:
            with pytest.raises(type(e)):
                cp.empty((3, 5), dtype).fill(value)
            continue
        for c in (cp.empty((3, 5), dtype), cp.empty((5, 3), dtype).T, cp.empty((3, 6), dtype)[:, 1:],
                  cp.empty(16, dtype)[1:].reshape(3, 5)):
            c.fill(value)
            numpy.testing.assert_array_equal(c.get(), n)
    numpy.testing.assert_array_equal(cp.ones(7, dtype).get(), numpy.ones(7, dtype))
    numpy.testing.assert_array_equal(cp.full((2, 3), 3, dtype).get(), numpy.full((2, 3), 3, dtype))


def test_like_routines_keep_numpys_order(cp):
    n = numpy.zeros((4, 6), numpy.float32)
    c = cp.zeros((4, 6), numpy.float32)
    for nv, cv in [(n, c), (n.T, c.T), (n[:, ::2], c[:, ::2]), (n[:1].T, c[:1].T)]:
        for f in ("empty_like", "zeros_like", "ones_like"):
            for order in ("K", "A", "C", "F", None):
                e, g = getattr(numpy, f)(nv, order=order), getattr(cp, f)(cv, order=order)
                assert g.shape == e.shape and g.strides == e.strides, (f, order)


def test_expand_dims_cache(cp, monkeypatch):
    from cuarray._routines import manipulation
    monkeypatch.setattr(manipulation, "_expands", {})
    n = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    c = cp.asarray(n)
    for nv, cv in [(n, c), (n.T, c.T), (n[:, ::2], c[:, ::2])]:
        for axis in [0, 1, 3, -1, -4, 4, -5, (0, 2), [1, -1], (0, 0)]:
            for _ in range(2):
                try:
                    e = numpy.expand_dims(nv, axis)
                except Exception as err:
                    with pytest.raises(type(err)):
                        cp.expand_dims(cv, axis)
                    continue
                g = cp.expand_dims(cv, axis)
                _same_layout(g, e)
                numpy.testing.assert_array_equal(g.get(), e)
    assert all(type(k[1]) is int for k in manipulation._expands)
    assert ((2, 3, 4), -1) in manipulation._expands and ((2, 3, 4), 4) not in manipulation._expands


def test_op_cache_builds_once_and_is_bounded(monkeypatch):
    from cuarray._core._kernel_helpers import Cache
    monkeypatch.setattr(Cache, "limit", 3)
    cache, built = Cache(), []

    def build(k):
        built.append(k)
        return ("op", k)

    for k in [1, 2, 1, 3, 2]:
        assert cache(k, lambda: build(k)) == ("op", k)
    assert built == [1, 2, 3]
    assert cache(4, lambda: build(4)) == ("op", 4)   # past the limit: the oldest (1) goes
    assert list(cache) == [2, 3, 4]
    assert cache(1, lambda: build(1)) == ("op", 1) and built == [1, 2, 3, 4, 1]


def test_op_template_builds_one_op_per_dtypes_and_values():
    from cuarray._core._kernel_helpers import OpTemplate
    f4, i4, i8 = numpy.dtype("f4"), numpy.dtype("i4"), numpy.dtype("i8")
    t = OpTemplate("cuarray_t", "a:in:0 b:raw:1 n:scalar:int64 y:out:0",
                   "y = a + (${T0})b[n] * ${G};")
    op = t(f4, i4, G=2)
    assert t(f4, i4, G=2) is op and t(f4, i8, G=2) is not op and t(f4, i4, G=3) is not op
    assert op.name == "cuarray_t_fi_G2"
    assert [(p.name, p.role, p.dtype) for p in op.params] == [
        ("a", "in", f4), ("b", "raw", i4), ("n", "scalar", i8), ("y", "out", f4)]
    assert op.body == "y = a + (float)b[n] * 2;"
    with pytest.raises(KeyError):   # a placeholder without a value
        t(f4, i4)
    assert OpTemplate("cuarray_u", "s:raw:int64", "s[i] = i;")().name == "cuarray_u"
    with pytest.raises(ValueError, match="'s'"):
        OpTemplate("cuarray_u", "s:rw:int64", "s[i] = i;")
