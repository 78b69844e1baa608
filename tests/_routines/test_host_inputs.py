"""CuPy's host-input rule (cuarray._core.host_policy, docs/HOST_INPUTS.md): device operands
refuse host arrays with TypeError, array_like arguments upload them, CUDA-protocol objects
are device arrays everywhere, size-1 host arrays are scalars where CuPy says so. On the GPU
and through the host emulation; with CuPy installed, also against CuPy."""
import numpy
import pytest

from _backends import cp  # noqa: F401


class _CAI:
    """A foreign object exposing a device array through __cuda_array_interface__."""

    def __init__(self, a):
        self._a = a
        self.__cuda_array_interface__ = a.__cuda_array_interface__


class _GetND:
    """A foreign object that hands over a cuarray array (`__cupy_get_ndarray__`)."""

    def __init__(self, a):
        self._a = a

    def __cupy_get_ndarray__(self):
        return self._a


def test_device_operands_refuse_host_arrays(cp):
    g = cp.arange(3.0)
    for bad in (numpy.arange(3.0), [1.0, 2.0, 3.0], (1.0, 2.0, 3.0)):
        with pytest.raises(TypeError, match="cuarray.asarray"):
            cp.add(g, bad)
        with pytest.raises(TypeError, match="cuarray.asarray"):
            cp.sum(bad)
        with pytest.raises(TypeError, match="cuarray.asarray"):
            cp.cumsum(bad)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.add.at(g, [0], numpy.ones(1))


def _check_protocol(cp, wrap):
    h = numpy.arange(6.0)
    g = cp.asarray(h)
    w = wrap(g)
    numpy.testing.assert_array_equal(cp.add(w, 1.0).get(), h + 1)
    numpy.testing.assert_array_equal(cp.multiply(2, w).get(), 2 * h)
    numpy.testing.assert_array_equal(cp.sqrt(w).get(), numpy.sqrt(h))
    numpy.testing.assert_array_equal(cp.where(g > 2, w, 0.0).get(), numpy.where(h > 2, h, 0.0))
    d = cp.zeros(6)
    cp.copyto(d, w)
    numpy.testing.assert_array_equal(d.get(), h)


def test_cupy_get_ndarray_objects_are_device_arrays(cp):
    _check_protocol(cp, _GetND)


@pytest.mark.gpu
def test_cuda_array_interface_objects_are_device_arrays():
    # Wrapping a foreign pointer queries the driver: GPU only.
    import cuarray
    _check_protocol(cuarray, _CAI)
    h = numpy.arange(6.0)
    for wrap in (_CAI, _GetND):
        w = wrap(cuarray.asarray(h))
        assert float(cuarray.sum(w)) == h.sum() and float(cuarray.amax(w)) == h.max()
        numpy.testing.assert_array_equal(cuarray.cumsum(w).get(), numpy.cumsum(h))
        numpy.testing.assert_array_equal(cuarray.sort(w).get(), h)


def test_array_like_routines_upload(cp):
    x = [1.0, 2.0, 3.0]
    numpy.testing.assert_array_equal(cp.vander(x).get(), numpy.vander(x))
    numpy.testing.assert_array_equal(cp.vander((1, 2), 3, True).get(), numpy.vander((1, 2), 3, True))
    for f in ("isreal", "iscomplex"):
        for v in ([1, 2j, 3], numpy.array([1.0, 2.0]), 3.0, 1j):
            got, want = getattr(cp, f)(v), getattr(numpy, f)(v)
            assert isinstance(got, cp.ndarray)
            numpy.testing.assert_array_equal(got.get(), want)
    a = numpy.arange(12.0).reshape(3, 4)
    got = cp.apply_along_axis(lambda v: (1.0, 2.0), 1, cp.asarray(a))
    numpy.testing.assert_array_equal(got.get(), numpy.apply_along_axis(lambda v: (1.0, 2.0), 1, a))
    numpy.testing.assert_array_equal(cp.delete(cp.arange(5), [0, 3]).get(), [1, 2, 4])


def test_copyto_host_scalars(cp):
    d = cp.zeros(3, numpy.float32)
    cp.copyto(d, numpy.array([2.5]))
    numpy.testing.assert_array_equal(d.get(), [2.5] * 3)
    cp.copyto(d, numpy.array(1.5, numpy.float32))
    numpy.testing.assert_array_equal(d.get(), [1.5] * 3)
    cp.copyto(d, numpy.float32(4))
    numpy.testing.assert_array_equal(d.get(), [4.0] * 3)
    with pytest.raises(ValueError, match="non-scalar numpy.ndarray"):
        cp.copyto(d, numpy.ones(3))
    with pytest.raises(TypeError, match="Cannot cast"):
        cp.copyto(cp.zeros(3, numpy.int32), numpy.array([1.5]))
    with pytest.raises(TypeError):
        cp.copyto(d, [1.0, 2.0, 3.0])


