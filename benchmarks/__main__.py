"""`python -m benchmarks [NAME...] [-k TEXT] [--json PATH] [--quick]`: run benchmark groups.

Each `benchmarks/bench_*.py` registers a group of rows; every row is timed for cuarray and,
when `import cupy` works, for CuPy in the same process. Prints a markdown table and writes
JSON (default: benchmarks/results/<date>-<gpu>.json). Exit status: 0, or 1 when there is
no GPU or a row failed for cuarray.
"""
import argparse
import importlib
import pkgutil
import sys

import benchmarks
from benchmarks import harness


def _load_groups():
    for m in pkgutil.iter_modules(benchmarks.__path__):
        if m.name.startswith("bench_"):
            importlib.import_module(f"benchmarks.{m.name}")
    return harness.GROUPS


def _cupy():
    """CuPy as a comparator, or (None, why not)."""
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        return cupy, None
    except Exception as e:  # absent, or built for another CUDA: cuarray still runs alone
        return None, f"{type(e).__name__}: {e}".splitlines()[0]


def main(argv=None):
    groups = _load_groups()
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"groups to run (default: all): {', '.join(groups)}")
    parser.add_argument("-k", dest="match", default="", metavar="TEXT",
                        help="only rows whose name contains TEXT")
    parser.add_argument("--json", dest="json_path", metavar="PATH",
                        help="where to write the JSON record")
    parser.add_argument("--quick", action="store_true",
                        help="64 MiB buffers and fewer repeats, for a smoke run")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in groups]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; known: {', '.join(groups)}")

    import cuarray
    from cuarray._info import driver_string, no_gpu_sentence
    from cuarray._runtime import device, driver
    from cuarray._version import __version__
    try:
        driver.init()
    except driver.CUDARuntimeError as e:
        print(no_gpu_sentence(e), file=sys.stderr)
        return 1
    cupy, why = _cupy()
    if why:
        print(f"CuPy is not available ({why}); reporting cuarray alone.", file=sys.stderr)

    benches = [b for name in (args.names or groups) for b in groups[name].rows
               if args.match in b.name]
    ctx = harness.Context(quick=args.quick)
    libs = {"cuarray": cuarray, "CuPy": cupy}
    results = harness.run_rows(benches, libs, ctx,
                               log=lambda s: print(s, file=sys.stderr, flush=True))
    meta = {"gpu": device.properties(device.get_device_id())["name"],
            "cuarray": __version__, "cupy": getattr(cupy, "__version__", None),
            "numpy": __import__("numpy").__version__,
            "driver": driver_string(driver.driver_version())}
    harness.report(results, ctx, libs, meta, args.json_path)
    return 1 if any(r.errors.get("cuarray") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
