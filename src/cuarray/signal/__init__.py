"""cuarray.signal: CuPy's signal processing additions from cuSignal (cuarray version of
`cupyx.signal`)."""
from cuarray.signal._radar_filters import *  # noqa: F401,F403
from cuarray.signal._radar_filters import __all__  # noqa: F401
