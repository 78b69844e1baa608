"""`python -m benchmarks [GROUP...] [-k TEXT] [--json PATH] [--quick] [--plot DIR]`: run benchmark groups.

Each `benchmarks/bench_*.py` registers a group of rows; every row is timed for cuarray and,
when they import and see a GPU, for CuPy and (rows with a PyTorch body) PyTorch, in the
same process. Prints a markdown table and writes JSON (default:
benchmarks/results/<date>-<gpu>.json). The groups that ship with the package (`python -m
cuarray bench`) can be named too. Exit status: 0, or 1 when there is no GPU or a row
failed for cuarray.
"""
import importlib
import pkgutil
import sys
from pathlib import Path

import benchmarks
from cuarray._bench import cli, harness, report, suite

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def _load_groups():
    """The bench_*.py groups (run by default), then the package's own (by name only)."""
    before = set(harness.GROUPS)
    for m in pkgutil.iter_modules(benchmarks.__path__):
        if m.name.startswith("bench_"):
            importlib.import_module(f"benchmarks.{m.name}")
    mine = [n for n in harness.GROUPS if n not in before and n not in suite.GROUP_NAMES]
    return mine, harness.GROUPS


def default_json_path(gpu, now):
    return RESULTS_DIR / f"{now:%Y-%m-%d-%H%M}-{report.slug(gpu)}.json"


def main(argv=None):
    default, groups = _load_groups()
    return cli.main(argv, prog="python -m benchmarks", groups=groups, default=default,
                    description=__doc__, default_json=default_json_path)


if __name__ == "__main__":
    sys.exit(main())
