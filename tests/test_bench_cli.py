"""`python -m cuarray bench` and the shared harness, without a GPU: registry, records, tables, charts."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuarray._bench import harness, report, suite

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = "cuarray: no CUDA driver or GPU was found on this machine"


def _run(*args, **env):
    r = subprocess.run([sys.executable, "-m", "cuarray", "bench", *args],
                       env=dict(os.environ, **env), cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    return r.returncode, r.stdout, r.stderr


class _Lib:
    """A stand-in library: rows see only its name."""

    def __init__(self, name):
        self.__name__ = name


def _fake_run():
    """Results of a fake run: every suite row gets a figure from a seeded generator."""
    import numpy
    rng = numpy.random.default_rng(7)
    results = []
    for name in suite.GROUP_NAMES:
        for b in harness.GROUPS[name].rows:
            figures = {"cuarray": float(rng.uniform(1, 100)), "CuPy": float(rng.uniform(1, 100)),
                       "PyTorch": float(rng.uniform(1, 100)) if b.torch_fn else None}
            results.append(harness.Result(b, b.name.format(size="64 MiB"), figures, {}))
    return results


class _Ctx(harness.Context):
    def copy_gbps(self, xp):
        return 2000.0


def _record():
    libs = {"cuarray": _Lib("cuarray"), "CuPy": _Lib("cupy"), "PyTorch": _Lib("torch")}
    return report.make_record(_fake_run(), _Ctx(quick=True), libs,
                              {"gpu": "Test GPU", "cuarray": "0.0"})


def test_suite_groups_are_registered_and_have_torch_bodies():
    for name in suite.GROUP_NAMES:
        assert harness.GROUPS[name].rows, name
    with_torch = [b for n in suite.GROUP_NAMES for b in harness.GROUPS[n].rows if b.torch_fn]
    # every row but the RawKernel launch has a PyTorch body
    assert len(with_torch) == sum(len(harness.GROUPS[n].rows) for n in suite.GROUP_NAMES) - 1
    sizes = [b.size for b in harness.GROUPS["scaling"].rows]
    assert sizes == sorted(sizes) and sizes[0] == 1024


def test_torch_body_needs_a_row():
    g = harness.GROUPS["overhead"]
    with pytest.raises(ValueError, match="no row 'nope'"):
        g.torch("nope")(lambda torch, ctx: 0)


def test_run_rows_times_torch_only_where_a_body_exists():
    g = harness.Group("_test_torch_rows", "test")
    try:
        g.row("both", unit="µs")(lambda xp, ctx: 2.0)
        g.torch("both")(lambda torch, ctx: 4.0)
        g.row("cupy api only", unit="µs")(lambda xp, ctx: 3.0)
        libs = {"cuarray": _Lib("cuarray"), "CuPy": None, "PyTorch": _Lib("torch")}
        seen = []
        res = harness.run_rows(g.rows, libs, _Ctx(quick=True), log=None,
                               progress=lambda i, n, text: seen.append((i, n)))
    finally:
        del harness.GROUPS["_test_torch_rows"]
    assert res[0].figures == {"cuarray": 2.0, "CuPy": None, "PyTorch": 4.0}
    assert res[0].ratio_to("PyTorch") == 0.5 and res[0].ratio is None
    assert res[1].figures["PyTorch"] is None and res[1].ratio_to("PyTorch") is None
    assert seen == [(0, 2), (1, 2), (2, 2)]


def test_markdown_has_both_ratio_columns():
    rec = _record()
    table = report.markdown(rec)
    head = table.splitlines()[0]
    assert "| PyTorch |" in head and "cuarray/CuPy" in head and "cuarray/PyTorch" in head
    row = next(line for line in table.splitlines() if line.startswith("| a + b (1000"))
    r = next(r for r in rec["rows"] if r["name"].startswith("a + b (1000"))
    assert f"{r['cuarray'] / r['torch']:.2f}×" in row
    # rows with copy_pct show the % of the copy ceiling
    assert "GB/s (% of copy)" in table
    assert json.loads(json.dumps(rec)) == rec


def test_markdown_without_torch_keeps_the_old_columns():
    rec = _record()
    rec["libraries"] = ["cuarray", "CuPy"]
    head = report.markdown(rec).splitlines()[0]
    assert "PyTorch" not in head and "cuarray/CuPy" in head


def test_from_saved_record_prints_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    path = report.write_record(_record(), tmp_path / "run.json")
    rc, out, err = _run("--from", str(path), "--plot", str(tmp_path / "charts"))
    assert rc == 0, err
    assert "Test GPU" in out and "cuarray/PyTorch" in out
    for name in ("bandwidth.png", "per_call.png", "scaling.png"):
        png = tmp_path / "charts" / name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert f"chart: {png}" in out


def test_from_rejects_a_file_that_is_not_a_record(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a benchmark record"):
        report.read_record(bad)


def test_no_gpu_is_one_sentence():
    rc, out, err = _run("--quick", CUDA_VISIBLE_DEVICES="")
    if rc == 0:
        pytest.skip("a GPU answered despite CUDA_VISIBLE_DEVICES")
    assert rc == 1 and "Traceback" not in out + err
    assert err.strip().startswith(SENTENCE) and len(err.strip().splitlines()) == 1


def test_unknown_group_is_a_usage_error():
    rc, out, err = _run("nope")
    assert rc == 2 and "unknown group(s) nope" in err and "overhead" in err


def test_benchmarks_front_shares_the_registry():
    r = subprocess.run([sys.executable, "-c",
                        "import benchmarks.__main__ as m; from cuarray._bench import harness;"
                        "import benchmarks.harness as h; d, g = m._load_groups();"
                        "assert h.GROUPS is harness.GROUPS and h.device_time is harness.device_time;"
                        "assert 'foundation' in d and 'overhead' not in d and 'overhead' in g;"
                        "print('ok')"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                           [str(ROOT), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])))
    assert r.stdout.strip() == "ok", r.stderr


def test_benchmarks_torch_bodies_name_existing_rows():
    r = subprocess.run([sys.executable, "-c",
                        "import benchmarks.bench_torch as t; print(t.missing())"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                           [str(ROOT), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
