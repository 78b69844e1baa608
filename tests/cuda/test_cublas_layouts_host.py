"""cuarray.cublas's layout handling (C/F operands, op codes, leading dimensions), checked
on the CPU against a column-major reference BLAS written with NumPy (no GPU)."""
import ctypes
import types

import numpy
import pytest

from cuarray import cublas


class _Ptr:
    def __init__(self, a):
        self.ptr = a.ctypes.data if a.size else 0


class Fake:
    """Stands in for cuarray.ndarray over host memory."""

    def __init__(self, a):
        self.a = a

    shape = property(lambda self: self.a.shape)
    ndim = property(lambda self: self.a.ndim)
    dtype = property(lambda self: self.a.dtype)
    size = property(lambda self: self.a.size)
    strides = property(lambda self: self.a.strides)
    itemsize = property(lambda self: self.a.itemsize)
    _c_contig = property(lambda self: self.a.flags.c_contiguous)
    _f_contig = property(lambda self: self.a.flags.f_contiguous)
    data = property(lambda self: _Ptr(self.a))
    T = property(lambda self: Fake(self.a.T))

    @classmethod
    def _alloc(cls, shape, dtype):
        return cls(numpy.zeros(shape, dtype))

    def __getitem__(self, k):
        return Fake(self.a[k])

    def __setitem__(self, k, v):
        self.a[k] = v.a if isinstance(v, Fake) else v

    def fill(self, v):
        self.a.fill(v)

    def __imul__(self, v):
        self.a *= v
        return self

    def get(self):
        return self.a.copy()


_xp = types.SimpleNamespace(
    asfortranarray=lambda x: Fake(numpy.asfortranarray(x.a)),
    ascontiguousarray=lambda x: Fake(numpy.ascontiguousarray(x.a)),
    empty=lambda shape, dtype, order="C": Fake(numpy.full(shape, numpy.nan, dtype, order=order)),
    zeros=lambda shape, dtype: Fake(numpy.zeros(shape, dtype)),
    array=lambda x, order="C": Fake(numpy.array(x.a, order=order)),
)


def _mat(ptr, rows, cols, ld, dtype):
    """A column-major view of `rows` x `cols` at host address `ptr`."""
    it = dtype.itemsize
    n = (ld * (cols - 1) + rows) * it if rows and cols else it
    buf = (ctypes.c_char * n).from_address(ptr)
    return numpy.ndarray((rows, cols), dtype, buffer=buf, strides=(it, ld * it))


def _vec(ptr, n, inc, dtype):
    it = dtype.itemsize
    buf = (ctypes.c_char * ((n - 1) * inc * it + it)).from_address(ptr)
    return numpy.ndarray((n,), dtype, buffer=buf, strides=(inc * it,))


def _scal(ptr, dtype):
    return _vec(ptr, 1, 1, dtype)[0]


def _beta_c(beta, c):
    """beta * c, where beta == 0 means C is not read (it may hold garbage), as in BLAS."""
    return 0 if beta == 0 else beta * c


def _op(x, code):
    return [x, x.T, x.conj().T][code]


class RefBLAS:
    """Column-major BLAS on host addresses, with cuBLAS's argument lists."""

    PointerMode = types.SimpleNamespace(HOST=0, DEVICE=1)

    def __init__(self, dtype):
        self.dt = numpy.dtype(dtype)

    def set_pointer_mode(self, h, mode):
        pass

    def __getattr__(self, name):
        base = name[1:]
        return getattr(self, "_" + base)

    def _gemm(self, h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc):
        d = self.dt
        a = _mat(A, *((m, k) if ta == 0 else (k, m)), lda, d)
        b = _mat(B, *((k, n) if tb == 0 else (n, k)), ldb, d)
        c = _mat(C, m, n, ldc, d)
        c[...] = _scal(al, d) * (_op(a, ta) @ _op(b, tb)) + _beta_c(_scal(be, d), c)

    def _gemm_strided_batched(self, h, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C,
                              ldc, sc, count):
        it = self.dt.itemsize
        for i in range(count):
            self._gemm(h, ta, tb, m, n, k, al, A + i * sa * it, lda, B + i * sb * it, ldb, be,
                       C + i * sc * it, ldc)

    def _gemv(self, h, t, m, n, al, A, lda, X, incx, be, Y, incy):
        d = self.dt
        a = _op(_mat(A, m, n, lda, d), t)
        x = _vec(X, a.shape[1], incx, d)
        y = _vec(Y, a.shape[0], incy, d)
        y[...] = _scal(al, d) * (a @ x) + _beta_c(_scal(be, d), y)

    def _ger(self, h, m, n, al, X, incx, Y, incy, A, lda, conj=False):
        d = self.dt
        y = _vec(Y, n, incy, d)
        _mat(A, m, n, lda, d)[...] += _scal(al, d) * numpy.outer(
            _vec(X, m, incx, d), y.conj() if conj else y)

    _geru = _ger

    def _gerc(self, *args):
        self._ger(*args, conj=True)

    def _geam(self, h, ta, tb, m, n, al, A, lda, be, B, ldb, C, ldc):
        d = self.dt
        a = _mat(A, *((m, n) if ta == 0 else (n, m)), lda, d)
        b = _mat(B, *((m, n) if tb == 0 else (n, m)), ldb, d)
        _mat(C, m, n, ldc, d)[...] = _scal(al, d) * _op(a, ta) + _scal(be, d) * _op(b, tb)

    def _dgmm(self, h, mode, m, n, A, lda, X, incx, C, ldc):
        d = self.dt
        a = _mat(A, m, n, lda, d)
        x = _vec(X, m if mode == 0 else n, incx, d)
        _mat(C, m, n, ldc, d)[...] = x[:, None] * a if mode == 0 else a * x[None, :]

    def _syrk(self, h, uplo, t, n, k, al, A, lda, be, C, ldc):
        d = self.dt
        a = _op(_mat(A, *((n, k) if t == 0 else (k, n)), lda, d), t)
        c = _mat(C, n, n, ldc, d)
        full = _scal(al, d) * (a @ a.T) + _beta_c(_scal(be, d), c)
        tri = numpy.tril if uplo == 0 else numpy.triu
        mask = tri(numpy.ones((n, n), bool))
        c[mask] = full[mask]


