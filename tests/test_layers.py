"""Imports point down the layers: `_runtime` < `_core` < `_routines` < `linalg`/`fft`/
`random`/`jit` < `scipy`. A module may import its own layer and the ones below, never one
above, at module level or inside a function; and no modules import each other in a cycle
at module level (a cycle is closed by an import placed after the code it needs).

`cuda` is CuPy's `cupy.cuda` namespace: the public face of `_runtime` and of the library
handles (`cuda.cufft`, `cuda.cublas`, ...), so it sits at the top with the namespace and
nothing below imports it; `_info` (versions and devices) sits with `_runtime`. `_libs` (handles for cuBLAS,
cuSOLVER, cuFFT, ..., and CUB) sits beside `_core`, whose sorts and products call it.
The public namespace `cuarray` re-exports `_core` and `_routines`, so the layers above
`_routines` may use it (`import cuarray`, `from cuarray import asarray`); below, it would
be an import from the top. Packages outside the ranks (`testing`, `profiler`, the CLI)
are at the top and may import anything.
"""
import ast
import pathlib

import pytest

_SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "cuarray"

RANK = {
    "_version": 0, "_runtime": 0, "_info": 0,
    "_core": 1, "_libs": 1,
    "_routines": 2,
    "linalg": 3, "fft": 3, "random": 3, "jit": 3,
    "scipy": 4,
}
_TOP = 99   # the public namespace and the unranked packages
_NAMESPACE_FROM = RANK["linalg"]   # the lowest layer that may use the public namespace

# Upward imports not yet removed, each with its reason. Keep this list shrinking.
KNOWN = {
    # fuse traces user functions written against the public namespace (`cuarray.sum`
    # inside a fused function); it belongs above _routines with jit.
    ("_core/_fusion_scope.py", "cuarray"),
    ("_core/_fusion_trace.py", "cuarray"),
    # ndarray.flat's assignment builds positions with arange/flatnonzero/unravel_index,
    # which live in _routines; they are to move under _core with the other method routines.
    ("_core/flatiter.py", "cuarray._routines.creation"),
    ("_core/flatiter.py", "cuarray._routines.indexing"),
}


def _layer(module):
    """The layer of a dotted cuarray module name (None: not cuarray's)."""
    parts = module.split(".")
    if parts[0] != "cuarray":
        return None
    return parts[1] if len(parts) > 1 else ""


def _imports(path, package):
    """(line, imported module) for every import in the file, function-level and deferred
    (`lazy_module`) ones included; `from cuarray import name` counts as the subpackage
    `name` if there is one, else as the namespace."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            if base == "cuarray":
                for alias in node.names:
                    sub = _SRC / alias.name
                    is_pkg = sub.is_dir() or sub.with_suffix(".py").exists()
                    yield node.lineno, f"cuarray.{alias.name}" if is_pkg else "cuarray"
            else:
                yield node.lineno, base
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_module"
              and len(node.args) == 3 and isinstance(node.args[2], ast.Constant)):
            # lazy_module(globals(), name, "cuarray.x"): an import deferred to first use
            yield node.lineno, node.args[2].value


def _rank(layer):
    return _TOP if layer == "" else RANK.get(layer, _TOP)


def upward_imports():
    found = []
    for path in sorted(_SRC.rglob("*.py")):
        rel = path.relative_to(_SRC)
        me = rel.parts[0].removesuffix(".py") if len(rel.parts) > 1 or rel.stem != "__init__" else ""
        if me not in RANK:
            continue
        dotted = "cuarray." + ".".join(rel.with_suffix("").parts)
        package = dotted.removesuffix(".__init__") if rel.stem == "__init__" else \
            dotted.rsplit(".", 1)[0]
        for line, target in _imports(path, package):
            layer = _layer(target)
            if layer is None:
                continue
            if layer == "" and RANK[me] >= _NAMESPACE_FROM:
                continue
            if _rank(layer) > RANK[me] and (rel.as_posix(), target) not in KNOWN:
                found.append(f"{rel.as_posix()}:{line}: {me} imports {target}")
    return found


def test_imports_point_down():
    assert upward_imports() == []


def _module_level_graph():
    """module -> the cuarray modules it imports at module level (package __init__ files
    that only re-export are left out as importers: importing a submodule runs them)."""
    names = {}
    for path in _SRC.rglob("*.py"):
        rel = path.relative_to(_SRC.parent).with_suffix("")
        names[".".join(rel.parts).removesuffix(".__init__")] = path
    graph = {}
    for name, path in names.items():
        if path.name == "__init__.py":
            continue
        package = name.rsplit(".", 1)[0]
        deps = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name in names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                for a in node.names:
                    full = f"{base}.{a.name}"
                    deps.add(full if full in names else base)
        graph[name] = {d for d in deps if d in names and d != name and
                       names[d].name != "__init__.py"}
    return graph


def test_no_import_cycles():
    graph = _module_level_graph()
    state = {}

    def visit(m, stack):
        state[m] = "open"
        for d in sorted(graph.get(m, ())):
            if state.get(d) == "open":
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(d):] + [d]))
            if d not in state:
                visit(d, stack + [d])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


def test_known_exceptions_still_exist():
    """An entry of KNOWN whose import is gone must leave the list."""
    for rel, target in KNOWN:
        targets = {t for _, t in _imports(_SRC / rel, "cuarray." + rel.split("/")[0])}
        assert target in targets, f"{rel} no longer imports {target}: remove it from KNOWN"


@pytest.mark.parametrize("source, expected", [
    ("import cuarray.scipy", ["x/_core/m.py:1: _core imports cuarray.scipy"]),
    ("def f():\n    from cuarray._routines import math", ["x/_core/m.py:2: _core imports cuarray._routines"]),
    ("from cuarray._runtime import memory", []),
    ("from cuarray import asarray", ["x/_core/m.py:1: _core imports cuarray"]),
    ("s = lazy_module(globals(), 's', 'cuarray.fft._fft')",
     ["x/_core/m.py:1: _core imports cuarray.fft._fft"]),
])
def test_the_check_sees_upward_imports(tmp_path, source, expected):
    """The scan itself: function-level imports and the namespace count, downward ones pass."""
    root = tmp_path / "x"
    (root / "_core").mkdir(parents=True)
    (root / "_core" / "m.py").write_text(source + "\n")
    global _SRC
    saved, _SRC = _SRC, root
    try:
        got = [f"x/{line}" for line in upward_imports()]
    finally:
        _SRC = saved
    assert got == expected
