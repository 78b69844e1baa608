"""cuarray version of `cupyx.scipy.interpolate` (SciPy's `scipy.interpolate` on the GPU).

Each private module re-exports its public names here, one import line per module.
"""
from cuarray.scipy.interpolate._ndgriddata import *  # noqa: F401,F403
from cuarray.scipy.interpolate._rbf import *  # noqa: F401,F403
