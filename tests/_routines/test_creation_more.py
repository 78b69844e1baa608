"""Creation routines against NumPy: eye/identity, numerical ranges, grids, matrices, functional
and file creation; CPU tests compile every kernel with NVRTC."""
import io

import numpy
import pytest

import cuarray
from cuarray import testing
from cuarray._routines import creation_more as cm
from cuarray._routines import io as cio

gpu = pytest.mark.gpu


def _rand(xp, shape, dtype, seed=0, scale=10):
    return testing.shaped_random(shape, xp, dtype, scale=scale, seed=seed)


# ---- CPU: kernels compile --------------------------------------------------------------------------
def _compile(op, ndim=None):
    pytest.importorskip("cuda.bindings")
    from cuarray._core.elementwise import generate
    from cuarray._runtime.compiler import compile_cubin
    raw_info = [(1, True) if p.role == "raw" else None for p in op.params]
    src, _ = generate(op, [p.dtype for p in op.params], raw_info, ndim, 1, False)
    assert compile_cubin(src, op.options, arch="sm_90", name=op.name)[0]


@pytest.mark.parametrize("dtype", ["e", "f", "d", "F", "D"])
def test_range_kernels_compile(dtype):
    dt = numpy.dtype(dtype)
    _compile(cm._range_op(dt, ("scalar",) * 5))
    _compile(cm._range_op(dt, ("in", "scalar", "in", "in", "in")), ndim=2)


def test_linspace_refuses_host_arrays():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cm.linspace(numpy.zeros(2), 1.0)


# ---- GPU: eye and identity ------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("N,M,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (3, 3, 5), (3, 3, -7), (0, 2, 0)])
@pytest.mark.parametrize("order", ["C", "F"])
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_eye(xp, dtype, N, M, k, order):
    return xp.eye(N, M, k, dtype, order), xp.identity(N, dtype)


@gpu
@testing.numpy_cupy_raises()
def test_eye_negative(xp):
    xp.eye(-1)


# ---- GPU: ranges ------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("start,stop", [(0, 1), (-3.5, 2.25), (10, -10), (1e-300, 2e-300), (5, 5)])
@pytest.mark.parametrize("num", [0, 1, 2, 7, 50, 1000])
@pytest.mark.parametrize("endpoint", [True, False])
@testing.numpy_cupy_array_equal()
def test_linspace_scalars(xp, start, stop, num, endpoint):
    y, step = xp.linspace(start, stop, num, endpoint=endpoint, retstep=True)
    return y, xp.asarray(step)


@gpu
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.int32, numpy.int8, numpy.uint8,
                                   numpy.float64])
@testing.numpy_cupy_array_equal()
def test_linspace_dtypes(xp, dtype):
    return (xp.linspace(0, 100, 13, dtype=dtype), xp.linspace(numpy.float32(0.1), 7, 9),
            xp.linspace(numpy.float16(1), 2, 5), xp.linspace(-5, 37, 11, dtype=dtype, endpoint=False))


@gpu
@testing.numpy_cupy_allclose(rtol=1e-12)
def test_linspace_complex(xp):
    return xp.linspace(0, 1 + 2j, 9), xp.linspace(1j, -3, 4, endpoint=False, dtype=numpy.complex64)


@gpu
@pytest.mark.parametrize("axis", [0, 1, -1])
@testing.numpy_cupy_array_equal()
def test_linspace_arrays(xp, axis):
    start = _rand(xp, (3,), numpy.float64)
    stop = _rand(xp, (2, 3), numpy.float64, 1)
    same = xp.zeros(3)
    y1, s1 = xp.linspace(start, stop, 6, retstep=True, axis=axis)
    return (y1, s1, xp.linspace(start, 5.0, 4, endpoint=False, axis=axis),
            xp.linspace(-1, stop, 5, axis=axis), xp.linspace(same, same, 3),
            xp.linspace(start, stop, 1, axis=axis), xp.linspace(start, stop, 0, axis=axis),
            xp.linspace(start.astype(numpy.float32), stop.astype(numpy.float32), 4, axis=axis,
                        dtype=numpy.int64))


