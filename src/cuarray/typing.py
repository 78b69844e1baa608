"""Type annotations for cuarray code (cuarray version of `cupy.typing`): NumPy's `ArrayLike`,
`DTypeLike`, `NBitBase`, and `NDArray[T]`, a cuarray array of scalar type T."""
from typing import Any, TypeVar

import numpy
from numpy.typing import ArrayLike, DTypeLike, NBitBase  # noqa: F401

from cuarray._core.ndarray import ndarray

__all__ = ["ArrayLike", "DTypeLike", "NBitBase", "NDArray"]

_ScalarType_co = TypeVar("_ScalarType_co", bound=numpy.generic, covariant=True)
NDArray = ndarray[Any, numpy.dtype[_ScalarType_co]]
