"""Arrays split over the GPUs of one process (CuPy's `cupyx.distributed.array`)."""
from cuarray.distributed.array._array import DistributedArray, distributed_array  # noqa: F401
from cuarray.distributed.array._index import make_2d_index_map  # noqa: F401
from cuarray.distributed.array._linalg import matmul  # noqa: F401
from cuarray.distributed.array._modes import MAX, MIN, PROD, REPLICA, SUM, Mode  # noqa: F401
