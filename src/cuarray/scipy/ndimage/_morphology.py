"""Morphology (cuarray version of `scipy.ndimage`'s morphology chapter).

Binary erosion and dilation are tap kernels of the filter generator (all / any of the
inputs under the structure, `border_value` outside); iterations repeat the kernel, and
"until nothing changes" (iterations < 1) reads one flag per iteration. Grey morphology is
the min/max filter with a footprint or structure.
"""
import operator
import warnings

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.ndimage import _filter_kernels as _k
from cuarray.scipy.ndimage import _filters
from cuarray.scipy.ndimage._util import (check_axes, check_input, contiguous, get_output,
                                         host_array, may_share, normalize_sequence)


def _reflect(a):
    return a[tuple([slice(None, None, -1)] * a.ndim)]


def _structure_host(structure, rank):
    """generate_binary_structure on the host (small, used to build tap tables)."""
    if rank < 1:
        return numpy.array(True, dtype=bool)
    grid = numpy.indices([3] * rank)
    return numpy.fabs(grid - 1).sum(axis=0) <= structure


def generate_binary_structure(rank, connectivity):
    """cuarray version of `scipy.ndimage.generate_binary_structure` (a device array, as
    CuPy's)."""
    if connectivity < 1:
        connectivity = 1
    return cuarray.asarray(_structure_host(connectivity, rank))


