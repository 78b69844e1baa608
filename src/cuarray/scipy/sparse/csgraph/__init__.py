"""cuarray.scipy.sparse.csgraph: graph algorithms on sparse matrices, on the GPU
(cuarray version of `scipy.sparse.csgraph` / `cupyx.scipy.sparse.csgraph`)."""
from cuarray.scipy.sparse.csgraph._conversions import (  # noqa: F401
    construct_dist_matrix, csgraph_from_dense, csgraph_to_dense)
from cuarray.scipy.sparse.csgraph._laplacian import laplacian  # noqa: F401
from cuarray.scipy.sparse.csgraph._paths import (  # noqa: F401
    NegativeCycleError, bellman_ford, dijkstra, floyd_warshall, johnson,
    minimum_spanning_tree, shortest_path)
from cuarray.scipy.sparse.csgraph._trees import (  # noqa: F401
    breadth_first_tree, depth_first_tree, reconstruct_path)
from cuarray.scipy.sparse.csgraph._traversal import (  # noqa: F401
    breadth_first_order, connected_components, depth_first_order)

__all__ = ["connected_components", "breadth_first_order", "depth_first_order",
           "shortest_path", "dijkstra", "bellman_ford", "johnson", "floyd_warshall",
           "NegativeCycleError", "minimum_spanning_tree", "laplacian", "breadth_first_tree",
           "depth_first_tree", "reconstruct_path", "csgraph_from_dense", "csgraph_to_dense",
           "construct_dist_matrix"]
