"""Interpolation (cuarray version of `scipy.ndimage`'s interpolation chapter).

Orders 2-5 interpolate B-spline coefficients: the input is prefiltered first (SciPy pads
'nearest' and 'grid-constant' inputs by 12 samples before filtering, and so does this).
The coefficients are float64 for every input, as SciPy's (CuPy keeps float32 ones for
single-precision input); the prefilter computes each line in double.
Complex inputs are interpolated as their real and imaginary parts.
"""
import math
import warnings

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.ndimage import _interp_kernels as _k
from cuarray.scipy.ndimage._util import (check_axis, check_input, check_mode, contiguous,
                                         get_output, host_array, normalize_sequence,
                                         work_output)

_NPAD = 12


def _check_order(order):
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")
    return int(order)


def _by_parts(fn, input, output, cval):
    """Run `fn(real_input, real_output, real_cval)` on the real and imaginary parts."""
    cval = complex(cval)
    fn(input.real, output.real, cval.real)
    fn(input.imag, output.imag, cval.imag)
    return output


# ---- spline filters ----------------------------------------------------------------------------

def _spline_into(src, out, order, mode, axes):
    """Prefilter `src` along `axes` into `out` (float64 work array, then cast).

    SciPy filters axis by axis into `out`, so a float32 `out` rounds every axis's result:
    the kernels round their final stores through float32 then.
    """
    axes = list(axes)
    work = src.astype(numpy.float64, order="C", copy=True)
    rnd = numpy.float32 if out.dtype == numpy.float32 else None
    if rnd is not None and work.shape[axes[0]] == 1:
        work[...] = work.astype(rnd)     # SciPy's first pass (the identity) rounds too
    for ax in axes:
        if work.shape[ax] > 1:
            _k.run_spline(work, ax, order, mode, round_to=rnd)
    if work is not out:
        out[...] = work
    return out


