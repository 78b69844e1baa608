"""The Array API pieces of the main namespace against NumPy 2: device= on creation
functions, asarray(copy=), x.to_device, cumulative_sum/prod(include_initial=),
sort/argsort(descending=), clip(min=, max=), finfo/iinfo of arrays. On the GPU and through
the host emulation."""
import inspect

import numpy
import pytest

from _backends import cp  # noqa: F401


def test_device_keyword_on_creation(cp):
    x = cp.zeros(3)
    dev = x.device
    for make in (lambda d: cp.zeros(3, device=d), lambda d: cp.ones((2, 2), device=d),
                 lambda d: cp.empty(4, device=d), lambda d: cp.full(3, 7.0, device=d),
                 lambda d: cp.arange(5, device=d), lambda d: cp.eye(3, device=d),
                 lambda d: cp.linspace(0, 1, 5, device=d), lambda d: cp.zeros_like(x, device=d),
                 lambda d: cp.ones_like(x, device=d), lambda d: cp.empty_like(x, device=d),
                 lambda d: cp.full_like(x, 2, device=d), lambda d: cp.asarray([1, 2], device=d)):
        for d in (dev, dev.id, "cuda", None):
            a = make(d)
            assert isinstance(a, cp.ndarray) and a.device == dev
    numpy.testing.assert_array_equal(cp.arange(5, device=dev).get(), numpy.arange(5))
    with pytest.raises(ValueError):
        cp.zeros(3, device="cpu")
    with pytest.raises(ValueError):
        cp.zeros(3, device=object())
    for f in ("zeros", "ones", "empty", "full", "arange", "eye", "linspace", "asarray",
              "zeros_like", "ones_like", "empty_like", "full_like"):
        assert "device" in inspect.signature(getattr(cp, f)).parameters, f


def test_asarray_copy(cp):
    x = cp.arange(4.0)
    assert cp.asarray(x, copy=False) is x
    assert cp.asarray(x, copy=None) is x
    y = cp.asarray(x, copy=True)
    assert y is not x and not cp.shares_memory(x, y)
    numpy.testing.assert_array_equal(y.get(), x.get())
    with pytest.raises(ValueError):
        cp.asarray(x, dtype=numpy.float32, copy=False)
    with pytest.raises(ValueError):
        cp.asarray([1.0, 2.0], copy=False)
    assert cp.asarray(x, dtype=numpy.float32, copy=None).dtype == numpy.float32


def test_to_device(cp):
    x = cp.arange(3)
    assert x.to_device(x.device) is x
    assert x.to_device("cuda") is x
    assert cp.astype(x, numpy.int64, copy=False, device=x.device) is x
    with pytest.raises(ValueError):
        x.to_device("cpu")


@pytest.mark.parametrize("name,ref", [
    ("cumulative_sum", numpy.cumulative_sum),
    pytest.param("cumulative_prod", numpy.cumulative_prod, marks=pytest.mark.gpu)])
@pytest.mark.parametrize("dt", ["i1", "i4", "u2", "f4", "f8", "c16", "?"])
def test_cumulative(cp, name, ref, dt, request):
    if name == "cumulative_prod" and "emu" in request.node.name:
        pytest.skip("cumprod's scan kernel needs the GPU")
    rng = numpy.random.default_rng(11)
    h = (rng.integers(0, 3, 7)).astype(dt)
    g = cp.asarray(h)
    f = getattr(cp, name)
    for kw in ({}, {"include_initial": True}, {"dtype": numpy.float64}):
        got, want = f(g, **kw), ref(h, **kw)
        assert got.dtype == want.dtype and got.shape == want.shape, kw
        numpy.testing.assert_allclose(got.get(), want)
    assert f(cp.zeros(0, dt), include_initial=True).shape == (1,)


def test_cumulative_axis_rules(cp):
    h = numpy.arange(6.0).reshape(2, 3)
    g = cp.asarray(h)
    for axis in (0, 1, -1):
        for inc in (False, True):
            numpy.testing.assert_array_equal(
                cp.cumulative_sum(g, axis=axis, include_initial=inc).get(),
                numpy.cumulative_sum(h, axis=axis, include_initial=inc))
    with pytest.raises(ValueError):
        cp.cumulative_sum(g)
    with pytest.raises(ValueError):
        cp.cumulative_prod(cp.asarray(numpy.float64(1.0)))


@pytest.mark.gpu  # the host emulation replaces sort with a NumPy stand-in
@pytest.mark.parametrize("shape,axis", [((9,), -1), ((3, 5), 0), ((3, 5), 1), ((0,), -1)])
def test_sort_descending_stable(shape, axis):
    import cuarray as cp
    rng = numpy.random.default_rng(12)
    h = rng.integers(0, 4, shape).astype(numpy.float64)
    if h.size:
        h.flat[1] = numpy.nan
    g = cp.asarray(h)
    got = cp.sort(g, axis=axis, descending=True).get()
    want = numpy.flip(numpy.sort(numpy.flip(h, axis), axis=axis), axis)
    numpy.testing.assert_array_equal(got, want)
    idx = cp.argsort(g, axis=axis, descending=True, stable=True).get()
    n = h.shape[axis]
    want_idx = n - 1 - numpy.flip(numpy.argsort(numpy.flip(h, axis), axis=axis, stable=True), axis)
    numpy.testing.assert_array_equal(idx, want_idx)
    # Descending and stable: ties keep their original order.
    numpy.testing.assert_array_equal(cp.argsort(cp.asarray([1, 2, 1, 2]), descending=True).get(),
                                     [1, 3, 0, 2])


def test_clip_array_api_names(cp):
    h = numpy.arange(-3.0, 4.0)
    g = cp.asarray(h)
    numpy.testing.assert_array_equal(cp.clip(g, min=-1, max=2).get(), numpy.clip(h, min=-1, max=2))
    numpy.testing.assert_array_equal(cp.clip(g, -1, 2).get(), numpy.clip(h, -1, 2))
    numpy.testing.assert_array_equal(cp.clip(g, a_min=-1, a_max=2).get(), numpy.clip(h, -1, 2))
    numpy.testing.assert_array_equal(cp.clip(g, max=0).get(), numpy.clip(h, max=0))
    r = cp.clip(g)
    assert r is not g
    numpy.testing.assert_array_equal(r.get(), h)
    params = list(inspect.signature(cp.clip).parameters)
    assert params[1:3] == ["min", "max"]


def test_finfo_iinfo_of_arrays(cp):
    assert cp.finfo(cp.zeros(1, numpy.float32)).eps == numpy.finfo(numpy.float32).eps
    assert cp.iinfo(cp.zeros(1, numpy.int16)).max == 32767
    assert cp.finfo(numpy.float64).bits == 64


def test_array_namespace_versions(cp):
    x = cp.zeros(2)
    assert x.__array_namespace__() is cp and x.__array_namespace__(api_version="2024.12") is cp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")
