"""Stride tricks, r_/c_/s_, ndim/shape/size, byte_bounds, who, memoize, allow_synchronize
and the Array API pieces (astype, unstack, __array_namespace_info__) against NumPy; runs on
the GPU and through the host emulation."""
import numpy
import pytest

from _backends import cp  # noqa: F401


def _h(g):
    return g.get()


def test_as_strided_and_sliding_window(cp):
    h = numpy.arange(24.0).reshape(4, 6)
    g = cp.asarray(h)
    st = cp.lib.stride_tricks
    v = st.as_strided(g, shape=(3, 2), strides=(g.strides[0], 16))
    w = numpy.lib.stride_tricks.as_strided(h, shape=(3, 2), strides=(h.strides[0], 16))
    numpy.testing.assert_array_equal(_h(v), w)
    assert v.strides == w.strides
    for window, axis in ((3, 1), ((2, 3), None), (2, 0), ((2, 2), (0, 1)),
                         ((2, 1), (1, 1))):
        got = st.sliding_window_view(g, window, axis=axis)
        want = numpy.lib.stride_tricks.sliding_window_view(h, window, axis=axis)
        assert got.shape == want.shape and got.strides == want.strides
        numpy.testing.assert_array_equal(_h(got), want)
    with pytest.raises(ValueError):
        st.sliding_window_view(g, 7, axis=1)
    with pytest.raises(ValueError):
        st.sliding_window_view(g, (2,))
    with pytest.raises(ValueError):
        st.sliding_window_view(g, -1, axis=0)
    with pytest.raises(TypeError):
        st.sliding_window_view(h, 2, axis=0)
    a, b = st.broadcast_arrays(cp.ones((2, 1)), cp.ones(3))
    assert a.shape == b.shape == (2, 3)
    assert st.broadcast_to(cp.ones(3), (2, 3)).shape == (2, 3)


def test_r_and_c(cp):
    a, b = numpy.array([1, 2, 3]), numpy.array([4, 5, 6])
    ga, gb = cp.asarray(a), cp.asarray(b)
    cases = [
        (cp.r_[ga, gb], numpy.r_[a, b]), (cp.r_[ga, 0, 0, gb], numpy.r_[a, 0, 0, b]),
        (cp.r_[-1:1:6j, [0] * 3, 5, 6], numpy.r_[-1:1:6j, [0] * 3, 5, 6]),
        (cp.r_[0:5, 7], numpy.r_[0:5, 7]), (cp.r_[ga, 2.5], numpy.r_[a, 2.5]),
        (cp.c_[ga, gb], numpy.c_[a, b]), (cp.c_[cp.ones((2, 2)), cp.zeros((2, 1))],
                                          numpy.c_[numpy.ones((2, 2)), numpy.zeros((2, 1))]),
        (cp.r_["0,2", ga, gb], numpy.r_["0,2", a, b]), (cp.r_["0,2,0", ga, gb], numpy.r_["0,2,0", a, b]),
        (cp.r_["1,2,0", ga, gb], numpy.r_["1,2,0", a, b]),
        (cp.r_["-1", cp.ones((2, 2)), cp.zeros((2, 1))], numpy.r_["-1", numpy.ones((2, 2)), numpy.zeros((2, 1))]),
        (cp.r_[ga, numpy.int8(1)], numpy.r_[a, numpy.int8(1)]),
    ]
    for got, want in cases:
        assert isinstance(got, cp.ndarray)
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_allclose(_h(got), want)
    with pytest.raises(ValueError, match="first entry"):
        cp.r_[ga, "0"]
    with pytest.raises(ValueError):
        cp.r_["r", ga]
    assert cp.s_[1:3] == numpy.s_[1:3] and cp.index_exp[2] == (2,)
    assert list(cp.ndindex(2, 2)) == list(numpy.ndindex(2, 2))
    assert len(cp.r_) == 0


def test_ndim_shape_size_isfortran(cp):
    g = cp.zeros((2, 3, 4))
    assert cp.ndim(g) == 3 and cp.ndim([[1, 2]]) == 2 and cp.ndim(5) == 0
    assert cp.shape(g) == (2, 3, 4) and cp.shape([[1, 2]]) == (1, 2)
    assert cp.size(g) == 24 and cp.size(g, 1) == 3 and cp.size(g, -1) == 4
    with pytest.raises(IndexError):
        cp.size(g, 3)
    with pytest.raises(TypeError):
        cp.size([1, 2])
    assert not cp.isfortran(g) and cp.isfortran(cp.asfortranarray(g))
    assert not cp.isfortran(cp.zeros(3))
    assert cp.iterable([1]) and not cp.iterable(1)


