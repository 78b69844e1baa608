"""Edge cases the Array API test suite found: boolean masks with zero-length axes, repeat of
nothing. Checked against NumPy."""
import numpy
import pytest

MASKS = [((2, 1), (2, 0)), ((0, 1), (0, 0)), ((1, 0), (0, 0)), ((3,), (0,)), ((0, 2, 3), (0, 0))]


@pytest.mark.parametrize("xs, ks", MASKS)
def test_mask_axes_of_length_zero_select_nothing(cp, xs, ks):
    x = cp.zeros(xs, dtype=cp.float32)
    mask = cp.zeros(ks, dtype=bool)
    assert x[mask].shape == numpy.zeros(xs)[numpy.zeros(ks, bool)].shape
    x[mask] = 1.0
    assert not cp.asnumpy(x).any()


def test_mask_axis_of_another_nonzero_length_is_refused(cp):
    with pytest.raises(IndexError, match="boolean index did not match"):
        cp.zeros((0, 3))[cp.zeros((0, 2), dtype=bool)]


def test_repeat_of_nothing(cp):
    r = cp.repeat(cp.zeros(0, dtype=bool), cp.zeros(0, dtype=cp.int8))
    assert r.shape == (0,) and r.dtype == cp.bool_
    r = cp.repeat(cp.zeros((2, 0)), cp.zeros(0, dtype=cp.int64), axis=1)
    assert r.shape == (2, 0)
