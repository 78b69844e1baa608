"""ndarray core against NumPy: creation, transfer, views, basic indexing, casts, printing."""
import pickle

import numpy
import pytest

import cuarray
from cuarray import testing

pytestmark = pytest.mark.gpu

SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4), (1, 7, 1)]


@testing.for_all_dtypes()
@pytest.mark.parametrize("shape", SHAPES)
def test_roundtrip(dtype, shape):
    a = testing.shaped_random(shape, numpy, dtype)
    g = cuarray.asarray(a)
    assert g.shape == a.shape and g.dtype == a.dtype and g.size == a.size and g.ndim == a.ndim
    assert g.nbytes == a.nbytes and g.itemsize == a.itemsize
    if a.size:
        assert g.strides == a.strides
    numpy.testing.assert_array_equal(g.get(), a)
    numpy.testing.assert_array_equal(cuarray.asnumpy(g), a)


@testing.for_all_dtypes()
@testing.for_CF_orders()
@testing.numpy_cupy_array_equal()
def test_noncontiguous_transfer(xp, dtype, order):
    a = testing.shaped_random((6, 7, 5), xp, dtype, order=order)
    return a[::2, 1::3, ::-1]


@testing.for_all_dtypes()
def test_set_noncontiguous(dtype):
    host = testing.shaped_random((4, 6), numpy, dtype)
    g = cuarray.zeros((4, 12), dtype)
    view = g[:, ::2]
    view.set(host)
    expect = numpy.zeros((4, 12), dtype)
    expect[:, ::2] = host
    numpy.testing.assert_array_equal(g.get(), expect)


def test_fortran_order_kept():
    a = numpy.asfortranarray(numpy.arange(12.0).reshape(3, 4))
    g = cuarray.asarray(a)
    assert g.flags.f_contiguous and not g.flags.c_contiguous
    assert g.strides == a.strides
    numpy.testing.assert_array_equal(g.get(order="F"), a)
    assert g.get(order="F").flags.f_contiguous


def test_get_out_and_stream():
    g = cuarray.arange(10, dtype=numpy.float32)
    out = numpy.empty(10, numpy.float32)
    s = cuarray.cuda.Stream()
    r = g.get(stream=s, out=out)
    s.synchronize()
    assert r is out
    numpy.testing.assert_array_equal(out, numpy.arange(10, dtype=numpy.float32))


