"""cuarray.scipy.special: SciPy's special functions on the GPU (cuarray version of
`scipy.special` / `cupyx.scipy.special`). The elementwise functions are cuarray ufuncs
with SciPy's float32/float64 loops."""
from cuarray.scipy.special._ufuncs import UFUNCS as _UFUNCS
from cuarray.scipy.special._functions import (  # noqa: F401
    lambertw, log_softmax, logsumexp, multigammaln, polygamma, softmax, sph_harm, sph_harm_y,
    spherical_yn, zeta)

globals().update({k: v for k, v in _UFUNCS.items() if not k.startswith("_")})


def sinc(x):
    """sin(pi x) / (pi x) (NumPy's sinc, which `scipy.special` re-exports)."""
    from cuarray._routines.math import sinc as _sinc
    return _sinc(x)


__all__ = sorted([k for k in _UFUNCS if not k.startswith("_")] + [
    "log_softmax", "logsumexp", "multigammaln", "polygamma", "softmax", "zeta", "sinc",
    "spherical_yn", "lambertw", "sph_harm", "sph_harm_y"])

from cuarray.scipy.special._more_functions import (  # noqa: E402
    agm, bernoulli, diric, euler, factorial, factorial2, factorialk, powm1, softplus, spence)

__all__ += ["agm", "bernoulli", "diric", "euler", "factorial", "factorial2", "factorialk",
            "powm1", "softplus", "spence"]

from cuarray.scipy.special._carlson import UFUNCS_CARLSON as _UFUNCS_CARLSON  # noqa: E402
globals().update(_UFUNCS_CARLSON)
__all__ = sorted(set(__all__) | set(_UFUNCS_CARLSON))
