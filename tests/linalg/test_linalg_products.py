"""matmul and the other products against NumPy, on the GPU."""
import warnings

import numpy
import pytest

import cuarray
from cuarray.linalg import _products as P

pytestmark = pytest.mark.gpu

_rng = numpy.random.default_rng(0)
FLOATS = ["float16", "float32", "float64", "complex64", "complex128"]
INTS = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64"]


def _host(shape, dtype):
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return _rng.random(shape) > 0.5
    if dtype.kind in "iu":
        return _rng.integers(-3 if dtype.kind == "i" else 0, 4, size=shape).astype(dtype)
    x = _rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * _rng.standard_normal(shape)
    return x.astype(dtype)


def _check(got, ref, exact=False):
    ref = numpy.asarray(ref)
    assert isinstance(got, cuarray.ndarray)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, got.dtype, ref.dtype)
    h = cuarray.asnumpy(got)
    if exact or ref.dtype.kind in "biu":
        numpy.testing.assert_array_equal(h, ref)
    else:
        tol = {"e": 2e-2, "f": 1e-4, "F": 1e-4}.get(ref.dtype.char, 1e-10)
        scale = max(1.0, float(numpy.abs(ref).max(initial=0)))
        numpy.testing.assert_allclose(h, ref, rtol=tol, atol=tol * scale)


def _layouts(x):
    """x on the GPU as C order, F order, a transposed view, and a column slice."""
    yield cuarray.asarray(x)
    yield cuarray.asfortranarray(cuarray.asarray(x))
    if x.ndim >= 2:
        yield cuarray.ascontiguousarray(cuarray.asarray(numpy.swapaxes(x, -1, -2))).swapaxes(-1, -2)
        wide = numpy.zeros(x.shape[:-1] + (x.shape[-1] + 2,), x.dtype)
        wide[..., :x.shape[-1]] = x
        yield cuarray.asarray(wide)[..., :x.shape[-1]]
        step = numpy.zeros(x.shape[:-2] + (x.shape[-2], 2 * x.shape[-1]), x.dtype)
        step[..., ::2] = x
        yield cuarray.asarray(step)[..., ::2]


SHAPES = [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)), ((2, 3, 4), (4, 5)),
          ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((6, 3, 4), (1, 4, 5)),
          ((0, 4), (4, 3)), ((3, 0), (0, 2)), ((2, 0, 3), (3, 4)), ((1, 1), (1, 1)),
          ((70, 130), (130, 65))]


@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("sa, sb", SHAPES)
def test_matmul(dtype, sa, sb):
    a, b = _host(sa, dtype), _host(sb, dtype)
    ref = numpy.matmul(a, b)
    for da in _layouts(a):
        for db in _layouts(b):
            _check(P.matmul(da, db), ref)


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int32", "bool"])
def test_matmul_batched_small(dtype):
    a, b = _host((1000, 16, 16), dtype), _host((1000, 16, 16), dtype)
    _check(P.matmul(cuarray.asarray(a), cuarray.asarray(b)), numpy.matmul(a, b))


def test_matmul_integer_wraps_like_numpy():
    a = numpy.full((3, 40), 100, numpy.int8)
    b = numpy.full((40, 2), 7, numpy.int8)
    _check(P.matmul(cuarray.asarray(a), cuarray.asarray(b)), a @ b)
    a = numpy.full((2, 3), 2**62, numpy.int64)
    _check(P.matmul(cuarray.asarray(a), cuarray.asarray(a.T.copy())), a @ a.T)


@pytest.mark.parametrize("d1, d2", [("int8", "uint8"), ("int32", "float32"), ("float32", "float64"),
                                    ("float16", "complex64"), ("bool", "int16"), ("uint64", "int64")])
def test_matmul_mixed_dtypes(d1, d2):
    a, b = _host((5, 6), d1), _host((6, 3), d2)
    _check(P.matmul(cuarray.asarray(a), cuarray.asarray(b)), a @ b)


def test_matmul_out_dtype_casting():
    a, b = _host((4, 5), "float64"), _host((5, 3), "float64")
    da, db = cuarray.asarray(a), cuarray.asarray(b)
    out = cuarray.zeros((4, 3))
    assert P.matmul(da, db, out=out) is out
    _check(out, a @ b)
    out32 = cuarray.zeros((4, 3), dtype=numpy.float32)
    P.matmul(da, db, out=out32)
    _check(out32, (a @ b).astype(numpy.float32))
    fout = cuarray.zeros((3, 4)).T                      # non-contiguous out
    P.matmul(da, db, out=fout)
    _check(fout, a @ b)
    _check(P.matmul(da, db, dtype=numpy.float32), numpy.matmul(a, b, dtype=numpy.float32))
    with pytest.raises(TypeError):
        P.matmul(da, db, out=cuarray.zeros((4, 3), dtype=numpy.int64))
    with pytest.raises(TypeError):
        P.matmul(da, db, dtype=numpy.float32, casting="safe")
    with pytest.raises(ValueError):
        P.matmul(da, db, out=cuarray.zeros((4, 4)))