def test_large_transfer_pinned_staging():
    a = numpy.random.default_rng(7).random(40 * 1024 * 1024 // 8 * 3 + 7)  # > 64 MiB: chunked staging path
    g = cuarray.asarray(a)
    numpy.testing.assert_array_equal(g.get(), a)


@pytest.mark.parametrize("dtype", ["U3", "S3", object])
def test_non_numeric_refused(dtype):
    with pytest.raises(TypeError, match="structured dtypes; got"):
        cuarray.empty(3, dtype)
    with pytest.raises(TypeError, match="structured dtypes; got"):
        cuarray.asarray(numpy.zeros(3, dtype))


@testing.for_all_dtypes()
@testing.for_CF_orders()
@testing.numpy_cupy_array_equal()
def test_creation(xp, dtype, order):
    return (xp.zeros((3, 4), dtype, order), xp.ones((2, 5), dtype, order),
            xp.full((2, 3), 3, dtype, order), xp.empty((0, 3), dtype, order))


@testing.numpy_cupy_array_equal()
def test_like(xp):
    a = xp.ones((3, 2), numpy.int16, order="F")
    assert xp.empty_like(a).shape == (3, 2) and xp.ones_like(a).flags.f_contiguous
    return (xp.zeros_like(a), xp.ones_like(a, dtype=numpy.float32), xp.full_like(a, 7),
            xp.zeros_like(a, shape=(4,)))


@pytest.mark.parametrize("args", [(10,), (2, 11, 3), (5, 0, -1), (0, 1, 0.1), (1.5, 4), (3, 3), (10, 1),
                                  (0, 5, 1, numpy.float32), (-3, 3, 1, numpy.int8)])
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_arange(xp, args):
    return xp.arange(*args)


@testing.numpy_cupy_array_equal()
def test_array_ndmin_and_nested(xp):
    return xp.array([[1, 2], [3, 4]], dtype=numpy.int8, ndmin=4), xp.array(3.5), xp.array([True, False])


def test_array_from_device_list():
    a, b = cuarray.arange(3), cuarray.arange(3, 6)
    numpy.testing.assert_array_equal(cuarray.array([a, b]).get(), [[0, 1, 2], [3, 4, 5]])


def test_asarray_no_copy():
    a = cuarray.arange(5)
    assert cuarray.asarray(a) is a
    assert cuarray.asarray(a, dtype=a.dtype) is a
    assert cuarray.array(a) is not a


KEYS = [(1,), (-1,), (slice(None),), (slice(1, None, 2),), (slice(None, None, -1),), (Ellipsis, 1),
        (None, 0), (1, None, slice(None, None, -2)), (slice(0, 0),), (Ellipsis,), (-2, Ellipsis, None),
        (slice(10, 20),), (0, 1, 2), (numpy.int64(1), slice(None, 2))]


@pytest.mark.parametrize("key", KEYS)
@testing.numpy_cupy_array_equal()
def test_basic_getitem(xp, key):
    a = testing.shaped_arange((3, 4, 5), xp)
    return a[key]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("value", ["scalar", "array"])
@testing.numpy_cupy_array_equal()
def test_basic_setitem(xp, key, value):
    a = testing.shaped_arange((3, 4, 5), xp)
    shape = a[key].shape
    v = 7 if value == "scalar" else testing.shaped_random(shape[-1:] if shape else (), xp)
    a[key] = v
    return a


def test_setitem_overlapping():
    a = cuarray.arange(10)
    a[1:] = a[:-1]
    b = numpy.arange(10)
    b[1:] = b[:-1]
    numpy.testing.assert_array_equal(a.get(), b)


@pytest.mark.parametrize("key", [(3, 0), (0, 0, 0, 0), (Ellipsis, Ellipsis), (-4,)])
def test_index_errors(key):
    a = cuarray.zeros((3, 4))
    with pytest.raises(IndexError):
        a[key]


@pytest.mark.parametrize("shape,new", [((12,), (3, 4)), ((3, 4), (-1,)), ((3, 4), (2, -1, 2)),
                                       ((2, 3, 4), (6, 4)), ((0, 3), (3, 0)), ((), (1, 1)), ((4,), 4)])
@testing.for_orders("CFA")
@testing.numpy_cupy_array_equal()
def test_reshape(xp, shape, new, order):
    return testing.shaped_arange(shape, xp).reshape(new, order=order)


@testing.numpy_cupy_array_equal()
def test_reshape_noncontiguous_copies(xp):
    a = testing.shaped_arange((4, 6), xp)[:, ::2]
    return a.reshape(12), a.T.reshape(3, 4), a.ravel(), a.flatten("F"), a.ravel("K")


def test_reshape_views():
    a = cuarray.arange(24)
    v = a.reshape(4, 6)
    v[0, 0] = 100
    assert int(a[0]) == 100
    assert v.base is a
    with pytest.raises(ValueError, match="cannot reshape"):
        a.reshape(5, 5)
    with pytest.raises(ValueError, match="one unknown"):
        a.reshape(-1, -1)


@testing.numpy_cupy_array_equal()
def test_transpose_family(xp):
    a = testing.shaped_arange((2, 3, 4), xp)
    return (a.T, a.transpose(1, 0, 2), a.transpose((2, 0, 1)), a.swapaxes(0, 2), a.mT,
            a[:, :1].squeeze(1), a.reshape(2, 1, 3, 1, 4).squeeze(), a[:, None])


@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_copy_orders(xp, dtype):
    a = testing.shaped_random((3, 5), xp, dtype)[:, ::2]
    return a.copy(), a.copy("F"), a.copy("F").flags.f_contiguous, a.copy("K")


@testing.for_all_dtypes(name="src")
@testing.for_all_dtypes(name="dst")
@testing.numpy_cupy_array_equal()
def test_astype_all_pairs(xp, src, dst):
    a = testing.shaped_random((4, 3), xp, src)
    if numpy.dtype(src).kind == "c" and numpy.dtype(dst).kind != "c":
        a = a.real.copy()  # NumPy warns on complex -> real; compare the real-part cast
    return a.astype(dst)


def test_astype_casting_and_copy():
    a = cuarray.arange(3, dtype=numpy.float64)
    with pytest.raises(TypeError, match="Cannot cast array data"):
        a.astype(numpy.int32, casting="safe")
    assert a.astype(numpy.float64, copy=False) is a
    assert a.astype(numpy.float32, casting="same_kind").dtype == numpy.float32


@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_view_dtype(xp, dtype):
    a = testing.shaped_arange((4, 8), xp, numpy.uint8)
    if 8 % numpy.dtype(dtype).itemsize:
        return a
    return a.view(dtype)


def test_view_errors():
    a = cuarray.zeros((4, 3), numpy.uint8)
    with pytest.raises(ValueError):
        a.view(numpy.float32)
    with pytest.raises(ValueError):
        a.T.view(numpy.uint16)


@testing.for_all_dtypes()
def test_fill_and_scalars(dtype):
    a = cuarray.empty((2, 3), dtype)
    a.fill(1)
    numpy.testing.assert_array_equal(a.get(), numpy.ones((2, 3), dtype))
    one = cuarray.ones((1, 1), dtype)
    assert bool(one) is True
    assert one.item() == numpy.ones(1, dtype).item()
    assert one.tolist() == [[numpy.ones(1, dtype).item()]]
    if numpy.dtype(dtype).kind != "c":
        assert int(one) == 1 and float(one) == 1.0
    assert complex(one) == 1


def test_scalar_conversion_errors():
    a = cuarray.zeros(3)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(a)
    with pytest.raises(TypeError):
        int(a)
    with pytest.raises(ValueError):
        a.item()
    with pytest.raises(TypeError):
        len(cuarray.zeros(()))
    with pytest.raises(TypeError):
        iter(cuarray.zeros(()))
    with pytest.raises(TypeError, match="integer scalar"):
        [1, 2][cuarray.zeros((), numpy.float32)]
    assert [1, 2, 3][cuarray.ones((), numpy.int64)] == 2


def test_implicit_numpy_conversion_refused():
    a = cuarray.zeros(3)
    with pytest.raises(TypeError, match="asnumpy"):
        numpy.asarray(a)


def test_iter_and_len():
    a = cuarray.arange(6).reshape(3, 2)
    assert len(a) == 3
    assert [r.tolist() for r in a] == [[0, 1], [2, 3], [4, 5]]


@testing.for_all_dtypes()
@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3), (3, 1, 2), (1001,)])
def test_repr_str_match_numpy(dtype, shape):
    a = testing.shaped_random(shape, numpy, dtype)
    g = cuarray.asarray(a)
    assert repr(g) == repr(a)
    assert str(g) == str(a)


