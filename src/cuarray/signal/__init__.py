"""cuarray.signal: CuPy's signal processing additions from cuSignal (cuarray version of
`cupyx.signal`)."""
from cuarray.signal._radar_filters import *  # noqa: F401,F403
from cuarray.signal._detection import *  # noqa: F401,F403
from cuarray.signal import _detection, _radar_filters

__all__ = _radar_filters.__all__ + _detection.__all__
