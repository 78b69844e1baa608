"""The command line shared by `python -m cuarray bench` and `python -m benchmarks`.

Both fronts pass their groups; this module finds the comparators (CuPy, PyTorch),
runs the rows with a progress line on stderr, prints the table, and writes the JSON
record and the charts when asked. `--from FILE` prints and plots a saved record, which
needs no GPU.
"""
import argparse
import sys

from cuarray._bench import harness, report


def _comparator(name, probe):
    """The module when it imports and sees a GPU, else (None, why not)."""
    try:
        mod = __import__(name)
        probe(mod)
        return mod, None
    except Exception as e:  # absent, or built for another CUDA: cuarray still runs
        return None, f"{type(e).__name__}: {e}".splitlines()[0]


def _torch_probe(torch):
    if not torch.cuda.is_available():
        raise RuntimeError("torch.cuda.is_available() is False")


class Progress:
    """A one-line progress bar on a terminal; plain lines when stderr is a file or pipe."""

    def __init__(self, stream):
        self.stream = stream
        self.tty = stream.isatty()

    def __call__(self, i, n, text):
        if self.tty:
            width = 30
            done = width * i // max(n, 1)
            line = f"[{'#' * done}{'.' * (width - done)}] {i}/{n} {text}"[:110]
            self.stream.write("\r\033[K" + line + ("\n" if i == n else ""))
        elif i < n:
            self.stream.write(f"[{i + 1}/{n}] {text}\n")
        self.stream.flush()


def parser(prog, groups, description):
    p = argparse.ArgumentParser(prog=prog, description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", metavar="GROUP",
                   help=f"groups to run (default: {', '.join(groups)})")
    p.add_argument("-k", dest="match", default="", metavar="TEXT",
                   help="only rows whose name contains TEXT")
    p.add_argument("--quick", action="store_true",
                   help="64 MiB buffers and fewer repeats (about a minute)")
    p.add_argument("--json", dest="json_path", metavar="FILE",
                   help="write the JSON record of the run to FILE")
    p.add_argument("--plot", dest="plot_dir", metavar="DIR",
                   help="write PNG charts to DIR (needs matplotlib: pip install cuarray[plot])")
    p.add_argument("--from", dest="from_json", metavar="FILE",
                   help="print (and with --plot, chart) a saved JSON record instead of running")
    p.add_argument("--no-cupy", action="store_true", help="do not time CuPy even if installed")
    p.add_argument("--no-torch", action="store_true", help="do not time PyTorch even if installed")
    return p


def _plot(record, plot_dir, err):
    from cuarray._bench import plot
    try:
        paths = plot.write_charts(record, plot_dir)
    except ImportError as e:
        print(f"cannot write charts: {e}", file=err)
        return False
    for path in paths:
        print(f"chart: {path}")
    return True


def main(argv, *, prog, groups, default, description, default_json=None, err=None):
    """Run the command; `groups` are the selectable groups, `default` the names run when
    none is given, `default_json(gpu, now)` the record's path when --json is not given."""
    err = err or sys.stderr
    args = parser(prog, default, description).parse_args(argv)
    if args.from_json:
        record = report.read_record(args.from_json)
        report.print_record(record)
        ok = _plot(record, args.plot_dir, err) if args.plot_dir else True
        return 0 if ok else 1
    unknown = [n for n in args.names if n not in groups]
    if unknown:
        print(f"{prog}: unknown group(s) {', '.join(unknown)}; known: {', '.join(groups)}",
              file=err)
        return 2
    if args.plot_dir:
        try:
            import matplotlib  # noqa: F401  (fail before the run, not after it)
        except ImportError:
            print("--plot needs matplotlib: pip install 'cuarray[plot]'", file=err)
            return 2

    import datetime

    import numpy

    import cuarray
    from cuarray._info import driver_string, no_gpu_sentence
    from cuarray._runtime import device, driver
    from cuarray._version import __version__
    try:
        driver.init()
    except driver.CUDARuntimeError as e:
        print(no_gpu_sentence(e), file=err)
        return 1
    cupy, why = (None, "--no-cupy") if args.no_cupy else _comparator(
        "cupy", lambda m: m.cuda.runtime.getDeviceCount())
    if why:
        print(f"CuPy is not available ({why}); its column stays empty.", file=err)
    torch, why = (None, "--no-torch") if args.no_torch else _comparator("torch", _torch_probe)
    if why:
        print(f"PyTorch is not available ({why}); no PyTorch column.", file=err)

    benches = [b for name in (args.names or default) for b in groups[name].rows
               if args.match in b.name]
    ctx = harness.Context(quick=args.quick)
    libs = {"cuarray": cuarray, "CuPy": cupy, "PyTorch": torch}
    results = harness.run_rows(benches, libs, ctx, log=None, progress=Progress(err))
    meta = {"gpu": device.properties(device.get_device_id())["name"],
            "cuarray": __version__, "cupy": getattr(cupy, "__version__", None),
            "torch": getattr(torch, "__version__", None), "numpy": numpy.__version__,
            "driver": driver_string(driver.driver_version())}
    now = datetime.datetime.now()
    record = report.make_record(results, ctx, libs, meta, now)
    report.print_record(record)
    path = args.json_path or (default_json(meta["gpu"], now) if default_json else None)
    if path:
        print(f"\nJSON: {report.write_record(record, path)}")
    if args.plot_dir and not _plot(record, args.plot_dir, err):
        return 1
    return 1 if any(r.errors.get("cuarray") for r in results) else 0
