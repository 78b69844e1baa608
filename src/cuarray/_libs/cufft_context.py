"""The cuFFT plan given with `with plan:` (CuPy's `get_current_plan`), per thread.

`cuarray.fft` asks `plan_for(key)` before its cache: inside the block the user's plan
runs every transform, and a transform it cannot run is an error, as in CuPy.
"""
import threading

_tls = threading.local()


def get_current_plan():
    """The innermost plan entered with `with plan:` on this thread, or None."""
    stack = getattr(_tls, "stack", None)
    return stack[-1] if stack else None


def push(plan):
    stack = getattr(_tls, "stack", None)
    if stack is None:
        stack = _tls.stack = []
    if stack:
        raise RuntimeError("a cuFFT plan is already in use as a context manager on this "
                           "thread; nested plans are not allowed")
    stack.append(plan)


def pop():
    _tls.stack.pop()


def plan_for(key):
    """The current plan's cuFFT plan when one is entered (checked against `key`), else None."""
    stack = getattr(_tls, "stack", None)
    if not stack:
        return None
    plan = stack[-1]
    if plan._plan.key != key:
        raise ValueError(
            f"the cuFFT plan in use ({plan!r}) does not fit this transform: it needs "
            f"type {key[0]:#x}, lengths {key[1]}, batch {key[8]} with input layout "
            f"(embed {key[2]}, stride {key[3]}, dist {key[4]}) and output layout (embed "
            f"{key[5]}, stride {key[6]}, dist {key[7]}) on device {key[9]}")
    return plan._plan
