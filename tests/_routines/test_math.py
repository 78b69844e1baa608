"""Mathematical routines against NumPy: rounding, nan_to_num, differences and integrals,
interpolation, special functions, polynomials and trace; CPU tests compile every kernel."""
import numpy
import pytest

import cuarray
from cuarray import testing
from cuarray._core import _routines_math as core_math
from cuarray._routines import math as cmath_

gpu = pytest.mark.gpu


def _rand(xp, shape, dtype, seed=0, scale=10):
    return testing.shaped_random(shape, xp, dtype, scale=scale, seed=seed)


def _signed(xp, shape, dtype, seed=0, scale=10):
    """Values in [-scale/2, scale/2) (shaped_random is non-negative)."""
    a = _rand(numpy, shape, numpy.float64, seed, scale) - scale / 2
    return xp.asarray(a.astype(dtype))


# ---- CPU -----------------------------------------------------------------------------------------
def test_power_of_ten_matches_numpy():
    # NumPy's power_of_ten: exact table below 1e9, then repeated multiplication by 10.
    assert [core_math._power_of_ten(n) for n in range(9)] == [10.0 ** n for n in range(9)]
    r = 1e9
    for n in range(9, 30):
        assert core_math._power_of_ten(n) == r
        r *= 10.0


def _compile(op, ndim=None):
    pytest.importorskip("cuda.bindings")
    from cuarray._core.elementwise import generate
    from cuarray._runtime.compiler import compile_cubin
    raw_info = [(1, True) if p.role == "raw" else None for p in op.params]
    src, _ = generate(op, [p.dtype for p in op.params], raw_info, ndim, 1, False)
    assert compile_cubin(src, op.options, arch="sm_90", name=op.name)[0]


@pytest.mark.parametrize("dtype", ["e", "f", "d", "F", "D"])
def test_kernels_compile(dtype):
    dt = numpy.dtype(dtype)
    _compile(core_math._round_op(dt, False))
    for it in "bhilq":
        _compile(core_math._round_op(numpy.dtype(it), True))
    from cuarray._core.elementwise import Op, Param
    rd = numpy.dtype(dtype.lower())
    body = ("y = T(_n2n(x.real(), nanv, pinf, ninf), _n2n(x.imag(), nanv, pinf, ninf));" if dt.kind == "c"
            else "y = _n2n(x, nanv, pinf, ninf);")
    _compile(Op("n2n", [Param("x", "in", dt), Param("nanv", "scalar", rd), Param("pinf", "scalar", rd),
                        Param("ninf", "scalar", rd), Param("y", "out", dt)], body,
                preamble=cmath_._types(T=dt, R=rd) + cmath_._NAN_TO_NUM_PRE))
    if dt.kind == "f":
        _compile(Op("i0", [Param("x", "in", dt), Param("y", "out", dt)], "y = _i0(x);",
                    preamble=cmath_._types(T=dt) + cmath_._I0_PRE, options=cmath_._NO_FMA))
    body = cmath_._SINC_COMPLEX if dt.kind == "c" else cmath_._SINC_REAL
    _compile(Op("sinc", [Param("x", "in", dt), Param("pi", "scalar", rd), Param("eps", "scalar", dt),
                         Param("y", "out", dt)], body, preamble=cmath_._types(T=dt)))


def test_interp_kernels_compile():
    from cuarray._core.elementwise import Op, Param
    for cplx, ft in ((False, numpy.dtype("d")), (True, numpy.dtype("D"))):
        b = numpy.dtype("?")
        _compile(Op("interp", [Param("x", "in", numpy.dtype("d")), Param("xp", "raw", numpy.dtype("d")),
                               Param("fp", "raw", ft), Param("n", "scalar", numpy.dtype("q")),
                               Param("has_left", "scalar", b), Param("lval", "scalar", ft),
                               Param("has_right", "scalar", b), Param("rval", "scalar", ft),
                               Param("y", "out", ft)],
                    cmath_._INTERP_COMPLEX if cplx else cmath_._INTERP_REAL,
                    preamble=cmath_._INTERP_SEARCH))


# ---- GPU: rounding -----------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("decimals", [0, 1, 2, -1, -2, 10, 20])
@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cupy_array_equal()
def test_around(xp, dtype, decimals):
    a = _signed(xp, (40,), dtype, scale=200) if numpy.dtype(dtype).kind != "u" else _rand(xp, (40,), dtype, scale=250)
    return xp.around(a, decimals), xp.round(a[::-1], decimals), a.round(decimals)