def spline_filter1d(input, order=3, axis=-1, output=numpy.float64, mode="mirror"):
    """cuarray version of `scipy.ndimage.spline_filter1d`."""
    _check_order(order)
    input = check_input(input)
    output = get_output(output, input, complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _by_parts(lambda i, o, c: spline_filter1d(i, order, axis, o, mode), input,
                         output, 0)
    mode = check_mode(mode, True)
    if order in (0, 1) or input.size == 0:
        if input.size:
            output[...] = input
        return output
    axis = check_axis(axis, input.ndim)
    return _spline_into(input, output, order, mode, [axis])


def spline_filter(input, order=3, output=numpy.float64, mode="mirror"):
    """cuarray version of `scipy.ndimage.spline_filter`."""
    if order < 2 or order > 5:
        raise RuntimeError("spline order not supported")
    input = check_input(input)
    output = get_output(output, input, complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _by_parts(lambda i, o, c: spline_filter(i, order, o, mode), input, output, 0)
    mode = check_mode(mode, True)
    if input.ndim == 0 or input.size == 0:
        if input.size:
            output[...] = input
        return output
    return _spline_into(input, output, order, mode, range(input.ndim))


def _coefficients(input, order, mode, cval, prefilter):
    """(C-contiguous array to interpolate, padding added to every axis)."""
    if not prefilter or order < 2:
        return contiguous(input), 0
    npad = 0
    src = input
    if mode in ("nearest", "grid-constant"):
        npad = _NPAD
        if mode == "nearest":
            src = cuarray.pad(input, npad, mode="edge")
        else:
            src = cuarray.pad(input, npad, mode="constant", constant_values=cval)
    work = src.astype(numpy.float64, order="C", copy=True)
    for ax in range(work.ndim):
        if work.shape[ax] > 1:
            _k.run_spline(work, ax, order, mode)
    return work, npad


def _transform(input, output, order, mode, cval, prefilter, kind, **params):
    """Shared body: checks, prefilter, kernel launch into `output`."""
    mode = check_mode(mode, True)
    if output.size == 0:
        return output
    if input.size == 0:
        output.fill(cval)
        return output
    src, npad = _coefficients(input, order, mode, cval, prefilter)
    # an output made by this call shares nothing and is C-contiguous: no overlap test
    target, finish = (output, lambda: output) if params.pop("fresh", False) else \
        work_output(output, [input])
    if kind == "map":
        coords = params["coords"]
        if npad:
            coords = coords + npad
        _k.run_interp("map", order, mode, src, target, coords=contiguous(coords), cval=cval)
    elif kind == "affine":
        m = params["matrix"].copy()
        m[:, -1] += npad
        _k.run_interp("affine", order, mode, src, target, matrix=m, cval=cval)
    else:
        _k.run_interp(kind, order, mode, src, target, a=params["a"],
                      b=[v + npad for v in params["b"]], cval=cval)
    return finish()


# Layouts whose map_coordinates call went the whole way once and needs no prefilter, no
# padding and no copies: (input shape, dtype, C-contiguous, coordinates shape, dtype,
# C-contiguous, order, mode, prefilter) -> the checked order. A repeat allocates and
# launches at once.
_direct = {}


def map_coordinates(input, coordinates, output=None, order=3, mode="constant", cval=0.0,
                    prefilter=True):
    """cuarray version of `scipy.ndimage.map_coordinates`."""
    if output is None and type(input) is ndarray and type(coordinates) is ndarray:
        key = (input._shape, input.dtype, input._c_contig, coordinates._shape, coordinates.dtype,
               coordinates._c_contig, order, mode, prefilter)
        try:
            checked = _direct.get(key)
        except TypeError:   # an unhashable argument: the checks below say what is wrong
            checked = key = None
        if checked is not None:
            out = ndarray._alloc(coordinates._shape[1:], input.dtype, "C")
            _k.run_interp("map", checked, mode, input, out, coords=coordinates, cval=cval)
            return out
        out = _map_coordinates(input, coordinates, output, order, mode, cval, prefilter)
        if (key is not None and input._c_contig and coordinates._c_contig
                and input.dtype.kind in "biuf" and coordinates.dtype.char in "fd"
                and (order < 2 or not prefilter) and input.size and out.size):
            if len(_direct) >= 256:
                _direct.clear()
            _direct[key] = _check_order(order)
        return out
    return _map_coordinates(input, coordinates, output, order, mode, cval, prefilter)


def _map_coordinates(input, coordinates, output, order, mode, cval, prefilter):
    order = _check_order(order)
    input = check_input(input)
    if not isinstance(coordinates, cuarray.ndarray):
        coordinates = cuarray.asarray(host_array(coordinates))
    if coordinates.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    if coordinates.dtype.kind not in "biuf":
        raise TypeError(f"coordinates of type {coordinates.dtype} not supported")
    output_shape = coordinates.shape[1:]
    if input.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    if coordinates.shape[0] != input.ndim:
        raise RuntimeError("invalid shape for coordinate array")
    fresh = not isinstance(output, cuarray.ndarray)
    output = get_output(output, input, shape=output_shape,
                        complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _by_parts(lambda i, o, c: map_coordinates(i, coordinates, o, order, mode, c,
                                                         prefilter), input, output, cval)
    if coordinates.dtype.kind in "bu" or coordinates.dtype.itemsize < 4:
        coordinates = coordinates.astype(numpy.float64)
    return _transform(input, output, order, mode, cval, prefilter, "map", coords=coordinates,
                      fresh=fresh)


def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3,
                     mode="constant", cval=0.0, prefilter=True, *, texture_memory=False):
    """cuarray version of `scipy.ndimage.affine_transform`.

    `texture_memory` (CuPy's option to interpolate with texture units) is accepted and
    changes nothing: the interpolation kernel reads global memory in every case.
    """
    order = _check_order(order)
    input = check_input(input)
    if output_shape is None:
        output_shape = output.shape if isinstance(output, cuarray.ndarray) else input.shape
    output_shape = tuple(output_shape)
    if input.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    matrix = host_array(matrix, numpy.float64)
    if matrix.ndim not in (1, 2) or matrix.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    nd = input.ndim
    if matrix.ndim == 2 and matrix.shape[1] == nd + 1 and matrix.shape[0] in (nd, nd + 1):
        if matrix.shape[0] == nd + 1:
            expected = [0] * nd + [1]
            if not numpy.all(matrix[nd] == expected):
                raise ValueError(f"Expected homogeneous transformation matrix with shape "
                                 f"{matrix.shape} for image shape {input.shape}, but bottom "
                                 f"row was not equal to {expected}")
        offset = matrix[:nd, nd]
        matrix = matrix[:nd, :nd]
    if matrix.shape[0] != nd:
        raise RuntimeError("affine matrix has wrong number of rows")
    if matrix.ndim == 2 and matrix.shape[1] != len(output_shape):
        raise RuntimeError("affine matrix has wrong number of columns")
    offset = numpy.asarray(normalize_sequence(
        offset.tolist() if isinstance(offset, numpy.ndarray) else offset, nd, "offset"),
        dtype=numpy.float64)
    if offset.ndim != 1 or offset.shape[0] < 1:
        raise RuntimeError("no proper offset provided")
    output = get_output(output, input, shape=output_shape,
                        complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _by_parts(lambda i, o, c: affine_transform(i, matrix, offset, output_shape, o,
                                                          order, mode, c, prefilter),
                         input, output, cval)
    if matrix.ndim == 1:
        if len(output_shape) != nd:
            raise RuntimeError("affine matrix has wrong number of columns")
        return _transform(input, output, order, mode, cval, prefilter, "zoom",
                          a=list(matrix), b=list(offset))
    full = numpy.concatenate([matrix, offset[:, None]], axis=1)
    return _transform(input, output, order, mode, cval, prefilter, "affine", matrix=full)


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """cuarray version of `scipy.ndimage.shift`."""
    order = _check_order(order)
    input = check_input(input)
    if input.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    shifts = [float(s) for s in normalize_sequence(shift, input.ndim, "shift")]
    output = get_output(output, input, complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _by_parts(lambda i, o, c: globals()["shift"](i, shifts, o, order, mode, c,
                                                            prefilter), input, output, cval)
    return _transform(input, output, order, mode, cval, prefilter, "shift",
                      a=[1.0] * input.ndim, b=[-s for s in shifts])


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0, prefilter=True, *,
         grid_mode=False):
    """cuarray version of `scipy.ndimage.zoom`."""
    order = _check_order(order)
    input = check_input(input)
    if input.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    zooms = normalize_sequence(zoom, input.ndim, "zoom")
    output_shape = tuple(int(round(ii * jj)) for ii, jj in zip(input.shape, zooms))
    nominal = numpy.array(input.shape, dtype=numpy.float64)
    div = numpy.array(output_shape, dtype=numpy.float64)
    if not grid_mode:
        nominal -= 1
        div -= 1
    scale = numpy.divide(nominal, div, out=numpy.ones(input.ndim), where=div != 0)
    output = get_output(output, input, shape=output_shape,
                        complex_output=input.dtype.kind == "c")
    if input.dtype.kind == "c":
        return _by_parts(lambda i, o, c: globals()["zoom"](i, zooms, o, order, mode, c,
                                                           prefilter, grid_mode=grid_mode),
                         input, output, cval)
    if grid_mode:
        if mode in ("constant", "wrap"):
            warnings.warn(f"It is recommended to use mode = grid-{mode} instead of {mode} "
                          f"when grid_mode is True.", UserWarning, stacklevel=2)
        b = [0.5 * s - 0.5 for s in scale]
    else:
        b = [0.0] * input.ndim
    return _transform(input, output, order, mode, cval, prefilter, "zoom", a=list(scale), b=b)


def _cos_sin_degrees(angle):
    """cos and sin of `angle` degrees, exact at multiples of 90 (as scipy.special's
    cosdg/sindg)."""
    a = math.fmod(float(angle), 360.0)
    if a < 0:
        a += 360.0
    exact = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}
    if a in exact:
        return exact[a]
    r = math.radians(a)
    return math.cos(r), math.sin(r)


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode="constant",
           cval=0.0, prefilter=True):
    """cuarray version of `scipy.ndimage.rotate` (one affine transform for any rank)."""
    input = check_input(input)
    ndim = input.ndim
    if ndim < 2:
        raise ValueError("input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes should contain exactly two values")
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError("axes should contain only integer values")
    axes = [int(a) + ndim if a < 0 else int(a) for a in axes]
    if min(axes) < 0 or max(axes) >= ndim:
        raise ValueError("invalid rotation plane specified")
    axes.sort()
    c, s = _cos_sin_degrees(angle)
    rot = numpy.array([[c, s], [-s, c]])
    img_shape = numpy.asarray(input.shape)
    in_plane = img_shape[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (numpy.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = in_plane
    out_center = rot @ ((out_plane - 1) / 2)
    in_center = (in_plane - 1) / 2
    offset2 = in_center - out_center
    out_shape = img_shape.copy()
    out_shape[axes] = out_plane
    matrix = numpy.eye(ndim)
    offset = numpy.zeros(ndim)
    for i, ai in enumerate(axes):
        offset[ai] = offset2[i]
        for j, aj in enumerate(axes):
            matrix[ai, aj] = rot[i, j]
    return affine_transform(input, matrix, offset, tuple(int(v) for v in out_shape), output,
                            order, mode, cval, prefilter)
