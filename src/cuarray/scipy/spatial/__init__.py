"""cuarray.scipy.spatial: spatial algorithms on the GPU (cuarray version of
`scipy.spatial` / `cupyx.scipy.spatial`): `distance` and `distance_matrix`."""
from cuarray.scipy.spatial import distance  # noqa: F401
from cuarray.scipy.spatial._distance import distance_matrix  # noqa: F401

__all__ = ["distance", "distance_matrix"]