@gpu
@testing.numpy_cupy_array_equal()
def test_around_halves_and_out(xp):
    a = xp.asarray(numpy.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.25, 0.35, 1.005, numpy.inf, numpy.nan]))
    out = xp.zeros(10, numpy.float32)
    xp.around(a, 1, out=out)
    i = xp.asarray(numpy.array([-15, 15, 25, 35, -25, 255], numpy.int16))
    out_i = xp.zeros(6, numpy.int16)
    xp.around(i, 2, out=out_i)
    return (xp.around(a), out, xp.around(i, -1), out_i, xp.around(xp.asarray(numpy.array([True, False]))),
            xp.around(xp.asarray(numpy.uint8([255, 5, 15])), -1))


@gpu
@testing.numpy_cupy_raises()
def test_around_bool_decimals(xp):
    xp.around(xp.asarray(numpy.array([True])), 1)


@gpu
@testing.for_all_dtypes(no_complex=True)
@testing.numpy_cupy_array_equal()
def test_fix(xp, dtype):
    a = _signed(xp, (20,), dtype) if numpy.dtype(dtype).kind not in "ub" else _rand(xp, (20,), dtype)
    out = xp.zeros(20, dtype)
    xp.fix(a, out=out)
    return xp.fix(a), out


@gpu
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_nan_to_num(xp, dtype):
    a = _signed(xp, (8,), dtype)
    if numpy.dtype(dtype).kind in "fc":
        a[0], a[1], a[2] = numpy.nan, numpy.inf, -numpy.inf
    if numpy.dtype(dtype).kind == "c":
        a[3] = complex(numpy.nan, numpy.inf)
    b = a.copy()
    r2 = xp.nan_to_num(b, copy=False, nan=-1.0, posinf=100.0, neginf=-100.0)
    return xp.nan_to_num(a), xp.nan_to_num(a[::2], nan=5), b, r2


@gpu
@testing.numpy_cupy_array_equal()
def test_real_if_close(xp):
    a = xp.asarray(numpy.array([1 + 1e-20j, 2 - 1e-18j]))
    b = xp.asarray(numpy.array([1 + 1e-3j, 2 + 0j], numpy.complex64))
    return xp.real_if_close(a), xp.real_if_close(b), xp.real_if_close(b, tol=1e-2), \
        xp.real_if_close(xp.ones(3))


# ---- GPU: differences and integrals ---------------------------------------------------------------
@gpu
@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("axis", [0, -1])
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_diff(xp, dtype, n, axis):
    a = _rand(xp, (5, 6), dtype)
    return xp.diff(a, n, axis), xp.diff(a.T, n, axis)


@gpu
@testing.numpy_cupy_array_equal()
def test_diff_prepend_append(xp):
    a = _rand(xp, (3, 4), numpy.float64)
    col = _rand(xp, (3, 1), numpy.float64, 1)
    return (xp.diff(a, prepend=0), xp.diff(a, append=xp.asarray(numpy.float64(7))),
            xp.diff(a, axis=1, prepend=col, append=col), xp.diff(a, 2, axis=0, prepend=1.5, append=2))


@gpu
@pytest.mark.parametrize("call", [lambda xp: xp.diff(xp.zeros(())), lambda xp: xp.diff(xp.zeros(3), -1),
                                  lambda xp: xp.diff(xp.zeros(3), axis=1)])
@testing.numpy_cupy_raises()
def test_diff_errors(xp, call):
    call(xp)


@gpu
@testing.numpy_cupy_array_equal()
def test_ediff1d(xp):
    a = _rand(xp, (3, 4), numpy.int32)
    return (xp.ediff1d(a), xp.ediff1d(a, to_begin=-99), xp.ediff1d(a, to_end=xp.asarray(numpy.array([88, 99]))),
            xp.ediff1d(a, to_begin=xp.asarray(numpy.array([1, 2], numpy.int8)), to_end=5),
            xp.ediff1d(a[:1, :1], to_end=3), xp.ediff1d(xp.zeros(0)))


@gpu
@testing.numpy_cupy_raises(accept_error=TypeError)
def test_ediff1d_cast_error(xp):
    xp.ediff1d(xp.ones(3, numpy.int64), to_begin=1.5)


@gpu
@pytest.mark.parametrize("edge_order", [1, 2])
@testing.numpy_cupy_allclose(rtol=1e-12)
def test_gradient(xp, edge_order):
    f = _rand(xp, (5, 6), numpy.float64)
    x_uni = xp.asarray(numpy.arange(6.0) * 0.5)
    x_non = xp.asarray(numpy.array([0.0, 0.5, 1.5, 1.75, 3.0, 4.5]))
    y_int = xp.asarray(numpy.array([0, 2, 3, 7, 8]))
    out = list(xp.gradient(f, edge_order=edge_order))
    out += list(xp.gradient(f, 2.0, edge_order=edge_order))
    out += list(xp.gradient(f, y_int, x_non, edge_order=edge_order))
    out += [xp.gradient(f, x_uni, axis=1, edge_order=edge_order),
            xp.gradient(f, 0.5, axis=-1, edge_order=edge_order),
            xp.gradient(_rand(xp, (7,), numpy.int32), edge_order=edge_order),
            xp.gradient(_rand(xp, (6,), numpy.float32), x_non, edge_order=edge_order)]
    return out


