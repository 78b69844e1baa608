"""Argument rules of cuarray.fft, checked against NumPy without a GPU."""
import warnings

import numpy as np
import pytest

from cuarray.fft import _fft

FUNCS = {"fft": "C2C", "ifft": "C2C", "rfft": "R2C", "irfft": "C2R", "hfft": "C2R",
         "ihfft": "R2C"}
ND_FUNCS = {"fftn": "C2C", "ifftn": "C2C", "rfftn": "R2C", "irfftn": "C2R", "fft2": "C2C",
            "rfft2": "R2C", "irfft2": "C2R"}


def _numpy_outcome(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return fn(*args, **kw).shape, None
        except Exception as e:
            return None, e


def _ours_1d(name, shape, n, axis):
    vt = FUNCS[name]
    axes, lengths = _fft._cook_1d(shape, n, axis, vt)
    if name == "hfft":
        return _fft._out_shape(shape, axes, lengths, "C2R")
    return _fft._out_shape(shape, axes, lengths, vt)


def _ours_nd(name, shape, s, axes):
    vt = ND_FUNCS[name]
    if name.endswith("2") and axes is None:
        axes = (-2, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        axes, lengths = _fft._cook_nd(shape, s, axes, vt, name)
    if not axes:
        return tuple(shape)
    if len(set(axes)) == len(axes):
        return _fft._out_shape(shape, axes, lengths, vt)
    # repeated axes: one 1-D transform per entry, in NumPy's order (see _run_repeated)
    k = len(axes)
    steps = {"C2C": [(i, "C2C") for i in reversed(range(k))],
             "R2C": [(k - 1, "R2C")] + [(i, "C2C") for i in reversed(range(k - 1))],
             "C2R": [(i, "C2C") for i in range(k - 1)] + [(k - 1, "C2R")]}[vt]
    for i, step in steps:
        shape = _fft._out_shape(shape, (axes[i],), (lengths[i],), step)
    return shape


def _same_error(ours, theirs):
    # NumPy raises IndexError from tuple indexing where cuarray raises AxisError (an
    # IndexError and a ValueError), and numpy's UFuncTypeError is a TypeError.
    axis_error = isinstance(ours, np.exceptions.AxisError) and \
        isinstance(theirs, (IndexError, ValueError))
    assert isinstance(ours, type(theirs)) or isinstance(theirs, type(ours)) or axis_error, \
        (ours, theirs)
    if isinstance(theirs, ValueError) and "FFT data points" in str(theirs):
        assert str(ours) == str(theirs)


SHAPES_1D = [(8,), (3, 5), (4, 0), (0, 4), (2, 3, 1), ()]


@pytest.mark.parametrize("name", list(FUNCS))
@pytest.mark.parametrize("shape", SHAPES_1D)
@pytest.mark.parametrize("n", [None, 1, 2, 7, 0, -3])
@pytest.mark.parametrize("axis", [-1, 0, 1, 2, -4])
def test_1d_shapes_and_errors_match_numpy(name, shape, n, axis):
    kind = FUNCS[name]
    host = np.zeros(shape, np.float64 if kind == "R2C" else np.complex128)
    want, err = _numpy_outcome(getattr(np.fft, name), host, n=n, axis=axis)
    if err is not None:
        with pytest.raises(Exception) as info:
            _ours_1d(name, shape, n, axis)
        _same_error(info.value, err)
    else:
        assert _ours_1d(name, shape, n, axis) == want


ND_CASES = [
    ((4, 6), None, None), ((4, 6), (3, 5), (0, 1)), ((4, 6), (3,), (1,)), ((4, 6), None, (0,)),
    ((4, 6, 5), None, (2, 0)), ((4, 6, 5), (7, 8), (-1, -3)), ((4, 6), (3, -1), (0, 1)),
    ((4, 6), (3, None), (0, 1)), ((4, 6), None, (0, 0)), ((4, 6), (2, 9), (1, 1)),
    ((4, 6), None, ()), ((4, 6), (2, 3), None), ((4, 6), (2, 3, 4), None), ((4, 6), (2,), (0, 1)),
    ((4, 6), None, (2,)), ((4, 6), None, (-3,)), ((4, 6), (0, 3), (0, 1)), ((4, 1), None, None),
    ((4, 0), None, None), ((0, 4), None, (1,)), ((0, 4), (2, 4), (0, 1)), ((), None, None),
    ((3,), None, None), ((2, 3, 4, 5), None, None), ((2, 3, 4, 5), (3, 3), (3, 0)),
]


@pytest.mark.parametrize("name", list(ND_FUNCS))
@pytest.mark.parametrize("shape,s,axes", ND_CASES)
def test_nd_shapes_and_errors_match_numpy(name, shape, s, axes):
    kind = ND_FUNCS[name]
    host = np.zeros(shape, np.float64 if kind == "R2C" else np.complex128)
    kw = {"s": s} if axes is None else {"s": s, "axes": axes}
    want, err = _numpy_outcome(getattr(np.fft, name), host, **kw)
    if err is not None:
        with pytest.raises(Exception) as info:
            _ours_nd(name, shape, s, axes)
        _same_error(info.value, err)
    else:
        assert _ours_nd(name, shape, s, axes) == want


def test_nd_deprecations_point_at_the_caller():
    with pytest.warns(DeprecationWarning, match="`axes` should not be `None`") as rec:
        _fft._cook_nd((4, 6), (2, 3), None, "C2C", "fftn", stacklevel=2)
    assert rec[0].filename == __file__
    with pytest.warns(DeprecationWarning, match="Passing an array containing `None`"):
        _fft._cook_nd((4, 6), (2, None), (0, 1), "C2C", "fftn", stacklevel=2)


def test_lengths_follow_numpy_defaults():
    assert _fft._cook_1d((3, 10), None, -1, "C2R") == ((1,), (18,))
    assert _fft._cook_1d((3, 10), 7, 0, "R2C") == ((0,), (7,))
    assert _fft._cook_nd((3, 10), None, None, "C2R", "irfftn") == ((0, 1), (3, 18))
    assert _fft._cook_nd((3, 10), (5, -1), (1, 0), "C2C", "fftn") == ((1, 0), (5, 3))
    assert _fft._cook_nd((3, 10), (np.int64(4),), (-1,), "R2C", "rfftn") == ((1,), (4,))
    assert _fft._in_lengths((3, 18), "C2R") == (3, 10)
    assert _fft._in_lengths((3, 18), "R2C") == (3, 18)


@pytest.mark.parametrize("dtype,vt,want", [
    (np.bool_, "C2C", (np.complex128, np.complex128)),
    (np.int8, "C2C", (np.complex128, np.complex128)),
    (np.uint64, "R2C", (np.float64, np.complex128)),
    (np.float16, "C2C", (np.complex64, np.complex64)),
    (np.float16, "R2C", (np.float32, np.complex64)),
    (np.float16, "C2R", (np.complex64, np.float32)),
    (np.float32, "C2C", (np.complex64, np.complex64)),
    (np.float32, "R2C", (np.float32, np.complex64)),
    (np.float32, "C2R", (np.complex64, np.float32)),
    (np.complex64, "C2C", (np.complex64, np.complex64)),
    (np.complex64, "C2R", (np.complex64, np.float32)),
    (np.float64, "R2C", (np.float64, np.complex128)),
    (np.complex128, "C2R", (np.complex128, np.float64)),
    (np.int32, "C2R", (np.complex128, np.float64)),
])
def test_dtypes_as_cupy(dtype, vt, want):
    assert _fft._dtypes(np.dtype(dtype), vt, "f") == tuple(np.dtype(w) for w in want)


def test_dtypes_agree_with_numpy_where_numpy_keeps_precision():
    for dtype in [np.float32, np.float64, np.complex64, np.complex128, np.int32, np.bool_]:
        host = np.zeros(8, dtype)
        assert _fft._dtypes(host.dtype, "C2C", "fft")[1] == np.fft.fft(host).dtype
        assert _fft._dtypes(host.dtype, "C2R", "irfft")[1] == np.fft.irfft(host).dtype
        if host.dtype.kind != "c":
            assert _fft._dtypes(host.dtype, "R2C", "rfft")[1] == np.fft.rfft(host).dtype


def test_real_transform_of_complex_is_type_error():
    with pytest.raises(TypeError, match="rfft needs real input"):
        _fft._dtypes(np.dtype(np.complex64), "R2C", "rfft")


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("forward", [True, False])
def test_scale_factor_matches_numpy(norm, forward):
    x = np.zeros(12, complex)
    x[0] = 1  # the transform of a unit impulse is its scale: all ones times the factor
    got = (np.fft.fft if forward else np.fft.ifft)(x, norm=norm)[3].real
    f = _fft._scale_factor(norm, forward, 12)
    assert (1.0 if f is None else f) == pytest.approx(got)


def test_norm_errors_as_numpy():
    with pytest.raises(ValueError) as ours:
        _fft._check_norm("bad")
    with pytest.raises(ValueError) as theirs:
        np.fft.fft(np.zeros(2), norm="bad")
    assert str(ours.value) == str(theirs.value)
    assert _fft._swap_direction(None) == "forward" and _fft._swap_direction("ortho") == "ortho"
    assert _fft._swap_direction("forward") == "backward"


@pytest.mark.parametrize("shape,axes,vt,nd,want", [
    ((8,), (0,), "C2C", True, (((0,), "C2C"),)),
    ((4, 8), (0, 1), "C2C", True, (((0, 1), "C2C"),)),
    ((4, 8), (0, 1), "C2C", False, (((1,), "C2C"), ((0,), "C2C"))),
    ((2, 3, 4, 5), (0, 1, 2, 3), "C2C", True, (((1, 2, 3), "C2C"), ((0,), "C2C"))),
    ((1, 8, 1), (0, 1, 2), "C2C", True, (((1,), "C2C"),)),
    ((1, 1), (0, 1), "C2C", True, ()),
    ((4, 8), (0, 1), "R2C", True, (((0, 1), "R2C"),)),
    ((4, 8), (1, 0), "R2C", True, (((1, 0), "R2C"),)),
    ((4, 8), (0, 1), "R2C", False, (((1,), "R2C"), ((0,), "C2C"))),
    ((2, 3, 4, 5), (0, 1, 2, 3), "R2C", True, (((1, 2, 3), "R2C"), ((0,), "C2C"))),
    ((4, 1), (0, 1), "R2C", True, (((1,), "R2C"), ((0,), "C2C"))),
    ((4, 5), (0, 1), "C2R", True, (((0,), "C2C"), ((1,), "C2R"))),
    ((2, 3, 4, 5), (0, 1, 2, 3), "C2R", True, (((0, 1, 2), "C2C"), ((3,), "C2R"))),
])
def test_passes(shape, axes, vt, nd, want):
    assert _fft._passes(shape, axes, vt, nd) == want


def test_out_shape():
    assert _fft._out_shape((4, 6), (1,), (9,), "R2C") == (4, 5)
    assert _fft._out_shape((4, 6), (0, 1), (3, 10), "C2R") == (3, 10)
    assert _fft._out_shape((4, 6), (0,), (2,), "C2C") == (2, 6)


def test_numpy_input_is_refused_with_the_transfer_to_use():
    with pytest.raises(TypeError, match=r"cuarray.asarray\(x\)"):
        _fft._check_array(np.zeros(3), "fft")
    with pytest.raises(TypeError, match="does not accept list; move it to the GPU"):
        _fft._check_array([1, 2], "fft")
