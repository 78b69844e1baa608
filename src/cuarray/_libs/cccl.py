"""CUB's device radix sort through `cuda.compute` (package cuda-cccl), when it is installed.

`CUARRAY_SORT_BACKEND` picks the radix sort under sort, argsort, unique, lexsort and the
order statistics: `cccl` (CUB's onesweep sort, as CuPy and PyTorch use) or `own`
(cuarray's LSD kernels in `cuarray._core._routines_sorting`). Unset: `cccl` when `cuda.compute`
imports, else `own`. It is read at every sort, so a benchmark can switch it in-process.

Built sorters are cached per (key dtype, value dtype): the first use of each compiles
(seconds); later calls only pass pointers. Temporary storage comes from cuarray's pool.
"""
import os

import numpy

_ENV = "CUARRAY_SORT_BACKEND"
_u8 = numpy.dtype(numpy.uint8)
_state = {}
_sorters = {}


def _module():
    """`cuda.compute`, or None (the reason kept in _state['why'])."""
    if "mod" not in _state:
        try:
            import cuda.compute as cc
            if not getattr(cc, "_BINDINGS_AVAILABLE", True):
                raise ImportError("its CUDA bindings are not available")
            cc.make_radix_sort  # noqa: B018  (absent when the bindings failed to load)
            _state["mod"], _state["why"] = cc, None
        except Exception as e:  # absent, or built for another CUDA: the own kernels serve
            _state["mod"], _state["why"] = None, f"{type(e).__name__}: {e}"
    return _state["mod"]


def backend():
    """'cccl' or 'own' for the next sort (see the module docstring)."""
    choice = os.environ.get(_ENV, "").strip().lower()
    if choice == "own":
        return "own"
    if choice not in ("", "cccl"):
        raise ValueError(f"{_ENV} must be 'cccl' or 'own', got {choice!r}")
    if _module() is None:
        if choice == "cccl":
            raise RuntimeError(f"{_ENV}=cccl but cuda.compute cannot be used ({_state['why']}); "
                               f"install cuda-cccl or set {_ENV}=own")
        return "own"
    return "cccl"


class _Stream:
    """The `__cuda_stream__` protocol over a raw CUstream handle."""

    __slots__ = ("ptr",)

    def __init__(self, ptr):
        self.ptr = ptr

    def __cuda_stream__(self):
        return (0, self.ptr)


def radix_sort(keys_in, keys_out, vals_in, vals_out, n, end_bit=None):
    """Stable ascending sort of the first `n` keys (and values) on the current stream.

    Arrays are contiguous cuarray arrays; `vals_in`/`vals_out` may be None (keys only).
    Signed and floating keys use CUB's own order (-0.0 == 0.0; callers canonicalise NaN).
    `end_bit`: only bits [0, end_bit) of unsigned keys are significant.
    """
    from cuarray._core.ndarray import ndarray
    from cuarray._runtime.device import ensure_context, properties
    from cuarray._runtime.stream import current_stream_ptr
    cc = _module()
    dev = ensure_context()
    key = (keys_in.dtype.char, None if vals_in is None else vals_in.dtype.char, dev)
    sorter = _sorters.get(key)
    if sorter is None:
        p = properties(dev)
        sorter = _sorters[key] = cc.make_radix_sort(
            d_in_keys=keys_in, d_out_keys=keys_out, d_in_values=vals_in, d_out_values=vals_out,
            order=cc.SortOrder.ASCENDING, compute_capability=(p["major"], p["minor"]))
    kw = dict(d_in_keys=keys_in, d_out_keys=keys_out, d_in_values=vals_in, d_out_values=vals_out,
              num_items=n, begin_bit=0, end_bit=end_bit, stream=_Stream(current_stream_ptr()))
    nbytes = sorter(temp_storage=None, **kw)
    # Pool memory is stream-ordered: dropping `tmp` after the launch is safe.
    tmp = ndarray._alloc((max(int(nbytes), 1),), _u8)
    sorter(temp_storage=tmp, **kw)
