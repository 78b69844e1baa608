"""Sphinx extension: writes the API reference lists and the coverage page from the code.

At `builder-inited` (before Sphinx reads the sources) it writes `api/pages/*.md`, one
autosummary table per CuPy reference page, listing the names cuarray has, and
`api-coverage.md` from `tools/api_coverage.py`. Both are build outputs (git-ignored).
"""
import inspect
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(DOCS.parent / "tools"))

import api_coverage  # noqa: E402


def _slug(title):
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _write(path, text):
    """Write only when the text changed, so incremental builds stay incremental."""
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _directive(name):
    """The autodoc directive for one name: classes, functions, anything else as data."""
    obj = api_coverage.resolve(name)
    if inspect.isclass(obj):
        return f".. autoclass:: {name}\n"
    if inspect.isroutine(obj):
        return f".. autofunction:: {name}\n"
    if inspect.ismodule(obj):
        return f".. automodule:: {name}\n   :no-index:\n"
    return f".. autodata:: {name}\n   :no-value:\n"


def _reference_page(title, names):
    # One page per CuPy reference page, docstrings inline: a page per name (about a
    # thousand) made the build take ten minutes on two cores.
    table = "\n".join(f"   {n}" for n in names)
    docs = "\n".join(_directive(n) for n in names)
    return (f"# {title}\n\n"
            f"The names of CuPy's reference page *{title}* that cuarray has, with their "
            "docstrings; the behaviour is CuPy's unless the docstring says otherwise.\n\n"
            "```{eval-rst}\n.. autosummary::\n   :nosignatures:\n\n"
            f"{table}\n\n{docs}```\n")


def generate(app):
    pages = api_coverage.reference_pages()
    out = DOCS / "api" / "pages"
    keep = set()
    for title, names in pages:
        path = out / f"{_slug(title)}.md"
        keep.add(path.name)
        _write(path, _reference_page(title, names))
    for stale in out.glob("*.md"):
        if stale.name not in keep:
            stale.unlink()
    _write(DOCS / "api-coverage.md", api_coverage.coverage_page())


_CODE = re.compile(r"(``.*?``|`[^`]*`)")


def _escape_bars(text):
    """Escape `|` outside code spans: `|a_i - a_j|` means an absolute value, not an RST
    substitution (the docstrings define none)."""
    parts = _CODE.split(text)
    return "".join(p if i % 2 else p.replace("|", "\\|") for i, p in enumerate(parts))


def escape_docstring_bars(app, what, name, obj, options, lines):
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        # leave RST tables and line blocks (lines that start with | or +) alone
        if "|" in line and not stripped.startswith(("|", "+")):
            lines[i] = _escape_bars(line)


def setup(app):
    app.connect("autodoc-process-docstring", escape_docstring_bars)
    # before autosummary (priority 500) generates the stub pages of the lists written here
    app.connect("builder-inited", generate, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
