"""The ndarray object against NumPy: `flat` (iteration, indexing, slicing, assignment with
repeated values, copy), `byteswap`, `dump`/`dumps`, `tofile`, `item`/`tolist` on every
dtype, `view(dtype)` with size changes, and non-native byte order input. On the GPU and
through the host emulation."""
import pickle

import numpy
import pytest

from _backends import cp  # noqa: F401

DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "e", "f", "d", "F", "D"]


def _layouts(h):
    """The same values C-ordered, F-ordered, strided and reversed."""
    return [h, numpy.asfortranarray(h), h[:, ::2], h[::-1]]


@pytest.mark.parametrize("dt", ["i4", "d", "D"])
def test_flat_get(cp, dt):
    base = (numpy.arange(24) % 7).astype(dt).reshape(4, 6)
    for h in _layouts(base):
        g = cp.asarray(h)
        f, nf = g.flat, h.flat
        assert len(f) == len(nf) and f.base is g
        for key in (0, 5, -1, slice(None), slice(2, 9), slice(None, None, -3), slice(7, 1, -2),
                    Ellipsis, [0, 3, 3], numpy.array([1, 0])):
            got, want = f[key], nf[key]
            numpy.testing.assert_array_equal(got.get() if hasattr(got, "get") else got, want)
        numpy.testing.assert_array_equal(f.copy().get(), nf.copy())
        assert [int(v.real) if dt == "D" else v.item() for v in cp.asarray(h[:2, :2]).flat] == \
            [int(v.real) if dt == "D" else v.item() for v in h[:2, :2].flat]
        with pytest.raises(IndexError):
            f[h.size]
        with pytest.raises(IndexError):
            f[0, 1]


@pytest.mark.gpu  # boolean masks compact on the device: no host emulation
def test_flat_boolean_mask():
    import cuarray
    h = numpy.arange(24.0).reshape(4, 6)[:, ::-2]
    g = cuarray.asarray(numpy.arange(24.0).reshape(4, 6))[:, ::-2]
    m = h.ravel() > 7
    numpy.testing.assert_array_equal(g.flat[m].get(), h.flat[m])
    numpy.testing.assert_array_equal(g.flat[cuarray.asarray(m)].get(), h.flat[m])
    h2 = h.copy()
    g.flat[m] = [-1, -2]
    h2.flat[m] = [-1, -2]
    numpy.testing.assert_array_equal(g.get(), h2)


def test_flat_set_contiguous(cp):
    h = numpy.zeros((3, 4), "f")
    g = cp.asarray(h)
    for key, val in ((3, 7), (slice(1, 11, 4), 5), (slice(None), [1, 2, 3]), ([0, 5, 9], [4, 6])):
        h.flat[key] = val
        g.flat[key] = val
        numpy.testing.assert_array_equal(g.get(), h)


@pytest.mark.gpu  # strided targets are written through unravel_index's checked kernel
@pytest.mark.parametrize("dt", ["i4", "f"])
def test_flat_set(dt):
    import cuarray as cp
    base = numpy.zeros((4, 6), dt)
    for h0 in _layouts(base):
        for key, val in ((3, 7), (slice(1, 20, 4), 5), (slice(None), [1, 2, 3]), ([0, 5, 9], [4, 6]),
                         (slice(None, None, -5), numpy.arange(3)), (Ellipsis, 2), (slice(3, 3), 9)):
            h = h0.copy(order="K") if h0.flags.c_contiguous or h0.flags.f_contiguous else h0.copy()
            g = cp.asarray(h0) if not (h0.flags.c_contiguous or h0.flags.f_contiguous) else cp.asarray(h)
            if not (h0.flags.c_contiguous or h0.flags.f_contiguous):
                # A strided view of a bigger device array: writes land in the parent.
                parent_h = numpy.zeros((4, 12), dt)
                parent_g = cp.asarray(parent_h)
                h, g = parent_h[:, ::2], parent_g[:, ::2]
            h.flat[key] = val
            g.flat[key] = cp.asarray(numpy.asarray(val, dt)) if isinstance(val, list) else val
            numpy.testing.assert_array_equal(g.get(), h)
    g = cp.zeros((2, 3), dt)
    g.flat = 4
    numpy.testing.assert_array_equal(g.get(), numpy.full((2, 3), 4, dt))