def test_comparisons_with_0d_numpy_arrays(cp):
    h = numpy.array([0, 1, 2, 3], numpy.uint8)
    g = cp.asarray(h)
    z = numpy.array(2)
    for got, want in ((g < z, h < 2), (g <= z, h <= 2), (g > z, h > 2), (g >= z, h >= 2),
                      (g == z, h == 2), (g != z, h != 2), (numpy.less(z, g), 2 < h),
                      (numpy.equal(g, z), h == 2)):
        assert isinstance(got, cp.ndarray)
        numpy.testing.assert_array_equal(got.get(), want)


@pytest.mark.gpu
def test_average_takes_array_like():
    import cuarray
    a = numpy.arange(12.0).reshape(3, 4)
    w = numpy.array([1.0, 2.0, 3.0, 4.0])
    numpy.testing.assert_allclose(cuarray.average(cuarray.asarray(a), axis=1, weights=w).get(),
                                  numpy.average(a, axis=1, weights=w))
    numpy.testing.assert_allclose(cuarray.average(a.tolist()).get(), numpy.average(a))


@pytest.mark.gpu
def test_linalg_cond_takes_array_like():
    import cuarray
    a = [[1.0, 2.0], [3.0, 4.0]]
    numpy.testing.assert_allclose(float(cuarray.linalg.cond(a)), numpy.linalg.cond(a), rtol=1e-12)


@pytest.mark.gpu
def test_same_exceptions_as_cupy():
    cupy = pytest.importorskip("cupy")
    import cuarray
    cases = [
        lambda xp: xp.add(xp.arange(3), numpy.arange(3)),
        lambda xp: xp.copyto(xp.zeros(3), numpy.ones(3)),
        lambda xp: xp.vander([1, 2, 3]),
        lambda xp: xp.isreal([1, 2j]),
        lambda xp: xp.copyto(xp.zeros(3), numpy.array([7.0])),
        lambda xp: xp.arange(3) < numpy.array(1),
    ]
    for case in cases:
        outcome = []
        for xp in (cupy, cuarray):
            try:
                r = case(xp)
                outcome.append(("ok", None if r is None else xp.asnumpy(r).tolist()))
            except Exception as e:  # the exception type is what is compared
                outcome.append(("raise", type(e)))
        assert outcome[0] == outcome[1]


class _Priority:
    """An array-like of another library that takes over binary operators."""
    __array_priority__ = 1000.0

    def __radd__(self, other):
        return "radd"

    def __rmul__(self, other):
        return "rmul"

    def __rsub__(self, other):
        return "rsub"


class _NoUfunc:
    """NEP 13's opt-out: __array_ufunc__ = None asks for the reflected operator."""
    __array_ufunc__ = None

    def __radd__(self, other):
        return "radd"

    def __rtruediv__(self, other):
        return "rtruediv"


def test_operators_defer_to_other_array_types(cp):
    g = cp.arange(3.0)
    assert g + _Priority() == "radd" and g * _Priority() == "rmul" and g - _Priority() == "rsub"
    assert g + _NoUfunc() == "radd" and g / _NoUfunc() == "rtruediv"


@pytest.mark.gpu
def test_ufunc_at_takes_host_indices():
    import cuarray
    h = numpy.zeros(5)
    g = cuarray.zeros(5)
    for idx in (numpy.array([0, 1, 1]), [4, 4, 0], (2,)):
        numpy.add.at(h, idx, 1.5)
        cuarray.add.at(g, idx, 1.5)
    numpy.testing.assert_array_equal(g.get(), h)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cuarray.add.at(g, [0], numpy.ones(1))


_ONE_SENTENCE = (r"^cuarray\.[\w.]+ does not accept numpy\.ndarray( for \w+)?; move it to the "
                 r"GPU with cuarray\.asarray\(\w+\)$")


def test_host_refusals_share_one_sentence():
    """Every module refuses host data with host_policy's sentence (no GPU needed: the
    checks run before any device work)."""
    import cuarray
    import cuarray.fft
    import cuarray.lib.stride_tricks
    import cuarray.linalg
    import cuarray.scipy.linalg
    import cuarray.scipy.ndimage
    import cuarray.scipy.signal
    import cuarray.scipy.sparse.linalg
    import cuarray.scipy.stats
    h = numpy.ones((3, 3))
    calls = [lambda: cuarray.fft.fft(h), lambda: cuarray.fft.fftshift(h),
             lambda: cuarray.linalg.inv(h), lambda: cuarray.scipy.linalg.lu_factor(h),
             lambda: cuarray.scipy.linalg.block_diag(h),
             lambda: cuarray.scipy.ndimage.gaussian_filter(h, 1.0),
             lambda: cuarray.scipy.stats.zscore(h),
             lambda: cuarray.scipy.signal.hilbert(h),
             lambda: cuarray.scipy.sparse.linalg.aslinearoperator(h),
             lambda: cuarray.lib.stride_tricks.sliding_window_view(h, 2)]
    for call in calls:
        with pytest.raises(TypeError, match=_ONE_SENTENCE):
            call()
    from cuarray._core.host_policy import not_device_error
    assert str(not_device_error("f", {}, "cuarray.x.")) == (
        "cuarray.x.f needs a cuarray.ndarray, got dict")
    assert str(not_device_error("f", [1], arg="b")) == (
        "cuarray.f does not accept list for b; move it to the GPU with cuarray.asarray(b)")
