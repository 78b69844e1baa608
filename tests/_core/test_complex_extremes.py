"""max/min of complex arrays answer as NumPy: lexicographic order, and the first NaN met
along the reduced axes wins (the tutorial's example included)."""
import numpy
import pytest

import cuarray

pytestmark = pytest.mark.gpu


def test_tutorial_example():
    a = numpy.asarray([0.5 + 3.7j, complex(0.7, numpy.nan), complex(numpy.nan, -3.9),
                       complex(numpy.nan, numpy.nan)])
    g = cuarray.asarray(a)
    assert str(g.max()) == str(a.max()) == "(0.7+nanj)"
    assert str(g.min()) == str(a.min())


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("shape,axis", [((1000,), None), ((37, 50), 0), ((37, 50), 1),
                                        ((6, 7, 8), (0, 2)), ((5, 4), None), ((3, 0), 0)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_against_numpy(dtype, shape, axis, keepdims):
    rng = numpy.random.default_rng(5)
    h = (rng.integers(-3, 3, shape) + 1j * rng.integers(-3, 3, shape)).astype(dtype)
    nan = rng.random(shape) < 0.05
    h[nan] = numpy.where(rng.random(nan.sum()) < 0.5, complex(numpy.nan, 1), complex(2, numpy.nan))
    g = cuarray.asarray(h)
    for name in ("max", "min"):
        want = getattr(h, name)(axis=axis, keepdims=keepdims)
        got = getattr(g, name)(axis=axis, keepdims=keepdims)
        assert got.dtype == want.dtype and got.shape == want.shape
        w, r = numpy.asarray(want), got.get()
        # the same element: equal values, NaN in the same component
        numpy.testing.assert_array_equal(numpy.isnan(r.real), numpy.isnan(w.real))
        numpy.testing.assert_array_equal(numpy.isnan(r.imag), numpy.isnan(w.imag))
        numpy.testing.assert_array_equal(numpy.nan_to_num(r), numpy.nan_to_num(w))


def test_empty_raises_as_numpy():
    with pytest.raises(ValueError, match="zero-size"):
        cuarray.zeros((0,), cuarray.complex64).max()
    with pytest.raises(ValueError, match="zero-size"):
        cuarray.zeros((2, 0), cuarray.complex64).min(axis=1)