@gpu
@pytest.mark.parametrize("call", [
    lambda xp: xp.gradient(xp.ones(3), edge_order=3), lambda xp: xp.gradient(xp.ones(1)),
    lambda xp: xp.gradient(xp.ones(3), 1, 2), lambda xp: xp.gradient(xp.ones((3, 3)), xp.ones(2), 1.0),
    lambda xp: xp.gradient(xp.ones(3), xp.ones((3, 1))),
])
@testing.numpy_cupy_raises()
def test_gradient_errors(xp, call):
    call(xp)


@gpu
@testing.numpy_cupy_allclose(rtol=1e-12)
def test_trapezoid(xp):
    y = _rand(xp, (4, 6), numpy.float64)
    x = xp.asarray(numpy.array([0.0, 1.0, 1.5, 3.0, 3.5, 5.0]))
    x2 = _rand(xp, (4, 6), numpy.float64, 1)
    return (xp.trapezoid(y), xp.trapezoid(y, dx=0.5, axis=0), xp.trapezoid(y, x), xp.trapezoid(y, x2, axis=1),
            xp.trapezoid(y[0]), xp.trapezoid(_rand(xp, (5,), numpy.int32)))


# ---- GPU: interpolation -------------------------------------------------------------------------------
@gpu
@testing.numpy_cupy_array_equal()
def test_interp(xp):
    xp_ = xp.asarray(numpy.array([0.0, 1.0, 1.0, 2.5, 4.0, 7.0]))
    fp = xp.asarray(numpy.array([1.0, 3.0, 2.0, -1.0, 5.0, 0.5]))
    x = xp.asarray(numpy.array([-1.0, 0.0, 0.5, 1.0, 2.0, 4.0, 6.9, 7.0, 8.0, numpy.nan, numpy.inf]))
    one = xp.asarray(numpy.array([2.0]))
    fpi = xp.asarray(numpy.array([1, 2, 3, 4, 5, 6], numpy.int32))
    return (xp.interp(x, xp_, fp), xp.interp(x, xp_, fp, left=-9, right=9), xp.interp(x, one, one * 3),
            xp.interp(x.reshape(11, 1)[::2], xp_, fpi), xp.interp(2.2, xp_, fp),
            xp.interp(x.astype(numpy.float32), xp_.astype(numpy.int64), fp, left=0.5))


@gpu
@testing.numpy_cupy_allclose(rtol=1e-12)
def test_interp_complex_and_period(xp):
    xp_ = xp.asarray(numpy.array([0.0, 1.0, 2.5, 4.0]))
    fpc = xp.asarray(numpy.array([1 + 1j, 3 - 2j, 2j, -1.0 + 0j]))
    x = xp.asarray(numpy.linspace(-2, 6, 17))
    per_x = xp.asarray(numpy.array([190.0, -180, 180, 10, 350, 0, 5, -5]))
    per_xp = xp.asarray(numpy.array([-180.0, -170, -185, 185, -10, -5, 0, 365]))
    per_fp = xp.asarray(numpy.array([5.0, 10, 3, 4, 1, 2, 3, 4]))
    return (xp.interp(x, xp_, fpc), xp.interp(x, xp_, fpc, left=1j, right=-1j),
            xp.interp(per_x, per_xp, per_fp, period=360), xp.interp(x, xp_, fpc, period=3))


@gpu
@pytest.mark.parametrize("call", [
    lambda xp: xp.interp(xp.ones(3), xp.zeros(0), xp.zeros(0)),
    lambda xp: xp.interp(xp.ones(3), xp.asarray(numpy.array([1.0, 2.0])), xp.ones(1)),
    lambda xp: xp.interp(xp.ones(3), xp.ones(2), xp.ones(2), period=0),
    lambda xp: xp.interp(xp.ones(3), xp.ones((1, 2)), xp.ones((1, 2))),
])
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_interp_errors(xp, call):
    call(xp)


# ---- GPU: special functions --------------------------------------------------------------------------
@gpu
@testing.for_dtypes([numpy.float16, numpy.float32, numpy.float64, numpy.int32, numpy.uint8])
@testing.numpy_cupy_allclose(rtol={numpy.float16: 2e-3, numpy.float32: 2e-6, "default": 1e-13})
def test_i0(xp, dtype):
    a = (_signed(xp, (50,), dtype, scale=40) if numpy.dtype(dtype).kind in "fi"
         else _rand(xp, (50,), dtype, scale=30))
    return xp.i0(a), xp.i0(a[::3])


