"""CuPy's `cupy.cuda.memory_hooks`: `DebugPrintHook` and `LineProfileHook`."""
import os
import sys
import traceback

from cuarray._runtime.memory_hooks import MemoryHook


class DebugPrintHook(MemoryHook):
    """Print one JSON line per block taken from the driver ("alloc"), per pool
    allocation ("malloc") and per return to the pool ("free") (cuarray version of
    `cupy.cuda.memory_hooks.DebugPrintHook`)."""

    name = "DebugPrintHook"

    def __init__(self, file=sys.stdout, flush=True):
        self.file = file
        self.flush = flush

    def _print(self, line):
        self.file.write(line + "\n")
        if self.flush:
            self.file.flush()

    def alloc_postprocess(self, **kw):
        self._print(f'{{"hook":"alloc","device_id":{kw["device_id"]},'
                    f'"mem_size":{kw["mem_size"]},"mem_ptr":{kw["mem_ptr"]}}}')

    def malloc_postprocess(self, **kw):
        self._print(f'{{"hook":"malloc","device_id":{kw["device_id"]},"size":{kw["size"]},'
                    f'"mem_size":{kw["mem_size"]},"mem_ptr":{kw["mem_ptr"]},'
                    f'"pmem_id":"{hex(kw["pmem_id"])}"}}')

    def free_postprocess(self, **kw):
        self._print(f'{{"hook":"free","device_id":{kw["device_id"]},'
                    f'"mem_size":{kw["mem_size"]},"mem_ptr":{kw["mem_ptr"]},'
                    f'"pmem_id":"{hex(kw["pmem_id"])}"}}')


class _Frame:
    __slots__ = ("label", "used", "acquired", "children", "depth")

    def __init__(self, label, depth):
        self.label, self.depth = label, depth
        self.used = self.acquired = 0
        self.children = {}

    def child(self, label):
        c = self.children.get(label)
        if c is None:
            c = self.children[label] = _Frame(label, self.depth + 1)
        return c


def _human(nbytes):
    size = float(nbytes)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{size:.2f}{unit}"
        size /= 1024


_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class LineProfileHook(MemoryHook):
    """Sum the bytes allocated from the pool ("used") and taken from the driver
    ("acquired") per line of the calling Python code, as a call tree (cuarray version
    of `cupy.cuda.memory_hooks.LineProfileHook`). `max_depth` > 0 keeps that many frames
    nearest the allocation; `print_report()` prints the tree."""

    name = "LineProfileHook"

    def __init__(self, max_depth=0):
        if max_depth < 0:
            raise ValueError(f"max_depth must be >= 0, got {max_depth}")
        self._max_depth = max_depth
        self._root = _Frame("_root", 0)

    def _add(self, field, nbytes):
        # frames of the user's code, outermost first, without cuarray's own
        stack = [f for f in traceback.extract_stack()[:-3]
                 if not os.path.abspath(f.filename).startswith(_HERE)]
        if self._max_depth > 0:
            stack = stack[-self._max_depth:]
        node = self._root
        setattr(node, field, getattr(node, field) + nbytes)
        for f in stack:
            node = node.child(f"{f.filename}:{f.lineno}:{f.name}")
            setattr(node, field, getattr(node, field) + nbytes)

    def malloc_preprocess(self, **kw):
        self._add("used", kw["mem_size"])

    def alloc_preprocess(self, **kw):
        self._add("acquired", kw["mem_size"])

    def print_report(self, file=sys.stdout):
        """Print the tree: `label (used, acquired)` per frame, children indented."""
        def visit(node):
            file.write(f"{'  ' * node.depth}{node.label} "
                       f"({_human(node.used)}, {_human(node.acquired)})\n")
            for c in node.children.values():
                visit(c)
        visit(self._root)
