"""Start one process per GPU: `python -m cuarray.distributed.launch [options] script.py [args]`.

Each process gets torchrun's variables (`RANK`, `WORLD_SIZE`, `LOCAL_RANK`,
`LOCAL_WORLD_SIZE`, `MASTER_ADDR`, `MASTER_PORT`), which `init_process_group()` reads.
If one process fails the others are stopped and the launcher exits with its status.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time


def child_env(base, local_rank, nproc, node_rank=0, nnodes=1, addr="127.0.0.1", port=29500):
    """The environment of local process `local_rank` of `nproc` on node `node_rank`."""
    env = dict(base)
    env.update({
        "RANK": str(node_rank * nproc + local_rank),
        "WORLD_SIZE": str(nnodes * nproc),
        "LOCAL_RANK": str(local_rank),
        "LOCAL_WORLD_SIZE": str(nproc),
        "GROUP_RANK": str(node_rank),
        "MASTER_ADDR": addr,
        "MASTER_PORT": str(port),
    })
    return env


def _free_port(addr):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((addr, 0))
        return s.getsockname()[1]


def _default_nproc():
    try:
        from cuarray._runtime import driver
        return driver.device_count()
    except Exception as e:
        raise SystemExit(f"cannot count the GPUs ({e}); give --nproc-per-node") from None


def parse(argv):
    p = argparse.ArgumentParser(
        prog="python -m cuarray.distributed.launch",
        description="Run a script once per GPU with RANK, WORLD_SIZE, LOCAL_RANK, "
                    "MASTER_ADDR and MASTER_PORT set for cuarray.distributed.init_process_group.")
    p.add_argument("--nproc-per-node", "--nproc_per_node", type=int, default=None,
                   help="processes on this node (default: one per GPU)")
    p.add_argument("--nnodes", type=int, default=1)
    p.add_argument("--node-rank", "--node_rank", type=int, default=0)
    p.add_argument("--master-addr", "--master_addr", default="127.0.0.1")
    p.add_argument("--master-port", "--master_port", type=int, default=None,
                   help="rendezvous port (default: a free port on one node, 29500 on several)")
    p.add_argument("-m", dest="module", action="store_true",
                   help="run the target as a module (python -m target)")
    p.add_argument("target", help="the script (or module, with -m) to run")
    p.add_argument("args", nargs=argparse.REMAINDER)
    ns = p.parse_args(argv)
    if ns.nproc_per_node is not None and ns.nproc_per_node < 1:
        p.error("--nproc-per-node must be at least 1")
    if ns.nnodes < 1 or not 0 <= ns.node_rank < ns.nnodes:
        p.error("--node-rank must be in 0..nnodes-1")
    return ns


def commands(ns, base_env=None):
    """(argv, env) for each local process."""
    base_env = os.environ if base_env is None else base_env
    nproc = ns.nproc_per_node or _default_nproc()
    port = ns.master_port
    if port is None:
        port = _free_port(ns.master_addr) if ns.nnodes == 1 else 29500
    argv = [sys.executable] + (["-m", ns.target] if ns.module else [ns.target]) + ns.args
    return [(argv, child_env(base_env, r, nproc, ns.node_rank, ns.nnodes, ns.master_addr, port))
            for r in range(nproc)]


def run(cmds, poll=0.1):
    """Start every process; return the first non-zero exit status (others are then stopped),
    or 0 when all succeed."""
    procs = [subprocess.Popen(argv, env=env) for argv, env in cmds]
    status = 0
    try:
        while procs:
            for p in list(procs):
                rc = p.poll()
                if rc is None:
                    continue
                procs.remove(p)
                if rc != 0 and status == 0:
                    status = rc if rc > 0 else 128 - rc    # killed by a signal: 128 + its number
                    for q in procs:
                        q.send_signal(signal.SIGTERM)
            time.sleep(poll)
    except KeyboardInterrupt:
        for q in procs:
            q.send_signal(signal.SIGINT)
        for q in procs:
            q.wait()
        return 130
    return status


def main(argv=None):
    ns = parse(sys.argv[1:] if argv is None else argv)
    return run(commands(ns))


if __name__ == "__main__":
    sys.exit(main())
