"""cuarray version of `cupyx.scipy.interpolate` (SciPy's `scipy.interpolate` on the GPU).

Each private module re-exports its public names here, one import line per module.
"""
from cuarray.scipy.interpolate._ppoly import *  # noqa: F401,F403
from cuarray.scipy.interpolate._cubic import *  # noqa: F401,F403
from cuarray.scipy.interpolate._bsplines import *  # noqa: F401,F403
from cuarray.scipy.interpolate._interp1d import *  # noqa: F401,F403
from cuarray.scipy.interpolate._ndbspline import *  # noqa: F401,F403
from cuarray.scipy.interpolate._rgi import *  # noqa: F401,F403
from cuarray.scipy.interpolate._polyint import *  # noqa: F401,F403
from cuarray.scipy.interpolate._ndppoly import *  # noqa: F401,F403
from cuarray.scipy.interpolate._fitpack_splines import *  # noqa: F401,F403
from cuarray.scipy.interpolate._ndgriddata import *  # noqa: F401,F403
from cuarray.scipy.interpolate._rbf import *  # noqa: F401,F403
