"""Argument rules of scipy.fft (pure: no device needed) and `next_fast_len`."""
import functools
import numbers
import operator


def iterable_of_int(x, name=None):
    """`x` as a list of ints (SciPy's `_iterable_of_int`)."""
    if isinstance(x, numbers.Number):
        x = (x,)
    try:
        return [operator.index(a) for a in x]
    except TypeError as e:
        raise ValueError(f"{name or 'value'} must be a scalar or iterable of integers") from e


def init_nd_shape_and_axes(ndim, in_shape, shape, axes):
    """(lengths, axes) of an N-D transform of an array of shape `in_shape` (SciPy's
    `_init_nd_shape_and_axes`: axes must be unique, -1 lengths take the input's)."""
    noshape, noaxes = shape is None, axes is None
    if not noaxes:
        axes = iterable_of_int(axes, "axes")
        axes = [a + ndim if a < 0 else a for a in axes]
        if any(a >= ndim or a < 0 for a in axes):
            raise ValueError("axes exceeds dimensionality of input")
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if not noshape:
        shape = iterable_of_int(shape, "shape")
        if axes and len(axes) != len(shape):
            raise ValueError("when given, axes and shape arguments have to be of the same "
                             "length")
        if noaxes:
            if len(shape) > ndim:
                raise ValueError("shape requires more axes than are present")
            axes = list(range(ndim - len(shape), ndim))
        shape = [in_shape[a] if s == -1 else s for s, a in zip(shape, axes)]
    elif noaxes:
        shape = list(in_shape)
        axes = list(range(ndim))
    else:
        shape = [in_shape[a] for a in axes]
    if any(s < 1 for s in shape):
        raise ValueError(f"invalid number of data points ({shape}) specified")
    return tuple(shape), list(axes)


@functools.lru_cache(maxsize=4096)
def _smooth_at_least(target, primes):
    """The smallest integer >= target whose prime factors are all in `primes`."""
    best = None
    stack = [1]
    seen = {1}
    # Products of the primes up to the first power of two >= target bound the search.
    limit = 1 << (target - 1).bit_length()
    while stack:
        v = stack.pop()
        if v >= target:
            if best is None or v < best:
                best = v
            continue
        for p in primes:
            w = v * p
            if w <= limit and w not in seen:
                seen.add(w)
                stack.append(w)
    return best


def next_fast_len(target, real=False):
    """The smallest length >= target that cuFFT transforms fastest: a product of 2, 3, 5
    and 7 (cuarray version of `scipy.fft.next_fast_len`, as CuPy: `real` is accepted and
    does not change the answer, where SciPy's pocketfft also takes 11)."""
    target = operator.index(target)
    if target < 1:
        raise ValueError("Target length must be positive")
    return _smooth_at_least(target, (2, 3, 5, 7))
