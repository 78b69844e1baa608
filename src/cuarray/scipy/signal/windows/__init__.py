"""cuarray.scipy.signal.windows: SciPy's window functions on the GPU (cuarray version of
`scipy.signal.windows` / `cupyx.scipy.signal.windows`)."""
from cuarray.scipy.signal.windows._windows import *  # noqa: F401,F403
from cuarray.scipy.signal.windows._windows import __all__  # noqa: F401
