"""cuarray.distributed.array: index arithmetic (CPU), chunks, modes, resharding and
elementwise ops on one device through the host emulation (CPU) or the GPU, reductions and
matmul on one GPU, and the same across two GPUs."""
import numpy
import pytest

from cuarray.distributed import array as dist
from cuarray.distributed.array import _index


# ---------------------------------------------------------------- index arithmetic

def test_make_2d_index_map_example():
    m = dist.make_2d_index_map([0, 2, 4], [0, 3, 5], [[{0}, {1}], [{2}, {0, 1}]])
    assert m == {0: [(slice(0, 2), slice(0, 3)), (slice(2, 4), slice(3, 5))],
                 1: [(slice(0, 2), slice(3, 5)), (slice(2, 4), slice(3, 5))],
                 2: [(slice(2, 4), slice(0, 3))]}
    with pytest.raises(ValueError, match="2 x 2"):
        dist.make_2d_index_map([0, 2, 4], [0, 3, 5], [[{0}, {1}]])
    with pytest.raises(ValueError, match="decrease"):
        dist.make_2d_index_map([0, 3, 2], [0, 1], [[{0}], [{0}]])


@pytest.mark.parametrize("seed", range(4))
def test_intersections_match_numpy_index_sets(seed):
    rng = numpy.random.default_rng(seed)
    n = 40
    for _ in range(50):
        s = [slice(int(rng.integers(-n, n)), int(rng.integers(-n, n + 5)), int(rng.integers(1, 6)))
             for _ in range(2)]
        r1, r2 = (_index.normalize((n,), x) for x in s)
        want = numpy.intersect1d(numpy.arange(n)[s[0]], numpy.arange(n)[s[1]])
        got = _index.intersect(r1, r2)
        if not len(want):
            assert got is None
            continue
        assert list(got[0]) == list(want)
        # local coordinates select the same elements from each chunk
        for r, x in ((r1, s[0]), (r2, s[1])):
            chunk = numpy.arange(n)[x]
            assert list(chunk[_index.local(got, r)]) == list(want)


def test_normalize_ints_and_errors():
    assert _index.normalize((5, 4), (2,)) == (range(2, 3), range(0, 4))
    assert _index.normalize((5, 4), (-1, slice(1, None))) == (range(4, 5), range(1, 4))
    with pytest.raises(ValueError, match="positive steps"):
        _index.normalize((5,), slice(None, None, -1))
    with pytest.raises(IndexError, match="out of bounds"):
        _index.normalize((5,), 5)
    with pytest.raises(IndexError, match="more entries"):
        _index.normalize((5,), (1, 2))
    with pytest.raises(TypeError, match="slices and ints"):
        _index.normalize((5,), "a")
    with pytest.raises(ValueError, match="device ids"):
        _index.normalize_map((5,), {-1: slice(None)})


def test_modes_by_name_and_identities():
    assert dist.SUM is dist._modes.as_mode("sum") and dist._modes.as_mode(None) is dist.REPLICA
    assert repr(dist.MAX) == "MAX"
    with pytest.raises(RuntimeError, match="unknown mode"):
        dist._modes.as_mode("mean")
    assert dist.SUM == "sum" and dist.SUM != "max" and dist.SUM != dist.MAX
    assert dist.MAX.identity(numpy.int8) == -128 and dist.MIN.identity(numpy.float32) == numpy.inf
    assert dist.PROD.identity(numpy.complex64) == 1
    with pytest.raises(TypeError, match="complex"):
        dist.MAX.identity(numpy.complex128)


# ------------------------------------------------- chunks on one device (CPU or GPU)

# Overlapping, strided and int-indexed chunks, all on device 0.
_MAP = {0: [(slice(0, 3), slice(None)), (slice(2, 6), slice(0, 4)), (slice(None, None, 2), 5),
            (slice(3, 6), slice(3, 6))]}


def _h(dtype=numpy.float64, seed=40):
    rng = numpy.random.default_rng(seed)
    return (rng.standard_normal((6, 6)) * 10).astype(dtype)


