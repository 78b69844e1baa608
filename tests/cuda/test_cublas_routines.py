"""cuarray.cublas against NumPy on every float/complex dtype, C and F layouts."""
import numpy
import pytest

import cuarray
from cuarray import cublas

pytestmark = pytest.mark.gpu

DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def _rand(rng, shape, dtype, order="C"):
    x = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return numpy.asarray(x.astype(dtype), order=order)


def _tol(dtype):
    return dict(rtol=2e-4, atol=2e-4) if numpy.dtype(dtype).char in "fF" else \
        dict(rtol=1e-10, atol=1e-10)


def _op(x, t):
    return {"N": x, "T": x.T, "H": x.conj().T}[t]


@pytest.mark.parametrize("dtype", DTYPES)
def test_level1(dtype):
    rng = numpy.random.default_rng(10)
    hx, hy = _rand(rng, 37, dtype), _rand(rng, 37, dtype)
    x, y = cuarray.asarray(hx), cuarray.asarray(hy)
    tol = _tol(dtype)
    numpy.testing.assert_allclose(cublas.dot(x, y).get(), (hx * hy).sum(), **tol)
    numpy.testing.assert_allclose(cublas.dotu(x, y).get(), (hx * hy).sum(), **tol)
    numpy.testing.assert_allclose(cublas.dotc(x, y).get(), numpy.vdot(hx, hy), **tol)
    numpy.testing.assert_allclose(cublas.nrm2(x).get(), numpy.linalg.norm(hx), **tol)
    mag = numpy.abs(hx.real) + numpy.abs(hx.imag)
    numpy.testing.assert_allclose(cublas.asum(x).get(), mag.sum(), **tol)
    assert int(cublas.iamax(x).get()) == numpy.argmax(mag) + 1
    assert int(cublas.iamin(x).get()) == numpy.argmin(mag) + 1
    assert cublas.nrm2(x).dtype == numpy.dtype(dtype).char.lower()
    out = numpy.empty((), dtype=dtype)
    assert cublas.dot(x, y, out=out) is out
    numpy.testing.assert_allclose(out, (hx * hy).sum(), **tol)
    dout = cuarray.empty((), dtype=dtype)
    assert cublas.dot(x, y, out=dout) is dout
    # strided vectors
    xs = cuarray.asarray(_rand(rng, 74, dtype))[::2]
    numpy.testing.assert_allclose(cublas.nrm2(xs).get(), numpy.linalg.norm(xs.get()), **tol)
    cublas.axpy(2.0, x, y)
    numpy.testing.assert_allclose(y.get(), hy + 2 * hx, **tol)
    cublas.scal(-0.5, x)
    numpy.testing.assert_allclose(x.get(), -0.5 * hx, **tol)
    rev = cuarray.asarray(hy)[::-1]
    cublas.scal(3.0, rev)
    numpy.testing.assert_allclose(rev.get(), 3 * hy[::-1], **tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "N"), ("N", "T"), ("H", "H"), ("H", "N")])
@pytest.mark.parametrize("order", ["C", "F"])
def test_gemm(dtype, ta, tb, order):
    rng = numpy.random.default_rng(11)
    m, n, k = 5, 7, 3
    ha = _rand(rng, (m, k) if ta == "N" else (k, m), dtype, order)
    hb = _rand(rng, (k, n) if tb == "N" else (n, k), dtype, order)
    a, b = cuarray.asarray(ha, order=order), cuarray.asarray(hb, order=order)
    want = _op(ha, ta) @ _op(hb, tb)
    c = cublas.gemm(ta, tb, a, b)
    numpy.testing.assert_allclose(c.get(), want, **_tol(dtype))
    hc = _rand(rng, (m, n), dtype, order)
    out = cuarray.asarray(hc, order=order)
    r = cublas.gemm(ta, tb, a, b, out=out, alpha=2.0, beta=0.5)
    assert r is out
    numpy.testing.assert_allclose(out.get(), 2 * want + 0.5 * hc, **_tol(dtype))
    # an out that is a non-contiguous view
    big = cuarray.zeros((m, 2 * n), dtype=dtype)
    cublas.gemm(ta, tb, a, b, out=big[:, ::2])
    numpy.testing.assert_allclose(big[:, ::2].get(), want, **_tol(dtype))
    assert (big[:, 1::2].get() == 0).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_batched_gemm(dtype):
    rng = numpy.random.default_rng(12)
    ha, hb = _rand(rng, (4, 3, 5), dtype), _rand(rng, (4, 6, 5), dtype)
    a, b = cuarray.asarray(ha), cuarray.asarray(hb)
    got = cublas.batched_gemm("N", "T", a, b)
    numpy.testing.assert_allclose(got.get(), ha @ hb.transpose(0, 2, 1), **_tol(dtype))
    got = cublas.batched_gemm("H", "N", a.transpose(0, 2, 1).copy(), b.transpose(0, 2, 1),
                              alpha=2.0)
    want = 2 * ha.conj() @ hb.transpose(0, 2, 1)
    numpy.testing.assert_allclose(got.get(), want, **_tol(dtype))
    with pytest.raises(ValueError, match="batch"):
        cublas.batched_gemm("N", "N", a, b[:2])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("trans", ["N", "T", "H"])
