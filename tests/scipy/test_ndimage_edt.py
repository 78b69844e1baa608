"""cuarray.scipy.ndimage.distance_transform_edt against SciPy (GPU and host emulation)."""
import numpy
import pytest
import scipy.ndimage as snd


def _check_indices(ft, x, dist, sampling):
    """Every returned feature is a background element at the returned distance (ties may
    pick another element than SciPy's)."""
    ft = ft.get()
    assert ft.dtype == numpy.int32 and ft.shape == (x.ndim,) + x.shape
    assert not x[tuple(ft)].any()
    grid = numpy.indices(x.shape)
    s = numpy.ones(x.ndim) if sampling is None else numpy.broadcast_to(sampling, (x.ndim,))
    d = numpy.sqrt(sum((s[k] * (grid[k] - ft[k])) ** 2 for k in range(x.ndim)))
    numpy.testing.assert_allclose(d, dist, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shape,p", [((40,), 0.8), ((13, 17), 0.7), ((31, 9), 0.95),
                                     ((6, 7, 8), 0.85), ((1, 9), 0.5), ((3, 1, 5), 0.6)])
def test_edt(cp, shape, p):
    from cuarray.scipy import ndimage as nd
    x = numpy.random.default_rng(sum(shape)).random(shape) < p
    x.flat[0] = False
    for sampling in (None, 1.5, tuple(numpy.linspace(0.5, 2, len(shape)))):
        ref = snd.distance_transform_edt(x, sampling=sampling)
        d, ft = nd.distance_transform_edt(cp.asarray(x), sampling=sampling, return_indices=True)
        assert d.dtype == numpy.float64
        numpy.testing.assert_allclose(d.get(), ref, rtol=1e-12, atol=1e-12)
        _check_indices(ft, x, ref, sampling)


def test_edt_outputs_errors(cp):
    from cuarray.scipy import ndimage as nd
    x = numpy.random.default_rng(5).random((9, 11)) < 0.8
    x[0, 0] = False
    ref = snd.distance_transform_edt(x)
    dist = cp.zeros((9, 11))
    ind = cp.zeros((2, 9, 11), dtype=numpy.int32)
    assert nd.distance_transform_edt(cp.asarray(x), distances=dist, return_indices=True,
                                     indices=ind) is None
    numpy.testing.assert_allclose(dist.get(), ref)
    _check_indices(ind, x, ref, None)
    ft = nd.distance_transform_edt(cp.asarray(x).T, return_distances=False, return_indices=True)
    _check_indices(ft, x.T, ref.T, None)
    d32 = nd.distance_transform_edt(cp.asarray(x), float64_distances=False)
    assert d32.dtype == numpy.float32
    numpy.testing.assert_allclose(d32.get(), ref, rtol=1e-6)
    with pytest.raises(RuntimeError):
        nd.distance_transform_edt(cp.asarray(x), return_distances=False)
    with pytest.raises(RuntimeError):
        nd.distance_transform_edt(cp.asarray(x), distances=cp.zeros((2, 2)))
    with pytest.raises(RuntimeError):
        nd.distance_transform_edt(cp.asarray(x), return_indices=True,
                                  indices=cp.zeros((2, 9, 11)))
    with pytest.raises(RuntimeError):
        nd.distance_transform_edt(cp.asarray(x), sampling=(1, 2, 3))


@pytest.mark.parametrize("shared_max", [4096, 0])
@pytest.mark.parametrize("shape,p", [((70, 45), 0.97), ((5, 130), 0.995), ((100,), 0.98),
                                     ((40, 3, 37), 0.99)])
def test_edt_sparse_background(cp, monkeypatch, shape, p, shared_max):
    # few background elements: features lie many bands away along axis 0 and many sites
    # away along the envelope passes; shared_max 0 runs the envelopes in global scratch
    from cuarray.scipy import ndimage as nd
    from cuarray.scipy.ndimage import _edt
    monkeypatch.setattr(_edt, "SHARED_MAX", shared_max)
    rng = numpy.random.default_rng(len(shape) + int(1000 * p))
    x = rng.random(shape) < p
    x.flat[rng.integers(x.size)] = False
    sampling = tuple(rng.uniform(0.5, 2, len(shape)))
    ref = snd.distance_transform_edt(x, sampling=sampling)
    d, ft = nd.distance_transform_edt(cp.asarray(x), sampling=sampling, return_indices=True)
    numpy.testing.assert_allclose(d.get(), ref, rtol=1e-12, atol=1e-12)
    _check_indices(ft, x, ref, sampling)
    d32 = nd.distance_transform_edt(cp.asarray(x.astype(numpy.float32)), sampling=sampling,
                                    float64_distances=False)
    numpy.testing.assert_allclose(d32.get(), ref, rtol=1e-6)


def test_edt_no_background(cp):
    from cuarray.scipy import ndimage as nd
    d, ft = nd.distance_transform_edt(cp.ones((4, 5), dtype=bool), return_indices=True)
    assert numpy.isinf(d.get()).all()
    assert (ft.get() == -1).all()