def test_round_trip_and_attributes(cp):
    h = _h()
    d = dist.distributed_array(h, _MAP)
    assert d.shape == (6, 6) and d.dtype == numpy.float64 and d.ndim == 2 and d.size == 36
    assert d.mode is dist.REPLICA and d.mode == "replica" and d.devices == frozenset({0})
    assert d.index_map[0][2] == (slice(0, 5, 2), slice(5, 6, 1))
    numpy.testing.assert_array_equal(d.get(), h)
    numpy.testing.assert_array_equal(cp.asnumpy(d), h)
    numpy.testing.assert_array_equal(numpy.asarray(d), h)
    numpy.testing.assert_array_equal(d.asnumpy(), h)
    assert d.comms == {}
    chunks = d.all_chunks()
    assert list(chunks) == [0] and len(chunks[0]) == 4
    numpy.testing.assert_array_equal(chunks[0][2].get(), h[::2, 5:6])
    from_device = dist.distributed_array(cp.asarray(h), _MAP)
    numpy.testing.assert_array_equal(from_device.get(), h)


@pytest.mark.parametrize("mode", ["sum", "max", "min", "prod"])
def test_modes_keep_values(cp, mode):
    h = _h(numpy.float64 if mode != "prod" else numpy.float64, seed=41)
    d = dist.distributed_array(h, _MAP, mode=mode)
    assert d.mode == mode and d.mode == dist._modes.as_mode(mode)
    numpy.testing.assert_allclose(d.get(), h, rtol=1e-12)
    back = d.change_mode("replica")
    numpy.testing.assert_allclose(back.get(), h, rtol=1e-12)
    for c in back._chunks[0]:     # every chunk holds the true values again
        numpy.testing.assert_allclose(c.array.get(), h[_index.to_slices(c.region)], rtol=1e-12)


def test_sum_mode_chunks_add_up(cp):
    # Two chunks of SUM mode covering the same block: the value is their sum.
    h1, h2 = _h(seed=42)[:3, :3], _h(seed=43)[:3, :3]
    d = dist.DistributedArray((3, 3), numpy.float64,
                              {0: [(cp.asarray(h1), (slice(None), slice(None))),
                                   (cp.asarray(h2), (slice(None), slice(None)))]}, dist.SUM)
    numpy.testing.assert_allclose(d.get(), h1 + h2)
    numpy.testing.assert_allclose(d.change_mode(dist.MAX).get(), h1 + h2)


def test_reshard(cp):
    h = _h(numpy.int32, seed=44)
    d = dist.distributed_array(h, _MAP)
    new = {0: [(slice(0, 6, 2), slice(None)), (slice(1, 6, 2), slice(None))]}
    r = d.reshard(new)
    assert r.index_map[0] == [(slice(0, 5, 2), slice(0, 6, 1)), (slice(1, 6, 2), slice(0, 6, 1))]
    numpy.testing.assert_array_equal(r.get(), h)
    numpy.testing.assert_array_equal(r._chunks[0][1].array.get(), h[1::2])
    assert d.reshard(d.index_map) is d


def test_elementwise_and_operators(cp):
    a_h, b_h = _h(seed=45), _h(seed=46)
    a = dist.distributed_array(a_h, _MAP)
    b = dist.distributed_array(b_h, {0: [(slice(0, 6), slice(0, 6))]}, mode="sum")
    numpy.testing.assert_allclose((a + b).get(), a_h + b_h)
    numpy.testing.assert_allclose((a * 2 - 1).get(), a_h * 2 - 1)
    numpy.testing.assert_allclose(numpy.sqrt(abs(a)).get(), numpy.sqrt(abs(a_h)))
    numpy.testing.assert_array_equal((a > b).get(), a_h > b_h)
    c = dist.distributed_array(a_h.copy(), _MAP)
    c += b
    numpy.testing.assert_allclose(c.get(), a_h + b_h)
    assert c.index_map == a.index_map
    with pytest.raises(ValueError, match="shapes"):
        a + dist.distributed_array(a_h[:3], {0: slice(None)})
    with pytest.raises(TypeError, match="scalars"):
        a + cp.asarray(a_h)
    i = dist.distributed_array(numpy.arange(6, dtype=numpy.int64), {0: slice(None)})
    with pytest.raises(TypeError, match="same_kind"):
        i += 0.5