def test_matmul_out_overlapping_input():
    a = _host((4, 4), "float64")
    d = cuarray.asarray(a)
    P.matmul(d, d, out=d)
    _check(d, a @ a)


def test_matmul_errors():
    a = cuarray.ones((2, 3))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        P.matmul(a, cuarray.ones((4, 2)))
    with pytest.raises(ValueError, match="enough dimensions"):
        P.matmul(cuarray.ones(()), a)
    with pytest.raises(ValueError):
        P.matmul(cuarray.ones((2, 2, 3)), cuarray.ones((3, 3, 2)))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        P.matmul(a, numpy.ones((3, 2)))


def test_matmul_tf32_env(monkeypatch):
    """CUARRAY_TF32=1 is read when a thread first creates its handle: use a new thread."""
    import threading
    a, b = _host((256, 256), "float32"), _host((256, 256), "float32")
    monkeypatch.setenv("CUARRAY_TF32", "1")
    res = {}
    t = threading.Thread(target=lambda: res.setdefault("r", cuarray.asnumpy(
        P.matmul(cuarray.asarray(a), cuarray.asarray(b)))))
    t.start()
    t.join()
    ref = a.astype(numpy.float64) @ b
    numpy.testing.assert_allclose(res["r"], ref, rtol=1e-2, atol=1e-1)


@pytest.mark.parametrize("sa, sb", [((3, 4), (4, 5)), ((4,), (4,)), ((2, 3, 4), (4,)),
                                    ((2, 3, 4), (5, 4, 6)), ((3,), (2, 3, 4)), ((), (3,)),
                                    ((3,), ()), ((0, 3), (3, 2))])
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int64", "bool"])
def test_dot(sa, sb, dtype):
    a, b = _host(sa, dtype), _host(sb, dtype)
    _check(P.dot(cuarray.asarray(a), cuarray.asarray(b)), numpy.dot(a, b))


def test_dot_out_and_errors():
    a, b = _host((2, 3, 4), "float64"), _host((5, 4, 6), "float64")
    out = cuarray.zeros((2, 3, 5, 6))
    assert P.dot(cuarray.asarray(a), cuarray.asarray(b), out=out) is out
    _check(out, numpy.dot(a, b))
    with pytest.raises(ValueError, match="not aligned"):
        P.dot(cuarray.ones((2, 3)), cuarray.ones((4, 2)))
    with pytest.raises(ValueError, match="output array is not acceptable"):
        P.dot(cuarray.ones((2, 3)), cuarray.ones((3, 2)), out=cuarray.zeros((2, 2), numpy.float32))


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int32"])
def test_vdot_inner_outer(dtype):
    a, b = _host((3, 4), dtype), _host((4, 3), dtype)
    da, db = cuarray.asarray(a), cuarray.asarray(b)
    _check(P.vdot(da, db), numpy.vdot(a, b))
    _check(P.outer(da, db), numpy.outer(a, b))
    c = _host((5, 4), dtype)
    _check(P.inner(da, cuarray.asarray(c)), numpy.inner(a, c))
    _check(P.inner(da[0], cuarray.asarray(c[0])), numpy.inner(a[0], c[0]))
    with pytest.raises(ValueError):
        P.vdot(da, cuarray.asarray(_host((5,), dtype)))
    with pytest.raises(ValueError):
        P.inner(da, db)


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([0], [1]), (1, 0), ([2, 0], [2, 1])])
def test_tensordot(axes):
    a, b = _host((3, 4, 5), "float64"), _host((4, 3, 5), "float64")
    try:
        ref = numpy.tensordot(a, b, axes)
    except ValueError:
        with pytest.raises(ValueError):
            P.tensordot(cuarray.asarray(a), cuarray.asarray(b), axes)
        return
    _check(P.tensordot(cuarray.asarray(a), cuarray.asarray(b), axes), ref)


@pytest.mark.parametrize("sa, sb", [((2, 3), (4, 5)), ((2,), (3, 4)), ((2, 3, 4), (3, 2)), ((3,), (4,)),
                                    ((), (2, 2))])
def test_kron(sa, sb):
    a, b = _host(sa, "int32"), _host(sb, "int32")
    _check(P.kron(cuarray.asarray(a), cuarray.asarray(b)), numpy.kron(a, b))