def test_flags_and_attributes():
    a = cuarray.zeros((3, 4), numpy.float32)
    assert a.flags.c_contiguous and a.flags["C_CONTIGUOUS"] and a.flags.owndata
    v = a[:, ::2]
    assert not v.flags.c_contiguous and not v.flags.owndata and v.base is a
    assert a.device.id == cuarray.cuda.Device().id
    assert a.data.ptr == v.data.ptr
    c = cuarray.zeros(3, numpy.complex64)
    assert c.real.dtype == numpy.float32 and c.imag.strides == (8,)
    c.imag = 2
    assert c.get().tolist() == [2j, 2j, 2j]
    assert cuarray.zeros(3).imag.get().tolist() == [0, 0, 0]


def test_ndarray_constructor():
    mem = cuarray.cuda.alloc(64)
    a = cuarray.ndarray((2, 4), numpy.float32, mem, strides=(4, 8))
    assert a.strides == (4, 8) and not a.flags.c_contiguous
    b = cuarray.ndarray((3,), numpy.int16)
    assert b.shape == (3,) and b.flags.owndata is True or b.flags.owndata is False
    with pytest.raises(ValueError):
        cuarray.ndarray((-1,))


def test_pickle_and_copy():
    import copy
    a = cuarray.arange(5.0)
    for b in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        numpy.testing.assert_array_equal(b.get(), a.get())
        assert b.data.ptr != a.data.ptr


@pytest.mark.gpu
@pytest.mark.multi_gpu(2)
def test_cross_device_copy():
    x = cuarray.arange(10)
    with cuarray.cuda.Device(1):
        y = cuarray.asarray(x)
        assert y.device.id == 1
        numpy.testing.assert_array_equal(y.get(), numpy.arange(10))
