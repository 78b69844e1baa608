"""The documentation: the site builds with warnings as errors, and each page's Python
examples (and the README's) run on a GPU and check themselves."""
import importlib.util
import linecache
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
_TOOLS = ("sphinx", "myst_parser", "numpydoc", "furo")


def test_sphinx_build_has_no_warnings(tmp_path):
    missing = [m for m in _TOOLS if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"the docs tools are not installed ({', '.join(missing)}): "
                    "pip install '.[docs]'")
    r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                        "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-8000:]
    html = tmp_path / "html"
    for page in ("index.html", "api/index.html", "api-coverage.html", "performance.html",
                 "differences-cupy.html", "developing.html"):
        assert (html / page).is_file(), page
    coverage = (html / "api-coverage.html").read_text()
    assert re.search(r"\d+ of \d+ names", coverage)


_FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _pages():
    pages = sorted(DOCS.glob("*.md")) + sorted(DOCS.glob("guide/*.md")) + [ROOT / "README.md"]
    return [p for p in pages if p.name[0].islower() or p.name == "README.md"
            if _FENCE.search(p.read_text())]


def test_pages_with_examples_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in _pages()}
    assert {"docs/quickstart.md", "docs/guide/kernels.md", "README.md"} <= names


@pytest.mark.gpu
@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_examples_run(page, capsys):
    """The page's ```python blocks run in order in one namespace, as a reader would."""
    ns = {"__name__": "__doc_example__"}
    for i, m in enumerate(_FENCE.finditer(page.read_text())):
        src = m.group(1)
        filename = f"<{page.name} block {i + 1}>"
        # cuarray.jit reads a kernel's Python source: make the block's text findable
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        exec(compile(src, filename, "exec"), ns)


def test_internals_names_exist():
    """docs/INTERNALS.md names only files and internal names the code has."""
    spec = importlib.util.spec_from_file_location("check_internals",
                                                  ROOT / "tools" / "check_internals.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.missing() == []
    assert mod.missing("`_core/no_such_file.py` `elementwise.no_such_name`") == [
        ("file", "_core/no_such_file.py"), ("name", "elementwise.no_such_name")]
