"""cuarray.scipy.spatial: spatial algorithms on the GPU (cuarray version of
`scipy.spatial` / `cupyx.scipy.spatial`): `distance`, `distance_matrix`, `KDTree`."""
from cuarray.scipy.spatial import distance  # noqa: F401
from cuarray.scipy.spatial._distance import distance_matrix  # noqa: F401
from cuarray.scipy.spatial._kdtree import KDTree  # noqa: F401

__all__ = ["KDTree", "distance", "distance_matrix"]
