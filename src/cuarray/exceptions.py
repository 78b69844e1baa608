"""Exceptions and warnings (cuarray version of `cupy.exceptions`): NumPy's own classes, so an
`except numpy.exceptions.AxisError` also catches cuarray's."""
from numpy.exceptions import (  # noqa: F401
    AxisError, ComplexWarning, ModuleDeprecationWarning, RankWarning, TooHardError,
    VisibleDeprecationWarning)

__all__ = ["AxisError", "ComplexWarning", "ModuleDeprecationWarning", "RankWarning",
           "TooHardError", "VisibleDeprecationWarning"]
