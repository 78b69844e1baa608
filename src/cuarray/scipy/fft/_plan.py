"""`get_fft_plan` (cuarray version of `cupyx.scipy.fft.get_fft_plan`): a cuFFT plan made
ahead of time for one transform of arrays laid out as `a`, used by
`with plan: cuarray.fft.fft(a)` or `cuarray.scipy.fft.fft(a, plan=plan)`.

cuarray caches plans itself, so a plan only fixes which cuFFT plan runs. It covers
transforms that cuarray runs as one plan over the array as it lies (no crop, pad, dtype
conversion or copy): C2C and R2C; inverse real (C2R) transforms run in several steps.
"""
import contextlib

from cuarray._core.ndarray import ndarray
from cuarray._libs import cufft_context as _plan_context
from cuarray._runtime.device import ensure_context
from cuarray.fft import _fft as _f
from cuarray.fft import config

_NAMES = {"C2C": "fftn", "R2C": "rfftn"}


class FFTPlan:
    """A cuFFT plan for one transform layout; a context manager."""

    def __init__(self, plan, key, shape, axes, value_type):
        self.plan, self.key = plan, key
        self._plan = plan   # what the `with plan:` stack of cuarray.fft runs
        self.shape, self.axes, self.value_type = shape, axes, value_type

    def __enter__(self):
        _plan_context.push(self)
        return self

    def __exit__(self, *exc):
        _plan_context.pop()
        return False

    def __repr__(self):
        return (f"<cuarray FFTPlan {self.value_type} shape={self.shape} axes={self.axes}>")


def get_fft_plan(a, shape=None, axes=None, value_type="C2C"):
    """A cuFFT plan for transforming arrays like `a` over `axes` to lengths `shape`
    (cuarray version of `cupyx.scipy.fft.get_fft_plan`; C2C and R2C)."""
    if not isinstance(a, ndarray):
        _f._check_array(a, "get_fft_plan")
    if value_type not in ("C2C", "R2C", "C2R"):
        raise ValueError(f"value_type must be 'C2C', 'R2C' or 'C2R', not {value_type!r}")
    if value_type == "C2R":
        raise ValueError("cuarray runs inverse real transforms in several cuFFT steps: "
                         "get_fft_plan covers 'C2C' and 'R2C'")
    if isinstance(axes, int):
        axes = (axes,)
    if isinstance(shape, int):
        shape = (shape,)
    ax, lengths = _f._cook_nd(a._shape, shape, axes, value_type, _NAMES[value_type])
    r = _f._recipe(a._shape, a._strides, a.dtype, ax, lengths, value_type, True, None,
                   bool(config.enable_nd_planning))
    if r is None:
        raise ValueError("this transform is not one cuFFT plan over the array as it lies "
                         "(it needs a crop, padding, a dtype conversion, a copy or several "
                         "plans); transform without a plan")
    key = r[2] + (ensure_context(),)
    return FFTPlan(_f._plan_for(key), key, tuple(lengths), tuple(ax), value_type)


def using(plan):
    """The context a `plan=` argument of cuarray.scipy.fft asks for."""
    if plan is None:
        return contextlib.nullcontext()
    if not isinstance(plan, FFTPlan):
        raise ValueError("plan must be None or made by cuarray.scipy.fft.get_fft_plan")
    return plan
