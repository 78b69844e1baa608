"""Start-up cost of `import cuarray` and the cold-start rows' first calls, measured without
a GPU.

Fresh processes run the benchmark rows' code

    import cuarray as xp; a = xp.arange(1000, dtype=xp.float32); (a + 1).sum(); xp.sin(a)
    a.sum(); xp.cuda.Device().synchronize()

on the null driver of tools/host_overhead.py (kernels come from the disk cache after the
first run), in three bytecode settings:

    no-bytecode      cuarray's source compiled in every process (`python -B` on a copy of
                     src/ without __pycache__), other packages read their .pyc files: the
                     row "fresh process, warm disk cache" under PYTHONDONTWRITEBYTECODE
    none-at-all      `-B` with an empty PYTHONPYCACHEPREFIX: every module compiled
    bytecode         a warm cache under a temporary PYTHONPYCACHEPREFIX

and print the best of `--runs` times (in the process, from before the import to after the
calls; installing the null driver first imports the emulator and cuda.bindings.driver, which
a GPU run imports too), with the number of cuarray modules and of all modules loaded.

    python tools/cold_start.py [--runs 10] [--import-only] [--importtime 15] [--modules]
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]

_CHILD = """
import sys, time
t = time.perf_counter()
if {calls}:
    sys.path.insert(0, {tools!r})
    from host_overhead import install
    install()
import cuarray as xp
if {calls}:
    a = xp.arange(1000, dtype=xp.float32)
    (a + 1).sum()
    xp.sin(a)
    a.sum()
    xp.cuda.Device().synchronize()
t = time.perf_counter() - t
import json
mods = sorted(sys.modules)
print(json.dumps([t, sum(1 for m in mods if m.split(".")[0] == "cuarray"), len(mods), mods]))
"""


def _run(code, src, args=(), env=None):
    env = dict(os.environ if env is None else env, PYTHONPATH=str(src), OPENBLAS_NUM_THREADS="1")
    r = subprocess.run([sys.executable, *args, "-c", code], env=env, capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10, help="processes per setting (best taken)")
    ap.add_argument("--import-only", action="store_true", help="time `import cuarray` alone")
    ap.add_argument("--importtime", type=int, metavar="N", default=0,
                    help="also list the N largest self times of `-X importtime` (no-bytecode)")
    ap.add_argument("--modules", action="store_true", help="also list the cuarray modules loaded")
    args = ap.parse_args()
    code = _CHILD.format(calls=not args.import_only, tools=str(ROOT / "tools"))
    with tempfile.TemporaryDirectory(prefix="cuarray-cold-") as tmp:
        tmp = pathlib.Path(tmp)
        src = tmp / "src"
        shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
        base = dict(os.environ)
        base.pop("PYTHONPYCACHEPREFIX", None)
        warm = dict(base, PYTHONPYCACHEPREFIX=str(tmp / "pyc"))
        warm.pop("PYTHONDONTWRITEBYTECODE", None)
        _run(code, src, env=warm)   # fills the kernel and bytecode caches
        settings = {
            "no-bytecode": lambda k: (["-B"], base),
            "none-at-all": lambda k: (["-B"], dict(base, PYTHONPYCACHEPREFIX=str(tmp / f"empty{k}"))),
            "bytecode": lambda k: ([], warm),
        }
        best = {name: None for name in settings}
        for k in range(args.runs):   # interleaved: a busy machine slows every setting alike
            for name, setting in settings.items():
                flags, env = setting(k)
                out, _ = _run(code, src, flags, env)
                if best[name] is None or out[0] < best[name][0]:
                    best[name] = out
        what = "import cuarray" if args.import_only else "import cuarray + first calls"
        print(f"{what}, best of {args.runs} fresh processes")
        for name, (t, n_cu, n_all, _) in best.items():
            print(f"  {name:12s} {t * 1e3:7.1f} ms   cuarray modules {n_cu:3d}   all modules {n_all}")
        if args.modules:
            print("cuarray modules:", " ".join(m for m in best["bytecode"][3]
                                                if m.split(".")[0] == "cuarray"))
        if args.importtime:
            _, err = _run(code, src, ["-B", "-X", "importtime"], base)
            rows = []
            for line in err.splitlines():
                if line.startswith("import time:") and "self [us]" not in line:
                    own, _, name = line[len("import time:"):].split("|")
                    rows.append((int(own), name.strip()))
            rows.sort(reverse=True)
            print("largest self times, no-bytecode (-X importtime, one run):")
            for own, name in rows[:args.importtime]:
                print(f"  {own / 1e3:6.2f} ms  {name}")


if __name__ == "__main__":
    main()
