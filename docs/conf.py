"""Sphinx configuration of cuarray's documentation (MyST Markdown, autosummary, numpydoc).

Build: `sphinx-build -W -b html docs docs/_build/html` from the repository root, with the
`docs` extra installed. The API reference lists and the coverage page are generated from
the code at build time (docs/_ext/cuarray_api.py).
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

import cuarray  # noqa: E402

project = "cuarray"
author = "the cuarray developers"
copyright = "the cuarray developers"
release = cuarray.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "cuarray_api",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# Upper-case Markdown files in docs/ (INTERNALS.md, NOTES.md, ...) are the developers'
# notes, read in the repository, not pages of the site.
exclude_patterns = ["_build", "[A-Z]*.md", "api/generated/*.rst.tmp"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autosummary_generate = False  # the API pages document each name inline
autodoc_default_options = {"members": False}
autodoc_typehints = "none"
# `name` in a docstring links to that Python object when the site has it, else stays code
default_role = "py:obj"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

html_theme = "furo"
html_title = f"cuarray {release}"
html_static_path = ["_static"]
html_theme_options = {"source_repository": "", "navigation_with_keys": True}
