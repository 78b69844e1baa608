"""A Dask cluster on this machine with one worker process per GPU (needs cuarray[dask]).

The choice: dask-cuda's `LocalCUDACluster` is the usual tool, but it is a separate
package built around CuPy and RMM. Without it, this module builds the same layout from
dask.distributed alone: a `SpecCluster` (the class `LocalCluster` is made from) whose
workers are Nanny-managed processes, worker i started with `CUDA_VISIBLE_DEVICES` listing
GPU i first and then the others (so device 0 of worker i is GPU i, and peer copies to the
other GPUs stay possible). Tasks then create and compute cuarray chunks on their worker's
GPU with no device handling in user code.
"""


def visible_devices_order(i, n):
    """CUDA_VISIBLE_DEVICES for worker i of n: GPU i first, then the rest in turn."""
    return ",".join(str((i + k) % n) for k in range(n))


def _gpu_count():
    from cuarray._runtime import driver
    return driver.device_count()


def local_cluster(n_gpus=None, threads_per_worker=1, dashboard_address=":0", **worker_options):
    """A `distributed.SpecCluster` with one worker process per GPU (default: every GPU of
    this machine). Use it as `Client(local_cluster())`; close it with `.close()` or `with`."""
    from distributed import Nanny, Scheduler, SpecCluster
    if n_gpus is None:
        n_gpus = _gpu_count()
    if not isinstance(n_gpus, int) or n_gpus < 1:
        raise ValueError(f"n_gpus must be a positive int, got {n_gpus!r}")
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": dashboard_address}}
    workers = {}
    for i in range(n_gpus):
        opts = dict(worker_options, nthreads=threads_per_worker, name=i,
                    env={"CUDA_VISIBLE_DEVICES": visible_devices_order(i, n_gpus)})
        workers[i] = {"cls": Nanny, "options": opts}
    return SpecCluster(workers=workers, scheduler=scheduler, name="cuarray-gpus")
