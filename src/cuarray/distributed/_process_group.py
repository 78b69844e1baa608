"""`init_process_group` and where a process finds its place in the group.

A process started by `python -m cuarray.distributed.launch` (or torchrun, or anything
that sets the same variables) reads its rank and the group's size from `RANK` and
`WORLD_SIZE`, the rendezvous address from `MASTER_ADDR`/`MASTER_PORT`, and makes device
`LOCAL_RANK` (modulo the device count) current. Explicit arguments win over the
environment; `CUARRAY_DISTRIBUTED_HOST`/`_PORT`, then CuPy's `CUPYX_DISTRIBUTED_HOST`/
`_PORT`, win over `MASTER_ADDR`/`MASTER_PORT`.
"""
import os

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 13333


def _env_int(env, name):
    value = env.get(name)
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"environment variable {name}={value!r} is not an integer") from None


def resolve(n_devices=None, rank=None, host=None, port=None, env=None):
    """(n_devices, rank, host, port, local_rank) from the arguments, then the environment."""
    env = os.environ if env is None else env
    if n_devices is None:
        n_devices = _env_int(env, "WORLD_SIZE")
    if rank is None:
        rank = _env_int(env, "RANK")
    if n_devices is None or rank is None:
        raise ValueError("init_process_group needs n_devices and rank, as arguments or as "
                         "WORLD_SIZE and RANK in the environment (python -m "
                         "cuarray.distributed.launch sets them)")
    if host is None:
        host = (env.get("CUARRAY_DISTRIBUTED_HOST") or env.get("CUPYX_DISTRIBUTED_HOST")
                or env.get("MASTER_ADDR") or DEFAULT_HOST)
    if port is None:
        port = (_env_int(env, "CUARRAY_DISTRIBUTED_PORT") or
                _env_int(env, "CUPYX_DISTRIBUTED_PORT") or _env_int(env, "MASTER_PORT")
                or DEFAULT_PORT)
    local_rank = _env_int(env, "LOCAL_RANK")
    return n_devices, rank, host, port, local_rank


def init_process_group(n_devices=None, rank=None, *, backend="nccl", host=None, port=None,
                       use_mpi=False):
    """Start this process's part of a group of `n_devices` processes and return its
    communicator (cuarray version of `cupyx.distributed.init_process_group`).

    `n_devices` and `rank` may come from `WORLD_SIZE` and `RANK`; the rendezvous address
    from `host`/`port`, `CUARRAY_DISTRIBUTED_HOST`/`_PORT`, `CUPYX_DISTRIBUTED_HOST`/`_PORT`
    or `MASTER_ADDR`/`MASTER_PORT` (default 127.0.0.1:13333). Where `LOCAL_RANK` is set, device `LOCAL_RANK % device
    count` becomes current first. Only `backend='nccl'` exists.
    """
    if backend != "nccl":
        raise ValueError(f"backend {backend!r} is not supported (only 'nccl' is)")
    n_devices, rank, host, port, local_rank = resolve(n_devices, rank, host, port)
    if local_rank is not None:
        from cuarray._runtime import driver
        from cuarray._runtime.device import set_device_id
        set_device_id(local_rank % driver.device_count())
    from cuarray.distributed._nccl_backend import NCCLBackend
    return NCCLBackend(n_devices, rank, host, port, use_mpi)