@gpu
@pytest.mark.parametrize("call", [lambda xp: xp.linspace(0, 1, -1), lambda xp: xp.linspace(0, 1, 2.5)])
@testing.numpy_cupy_raises()
def test_linspace_errors(xp, call):
    call(xp)


@gpu
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_logspace(xp):
    base = xp.asarray(numpy.array([2.0, 3.0, 10.0]))
    return (xp.logspace(0, 3, 7), xp.logspace(1, -1, 5, base=2, endpoint=False),
            xp.logspace(numpy.float32(0), numpy.float32(1), 5), xp.logspace(0, 2, 4, dtype=numpy.int32),
            xp.logspace(0, 1, 4, base=base), xp.logspace(0, 1, 3, base=base, axis=1),
            xp.logspace(_rand(xp, (2,), numpy.float64), 2, 3))


@gpu
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_geomspace(xp):
    return (xp.geomspace(1, 1000, 4), xp.geomspace(-1000, -1, 4), xp.geomspace(1, 256, 9, endpoint=False),
            xp.geomspace(1j, 1000j, 4), xp.geomspace(-1 + 0j, 1 + 0j, 3), xp.geomspace(1, 10, 5, dtype=int),
            xp.geomspace(numpy.float32(2), numpy.float32(20), 4, dtype=numpy.float32),
            xp.geomspace(1, 2, 1), xp.geomspace(1, 2, 0),
            xp.geomspace(xp.asarray(numpy.array([1.0, 2.0])), 16.0, 5, axis=1))


@gpu
@pytest.mark.parametrize("call", [lambda xp: xp.geomspace(0, 1, 3),
                                  lambda xp: xp.geomspace(xp.asarray(numpy.array([1.0, 0.0])), 1, 3)])
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_geomspace_zero(xp, call):
    call(xp)


# ---- GPU: grids -------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [False, True])
@testing.numpy_cupy_array_list_equal()
def test_meshgrid(xp, indexing, sparse, copy):
    x = _rand(xp, (3,), numpy.float32)
    y = _rand(xp, (4,), numpy.float32, 1)
    z = _rand(xp, (2,), numpy.int32, 2)
    out = list(xp.meshgrid(x, y, z, indexing=indexing, sparse=sparse, copy=copy))
    out += list(xp.meshgrid(x, y, indexing=indexing, sparse=sparse, copy=copy))
    return out + list(xp.meshgrid(x, indexing=indexing)) + list(xp.meshgrid())


@gpu
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_meshgrid_bad_indexing(xp):
    xp.meshgrid(xp.zeros(2), indexing="x")


@gpu
@testing.numpy_cupy_array_equal()
def test_mgrid(xp):
    return (xp.mgrid[0:5], xp.mgrid[0:5:2], xp.mgrid[-1:1:5j], xp.mgrid[0:3, 0:4], xp.mgrid[0:1:3j, 0:4:2],
            xp.mgrid[1:2:0.25, -2:0])


@gpu
@testing.numpy_cupy_array_list_equal()
def test_ogrid(xp):
    return list(xp.ogrid[0:3, 0:4]) + list(xp.ogrid[0:1:3j, 2:5:0.5]) + [xp.ogrid[0:5], xp.ogrid[0:1:4j]]


# ---- GPU: building matrices -------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("k", [0, 1, -2, 5])
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_diag(xp, dtype, k):
    v = _rand(xp, (4,), dtype)
    a = _rand(xp, (3, 5), dtype, 1)
    return (xp.diag(v, k), xp.diag(a, k), xp.diag(a.T, k), xp.diag(v[::-1], k), xp.diagflat(a, k),
            xp.diagflat(v, k))


@gpu
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_diag_3d(xp):
    xp.diag(xp.zeros((2, 2, 2)))


