"""The launcher's environment handling, the rendezvous store and init_process_group's
argument resolution: host logic, run on the CPU (processes and sockets, no GPU)."""
import os
import subprocess
import sys
import textwrap
import threading

import pytest

from cuarray.distributed import _process_group, launch
from cuarray.distributed._store import TCPStore

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "src")


def test_child_env_sets_torchrun_variables():
    env = launch.child_env({"PATH": "/bin", "RANK": "9"}, 1, 4, node_rank=2, nnodes=3,
                           addr="10.0.0.5", port=1234)
    assert env["PATH"] == "/bin"
    assert (env["RANK"], env["WORLD_SIZE"], env["LOCAL_RANK"], env["LOCAL_WORLD_SIZE"]) == \
        ("9", "12", "1", "4")
    assert (env["MASTER_ADDR"], env["MASTER_PORT"], env["GROUP_RANK"]) == ("10.0.0.5", "1234", "2")


def test_commands_one_per_process():
    ns = launch.parse(["--nproc-per-node", "3", "--master-port", "4321", "train.py", "--lr", "1"])
    cmds = launch.commands(ns, base_env={"X": "1"})
    assert len(cmds) == 3
    for r, (argv, env) in enumerate(cmds):
        assert argv[1:] == ["train.py", "--lr", "1"]
        assert env["RANK"] == env["LOCAL_RANK"] == str(r)
        assert env["WORLD_SIZE"] == "3" and env["MASTER_PORT"] == "4321" and env["X"] == "1"
    ns = launch.parse(["--nproc_per_node", "2", "-m", "pkg.mod", "a"])
    argv, env = launch.commands(ns, base_env={})[0]
    assert argv[1:] == ["-m", "pkg.mod", "a"] and int(env["MASTER_PORT"]) > 0


@pytest.mark.parametrize("argv", [["--nproc-per-node", "0", "x.py"],
                                  ["--nnodes", "2", "--node-rank", "2", "x.py"], []])
def test_bad_launcher_arguments(argv, capsys):
    with pytest.raises(SystemExit) as e:
        launch.parse(argv)
    assert e.value.code == 2


def test_resolve_prefers_arguments_then_cuarray_then_torchrun_variables():
    env = {"WORLD_SIZE": "4", "RANK": "2", "LOCAL_RANK": "1", "MASTER_ADDR": "h1",
           "MASTER_PORT": "111"}
    assert _process_group.resolve(env=env) == (4, 2, "h1", 111, 1)
    env.update(CUPYX_DISTRIBUTED_HOST="hc", CUPYX_DISTRIBUTED_PORT="444")
    assert _process_group.resolve(env=env) == (4, 2, "hc", 444, 1)
    env.update(CUARRAY_DISTRIBUTED_HOST="h2", CUARRAY_DISTRIBUTED_PORT="222")
    assert _process_group.resolve(env=env) == (4, 2, "h2", 222, 1)
    assert _process_group.resolve(2, 0, "h3", 333, env=env) == (2, 0, "h3", 333, 1)
    assert _process_group.resolve(2, 1, env={}) == (2, 1, "127.0.0.1", 13333, None)
    with pytest.raises(ValueError, match="WORLD_SIZE and RANK"):
        _process_group.resolve(env={"RANK": "0"})
    with pytest.raises(ValueError, match="RANK='x'"):
        _process_group.resolve(env={"WORLD_SIZE": "2", "RANK": "x"})


def test_init_process_group_refuses_other_backends():
    from cuarray import distributed
    with pytest.raises(ValueError, match="'gloo'"):
        distributed.init_process_group(2, 0, backend="gloo")


def test_without_nccl_init_fails_before_the_rendezvous(monkeypatch):
    from cuarray import distributed
    from cuarray._libs import nccl as _libnccl
    monkeypatch.setattr(_libnccl, "available", lambda: False)
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    with pytest.raises(RuntimeError, match="NCCL is not available"):
        distributed.init_process_group(2, 1, port=1)   # would otherwise wait for rank 0


def test_store_between_threads():
    s0 = TCPStore("127.0.0.1", 0, 0, 3, timeout=30)      # port 0: the OS picks one
    port = s0.port
    got = {}

    def rank(r):
        s = TCPStore("127.0.0.1", port, r, 3, timeout=30)
        got[r] = s.get("uid")
        s.set(f"from{r}", r * 10)
        s.barrier()
        got[r, "after"] = sorted(s.get(f"from{k}") for k in (1, 2))
        s.barrier()
        s.stop()

    threads = [threading.Thread(target=rank, args=(r,)) for r in (1, 2)]
    for t in threads:
        t.start()
    s0.set("uid", [1, -2, 3])
    s0.barrier()
    s0.barrier()
    for t in threads:
        t.join(30)
    assert got[1] == got[2] == [1, -2, 3]
    assert got[1, "after"] == got[2, "after"] == [10, 20]
    s0.stop()


def test_store_get_times_out():
    s0 = TCPStore("127.0.0.1", 0, 0, 2, timeout=0.2)
    with pytest.raises(TimeoutError, match="missing"):
        s0.get("missing")
    with pytest.raises(TimeoutError, match="1 of 2 ranks"):
        s0.barrier()
    s0.stop()


_WORKER = textwrap.dedent("""
    import json, os, sys
    from cuarray.distributed import _process_group
    from cuarray.distributed._store import TCPStore
    n, rank, host, port, local = _process_group.resolve()
    store = TCPStore(host, port, rank, n, timeout=60)
    store.set(f"rank{rank}", {"pid": os.getpid(), "local": local})
    store.barrier()
    seen = [store.get(f"rank{r}") for r in range(n)]
    store.barrier()
    with open(os.path.join(sys.argv[1], f"out{rank}.json"), "w") as f:
        json.dump({"n": n, "seen": seen, "argv": sys.argv[2:]}, f)
    store.stop()
    sys.exit(int(os.environ.get("FAIL_RANK", "-1")) == rank and 3 or 0)
""")


def _launch(tmp_path, extra_env=None, nproc=2):
    script = tmp_path / "worker.py"
    script.write_text(_WORKER)
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "-m", "cuarray.distributed.launch",
                           "--nproc-per-node", str(nproc), str(script), str(tmp_path), "x"],
                          env=env, timeout=120)


def test_launcher_starts_processes_that_meet(tmp_path):
    import json
    r = _launch(tmp_path)
    assert r.returncode == 0
    outs = [json.loads((tmp_path / f"out{k}.json").read_text()) for k in range(2)]
    for o in outs:
        assert o["n"] == 2 and o["argv"] == ["x"]
        assert [s["local"] for s in o["seen"]] == [0, 1]
    assert outs[0]["seen"] == outs[1]["seen"]
    assert outs[0]["seen"][0]["pid"] != outs[0]["seen"][1]["pid"]


def test_launcher_returns_a_failing_rank_status(tmp_path):
    r = _launch(tmp_path, {"FAIL_RANK": "1"})
    assert r.returncode == 3
