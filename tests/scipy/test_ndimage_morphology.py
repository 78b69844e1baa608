"""cuarray.scipy.ndimage morphology against SciPy (GPU and host emulation)."""
import numpy
import pytest
import scipy.ndimage as snd


def _eq(res, ref):
    res = res.get() if hasattr(res, "get") else numpy.asarray(res)
    assert res.dtype == ref.dtype, (res.dtype, ref.dtype)
    assert res.shape == ref.shape
    numpy.testing.assert_array_equal(res, ref)


def _img(shape, p=0.6, seed=0):
    return numpy.random.default_rng(seed).random(shape) < p


def test_structures(cp):
    from cuarray.scipy import ndimage as nd
    for rank in (1, 2, 3):
        for conn in (1, 2, 3):
            _eq(nd.generate_binary_structure(rank, conn), snd.generate_binary_structure(rank, conn))
    s = snd.generate_binary_structure(2, 1)
    _eq(nd.iterate_structure(s, 3), snd.iterate_structure(s, 3))
    r, o = nd.iterate_structure(s, 2, origin=(1, 0))
    r2, o2 = snd.iterate_structure(s, 2, origin=(1, 0))
    _eq(r, r2)
    assert list(o) == list(o2)


@pytest.mark.parametrize("border_value", [0, 1])
def test_binary_erosion_dilation(cp, border_value):
    from cuarray.scipy import ndimage as nd
    x = _img((9, 11), seed=1)
    s2 = numpy.array([[0, 1, 1], [1, 1, 0]], dtype=bool)
    for f in ("binary_erosion", "binary_dilation", "binary_opening", "binary_closing"):
        F, S = getattr(nd, f), getattr(snd, f)
        _eq(F(cp.asarray(x), border_value=border_value), S(x, border_value=border_value))
        _eq(F(cp.asarray(x), s2, border_value=border_value, origin=(0, -1)),
            S(x, s2, border_value=border_value, origin=(0, -1)))
        _eq(F(cp.asarray(x), iterations=3, border_value=border_value),
            S(x, iterations=3, border_value=border_value))
    mask = _img((9, 11), 0.7, seed=2)
    for f in ("binary_erosion", "binary_dilation"):
        F, S = getattr(nd, f), getattr(snd, f)
        _eq(F(cp.asarray(x), iterations=2, mask=cp.asarray(mask), border_value=border_value),
            S(x, iterations=2, mask=mask, border_value=border_value))
        _eq(F(cp.asarray(x), iterations=0, mask=cp.asarray(mask)), S(x, iterations=0, mask=mask))
        _eq(F(cp.asarray(x), output=numpy.uint8), S(x, output=numpy.uint8))
    x3 = _img((5, 6, 4), seed=3)
    _eq(nd.binary_erosion(cp.asarray(x3), snd.generate_binary_structure(3, 2)),
        snd.binary_erosion(x3, snd.generate_binary_structure(3, 2)))
    _eq(nd.binary_dilation(cp.asarray(x3), axes=(0, 2)), snd.binary_dilation(x3, axes=(0, 2)))
    xi = numpy.random.default_rng(4).integers(0, 3, (7, 8)).astype(numpy.int16)
    _eq(nd.binary_erosion(cp.asarray(xi)), snd.binary_erosion(xi))


def test_binary_other(cp):
    from cuarray.scipy import ndimage as nd
    x = _img((12, 13), 0.55, seed=5)
    _eq(nd.binary_fill_holes(cp.asarray(x)), snd.binary_fill_holes(x))
    _eq(nd.binary_fill_holes(cp.asarray(x), numpy.ones((3, 3))),
        snd.binary_fill_holes(x, numpy.ones((3, 3))))
    seed = numpy.zeros_like(x)
    seed[3, 4] = True
    _eq(nd.binary_propagation(cp.asarray(seed), mask=cp.asarray(x)),
        snd.binary_propagation(seed, mask=x))
    s1 = numpy.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
    _eq(nd.binary_hit_or_miss(cp.asarray(x), s1), snd.binary_hit_or_miss(x, s1))
    _eq(nd.binary_hit_or_miss(cp.asarray(x)), snd.binary_hit_or_miss(x))
    s2 = numpy.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]], dtype=bool)
    _eq(nd.binary_hit_or_miss(cp.asarray(x), s1, s2, origin1=(0, 1), origin2=(1, 0)),
        snd.binary_hit_or_miss(x, s1, s2, origin1=(0, 1), origin2=(1, 0)))


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int32, numpy.float64])
def test_grey(cp, dtype):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(6)
    x = (rng.random((10, 9)) * 50).astype(dtype)
    st = numpy.array([[0, 1, 0], [2, 1, 3]], dtype=dtype)
    fp = numpy.array([[1, 0, 1], [1, 1, 0]], dtype=bool)
    for f in ("grey_erosion", "grey_dilation", "grey_opening", "grey_closing",
              "morphological_gradient", "morphological_laplace", "white_tophat",
              "black_tophat"):
        F, S = getattr(nd, f), getattr(snd, f)
        _eq(F(cp.asarray(x), size=(3, 2)), S(x, size=(3, 2)))
        _eq(F(cp.asarray(x), footprint=fp, mode="constant", cval=4),
            S(x, footprint=fp, mode="constant", cval=4))
        if dtype == numpy.float64:
            _eq(F(cp.asarray(x), structure=st, mode="nearest"),
                S(x, structure=st, mode="nearest"))
    with pytest.raises(ValueError):
        nd.grey_erosion(cp.asarray(x))


def test_errors(cp):
    from cuarray.scipy import ndimage as nd
    d = cp.zeros((5, 6), dtype=bool)
    with pytest.raises(RuntimeError):
        nd.binary_erosion(d, numpy.ones(3))
    with pytest.raises(RuntimeError):
        nd.binary_erosion(d, mask=cp.zeros((2, 2), dtype=bool))
    with pytest.raises(TypeError):
        nd.binary_erosion(d, iterations=1.5)
    with pytest.raises(TypeError):
        nd.binary_dilation(cp.zeros((3, 3), dtype=numpy.complex64))