@gpu
@pytest.mark.parametrize("N,M,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (3, 3, 9), (3, 3, -9), (0, 3, 0)])
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_tri(xp, dtype, N, M, k):
    return xp.tri(N, M, k, dtype)


@gpu
@pytest.mark.parametrize("k", [0, 1, -1, 3, -4])
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_tril_triu(xp, dtype, k):
    a = _rand(xp, (3, 4), dtype)
    b = _rand(xp, (2, 4, 3), dtype, 1)
    v = _rand(xp, (4,), dtype, 2)
    return (xp.tril(a, k), xp.triu(a, k), xp.tril(b, k), xp.triu(b.transpose(0, 2, 1), k), xp.tril(v, k),
            xp.triu(v, k), xp.tril(a[:, ::-1], k))


@gpu
@pytest.mark.parametrize("N", [None, 0, 1, 4])
@pytest.mark.parametrize("increasing", [False, True])
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_allclose(rtol={numpy.float32: 1e-6, numpy.complex64: 1e-6, "default": 1e-14})
def test_vander(xp, dtype, N, increasing):
    x = _rand(xp, (5,), dtype, scale=3)
    return xp.vander(x, N, increasing), xp.vander(x[::-1], N, increasing)


@gpu
@pytest.mark.parametrize("call", [lambda xp: xp.vander(xp.zeros((2, 2))), lambda xp: xp.vander(xp.zeros(2), -1)])
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_vander_errors(xp, call):
    call(xp)


# ---- GPU: from functions and host data --------------------------------------------------------------
@gpu
@testing.numpy_cupy_array_equal()
def test_fromfunction(xp):
    return (xp.fromfunction(lambda i, j: i * 10 + j, (3, 4)),
            xp.fromfunction(lambda i, j, k: i + j - k, (2, 3, 4), dtype=numpy.int32),
            xp.fromfunction(lambda i, scale: i * scale, (5,), scale=2.5))


@gpu
def test_host_readers():
    data = numpy.arange(12, dtype=numpy.float32)
    for g, want in [(cm.frombuffer(data.tobytes(), numpy.float32), data),
                    (cm.frombuffer(data.tobytes(), numpy.float32, count=3, offset=8), data[2:5]),
                    (cm.fromiter(iter(range(5)), numpy.int16), numpy.arange(5, dtype=numpy.int16)),
                    (cm.fromstring("1 2 3", dtype=numpy.int64, sep=" "), numpy.array([1, 2, 3])),
                    (cio.loadtxt(io.StringIO("1 2\n3 4")), numpy.array([[1.0, 2.0], [3.0, 4.0]])),
                    (cio.genfromtxt(io.StringIO("1,2\n3,4"), delimiter=","), numpy.array([[1.0, 2.0], [3.0, 4.0]]))]:
        assert isinstance(g, cuarray.ndarray)
        assert g.dtype == want.dtype
        numpy.testing.assert_array_equal(g.get(), want)


@gpu
def test_save_load_roundtrip(tmp_path):
    a = cuarray.asarray(numpy.arange(6.0).reshape(2, 3))
    b = cuarray.asarray(numpy.array([1, 2, 3], numpy.uint8))
    cio.save(tmp_path / "a.npy", a)
    r = cio.load(tmp_path / "a.npy")
    assert isinstance(r, cuarray.ndarray)
    numpy.testing.assert_array_equal(r.get(), a.get())
    cio.savez(tmp_path / "z.npz", a, b=b)
    cio.savez_compressed(tmp_path / "c.npz", a=a, b=b)
    for name in ("z.npz", "c.npz"):
        with cio.load(tmp_path / name) as f:
            assert set(f.files) == ({"arr_0", "b"} if name == "z.npz" else {"a", "b"})
            got = f["b"]
            assert isinstance(got, cuarray.ndarray) and got.dtype == numpy.uint8
            numpy.testing.assert_array_equal(got.get(), b.get())
    a.get().tofile(tmp_path / "raw.bin")
    numpy.testing.assert_array_equal(cio.fromfile(tmp_path / "raw.bin").get(), a.get().ravel())
