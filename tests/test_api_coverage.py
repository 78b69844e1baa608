"""tools/api_coverage.py: CuPy's names mapped to cuarray's, resolved against the code."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("api_coverage", ROOT / "tools" / "api_coverage.py")
api_coverage = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_coverage)


def test_names_file_is_cupy_14_2_reference():
    rows = api_coverage.load_names()
    names = [n for n, _ in rows]
    assert len(names) == len(set(names)) > 1200
    assert ("cupy.sin", "Mathematical functions") in rows
    assert all(n.startswith(("cupy.", "cupyx.")) and page for n, page in rows)


@pytest.mark.parametrize("cupy_name, want", [
    ("cupy.sin", "cuarray.sin"),
    ("cupy.cuda.Stream", "cuarray.cuda.Stream"),
    ("cupyx.scipy.special.erf", "cuarray.scipy.special.erf"),
    ("cupyx.jit.rawkernel", "cuarray.jit.rawkernel"),
    ("cupyx.scatter_add", "cuarray.scatter_add"),
])
def test_cuarray_name(cupy_name, want):
    assert api_coverage.cuarray_name(cupy_name) == want


def test_cuarray_name_refuses_other_packages():
    with pytest.raises(ValueError, match="not a cupy or cupyx name"):
        api_coverage.cuarray_name("numpy.sin")


def test_resolve():
    import cuarray
    assert api_coverage.resolve("cuarray.sin") is cuarray.sin
    assert api_coverage.resolve("cuarray.linalg.solve") is cuarray.linalg.solve
    assert api_coverage.resolve("cuarray.no_such_name") is None
    assert api_coverage.resolve("cuarray.no_such_module.x") is None


def test_coverage_page_counts_add_up():
    page = api_coverage.coverage_page()
    pages = api_coverage.survey()
    have = sum(p for _, rows in pages for *_, p in rows)
    total = sum(len(rows) for _, rows in pages)
    assert f"**{have} of {total} names" in page
    assert page.startswith("# API coverage")
    # every reference page has a row in the summary table
    for title, _ in pages:
        assert f"| {title.replace('|', chr(92) + '|')} |" in page
