"""Structured dtypes against NumPy, on the GPU and on the emulated device (the `xp`
variants): creation from NumPy, copies, views, field access and assignment, indexing;
make_aligned_dtype's layouts (host only); CuPy's field views where CuPy is installed."""
import numpy
import pytest

from emulation import pytest_generate_tests  # noqa: F401  (the xp variants)

import cuarray

DT = numpy.dtype([("a", "i4"), ("b", "f8", (3,)), ("c", [("x", "i2"), ("y", "u1")])])
PACKED = numpy.dtype([("u", "u1"), ("v", "f8"), ("w", "i4")])          # v and w misaligned
ALIGNED = numpy.dtype([("u", "u1"), ("v", "f8"), ("w", "i4")], align=True)


def _host(dt, shape, seed):
    rng = numpy.random.default_rng(seed)
    h = numpy.zeros(shape, dt)
    raw = rng.integers(0, 256, h.nbytes, dtype=numpy.uint8)
    h.view(numpy.uint8).reshape(-1)[:] = raw
    for name in dt.names:       # NaN-free floats, so that values compare equal
        if h[name].dtype.kind == "f":
            h[name] = rng.uniform(-5, 5, h[name].shape)
    return h


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    g = got.get()
    if want.dtype.names:    # field by field: NumPy's copies leave padding bytes unset
        numpy.testing.assert_array_equal(g, want)
    else:
        assert g.tobytes() == numpy.ascontiguousarray(want).tobytes()


@pytest.mark.parametrize("dt", [DT, PACKED, ALIGNED])
def test_round_trip_copy_and_views(xp, dt):
    cp = xp
    h = _host(dt, (4, 5), 0) if dt.names else numpy.frombuffer(bytes(range(120)), dt).reshape(4, 5)
    g = cp.asarray(h)
    assert (g.shape, g.strides, g.itemsize, g.dtype) == (h.shape, h.strides, h.itemsize, h.dtype)
    _same(g, h)
    _same(g.copy(), h)
    _same(g.astype(dt), h)
    _same(g[1:3, ::2], h[1:3, ::2])
    _same(g.T, h.T)
    _same(g[::-1, 1].copy(), h[::-1, 1])
    _same(cp.zeros((2, 3), dt), numpy.zeros((2, 3), dt))
    assert cp.empty(3, dt).dtype == dt
    idx = numpy.array([3, 0, 0, 2])
    _same(g[cp.asarray(idx)], h[idx])
    _same(g[:, cp.asarray(numpy.array([True, False, True, True, False]))],
          h[:, numpy.array([True, False, True, True, False])])
    assert g[2, 3].get().tobytes() == h[2, 3].tobytes()


def test_big_endian_fields_become_native(xp):
    h = _host(DT, 6, 1).astype(DT.newbyteorder(">"))
    g = xp.asarray(h)
    assert g.dtype.isnative
    numpy.testing.assert_array_equal(g["a"].get(), h["a"])
    numpy.testing.assert_array_equal(g["b"].get(), h["b"])


@pytest.mark.parametrize("dt", [DT, PACKED, ALIGNED])
def test_field_access(xp, dt):
    cp = xp
    h = _host(dt, (3, 4), 2)
    g = cp.asarray(h)
    for name in dt.names:
        v, w = g[name], h[name]
        assert (v.shape, v.strides, v.dtype) == (w.shape, w.strides, w.dtype)
        assert v.base is g or v.base is g.base
        if w.dtype.names:
            for sub in w.dtype.names:
                numpy.testing.assert_array_equal(v[sub].get(), w[sub])
        else:
            numpy.testing.assert_array_equal(v.get(), w)
            numpy.testing.assert_array_equal(v[1:, ::2].get(), w[1:, ::2])
            numpy.testing.assert_array_equal(v.copy().get(), w)
            numpy.testing.assert_array_equal(v.astype(numpy.float64).get(), w.astype(numpy.float64))
    two = list(dt.names[::2])
    assert g[two].dtype == h[two].dtype
    _same(g[two].copy(), h[two])


@pytest.mark.parametrize("dt", [DT, PACKED])
def test_field_assignment(xp, dt):
    cp = xp
    h = _host(dt, (3, 4), 3)
    g = cp.asarray(h)
    first = dt.names[0]
    h[first] = 7
    g[first] = 7
    _same(g, h)
    second = dt.names[1]
    vals = numpy.arange(h[second].size, dtype=h[second].dtype).reshape(h[second].shape)
    h[second] = vals
    g[second] = cp.asarray(vals)
    _same(g, h)
    h[first][1:, 2] = 3
    g[first][1:, 2] = 3
    _same(g, h)
    if dt is DT:
        h["c"]["y"] = 9
        g["c"]["y"] = 9
        h["c"] = numpy.zeros((), DT["c"])
        g["c"] = numpy.zeros((), DT["c"])
        _same(g, h)
    h2 = _host(dt, (3, 4), 4)
    h[1] = h2[2]
    g[1] = cp.asarray(h2)[2]
    _same(g, h)
    h[[0, 2]] = h2[[1, 1]]
    g[cp.asarray(numpy.array([0, 2]))] = cp.asarray(h2[[1, 1]])
    _same(g, h)
    h.fill(0)
    g.fill(0)
    _same(g, h)
    h[...] = 5
    g[...] = 5
    _same(g, h)
    names = [dt.names[0], dt.names[-1]]
    other = _host(dt, (3, 4), 5)
    h[names] = other[names]
    g[names] = cp.asarray(other)[names]
    _same(g, h)


