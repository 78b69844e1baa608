"""datetime64 / timedelta64 against NumPy, on the GPU and on the emulated device (the `xp`
variants): creation, transfers, unit conversion, NaT in comparisons, arithmetic, casts,
extremes and sorting."""
import warnings

import numpy
import pytest

from emulation import pytest_generate_tests  # noqa: F401  (the xp variants)

from cuarray._core import datetimes

NAT = numpy.iinfo(numpy.int64).min


def _counts(rng, n, unit, kind="M", nat=True):
    v = rng.integers(-10**6, 10**6, n)
    if nat:
        v[::5] = NAT
    return v.view(f"{kind}8[{unit}]")


def _same(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    g = got.get() if hasattr(got, "get") else got
    if want.dtype.kind in "Mm":
        numpy.testing.assert_array_equal(g.view(numpy.int64), want.view(numpy.int64))
    else:
        numpy.testing.assert_array_equal(g, want)


def test_round_trip_and_creation(xp):
    cp = xp
    rng = numpy.random.default_rng(0)
    for dt in ("M8[s]", "m8[ns]", "M8[D]", "m8[Y]", "M8[10ms]"):
        h = rng.integers(-1000, 1000, (3, 4)).view(numpy.int64).astype(numpy.int64).view(dt)
        h[0, 0] = numpy.array("NaT", dt)
        g = cp.asarray(h)
        assert g.dtype == h.dtype and g.shape == h.shape
        _same(g, h)
        _same(g.T.copy(), h.T.copy())
        numpy.testing.assert_array_equal(cp.asnumpy(g[:, 1]).view("i8"), h[:, 1].view("i8"))
        _same(cp.zeros(3, dt), numpy.zeros(3, dt))
        assert cp.empty((2, 2), dt).dtype == numpy.dtype(dt)
    _same(cp.full(4, numpy.datetime64("2020-01-01"), "M8[s]"),
          numpy.full(4, numpy.datetime64("2020-01-01"), "M8[s]"))
    _same(cp.full(3, "NaT", "m8[s]"), numpy.full(3, "NaT", "m8[s]"))
    _same(cp.asarray(numpy.array(["2001-02-03", "NaT"], ">M8[D]")),
          numpy.array(["2001-02-03", "NaT"], "M8[D]"))
    a = cp.asarray(numpy.arange(4).view("M8[h]"))
    assert a.view(numpy.int64).dtype == numpy.int64
    assert a[1].item() == numpy.arange(4).view("M8[h]")[1].item()
    assert a.tolist() == numpy.arange(4).view("M8[h]").tolist()


@pytest.mark.parametrize("src,dst", [("M8[ms]", "M8[s]"), ("M8[s]", "M8[us]"), ("M8[D]", "M8[M]"),
                                     ("M8[M]", "M8[D]"), ("M8[Y]", "M8[h]"), ("M8[h]", "M8[Y]"),
                                     ("M8[W]", "M8[D]"), ("M8[7s]", "M8[3s]"), ("m8[ms]", "m8[s]"),
                                     ("m8[M]", "m8[D]"), ("m8[Y]", "m8[M]"), ("m8[D]", "m8[h]")])
def test_astype_between_units(xp, src, dst):
    rng = numpy.random.default_rng(1)
    h = _counts(rng, 40, src[3:-1], src[0])
    h[:3] = numpy.array([-1, 1, 0]).view(h.dtype)   # rounding around the epoch
    _same(xp.asarray(h).astype(dst), h.astype(dst))


def test_astype_to_and_from_numbers(xp):
    cp = xp
    h = numpy.array([5, -3, NAT, 0]).view("M8[s]")
    g = cp.asarray(h)
    for dt in ("i8", "f8", "?", "u8"):
        _same(g.astype(dt), h.astype(dt))
    m = numpy.array([5, -3, NAT, 0]).view("m8[s]")
    _same(cp.asarray(m).astype("f4"), m.astype("f4"))
    f = numpy.array([1.7, -1.7, numpy.nan, 1e30, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for src, dst in (("f8", "m8[s]"), ("f8", "M8[s]"), ("f4", "m8[ms]"), ("e", "m8[s]")):
            _same(cp.asarray(f.astype(src)).astype(dst), f.astype(src).astype(dst))
    _same(cp.ones(3, "M8[s]"), numpy.ones(3, "M8[s]"))
    _same(cp.full(2, 3, "m8[s]"), numpy.full(2, 3, "m8[s]"))
    _same(cp.asarray(numpy.array([True, False])).astype("m8[s]"),
          numpy.array([True, False]).astype("m8[s]"))
    _same(cp.asarray(numpy.arange(3)).astype("M8[D]"), numpy.arange(3).astype("M8[D]"))
    with pytest.raises(TypeError):
        g.astype("m8[s]", casting="same_kind")


_D = [numpy.dtype(d) for d in ("M8[s]", "M8[ms]", "M8[D]", "M8[Y]")]
_T = [numpy.dtype(d) for d in ("m8[s]", "m8[ms]", "m8[D]", "m8[M]")]


def test_comparisons_with_nat(xp):
    cp = xp
    rng = numpy.random.default_rng(2)
    for da, db in ((_D[0], _D[0]), (_D[0], _D[1]), (_D[2], _D[0]), (_D[3], _D[2]), (_T[0], _T[1]),
                   (_T[2], _T[0])):
        a = _counts(rng, 30, numpy.datetime_data(da)[0], da.kind)
        b = _counts(rng, 30, numpy.datetime_data(db)[0], db.kind)
        b[1::7] = a[1::7].astype(db)
        ga, gb = cp.asarray(a), cp.asarray(b)
        for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
            try:
                want = getattr(numpy, name)(a, b)
            except TypeError:
                with pytest.raises(TypeError):
                    getattr(cp, name)(ga, gb)
                continue
            _same(getattr(cp, name)(ga, gb), want)
    a = _counts(rng, 10, "s")
    g = cp.asarray(a)
    s = numpy.datetime64("1970-01-02")
    _same(g < s, a < s)
    _same(g == numpy.datetime64("NaT"), a == numpy.datetime64("NaT"))
    _same(cp.isnat(g), numpy.isnat(a))
    _same(cp.isnan(g), numpy.isnan(a))
    _same(cp.isfinite(g), numpy.isfinite(a))
    with pytest.raises(TypeError):
        cp.isnat(cp.arange(3))


def _binary_cases():
    return [
        ("add", _D[0], _T[1]), ("add", _T[0], _D[2]), ("add", _T[0], _T[2]), ("add", _D[3], _T[2]),
        ("subtract", _D[0], _D[2]), ("subtract", _D[1], _T[0]), ("subtract", _T[3], _T[2]),
        ("multiply", _T[0], numpy.dtype("i8")), ("multiply", numpy.dtype("i4"), _T[1]),
        ("multiply", _T[0], numpy.dtype("f8")), ("true_divide", _T[0], _T[1]),
        ("true_divide", _T[0], numpy.dtype("i8")), ("true_divide", _T[1], numpy.dtype("f8")),
        ("floor_divide", _T[0], _T[1]), ("floor_divide", _T[0], numpy.dtype("i8")),
        ("remainder", _T[0], _T[2]), ("maximum", _D[0], _D[1]), ("minimum", _T[0], _T[1]),
        ("fmax", _D[0], _D[0]), ("fmin", _T[2], _T[0]),
    ]


def _operand(rng, dt, n=30):
    if dt.kind in "Mm":
        unit = numpy.datetime_data(dt)[0]
        v = rng.integers(-500, 500, n)
        v[::6] = NAT
        v[2::9] = 0
        return v.view(f"{dt.kind}8[{unit}]")
    if dt.kind == "f":
        v = rng.uniform(-4, 4, n)
        v[3::10] = numpy.nan
        v[4::10] = 0.0
        return v.astype(dt)
    v = rng.integers(-5, 5, n).astype(dt)
    return v


@pytest.mark.parametrize("name,da,db", _binary_cases())
def test_arithmetic(xp, name, da, db):
    cp = xp
    rng = numpy.random.default_rng(3)
    a, b = _operand(rng, da), _operand(rng, db)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = getattr(numpy, name)(a, b)
        except TypeError:   # e.g. months and days have no common unit
            with pytest.raises(TypeError):
                getattr(cp, name)(cp.asarray(a), cp.asarray(b))
            return
    _same(getattr(cp, name)(cp.asarray(a), cp.asarray(b)), want)


def test_divmod_unary_and_scalars(xp):
    cp = xp
    rng = numpy.random.default_rng(4)
    a, b = _operand(rng, _T[0]), _operand(rng, _T[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        q, r = numpy.divmod(a, b)
    gq, gr = cp.divmod(cp.asarray(a), cp.asarray(b))
    _same(gq, q)
    _same(gr, r)
    g = cp.asarray(a)
    for name in ("negative", "positive", "absolute", "sign"):
        _same(getattr(cp, name)(g), getattr(numpy, name)(a))
    _same(-g, -a)
    _same(abs(g), abs(a))
    _same(g * 3, a * 3)
    _same(2 * g, 2 * a)
    _same(g + numpy.timedelta64(5, "ms"), a + numpy.timedelta64(5, "ms"))
    _same(g + 1, a + 1)
    d = _operand(rng, _D[0])
    gd = cp.asarray(d)
    _same(gd - numpy.datetime64("2000-01-01"), d - numpy.datetime64("2000-01-01"))
    import datetime
    with pytest.raises(TypeError):   # NumPy refuses Python's timedelta here too
        gd + datetime.timedelta(days=1)
    with pytest.raises(TypeError):
        gd + gd
    with pytest.raises(TypeError):
        gd * 2
    with pytest.raises(TypeError):
        cp.sin(gd)


def test_out_in_another_unit(xp):
    cp = xp
    rng = numpy.random.default_rng(5)
    a, b = _operand(rng, _D[0]), _operand(rng, _T[1])
    out = numpy.zeros(a.shape, "M8[s]")
    numpy.add(a, b, out=out)
    gout = cp.zeros(a.shape, "M8[s]")
    r = cp.add(cp.asarray(a), cp.asarray(b), out=gout)
    assert r is gout
    _same(gout, out)


def test_arange(xp):
    cp = xp
    for args, kw in [((numpy.datetime64("2020-01-01"), numpy.datetime64("2020-01-10")), {}),
                     ((numpy.datetime64("2020-01-01"), numpy.datetime64("2020-01-05"),
                       numpy.timedelta64(36, "h")), {}),
                     ((0, 5), {"dtype": "m8[s]"}), ((numpy.timedelta64(3, "D"),), {}),
                     ((0, 7, 2), {"dtype": "M8[s]"})]:
        _same(cp.arange(*args, **kw), numpy.arange(*args, **kw))


def test_convert_expressions():
    # Pure host: the C expressions the kernels use.
    d = numpy.dtype
    assert datetimes.convert("x", d("M8[s]"), d("M8[s]")) == "x"
    assert datetimes.convert("x", d("M8[s]"), d("M8[ms]")) == "cuarray_dt_scale(x, 1000LL, 1LL)"
    assert datetimes.convert("x", d("m8[ms]"), d("m8[s]")) == "cuarray_dt_scale(x, 1LL, 1000LL)"
    assert "months_to_days" in datetimes.convert("x", d("M8[M]"), d("M8[D]"))
    assert "days_to_months" in datetimes.convert("x", d("M8[h]"), d("M8[Y]"))
    assert datetimes.convert("x", d("m8[Y]"), d("m8[M]")) == "cuarray_dt_scale(x, 12LL, 1LL)"
    with pytest.raises(TypeError):
        datetimes.loop_body("sin", (d("M8[s]"),), (d("M8[s]"),))


def test_every_numpy_datetime_loop_has_a_body():
    from cuarray._core.ufunc_table import BY_NAME, body
    for name in BY_NAME:
        for sig in getattr(numpy, name).types:
            if not set(sig) & set("Mm"):
                continue
            ins, outs = sig.split("->")
            dts = [numpy.dtype(c + "8[s]") if c in "Mm" else numpy.dtype(c) for c in ins + outs]
            assert "out0" in body(name, dts[:len(ins)], dts[len(ins):], datetime=True), (name, sig)
            with pytest.raises(TypeError, match="ufunc calls"):
                body(name, dts[:len(ins)], dts[len(ins):])


def test_datetime_loops_and_casts_compile_with_nvrtc():
    pytest.importorskip("cuda.core")
    import os
    from cuda.core import Program, ProgramOptions
    from cuarray._core import dtypes
    from cuarray._core.ufunc_table import body
    d = numpy.dtype
    src = ["#include <cuarray/core.cuh>", datetimes.PREAMBLE]
    k = 0
    for name, loops in datetimes.LOOPS.items():
        for sig in loops:
            ins, outs = sig.split("->")
            dts = [d(c + "8[s]") if c in "Mm" else d(c) for c in ins + outs]
            params = [f"const {dtypes.ctype(x)}* p{j}" for j, x in enumerate(dts[:len(ins)])]
            params += [f"{dtypes.ctype(x)}* q{j}" for j, x in enumerate(dts[len(ins):])]
            loads = " ".join(f"const {dtypes.ctype(x)} in{j} = p{j}[0];" for j, x in enumerate(dts[:len(ins)]))
            outs_ = " ".join(f"{dtypes.ctype(x)}& out{j} = q{j}[0];" for j, x in enumerate(dts[len(ins):]))
            code = datetimes.with_conversions(body(name, dts[:len(ins)], dts[len(ins):], datetime=True),
                                              [d("M8[M]") if x.kind == "M" else (d("m8[ms]") if x.kind == "m" else None)
                                               for x in dts[:len(ins)]], dts[:len(ins)])
            src.append(f'extern "C" __global__ void k{k}({", ".join(params)}) {{ {loads} {outs_} {code} }}')
            k += 1
    for a, b in (("M8[M]", "M8[ns]"), ("M8[ns]", "M8[Y]"), ("f8", "m8[s]"), ("M8[s]", "f4"), ("e", "M8[s]"),
                 ("F", "m8[s]")):
        cast = datetimes.cast_body(d(a), d(b))
        src.append(f'extern "C" __global__ void c{k}(const {dtypes.ctype(a)}* p, {dtypes.ctype(b)}* q) '
                   f'{{ const {dtypes.ctype(a)} x = p[0]; {dtypes.ctype(b)}& y = q[0]; {cast} }}')
        k += 1
    include = os.path.join(os.path.dirname(dtypes.__file__), "include")
    opts = ProgramOptions(arch="sm_90", std="c++17", include_path=[include])
    Program("\n".join(src), "c++", opts).compile("cubin")


def test_extremes_sort_and_sums(xp):
    cp = xp
    rng = numpy.random.default_rng(7)
    a = _operand(rng, _D[0], 24).reshape(4, 6)
    a[0] = a[0, 1]    # a row without NaT
    g = cp.asarray(a)
    for axis in (None, 0, 1):
        for name in ("max", "min", "nanmax", "nanmin", "argmax", "argmin"):
            want = getattr(numpy, name)(a, axis=axis)
            got = getattr(cp, name)(g, axis=axis)
            if want.dtype.kind in "Mm":
                _same(got, numpy.asarray(want))
            else:
                numpy.testing.assert_array_equal(got.get(), want)
        _same(cp.sort(g, axis=axis if axis is not None else -1),
              numpy.sort(a, axis=axis if axis is not None else -1))
    numpy.testing.assert_array_equal(cp.argsort(g, axis=1).get(), numpy.argsort(a, axis=1, kind="stable"))
    h = a.copy()
    h.sort()
    g.sort()
    _same(g, h)
    m = _operand(rng, _T[0], 12).reshape(3, 4)
    m[1] = 4
    _same(cp.sum(cp.asarray(m), axis=1), numpy.sum(m, axis=1))
    _same(cp.asarray(m).sum(), numpy.asarray(m.sum()))
    with pytest.raises(TypeError):
        cp.sum(g)
    with pytest.raises(TypeError):
        cp.mean(g)
    with pytest.raises(TypeError):
        cp.var(cp.asarray(m))
    for axis in (None, 0, 1):
        _same(cp.mean(cp.asarray(m), axis=axis), numpy.asarray(numpy.mean(m, axis=axis)))
    with pytest.raises(TypeError):
        cp.prod(cp.asarray(m))
    with pytest.raises(TypeError):
        cp.cumsum(cp.asarray(m))


def test_where_and_concatenate_convert_units(xp):
    cp = xp
    rng = numpy.random.default_rng(9)
    a, b = _operand(rng, _D[0], 12), _operand(rng, _D[1], 12)
    c = rng.random(12) > 0.5
    _same(cp.where(cp.asarray(c), cp.asarray(a), cp.asarray(b)), numpy.where(c, a, b))
    _same(cp.where(cp.asarray(c), cp.asarray(a), numpy.datetime64("2001-01-01")),
          numpy.where(c, a, numpy.datetime64("2001-01-01")))
    _same(cp.concatenate([cp.asarray(a), cp.asarray(b)]), numpy.concatenate([a, b]))


@pytest.mark.gpu
def test_views_and_round_trip_as_cupy():
    """What CuPy 14 does with datetimes: int64 data viewed as datetime64, copied back."""
    cupy = pytest.importorskip("cupy")
    import cuarray
    h = numpy.random.default_rng(10).integers(-10**12, 10**12, 50)
    for dt in ("M8[ns]", "m8[us]"):
        g = cuarray.asarray(h).view(dt)
        c = cupy.asarray(h).view(dt)
        assert g.dtype == c.dtype and g.shape == c.shape and g.strides == c.strides
        numpy.testing.assert_array_equal(g.get().view("i8"), c.get().view("i8"))
        # CuPy cannot copy a strided datetime view back (ValueError: unsupported dtype in
        # its contiguous copy); cuarray can, and gives the elements NumPy would
        numpy.testing.assert_array_equal(g[::3].get().view("i8"), h[::3])
