"""cuarray.scipy.spatial.distance: pairwise distances on the GPU (cuarray version of
`scipy.spatial.distance` / `cupyx.scipy.spatial.distance`)."""
from cuarray.scipy.spatial._distance import (  # noqa: F401
    braycurtis, canberra, cdist, chebyshev, cityblock, correlation, cosine, distance_matrix,
    euclidean, hamming, hellinger, jensenshannon, kl_divergence, minkowski, pdist, russellrao,
    sqeuclidean)

__all__ = ["braycurtis", "canberra", "cdist", "chebyshev", "cityblock", "correlation",
           "cosine", "distance_matrix", "euclidean", "hamming", "hellinger", "jensenshannon",
           "kl_divergence", "minkowski", "pdist", "russellrao", "sqeuclidean"]
