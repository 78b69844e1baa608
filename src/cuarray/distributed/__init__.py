"""Collectives between processes, one per GPU (CuPy's `cupyx.distributed`).

Start one process per GPU with `python -m cuarray.distributed.launch --nproc-per-node N
script.py`, and call `init_process_group()` in each; arrays spread over the GPUs of one
process live in `cuarray.distributed.array`. Needs NCCL (`pip install cuarray[nccl]`).
"""
from cuarray.distributed._nccl_backend import NCCLBackend  # noqa: F401
from cuarray.distributed._process_group import init_process_group  # noqa: F401