def iterate_structure(structure, iterations, origin=None):
    """cuarray version of `scipy.ndimage.iterate_structure`."""
    structure = host_array(structure)
    if iterations < 2:
        return cuarray.asarray(structure.copy()) if origin is None else \
            (cuarray.asarray(structure.copy()), origin)
    ni = iterations - 1
    shape = [ii + ni * (ii - 1) for ii in structure.shape]
    pos = [ni * (structure.shape[ii] // 2) for ii in range(len(shape))]
    slc = tuple(slice(pos[ii], pos[ii] + structure.shape[ii]) for ii in range(len(shape)))
    out = numpy.zeros(shape, bool)
    out[slc] = structure != 0
    out = binary_dilation(cuarray.asarray(out), structure, iterations=ni)
    if origin is None:
        return out
    origin = normalize_sequence(origin, structure.ndim, "origin")
    return out, [iterations * o for o in origin]


def _binary_erosion(input, structure, iterations, mask, output, border_value, origin, invert,
                    axes):
    """SciPy's erosion primitive: all (invert: any) of the inputs under `structure`."""
    try:
        iterations = operator.index(iterations)
    except TypeError:
        raise TypeError("iterations parameter should be an integer") from None
    input = check_input(input, complex_ok=False)
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    if structure is None:
        structure = _structure_host(1, n)
    else:
        structure = host_array(structure).astype(bool)
    if structure.ndim != n:
        raise RuntimeError("structure and input must have same dimensionality")
    if structure.size < 1:
        raise RuntimeError("structure must not be empty")
    st = _filters._expand(structure, axes, input.ndim, True)
    if mask is not None:
        mask = check_input(mask)
        if mask.shape != input.shape:
            raise RuntimeError("mask and input must have equal sizes")
    origins = [int(o) for o in normalize_sequence(origin, n, "origin")]
    origins = _filters._origins_full(origins, axes, input.ndim)
    for o, s in zip(origins, st.shape):
        if s // 2 + o < 0 or s // 2 + o >= s:
            raise ValueError("invalid origin")
    if isinstance(output, ndarray):
        if output.dtype.kind == "c":
            raise TypeError("Complex output type not supported")
        out = get_output(output, input)
    else:   # SciPy makes a boolean result whatever dtype is asked for
        out = get_output(bool, input)
    if input.size == 0:
        return out
    offs, _ = _filters._tap_offsets(st, origins)
    kind = "dilate" if invert else "erode"
    mask_b = None if mask is None else contiguous(mask.astype(bool, copy=False))

    def step(src, dst):
        _k.run_taps(kind, "constant", src, dst, offs, None, bool(border_value),
                    _k.scalar_dtype(src.dtype))
        if mask_b is not None:
            cuarray.copyto(dst, src != 0, where=~mask_b)

    src = contiguous(input)
    if iterations >= 1 and out.dtype == numpy.bool_ and out.flags.c_contiguous and \
            not may_share(out, input) and (mask is None or not may_share(out, mask)):
        # a known number of steps: alternate so that the last one writes `out` itself
        bufs = (out, cuarray.empty(input.shape, dtype=bool))
        cur = src
        for k in range(1, iterations + 1):
            dst = bufs[(iterations - k) % 2]
            step(cur, dst)
            cur = dst
        return out
    cur = cuarray.empty(input.shape, dtype=bool)
    step(src, cur)
    k = 1
    if iterations != 1 and cur.size:
        other = cuarray.empty(input.shape, dtype=bool)
        while k < iterations or iterations < 1:
            step(cur, other)
            k += 1
            if iterations < 1 and not bool((other != cur).any()):
                cur = other
                break
            cur, other = other, cur
    out[...] = cur
    return out


def binary_erosion(input, structure=None, iterations=1, mask=None, output=None, border_value=0,
                   origin=0, brute_force=False, *, axes=None):
    """cuarray version of `scipy.ndimage.binary_erosion` (`brute_force` changes nothing:
    every iteration visits every element)."""
    return _binary_erosion(input, structure, iterations, mask, output, border_value, origin,
                           False, axes)


def _dilation_args(input, structure, origin, axes):
    axes = check_axes(axes, check_input(input).ndim)
    n = len(axes)
    structure = _structure_host(1, n) if structure is None else host_array(structure)
    structure = _reflect(structure)
    origin = [int(o) for o in normalize_sequence(origin, n, "origin")]
    origin = [-o - (0 if s & 1 else 1) for o, s in zip(origin, structure.shape)] \
        if structure.ndim == n else origin
    return structure, origin


def binary_dilation(input, structure=None, iterations=1, mask=None, output=None,
                    border_value=0, origin=0, brute_force=False, *, axes=None):
    """cuarray version of `scipy.ndimage.binary_dilation` (`brute_force` changes nothing)."""
    structure, origin = _dilation_args(input, structure, origin, axes)
    return _binary_erosion(input, structure, iterations, mask, output, border_value, origin,
                           True, axes)


def binary_opening(input, structure=None, iterations=1, output=None, origin=0, mask=None,
                   border_value=0, brute_force=False, *, axes=None):
    """cuarray version of `scipy.ndimage.binary_opening`."""
    return _binary_then(binary_erosion, binary_dilation, input, structure, iterations, output,
                        origin, mask, border_value, brute_force, axes)


def binary_closing(input, structure=None, iterations=1, output=None, origin=0, mask=None,
                   border_value=0, brute_force=False, *, axes=None):
    """cuarray version of `scipy.ndimage.binary_closing`."""
    return _binary_then(binary_dilation, binary_erosion, input, structure, iterations, output,
                        origin, mask, border_value, brute_force, axes)


def _binary_then(first, second, input, structure, iterations, output, origin, mask,
                 border_value, brute_force, axes):
    """second(first(input)): an opening (erosion, dilation) or a closing."""
    tmp = first(input, structure, iterations, mask, None, border_value, origin, brute_force,
                axes=axes)
    return second(tmp, structure, iterations, mask, output, border_value, origin, brute_force,
                  axes=axes)


def binary_hit_or_miss(input, structure1=None, structure2=None, output=None, origin1=0,
                       origin2=None, *, axes=None):
    """cuarray version of `scipy.ndimage.binary_hit_or_miss`."""
    input = check_input(input, complex_ok=False)
    axes = check_axes(axes, input.ndim)
    n = len(axes)
    structure1 = _structure_host(1, n) if structure1 is None else host_array(structure1)
    if structure2 is None:
        structure2 = numpy.logical_not(structure1)
    origin1 = normalize_sequence(origin1, n, "origin")
    origin2 = origin1 if origin2 is None else normalize_sequence(origin2, n, "origin")
    hit = _binary_erosion(input, structure1, 1, None, None, 0, origin1, False, axes)
    miss = _binary_erosion(input, structure2, 1, None, None, 0, origin2, True, axes)
    res = cuarray.logical_and(hit, cuarray.logical_not(miss))
    if isinstance(output, ndarray):
        output[...] = res
        return output
    return res if output is None else res.astype(output)


def binary_propagation(input, structure=None, mask=None, output=None, border_value=0,
                       origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.binary_propagation`."""
    return binary_dilation(input, structure, -1, mask, output, border_value, origin, axes=axes)


def binary_fill_holes(input, structure=None, output=None, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.binary_fill_holes`."""
    input = check_input(input, complex_ok=False)
    mask = cuarray.logical_not(input)
    tmp = cuarray.zeros(mask.shape, dtype=bool)
    res = binary_dilation(tmp, structure, -1, mask, None, 1, origin, axes=axes)
    cuarray.logical_not(res, out=res)
    if isinstance(output, ndarray):
        output[...] = res
        return output
    return res if output is None else res.astype(output)


# ---- grey morphology --------------------------------------------------------------------------

def grey_erosion(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                 cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.grey_erosion`."""
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    return _filters._min_or_max(input, size, footprint, structure, output, mode, cval, origin,
                                True, axes)


def grey_dilation(input, size=None, footprint=None, structure=None, output=None,
                  mode="reflect", cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.grey_dilation`."""
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    if structure is not None:
        structure = _reflect(host_array(structure))
    if footprint is not None:
        footprint = _reflect(host_array(footprint))
    input = check_input(input, complex_ok=False)
    axes = check_axes(axes, input.ndim)
    origin = [int(o) for o in normalize_sequence(origin, len(axes), "origin")]
    for ii in range(len(origin)):
        origin[ii] = -origin[ii]
        if footprint is not None:
            sz = footprint.shape[ii]
        elif structure is not None:
            sz = structure.shape[ii]
        elif numpy.isscalar(size):
            sz = size
        else:
            sz = size[ii]
        if not sz & 1:
            origin[ii] -= 1
    return _filters._min_or_max(input, size, footprint, structure, output, mode, cval, origin,
                                False, axes)


def _warn_size(size, footprint):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)


def grey_opening(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                 cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.grey_opening`."""
    _warn_size(size, footprint)
    tmp = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_dilation(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def grey_closing(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                 cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.grey_closing`."""
    _warn_size(size, footprint)
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_erosion(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def morphological_gradient(input, size=None, footprint=None, structure=None, output=None,
                           mode="reflect", cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.morphological_gradient`."""
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    if isinstance(output, ndarray):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin, axes=axes)
        return cuarray.subtract(tmp, output, output)
    return tmp - grey_erosion(input, size, footprint, structure, None, mode, cval, origin,
                              axes=axes)


def morphological_laplace(input, size=None, footprint=None, structure=None, output=None,
                          mode="reflect", cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.morphological_laplace`."""
    tmp1 = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    if isinstance(output, ndarray):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin, axes=axes)
        cuarray.add(tmp1, output, output)
        cuarray.subtract(output, input, output)
        return cuarray.subtract(output, input, output)
    tmp2 = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    cuarray.add(tmp1, tmp2, tmp2)
    cuarray.subtract(tmp2, input, tmp2)
    cuarray.subtract(tmp2, input, tmp2)
    return tmp2


def _tophat(white, input, size, footprint, structure, output, mode, cval, origin, axes):
    """input - opening(input) (white) or closing(input) - input (black), into the opening's
    or closing's output; boolean images take the difference as exclusive or."""
    input = check_input(input, complex_ok=False)
    _warn_size(size, footprint)
    first, second = (grey_erosion, grey_dilation) if white else (grey_dilation, grey_erosion)
    tmp = first(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    tmp = second(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)
    a, b = (input, tmp) if white else (tmp, input)
    if input.dtype == numpy.bool_ and tmp.dtype == numpy.bool_:
        cuarray.bitwise_xor(a, b, out=tmp)
    else:
        cuarray.subtract(a, b, out=tmp)
    return tmp


def white_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                 cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.white_tophat`."""
    return _tophat(True, input, size, footprint, structure, output, mode, cval, origin, axes)


def black_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                 cval=0.0, origin=0, *, axes=None):
    """cuarray version of `scipy.ndimage.black_tophat`."""
    return _tophat(False, input, size, footprint, structure, output, mode, cval, origin, axes)
