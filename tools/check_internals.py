"""Every file and internal name docs/INTERNALS.md mentions exists in the source.

    python tools/check_internals.py        # lists what the page names and the code lacks

Files: paths (`_core/ufunc.py`, `tests/conftest.py`, `include/cuarray/*.cuh`) and bare
file names. Names: `inline code` and the identifiers of the diagrams (dotted names,
`_private`, CamelCase, `call()`). A dotted name `mod.attr` / `Class.attr` must be defined
in that module or class; a plain one anywhere in src/, tests/*.py or the device headers.
Public names (`cuarray.x`, `numpy.x`) and C expressions are left to the other tests.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "cuarray"
_SKIP = {"numpy", "cuda", "cupy", "cupyx", "scipy", "dask", "nvmath", "cuarray", "tests", "tools",
         "include", "a", "mp", "fn", "self", "dtype", "op"}
_DIRS = r"\b(?:cuarray|tests|src|_core|_runtime|_libs|_routines)/(?:\w+/)*"


def _defines(name, text):
    n = re.escape(name)
    return re.search(rf"\b(?:def|class)\s+{n}\b|\b{n}\s*[:=]|['\"]{n}['\"]|import .*\b{n}\b|"
                     rf"\b{n}\b", text, re.M) is not None


def missing(doc=None):
    """[(kind, token)] for each file or name the page mentions that the code lacks."""
    doc = doc if doc is not None else (ROOT / "docs" / "INTERNALS.md").read_text()
    files = list(SRC.rglob("*.py")) + list((ROOT / "tests").glob("*.py")) + list(SRC.rglob("*.cuh"))
    text = {p: p.read_text() for p in files}
    every = "\n".join(text.values())
    names = {p.name for p in ROOT.rglob("*") if ".git" not in p.parts}
    out = []
    for tok in sorted(set(re.findall(rf"[\w./*-]+\.(?:py|cuh|md)\b|{_DIRS}", doc))):
        if "/" not in tok:
            if not any(pathlib.PurePath(n).match(tok) for n in names):
                out.append(("file", tok))
            continue
        places = [ROOT, SRC, ROOT / "src", SRC / "_core", SRC / "_runtime"]
        if not any(list(base.glob(tok)) if "*" in tok else (base / tok).exists()
                   for base in places):
            out.append(("file", tok))
    blocks = "\n".join(re.findall(r"```(.*?)```", doc, re.S))
    toks = set(re.findall(r"(?<![\w/.])((?:_?[A-Za-z]\w*\.)+_?[A-Za-z]\w*|_[A-Za-z]\w*|"
                          r"[A-Z][a-z]+[A-Z]\w*)(?![\w/])", blocks))
    toks |= set(re.findall(r"(\w+)\(\)", blocks))
    toks |= set(re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", doc, flags=re.S)))
    for tok in sorted(toks):
        if tok.endswith((".py", ".cuh", "/")) or re.search(r"[/ <]", tok):
            continue
        m = re.match(r"[A-Za-z_][\w.]*", tok)
        if not m:
            continue
        parts = m.group(0).rstrip(".").split(".")
        if parts[0] in _SKIP or len(m.group(0)) < 3:
            continue
        last = parts[-1]
        if not _defines(last, every):
            out.append(("name", tok))
        elif len(parts) >= 2:
            owner = parts[-2]
            homes = [t for p, t in text.items() if p.stem in (owner, "_" + owner, parts[0])]
            homes += [t for t in text.values() if re.search(rf"class\s+{re.escape(owner)}\b", t)]
            homes += [str(p) for p in SRC.rglob("*") if p.parent.name == owner]  # package.module
            if not any(_defines(last, t) for t in homes):
                out.append(("name", tok))
    return out


if __name__ == "__main__":
    gone = missing()
    for kind, tok in gone:
        print(f"{kind}: {tok}")
    sys.exit(1 if gone else 0)