# ------------------------------------------------------------------ one GPU

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int64])
def test_reductions_on_one_gpu(dtype):
    h = _h(dtype, seed=47)
    for name in ("sum", "max", "min", "prod"):
        if name == "prod":      # factors in [1, 3): 36 of them stay finite and exact enough
            h = (numpy.abs(h) % 2 + 1).astype(dtype)
        d = dist.distributed_array(h, _MAP)
        for axis in (None, 0, 1, -1):
            r = getattr(d, name)(axis=axis)
            assert r.mode == name == getattr(dist, name.upper())
            want = getattr(numpy, name)(h, axis=axis)
            numpy.testing.assert_allclose(r.get(), want, rtol=1e-4)
    d = dist.distributed_array(h, _MAP)
    with pytest.raises(numpy.exceptions.AxisError):
        d.sum(axis=2)
    with pytest.raises(RuntimeError, match="keepdims"):
        d.max(axis=0, keepdims=True)
    s64 = d.sum(axis=0, dtype=numpy.float64)
    assert s64.dtype == numpy.float64
    numpy.testing.assert_allclose(s64.get(), h.sum(axis=0, dtype=numpy.float64), rtol=1e-6)


@pytest.mark.gpu
def test_matmul_on_one_gpu():
    rng = numpy.random.default_rng(48)
    a_h = rng.standard_normal((8, 6))
    b_h = rng.standard_normal((6, 5))
    ma = dist.make_2d_index_map([0, 4, 8], [0, 3, 6], [[{0}, {0}], [{0}, {0}]])
    mb = dist.make_2d_index_map([0, 2, 6], [0, 5], [[{0}], [{0}]])
    a = dist.distributed_array(a_h, ma)
    b = dist.distributed_array(b_h, mb, mode="sum")
    c = dist.matmul(a, b)
    assert c.mode == "sum" and c.shape == (8, 5)
    numpy.testing.assert_allclose(c.get(), a_h @ b_h, rtol=1e-12, atol=1e-12)
    numpy.testing.assert_allclose((a @ b).get(), a_h @ b_h, rtol=1e-12, atol=1e-12)
    out = dist.distributed_array(numpy.zeros((8, 5)), {0: [slice(0, 8)]})
    assert dist.matmul(a, b, out=out) is out
    numpy.testing.assert_allclose(out.get(), a_h @ b_h, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="core dimension"):
        dist.matmul(a, a)


# ------------------------------------------------------------------ two GPUs

@pytest.mark.gpu
@pytest.mark.multi_gpu(2)
def test_two_devices_modes_ops_reductions_matmul():
    import cuarray
    rng = numpy.random.default_rng(49)
    h = rng.standard_normal((8, 8))
    m = {0: [(slice(0, 5), slice(None))], 1: [(slice(3, 8), slice(None)), (slice(None), 0)]}
    d = dist.distributed_array(h, m)
    assert d.devices == frozenset({0, 1})
    assert d._chunks[1][0].array.device.id == 1
    numpy.testing.assert_array_equal(d.get(), h)
    s = d.change_mode("sum")
    numpy.testing.assert_allclose(s.get(), h)
    numpy.testing.assert_allclose((d * 3 + s).get(), 4 * h)
    numpy.testing.assert_allclose(d.sum(axis=0).get(), h.sum(axis=0), rtol=1e-12)
    numpy.testing.assert_allclose(d.max(axis=1).get(), h.max(axis=1))
    numpy.testing.assert_allclose(float(d.sum().get()), h.sum(), rtol=1e-12)
    r = d.reshard({1: [slice(None)]})
    assert r.devices == frozenset({1})
    numpy.testing.assert_array_equal(r.get(), h)
    im = dist.make_2d_index_map([0, 4, 8], [0, 4, 8], [[{0}, {1}], [{1}, {0, 1}]])
    a = dist.distributed_array(h, im)
    numpy.testing.assert_allclose(dist.matmul(a, a).get(), h @ h, rtol=1e-12, atol=1e-12)
    with cuarray.cuda.Device(1):
        x = cuarray.asarray(h)
    numpy.testing.assert_array_equal(dist.distributed_array(x, m).get(), h)