def test_gemv(dtype, order, trans):
    rng = numpy.random.default_rng(13)
    ha = _rand(rng, (6, 4), dtype, order)
    rows, cols = _op(ha, trans).shape
    hx, hy = _rand(rng, cols, dtype), _rand(rng, rows, dtype)
    a, x, y = cuarray.asarray(ha, order=order), cuarray.asarray(hx), cuarray.asarray(hy)
    assert cublas.gemv(trans, 1.5, a, x, -1.0, y) is None
    numpy.testing.assert_allclose(y.get(), 1.5 * _op(ha, trans) @ hx - hy, **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_ger(dtype, order):
    rng = numpy.random.default_rng(14)
    hx, hy, ha = _rand(rng, 5, dtype), _rand(rng, 3, dtype), _rand(rng, (5, 3), dtype, order)
    for fn, want in ((cublas.ger, numpy.outer(hx, hy)), (cublas.geru, numpy.outer(hx, hy)),
                     (cublas.gerc, numpy.outer(hx, hy.conj()))):
        a = cuarray.asarray(ha, order=order)
        fn(0.5, cuarray.asarray(hx), cuarray.asarray(hy), a)
        numpy.testing.assert_allclose(a.get(), ha + 0.5 * want, **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_geam_dgmm_syrk(dtype):
    rng = numpy.random.default_rng(15)
    ha, hb = _rand(rng, (4, 6), dtype), _rand(rng, (6, 4), dtype, "F")
    a, b = cuarray.asarray(ha), cuarray.asarray(hb, order="F")
    tol = _tol(dtype)
    numpy.testing.assert_allclose(cublas.geam("N", "T", 2.0, a, -1.0, b).get(),
                                  2 * ha - hb.T, **tol)
    numpy.testing.assert_allclose(cublas.geam("H", "N", 1.0, b, 1.0, a).get(),
                                  hb.conj().T + ha, **tol)
    hx = _rand(rng, 4, dtype)
    numpy.testing.assert_allclose(cublas.dgmm("L", a, cuarray.asarray(hx)).get(),
                                  numpy.diag(hx) @ ha, **tol)
    hx6 = _rand(rng, 6, dtype)
    numpy.testing.assert_allclose(cublas.dgmm("R", a, cuarray.asarray(hx6)).get(),
                                  ha @ numpy.diag(hx6), **tol)
    for trans, want in (("N", ha @ ha.T), ("T", ha.T @ ha)):
        for lower in (False, True):
            got = cublas.syrk(trans, a, lower=lower).get()
            tri = numpy.tril if lower else numpy.triu
            numpy.testing.assert_allclose(tri(got), tri(want), **tol)


def test_errors():
    a = cuarray.ones((3, 4), dtype=numpy.float32)
    with pytest.raises(ValueError, match="inner dimensions"):
        cublas.gemm("N", "N", a, a)
    with pytest.raises(ValueError, match="transpose"):
        cublas.gemm("X", "N", a, a.T)
    with pytest.raises(TypeError, match="one dtype"):
        cublas.gemm("N", "T", a, a.astype(numpy.float64))
    with pytest.raises(TypeError, match="supports"):
        cublas.dot(cuarray.ones(3, dtype=numpy.int32), cuarray.ones(3, dtype=numpy.int32))
    with pytest.raises(TypeError, match="does not accept numpy.ndarray; move it to the GPU"):
        cublas.nrm2(numpy.ones(3))
    with pytest.raises(ValueError, match="out must have shape"):
        cublas.gemm("N", "T", a, a, out=cuarray.empty((4, 4), dtype=numpy.float32))
    # As CuPy's (and cuBLAS's), syrk's 'H' of real data is 'T'; of complex data it is
    # refused (cuBLAS's csyrk/zsyrk reject it).
    numpy.testing.assert_array_equal(cublas.syrk("H", a).get(), cublas.syrk("T", a).get())
    with pytest.raises(ValueError, match="trans"):
        cublas.syrk("H", a.astype(numpy.complex64))


def test_against_cupy():
    cupy = pytest.importorskip("cupy")
    import cupy.cublas
    rng = numpy.random.default_rng(16)
    ha, hb = _rand(rng, (8, 5), numpy.float64), _rand(rng, (8, 5), numpy.float64)
    ours = cublas.gemm("T", "N", cuarray.asarray(ha), cuarray.asarray(hb)).get()
    theirs = cupy.cublas.gemm("T", "N", cupy.asarray(ha), cupy.asarray(hb)).get()
    numpy.testing.assert_allclose(ours, theirs, rtol=1e-12)
    x = rng.standard_normal(50)
    assert int(cublas.iamax(cuarray.asarray(x)).get()) == \
        int(cupy.cublas.iamax(cupy.asarray(x)).get())
