"""cuarray.scipy.spatial: spatial algorithms on the GPU (cuarray version of
`scipy.spatial` / `cupyx.scipy.spatial`): `distance`, `distance_matrix`, `KDTree`, `Delaunay` (2-D)."""
from cuarray.scipy.spatial import distance  # noqa: F401
from cuarray.scipy.spatial._distance import distance_matrix  # noqa: F401
from cuarray.scipy.spatial._delaunay import Delaunay  # noqa: F401
from cuarray.scipy.spatial._kdtree import KDTree  # noqa: F401

__all__ = ["Delaunay", "KDTree", "distance", "distance_matrix"]
