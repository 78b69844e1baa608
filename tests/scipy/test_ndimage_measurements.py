"""cuarray.scipy.ndimage measurements against SciPy (GPU and host emulation)."""
import numpy
import pytest
import scipy.ndimage as snd


def _h(x):
    return x.get() if hasattr(x, "get") else x


@pytest.mark.parametrize("shape,p", [((1,), 0.5), ((37,), 0.5), ((13, 17), 0.5),
                                     ((30, 40), 0.6), ((6, 7, 8), 0.4)])
def test_label(cp, shape, p):
    from cuarray.scipy import ndimage as nd
    x = numpy.random.default_rng(len(shape) * 7 + shape[0]).random(shape) < p
    for conn in range(1, len(shape) + 1):
        s = snd.generate_binary_structure(len(shape), conn)
        lab, n = nd.label(cp.asarray(x), s)
        ref, nref = snd.label(x, s)
        assert n == nref
        numpy.testing.assert_array_equal(lab.get(), ref)
        assert lab.dtype == ref.dtype


def test_label_outputs(cp):
    from cuarray.scipy import ndimage as nd
    x = numpy.random.default_rng(1).integers(0, 3, (9, 10)).astype(numpy.uint8)
    out = cp.zeros((9, 10), dtype=numpy.int16)
    n = nd.label(cp.asarray(x), output=out)
    ref, nref = snd.label(x)
    assert n == nref
    numpy.testing.assert_array_equal(out.get(), ref)
    lab, n = nd.label(cp.asarray(x).T, output=numpy.int64)
    ref, nref = snd.label(x.T, output=numpy.int64)
    assert lab.dtype == numpy.int64 and n == nref
    numpy.testing.assert_array_equal(lab.get(), ref)
    lab, n = nd.label(cp.asarray(numpy.array(1)))
    assert n == 1 and int(lab.get()) == 1
    lab, n = nd.label(cp.zeros((0, 3)))
    assert n == 0 and lab.shape == (0, 3)
    with pytest.raises(RuntimeError):
        nd.label(cp.asarray(x), numpy.ones((3, 3, 3)))
    with pytest.raises(ValueError):
        nd.label(cp.asarray(x), numpy.ones((2, 2)))
    with pytest.raises(TypeError):
        nd.label(cp.zeros((3, 3), dtype=numpy.complex64))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64])
def test_statistics(cp, dtype):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(2)
    x = (rng.random((8, 9)) * 100).astype(dtype)
    lab = rng.integers(0, 5, (8, 9))
    for f in ("sum_labels", "mean", "variance", "standard_deviation", "minimum", "maximum"):
        F, S = getattr(nd, f), getattr(snd, f)
        for index in (None, 2, [1, 2, 4, 7], numpy.array([[3, 1], [1, 0]])):
            with numpy.errstate(all="ignore"):
                ref = numpy.asarray(S(x, lab, index))
            res = _h(F(cp.asarray(x), cp.asarray(lab), index))
            numpy.testing.assert_allclose(res, ref, rtol=1e-10, err_msg=f"{f} {index}")
        numpy.testing.assert_allclose(_h(F(cp.asarray(x))), numpy.asarray(S(x)), rtol=1e-10)
    for index in (None, 2, [1, 2, 3], numpy.array([[3, 1], [1, 0]])):
        numpy.testing.assert_allclose(_h(nd.median(cp.asarray(x), cp.asarray(lab), index)),
                                      numpy.asarray(snd.median(x, lab, index)), rtol=1e-12)
    numpy.testing.assert_allclose(_h(nd.median(cp.asarray(x))), snd.median(x))
    for f in ("minimum_position", "maximum_position", "center_of_mass"):
        F, S = getattr(nd, f), getattr(snd, f)
        for index in (None, 3, [1, 2, 4, 9]):
            with numpy.errstate(all="ignore"):
                ref = S(x, lab, index)
            numpy.testing.assert_allclose(numpy.asarray(F(cp.asarray(x), cp.asarray(lab), index),
                                                        dtype=float),
                                          numpy.asarray(ref, dtype=float), rtol=1e-10)
    r = nd.extrema(cp.asarray(x), cp.asarray(lab), [1, 3])
    e = snd.extrema(x, lab, [1, 3])
    for a, b in zip(r, e):
        numpy.testing.assert_allclose(numpy.asarray(_h(a), dtype=float), numpy.asarray(b, dtype=float))
    h = nd.histogram(cp.asarray(x), 0, 100, 7, cp.asarray(lab), [1, 2])
    he = snd.histogram(x, 0, 100, 7, lab, [1, 2])
    for a, b in zip(h, he):
        numpy.testing.assert_array_equal(_h(a), b)
    numpy.testing.assert_array_equal(_h(nd.histogram(cp.asarray(x), 0, 99, 5)),
                                     snd.histogram(x, 0, 99, 5))


def test_find_objects_value_indices(cp):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(3)
    lab = rng.integers(0, 6, (7, 8))
    lab[lab == 4] = 0
    assert nd.find_objects(cp.asarray(lab)) == snd.find_objects(lab)
    assert nd.find_objects(cp.asarray(lab), max_label=3) == snd.find_objects(lab, max_label=3)
    vi = nd.value_indices(cp.asarray(lab), ignore_value=0)
    ve = snd.value_indices(lab, ignore_value=0)
    assert sorted(int(k) for k in vi) == sorted(int(k) for k in ve)
    for k in ve:
        for a, b in zip(vi[k], ve[k]):
            numpy.testing.assert_array_equal(_h(a), b)


@pytest.mark.gpu
def test_labeled_comprehension(gpu_cp):
    from cuarray.scipy import ndimage as nd
    cp = gpu_cp
    rng = numpy.random.default_rng(3)
    lab = rng.integers(0, 6, (7, 8))
    lab[lab == 4] = 0
    x = rng.random((7, 8))
    r = nd.labeled_comprehension(cp.asarray(x), cp.asarray(lab), [1, 4, 5],
                                 lambda v: v.max() - v.min(), numpy.float64, -1.0)
    e = snd.labeled_comprehension(x, lab, [1, 4, 5], lambda v: v.max() - v.min(),
                                  numpy.float64, -1.0)
    numpy.testing.assert_allclose(_h(r), e)
    r = nd.labeled_comprehension(cp.asarray(x), cp.asarray(lab), 2, lambda v, p: p.sum(),
                                 numpy.int64, 0, pass_positions=True)
    e = snd.labeled_comprehension(x, lab, 2, lambda v, p: p.sum(), numpy.int64, 0,
                                  pass_positions=True)
    assert int(_h(r)) == int(e)