def test_vecdot_cross_transpose_trace():
    a, b = _host((4, 3), "complex128"), _host((3,), "complex128")
    _check(P.vecdot(cuarray.asarray(a), cuarray.asarray(b)), numpy.vecdot(a, b))
    _check(P.vecdot(cuarray.asarray(a), cuarray.asarray(a), axis=0), numpy.vecdot(a, a, axis=0))
    x, y = _host((5, 3), "float64"), _host((5, 3), "float64")
    _check(P.cross(cuarray.asarray(x), cuarray.asarray(y)), numpy.cross(x, y))
    x2, y2 = _host((3, 5), "float64"), _host((5, 3), "float64")
    _check(P.cross(cuarray.asarray(x2), cuarray.asarray(y2), axisa=0, axisc=0),
           numpy.cross(x2, y2, axisa=0, axisc=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        x3 = _host((5, 2), "float64")
        try:  # NumPy >= 2.5 dropped 2-vector cross products; compare only where it has them
            expect = numpy.cross(x3, y), numpy.cross(x3, x3[::-1])
        except ValueError:
            expect = None
        if expect is not None:
            _check(P.cross(cuarray.asarray(x3), cuarray.asarray(y)), expect[0])
            _check(P.cross(cuarray.asarray(x3), cuarray.asarray(x3[::-1].copy())), expect[1])
    with pytest.raises(ValueError):
        P.cross(cuarray.ones((3, 4)), cuarray.ones((3, 4)))
    _check(P.matrix_transpose(cuarray.asarray(a)), a.T)
    t = _host((2, 4, 4), "float32")
    _check(P.trace(cuarray.asarray(t)), numpy.linalg.trace(t))
    _check(P.trace(cuarray.asarray(t), offset=1), numpy.linalg.trace(t, offset=1))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, -1, -3])
@pytest.mark.parametrize("dtype", ["float64", "complex64", "int64"])
def test_matrix_power(n, dtype):
    a = _host((2, 4, 4), dtype)
    if n < 0:
        a = (a + 4 * numpy.eye(4)).astype(dtype) if dtype != "int64" else \
            numpy.broadcast_to(numpy.array([[2, 1, 0, 0], [1, 2, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
                               (2, 4, 4)).copy()
    _check(cuarray.linalg.matrix_power(cuarray.asarray(a), n), numpy.linalg.matrix_power(a, n))


def test_multi_dot():
    arrs = [_host(s, "float64") for s in [(10,), (10, 30), (30, 3), (3, 70), (70,)]]
    _check(cuarray.linalg.multi_dot([cuarray.asarray(x) for x in arrs]), numpy.linalg.multi_dot(arrs))
    arrs = [_host(s, "float64") for s in [(10, 30), (30, 3), (3, 70), (70, 5)]]
    _check(cuarray.linalg.multi_dot([cuarray.asarray(x) for x in arrs]), numpy.linalg.multi_dot(arrs))
    with pytest.raises(ValueError):
        cuarray.linalg.multi_dot([cuarray.ones((2, 2))])


def test_linalg_namespace_functions():
    a, b = _host((3,), "float64"), _host((4,), "float64")
    _check(cuarray.linalg.outer(cuarray.asarray(a), cuarray.asarray(b)), numpy.linalg.outer(a, b))
    c = _host((2, 3), "float64")
    _check(cuarray.linalg.cross(cuarray.asarray(c), cuarray.asarray(c[::-1].copy())),
           numpy.linalg.cross(c, c[::-1]))
    m = _host((3, 3), "float64")
    _check(cuarray.linalg.matmul(cuarray.asarray(m), cuarray.asarray(m)), numpy.linalg.matmul(m, m))
    _check(cuarray.linalg.diagonal(cuarray.asarray(m), offset=1), numpy.linalg.diagonal(m, offset=1))
    _check(cuarray.linalg.tensordot(cuarray.asarray(m), cuarray.asarray(m), axes=1),
           numpy.linalg.tensordot(m, m, axes=1))
    with pytest.raises(ValueError):
        cuarray.linalg.outer(cuarray.ones((2, 2)), cuarray.ones(2))


def test_linalg_error_is_numpys():
    assert cuarray.linalg.LinAlgError is numpy.linalg.LinAlgError
    assert issubclass(cuarray.linalg.LinAlgError, ValueError)


def test_matmul_on_current_stream():
    a, b = _host((300, 200), "float32"), _host((200, 100), "float32")
    da, db = cuarray.asarray(a), cuarray.asarray(b)
    with cuarray.cuda.Stream() as s:
        c = P.matmul(da, db)
        e = P.matmul(cuarray.asarray(a.astype("int32")), cuarray.asarray(b.astype("int32")))
    s.synchronize()
    _check(c, a @ b)
    _check(e, a.astype("int32") @ b.astype("int32"))


def test_matmul_operator_and_namespace():
    """`@`, `cuarray.matmul` and friends are the functions tested above (hooked by the
    package's __init__ and ndarray)."""
    a, b = _host((3, 4), "float64"), _host((4, 2), "float64")
    da, db = cuarray.asarray(a), cuarray.asarray(b)
    _check(da @ db, a @ b)
    for name in ("matmul", "dot", "vdot", "inner", "outer", "tensordot", "einsum", "kron",
                 "vecdot", "cross", "matrix_transpose"):
        assert hasattr(cuarray, name), f"cuarray.{name} is not exported"