@pytest.fixture(params=["f", "d", "F", "D"])
def env(request, monkeypatch):
    dt = numpy.dtype(request.param)
    monkeypatch.setattr(cublas, "_lib", RefBLAS(dt))
    monkeypatch.setattr(cublas, "_fn", lambda dtype, name: getattr(RefBLAS(dtype), "_" + name))
    monkeypatch.setattr(cublas, "_handle", lambda: 0)
    monkeypatch.setattr(cublas, "ndarray", Fake)
    monkeypatch.setattr(cublas, "cuarray", _xp)
    return dt


def _rand(rng, shape, dt, order="C"):
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return numpy.asarray(x.astype(dt), order=order)


@pytest.mark.parametrize("ta", "NTH")
@pytest.mark.parametrize("tb", "NTH")
@pytest.mark.parametrize("orders", ["CC", "FF", "CF", "FC"])
@pytest.mark.parametrize("out_order", [None, "C", "F", "view"])
def test_gemm_layouts(env, ta, tb, orders, out_order):
    dt = env
    rng = numpy.random.default_rng(40)
    m, n, k = 3, 4, 5
    a = _rand(rng, (m, k) if ta == "N" else (k, m), dt, orders[0])
    b = _rand(rng, (k, n) if tb == "N" else (n, k), dt, orders[1])
    want = _op(a, "NTH".index(ta)) @ _op(b, "NTH".index(tb))
    if out_order is None:
        got = cublas.gemm(ta, tb, Fake(a), Fake(b)).a
    else:
        c0 = _rand(rng, (m, n), dt)
        if out_order == "view":
            big = numpy.zeros((m, 2 * n), dt)
            big[:, ::2] = c0
            out = Fake(big)[:, ::2]
        else:
            out = Fake(numpy.array(c0, order=out_order))
        got = cublas.gemm(ta, tb, Fake(a), Fake(b), out=out, alpha=2.0, beta=0.5).a
        want = 2 * want + 0.5 * c0
    numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_batched_gemm(env):
    dt = env
    rng = numpy.random.default_rng(41)
    a, b = _rand(rng, (3, 4, 2), dt), _rand(rng, (3, 5, 2), dt)
    got = cublas.batched_gemm("N", "H", Fake(a), Fake(b), alpha=1.5).a
    numpy.testing.assert_allclose(got, 1.5 * a @ b.conj().transpose(0, 2, 1), rtol=1e-4,
                                  atol=1e-4)


@pytest.mark.parametrize("t", "NTH")
@pytest.mark.parametrize("order", "CF")
def test_gemv_ger(env, t, order):
    dt = env
    rng = numpy.random.default_rng(42)
    a = _rand(rng, (5, 3), dt, order)
    op = _op(a, "NTH".index(t))
    x, y = _rand(rng, op.shape[1], dt), _rand(rng, op.shape[0], dt)
    yy = y.copy()
    cublas.gemv(t, 2.0, Fake(a), Fake(x), -1.0, Fake(yy))
    numpy.testing.assert_allclose(yy, 2 * op @ x - y, rtol=1e-4, atol=1e-4)
    u, v = _rand(rng, 5, dt), _rand(rng, 3, dt)
    for fn, want in ((cublas.ger, numpy.outer(u, v)), (cublas.gerc, numpy.outer(u, v.conj()))):
        w = a.copy(order=order)
        fn(0.5, Fake(u), Fake(v), Fake(w))
        numpy.testing.assert_allclose(w, a + 0.5 * want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("ta", "NTH")
@pytest.mark.parametrize("tb", "NT")
def test_geam_dgmm_syrk(env, ta, tb):
    dt = env
    rng = numpy.random.default_rng(43)
    a = _rand(rng, (3, 4) if ta == "N" else (4, 3), dt, "F")
    b = _rand(rng, (3, 4) if tb == "N" else (4, 3), dt)
    got = cublas.geam(ta, tb, 2.0, Fake(a), -1.0, Fake(b)).a
    want = 2 * _op(a, "NTH".index(ta)) - _op(b, "NTH".index(tb))
    numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    m = _rand(rng, (3, 4), dt)
    xl, xr = _rand(rng, 3, dt), _rand(rng, 4, dt)
    numpy.testing.assert_allclose(cublas.dgmm("L", Fake(m), Fake(xl)).a, xl[:, None] * m,
                                  rtol=1e-5)
    numpy.testing.assert_allclose(cublas.dgmm("R", Fake(m), Fake(xr)).a, m * xr[None, :],
                                  rtol=1e-5)
    for trans, want in (("N", m @ m.T), ("T", m.T @ m)):
        for lower in (False, True):
            got = cublas.syrk(trans, Fake(m), lower=lower).a
            tri = numpy.tril if lower else numpy.triu
            numpy.testing.assert_allclose(tri(got), tri(want), rtol=1e-4, atol=1e-4)
