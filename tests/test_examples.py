"""The scripts in examples/: each runs, checks itself against NumPy, prints timings and,
with matplotlib installed, writes its PNG."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.py") if not p.name.startswith("_"))


def test_every_example_is_listed_in_the_docs():
    page = (ROOT / "docs" / "examples.md").read_text()
    assert len(EXAMPLES) == 7
    for p in EXAMPLES:
        assert f"`{p.name}`" in page, p.name


@pytest.mark.gpu
@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script, tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, str(script), "--out", str(tmp_path), "--repeat", "5"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "matches NumPy" in r.stdout and "DIFFERS" not in r.stdout
    if importlib.util.find_spec("matplotlib") is not None:
        png = tmp_path / (script.stem + ".png")
        assert png.read_bytes()[:4] == b"\x89PNG", r.stdout