def test_byte_bounds(cp):
    g = cp.zeros((4, 6), numpy.float32)
    for v in (g, g[1:3, ::2], g[::-1], g.T, g[2, 3]):
        lo, hi = cp.byte_bounds(v)
        assert lo <= v.data.ptr < hi or v.size == 0
        assert hi - lo <= g.nbytes
    lo, hi = cp.byte_bounds(g)
    assert (lo, hi) == (g.data.ptr, g.data.ptr + g.nbytes)
    lo, hi = cp.byte_bounds(g[::-1])
    assert (lo, hi) == (g.data.ptr, g.data.ptr + g.nbytes)


def test_who(cp, capsys):
    ns = {"alpha": cp.zeros((2, 3)), "beta": cp.ones(4, numpy.int32), "x": 3}
    ns["gamma"] = ns["alpha"]
    cp.who(ns)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Name ") and lines[0].endswith(" Type")
    assert set(lines[1]) == {"="}
    assert any(line.startswith("alpha ") and "2 x 3" in line and "48" in line and "float64" in line
               for line in lines)
    assert any(line.startswith("gamma (alpha)") for line in lines)
    assert lines[-1] == "Upper bound on total bytes  =       64"
    cp.who({})
    assert capsys.readouterr().out == "\nUpper bound on total bytes  =       0\n"


def test_memoize(cp):
    calls = []

    @cp.memoize()
    def f(x):
        calls.append(x)
        return x * 2

    assert f(3) == 6 and f(3) == 6 and calls == [3]
    cp.clear_memo()
    assert f(3) == 6 and calls == [3, 3]
    assert f(x=4) == 8 and f(x=4) == 8 and calls == [3, 3, 4]
    assert f.__name__ == "f"


def test_allow_synchronize(cp):
    g = cp.arange(4)
    with cp.allow_synchronize(False):
        y = g + 1  # launches do not synchronize
        with pytest.raises(cp.DeviceSynchronized):
            y.get()
        with pytest.raises(cp.DeviceSynchronized):
            int(y[0])
        with cp.allow_synchronize(True):
            assert y.get().tolist() == [1, 2, 3, 4]
        with pytest.raises(cp.DeviceSynchronized):
            cp.cuda.get_current_stream().synchronize()
    assert y.get().tolist() == [1, 2, 3, 4]
    assert issubclass(cp.DeviceSynchronized, RuntimeError)


def test_array_api_pieces(cp):
    assert cp.__array_api_version__ == "2024.12"
    info = cp.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"]
    d = info.default_dtypes()
    assert d["real floating"] == numpy.float64 and d["indexing"] == numpy.intp
    assert list(info.dtypes(kind="bool")) == ["bool"]
    assert set(info.dtypes(kind=("signed integer", "complex floating"))) == {
        "int8", "int16", "int32", "int64", "complex64", "complex128"}
    assert len(info.dtypes()) == 13 and "float16" not in info.dtypes()
    with pytest.raises(ValueError):
        info.dtypes(kind="text")
    h = numpy.arange(6.0).reshape(2, 3)
    g = cp.asarray(h)
    for axis in (0, 1, -1):
        got, want = cp.unstack(g, axis=axis), numpy.unstack(h, axis=axis)
        assert len(got) == len(want)
        for x, y in zip(got, want):
            numpy.testing.assert_array_equal(_h(x), y)
    with pytest.raises(ValueError):
        cp.unstack(cp.asarray(numpy.float64(1)))
    a = cp.astype(g, numpy.int32)
    assert a.dtype == numpy.int32 and _h(a).tolist() == h.astype(numpy.int32).tolist()
    assert cp.astype(g, numpy.float64, copy=False) is g
    assert cp.astype(g, numpy.float64) is not g
    assert cp.isdtype(numpy.dtype("f4"), "real floating")
    assert cp.isdtype(numpy.dtype("u1"), ("integral", "bool"))