def test_errors(xp):
    cp = xp
    g = cp.asarray(_host(DT, 4, 6))
    with pytest.raises(ValueError, match="no field of name z"):
        g["z"]
    with pytest.raises(IndexError):
        cp.arange(3)["a"]
    with pytest.raises(TypeError):
        g + g
    with pytest.raises(TypeError):
        cp.sin(g)
    with pytest.raises(TypeError, match="Cannot cast"):
        g.astype(numpy.float32)
    with pytest.raises(TypeError, match="structured"):
        cp.arange(3.0).astype(DT)
    with pytest.raises(TypeError):
        cp.empty(3, [("a", "i4"), ("o", object)])
    with pytest.raises(TypeError, match="numeric fields only"):
        cp.asarray(numpy.zeros(3, [("a", "i4"), ("s", "U3")]))
    with pytest.raises(TypeError):
        cp.empty(3, "V8")


def test_make_aligned_dtype():
    d = cuarray.make_aligned_dtype([("u", "u1"), ("v", "f8"), ("w", "i4")])
    assert d.fields["v"][1] == 8 and d.fields["w"][1] == 16 and d.itemsize == 24
    c = cuarray.make_aligned_dtype([("a", "u1"), ("z", "c16")])
    assert c.fields["z"][1] == 16 and c.itemsize == 32      # complex<double> aligns to 16
    big = cuarray.make_aligned_dtype([("a", "f4")], alignment=16)
    assert big.itemsize == 16 and big.metadata["__cuda_alignment__"] == 16
    nested = cuarray.make_aligned_dtype([("p", "u1"), ("s", big)])
    assert nested.fields["s"][1] == 16 and nested.itemsize == 32
    inner = numpy.dtype([("x", "u1"), ("y", "i4")])   # packed, recursed into by default
    assert cuarray.make_aligned_dtype([("s", inner)]).fields["s"][0].fields["y"][1] == 4
    assert cuarray.make_aligned_dtype([("s", inner)], recurse=False).fields["s"][0] == inner
    assert cuarray.make_aligned_dtype("f8") == numpy.dtype("f8")
    with pytest.raises(ValueError):
        cuarray.make_aligned_dtype([("a", "f8")], alignment=4)
    with pytest.raises(ValueError):
        cuarray.make_aligned_dtype([("a", "f8")], alignment=3)
    with pytest.raises(ValueError):
        cuarray.make_aligned_dtype("f4", alignment=8)
    with pytest.raises(ValueError):
        cuarray.make_aligned_dtype({"names": ["a", "b"], "formats": ["i4", "i4"], "offsets": [4, 0]})


@pytest.mark.gpu
def test_fields_as_cupy():
    cupy = pytest.importorskip("cupy")
    h = _host(ALIGNED, (3, 4), 8)
    g, c = cuarray.asarray(h), cupy.asarray(h)
    assert (g.shape, g.strides, g.dtype) == (c.shape, c.strides, c.dtype)
    for name in ALIGNED.names:
        v, w = g[name], c[name]
        assert (v.shape, v.strides, v.dtype) == (w.shape, w.strides, w.dtype)
        numpy.testing.assert_array_equal(v.get(), w.get())
    g["w"] = 5
    c["w"] = 5
    numpy.testing.assert_array_equal(g.get(), c.get())
    assert cuarray.make_aligned_dtype(PACKED) == cupy.make_aligned_dtype(PACKED)
    assert cuarray.make_aligned_dtype([("a", "f4")], alignment=16) == \
        cupy.make_aligned_dtype([("a", "f4")], alignment=16)


@pytest.mark.gpu   # the emulated device cannot look up a foreign pointer
def test_cuda_array_interface_carries_fields():
    cp = cuarray
    h = _host(DT, 5, 9)
    g = cp.asarray(h)
    desc = g.__cuda_array_interface__
    assert numpy.dtype(desc["descr"]) == DT and desc["typestr"] == DT.str

    class Holder:
        __cuda_array_interface__ = dict(desc, stream=None)
    v = cp.asarray(Holder())
    assert v.dtype == DT
    _same(v, h)
