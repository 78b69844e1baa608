"""The `out=` argument of routines that compute their result as a new array first."""
import numpy

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


def write_back(work, target):
    """`target` holding `work` when the routine computed into a temporary (an F-ordered
    copy, or a device result for a NumPy `out=` as CuPy's cuBLAS wrappers take), else
    `work` itself."""
    if target is None or target is work:
        return work
    target[...] = work.get() if isinstance(target, numpy.ndarray) else work
    return target