@gpu
@testing.numpy_cupy_raises(accept_error=TypeError)
def test_i0_complex(xp):
    xp.i0(xp.ones(2, numpy.complex64))


@gpu
@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cupy_allclose(rtol={numpy.float16: 2e-3, numpy.float32: 1e-6, numpy.complex64: 1e-6,
                                   "default": 1e-13}, atol=1e-7)
def test_sinc(xp, dtype):
    a = _signed(xp, (30,), dtype, scale=8) if numpy.dtype(dtype).kind not in "u" else _rand(xp, (30,), dtype)
    a[0] = 0
    return xp.sinc(a)


@gpu
@testing.numpy_cupy_allclose(rtol=1e-12, atol=1e-12)
def test_unwrap(xp):
    ph = numpy.cumsum(numpy.random.default_rng(0).uniform(-3, 3, (4, 12)), axis=1)
    p = xp.asarray(numpy.angle(numpy.exp(1j * ph)))
    q = xp.asarray(numpy.array([0, 5, 10, 3, 8, 1, 6], numpy.int64))
    deg = xp.asarray(numpy.array([5.0, 350, 10, -170, 170, 0]))
    return (xp.unwrap(p), xp.unwrap(p, axis=0), xp.unwrap(p, discont=4.0), xp.unwrap(q, period=8),
            xp.unwrap(deg, period=360), xp.unwrap(p.astype(numpy.float32)))


# ---- GPU: polynomials ---------------------------------------------------------------------------------
@gpu
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_allclose(rtol={numpy.float32: 1e-5, numpy.complex64: 1e-5, "default": 1e-13})
def test_polyval(xp, dtype):
    p = _rand(xp, (5,), dtype, scale=3)
    x = _signed(xp, (4, 3), numpy.float64, 1, scale=4)
    xi = _rand(xp, (6,), dtype, 2, scale=3)
    return xp.polyval(p, x), xp.polyval(p, xi), xp.polyval(p, 2), xp.polyval(p[:1], xi), \
        xp.polyval(p[::-2], xi.T)


@gpu
@testing.numpy_cupy_array_equal()
def test_polyval_empty_and_poly(xp):
    x = _rand(xp, (3,), numpy.float32)
    return xp.polyval(xp.zeros(0), x), xp.polyval(xp.ones(3, numpy.int32), xp.asarray(numpy.int8(3)))


@gpu
@testing.numpy_cupy_array_equal()
def test_polyadd_polysub(xp):
    a = _rand(xp, (3,), numpy.float64)
    b = _rand(xp, (5,), numpy.int32, 1)
    s = xp.asarray(numpy.float64(2))
    return (xp.polyadd(a, b), xp.polyadd(b, a), xp.polysub(a, b), xp.polysub(b, a), xp.polyadd(a, a),
            xp.polyadd(s, a))


@gpu
def test_polymul():
    if not hasattr(cuarray, "convolve"):
        pytest.skip("cuarray.convolve is not available")
    a, b = numpy.array([1.0, 2, 3]), numpy.array([0.5, -1])
    numpy.testing.assert_allclose(cuarray.polymul(cuarray.asarray(a), cuarray.asarray(b)).get(), numpy.polymul(a, b))


@gpu
@pytest.mark.parametrize("p", [[1.0, -3, 2], [0, 0, 1, -6, 11, -6, 0, 0], [2.0, 0, 0], [0.0, 0], [5.0],
                               [1, 0, 1]])
def test_roots(p):
    import cuarray.linalg
    if not hasattr(cuarray.linalg, "eigvals"):
        pytest.skip("cuarray.linalg.eigvals is not available")
    want = numpy.roots(numpy.array(p))
    got = cuarray.roots(cuarray.asarray(numpy.array(p))).get()
    assert got.shape == want.shape
    numpy.testing.assert_allclose(numpy.sort_complex(got), numpy.sort_complex(want), rtol=1e-10, atol=1e-12)


# ---- GPU: trace --------------------------------------------------------------------------------------
@gpu
@testing.for_all_dtypes()
@testing.numpy_cupy_allclose(rtol={numpy.float16: 1e-2, "default": 1e-6})
def test_trace(xp, dtype):
    a = _rand(xp, (4, 5), dtype, scale=3)
    b = _rand(xp, (3, 4, 5), dtype, 1, scale=3)
    out = xp.zeros(4, numpy.float64)
    xp.trace(b, 1, 0, 2, out=out, dtype=numpy.float64)
    return (xp.trace(a), xp.trace(a, 1), xp.trace(a, -2), xp.trace(a, 7), xp.trace(b, axis1=1, axis2=2),
            xp.trace(a.T, dtype=numpy.float64), out)


@gpu
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_trace_1d(xp):
    xp.trace(xp.ones(3))