@pytest.mark.parametrize("dt", DTYPES)
def test_byteswap(cp, dt):
    h = (numpy.arange(12) * 37 % 251).astype(dt).reshape(3, 4)
    for hv in _layouts(h):
        g = cp.asarray(hv)
        got = g.byteswap()
        assert got.dtype == hv.dtype
        numpy.testing.assert_array_equal(got.get().view(numpy.uint8), hv.byteswap().view(numpy.uint8)
                                         if hv.flags.c_contiguous else
                                         numpy.ascontiguousarray(hv.byteswap()).view(numpy.uint8))
    g = cp.asarray(h)
    r = g.byteswap(inplace=True)
    assert r is g
    numpy.testing.assert_array_equal(g.get().view(numpy.uint8), h.byteswap().view(numpy.uint8))


@pytest.mark.parametrize("dt", ["<i4", ">i4", ">f8", ">c16", ">u2", "<f4"])
def test_non_native_byte_order_input(cp, dt):
    h = numpy.array([[1, 2, 300], [-4 if dt[1] != "u" else 4, 5, 6]], dt)
    g = cp.asarray(h)
    assert g.dtype.isnative and g.dtype == h.dtype.newbyteorder("=")
    numpy.testing.assert_array_equal(g.get(), h)
    numpy.testing.assert_array_equal((g + 1).get(), h + 1)


def test_dump_dumps_tofile(cp, tmp_path):
    h = numpy.arange(6.0).reshape(2, 3)
    g = cp.asarray(h)
    r = pickle.loads(g.dumps())
    assert isinstance(r, cp.ndarray)
    numpy.testing.assert_array_equal(r.get(), h)
    g.dump(tmp_path / "a.pkl")
    with open(tmp_path / "a.pkl", "rb") as f:
        numpy.testing.assert_array_equal(pickle.load(f).get(), h)
    with open(tmp_path / "b.pkl", "wb") as f:
        g.dump(f)
    with open(tmp_path / "b.pkl", "rb") as f:
        numpy.testing.assert_array_equal(pickle.load(f).get(), h)
    g.tofile(tmp_path / "c.bin")
    numpy.testing.assert_array_equal(numpy.fromfile(tmp_path / "c.bin").reshape(2, 3), h)
    g.tofile(tmp_path / "d.txt", sep=",", format="%.1f")
    assert (tmp_path / "d.txt").read_text() == "0.0,1.0,2.0,3.0,4.0,5.0"


@pytest.mark.parametrize("dt", DTYPES)
def test_item_tolist(cp, dt):
    h = (numpy.arange(6) % 4).astype(dt).reshape(2, 3)
    g = cp.asarray(h)
    assert g.tolist() == h.tolist()
    assert g.item(4) == h.item(4) and g.item(1, 2) == h.item(1, 2)
    assert type(g[1, 1].item()) is type(h[1, 1].item())
    assert cp.asarray(h[0, 0]).tolist() == h[0, 0].tolist()
    with pytest.raises(ValueError):
        g.item()


@pytest.mark.parametrize("src,dst", [("i4", "i2"), ("i2", "i8"), ("f8", "u1"), ("u1", "f4"),
                                     ("c16", "f8"), ("f4", "c8")])
def test_view_changes_itemsize(cp, src, dst):
    h = numpy.arange(16).astype(src).reshape(2, -1)
    g = cp.asarray(h)
    try:
        want = h.view(dst)
    except ValueError:
        with pytest.raises(ValueError):
            g.view(dst)
        return
    got = g.view(dst)
    assert got.shape == want.shape and got.dtype == want.dtype
    numpy.testing.assert_array_equal(got.get(), want)
    with pytest.raises(ValueError):
        g[:, ::2].view(dst) if numpy.dtype(dst).itemsize != numpy.dtype(src).itemsize else \
            g.view("V3")


@pytest.mark.gpu  # wrapping a foreign pointer queries the driver
def test_big_endian_cuda_array_interface():
    import cuarray
    h = numpy.array([1, -2, 300, 70000], ">i4")
    raw = cuarray.asarray(h.view(numpy.uint8))   # the big-endian bytes, on the device

    class BigEndian:
        __cuda_array_interface__ = {"shape": (4,), "typestr": ">i4", "data": (raw.data.ptr, False),
                                    "version": 3, "strides": None, "stream": None}

    g = cuarray.asarray(BigEndian())
    assert g.dtype == numpy.dtype("i4")
    numpy.testing.assert_array_equal(g.get(), h)
    numpy.testing.assert_array_equal((g * 2).get(), h * 2)
