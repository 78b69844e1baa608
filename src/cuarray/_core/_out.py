"""The `out=` argument of routines that compute their result as a new array first."""
from cuarray._core.ndarray import ndarray


def into_out(res, out, shape, refusal):
    """`res`, or `out` holding it: `out` must be a cuarray array of `shape`, else ValueError
    with the message `refusal` (each routine's own, as NumPy/SciPy word it)."""
    if out is None:
        return res
    if not isinstance(out, ndarray) or out.shape != shape:
        raise ValueError(refusal)
    out[...] = res
    return out
