"""The tutorials in shared/seeds/ are acceptance tests: every code example runs unchanged
after `import cuarray as cp` (imports of cupy/cupyx rewritten to cuarray exactly as a user
would), and prints what the tutorial shows.

Code comes from fenced blocks and from notebook cells (`In [N]:` followed by the code,
then the output the notebook showed). Output shown after code is compared with what the
code prints: its layout exactly (whitespace aside) and its numbers to 1e-5, or its layout
only where the values are random, timings or memory sizes. `>>>` sessions are replayed
like the interpreter would, an expression's repr included; a shown traceback means the
statement must raise that exception type.

Each tutorial runs in a subprocess (they change global state: allocators, memory limits,
the current stream), block after block in one namespace that starts with the imports the
tutorials assume: numpy as np/numpy and cuarray as cp/cupy. Run one tutorial by hand with
`python tests/test_seeds.py shared/seeds/002_*.txt`.
"""
import ast
import contextlib
import functools
import importlib.util
import io
import json
import linecache
import math
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

# CUARRAY_SEEDS names another copy of the tutorials (a tree copied to a GPU host alone).
SEEDS = Path(os.environ.get("CUARRAY_SEEDS")
             or Path(__file__).resolve().parents[2] / "shared" / "seeds")

# Blocks that are not runnable code, matched by how the block starts. Keep this short.
NOT_CODE = {
    ("000", "e1 = cp.cuda.Event() # create an event"):
        "illustrative fragment: a_cp and b_cp are defined nowhere in this tutorial",
    ("000", "s = cp.cuda.Stream()\nwith s:\n   a_cp = cp.asarray(a_np)"):
        "illustrative fragment: a_np is defined nowhere in this tutorial",
    ("002", "mempool.free_all_blocks()"):
        "illustrative one-liner shown before the cell that defines mempool",
    ("003", ">>> import cupy as cp\n>>> with cp.cuda.Device(1):"):
        "not valid Python (`print(\"x_gpu1 is on device:\" x_gpu1.device)` lacks a comma), "
        "and it needs a second GPU",
}

# Shown outputs that are not what CuPy prints today, by (tutorial, source snippet, output
# snippet): "none" skips the comparison, "layout" compares everything but the numbers.
SHOWN_OUTPUT = {
    ("002", "print(mempool.used_bytes())", None):
        ("none", "copied from a longer notebook session: 16 values shown for 13 prints"),
    ("003", "squared_diff(x, y)", "array([81, 49"):
        ("none", "hand-written: float32 inputs give float32 values (81., 49., ...) in CuPy"),
    ("003", "print(a_cp.max(), a_cp.min())", "(nan-3.9j)"):
        ("none", "CuPy without CUB; the >>> session below shows CuPy's result with CUB, "
                 "which is NumPy's"),
    ("003", "np.array([1., 2.], dtype=np.float32)).dtype", "dtype('float32')"):
        ("none", "NumPy 1's value-based casting; NumPy 2 (NEP 50) gives float64, as the "
                 ">>> session below shows"),
    ("003", None, "array([ 9150.,  9151.])"):
        ("none", "the stored value is undefined for duplicate indices"),
    ("003", None, "array([4592., 4593.])"):
        ("none", "the stored value is undefined for duplicate indices"),
    ("003", "print((a + a).flags.f_contiguous)", "False"):
        ("none", "CuPy's layout for F-ordered operands; cuarray keeps NumPy's (order='K'), "
                 "which the tutorial shows NumPy printing above it"),
    ("003", "getDeviceCount()", None):
        ("layout", "the number of GPUs of the machine the tutorial was run on"),
}
_VOLATILE = re.compile(r"random|Event|perf_counter|\btime\b|timeit|benchmark|mempool|"
                       r"memory_pool|\bempty\b")


# ---- extraction -------------------------------------------------------------------------------
class Block:
    """One code example: `kind` 'fenced' or 'cell', first line number, its text."""

    def __init__(self, seed, index, kind, line, text, has_output=True):
        self.seed, self.index, self.kind, self.line, self.text = seed, index, kind, line, text
        self.has_output = has_output
        self.skip = None
        tag = seed.name[:3]
        for (t, start), why in NOT_CODE.items():
            if t == tag and text.strip().startswith(start):
                self.skip = why
        if self.skip is None and re.search(r"^\s*\$ ", text, re.M):
            self.skip = "shell commands, not Python"

    @property
    def id(self):
        return f"{self.seed.name[:3]}-{self.index:02d}-L{self.line}"


def _statement_end(lines, i, limit=80):
    """End (exclusive) of the Python statement starting at line i, or None."""
    for j in range(i + 1, min(len(lines), i + limit) + 1):
        try:
            ast.parse("\n".join(lines[i:j]))
        except SyntaxError:
            continue
        k = j
        while k < len(lines) and not lines[k].strip():
            k += 1
        if k < len(lines) and lines[k][:1] in (" ", "\t"):
            continue  # the statement's body goes on after a blank line
        return j
    return None


def _is_output(stmts):
    """Statements that parse but are really shown output (`400`, `array(...)`, `Reduction: 285.0`)."""
    for s in stmts:
        if isinstance(s, ast.AnnAssign) and s.value is None and isinstance(s.annotation, ast.Constant):
            return True
        if not isinstance(s, ast.Expr):
            return False
        v = s.value
        if isinstance(v, ast.UnaryOp):
            v = v.operand
        if isinstance(v, ast.Constant):
            continue
        if isinstance(v, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) for e in v.elts):
            continue
        if isinstance(v, ast.Call) and (
                isinstance(v.func, ast.Name) and v.func.id in ("array", "dtype")
                or isinstance(v.func, (ast.BinOp, ast.Constant, ast.Tuple))):   # (0.7+nanj) (..)
            continue
        return False
    return bool(stmts)


def _prose(lines, i):
    """Does line i start the tutorial's prose again (a heading or a list after a cell)?"""
    line = lines[i]
    if re.match(r"In \[(\d+| |None)?\]:", line) or line.startswith(("**", "* ", "- ", "<img")):
        return True
    if line.startswith("#"):
        k = i + 1
        while k < len(lines) and (not lines[k].strip() or lines[k].startswith("#")):
            k += 1
        return k < len(lines) and _statement_end(lines, k) is None
    return False


def _prints(code):
    """Does a notebook cell show output: a print, a final expression, or a timing magic?"""
    tree = ast.parse(code)
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not (
            isinstance(tree.body[-1].value, ast.Call) and
            isinstance(tree.body[-1].value.func, ast.Attribute)
            and tree.body[-1].value.func.attr in ("synchronize", "record")):
        return True
    return "_ipython_timeit(" in code or any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"
        for n in ast.walk(tree))


def _magics(lines):
    """IPython magics as Python, line for line: `%timeit stmt` runs stmt once, `%%time` goes."""
    out = []
    for line in lines:
        m = re.match(r"%%?time(it)?\b((?:\s+-[a-z](?:\s+\d+)?)*)\s*(.*)$", line)
        if m:
            stmt = m.group(3)
            out.append((f"_ipython_timeit({stmt!r})" if m.group(1) else stmt) if stmt else "")
            continue
        out.append(line)
    return out


def extract(seed):
    """The Blocks of one tutorial file, in order."""
    lines = seed.read_text().splitlines()
    blocks, i, n = [], 0, len(lines)
    while i < n:
        line = lines[i]
        if line.strip().startswith("```"):
            j = i + 1
            while j < n and not lines[j].strip().startswith("```"):
                j += 1
            body = lines[i + 1:j]
            indent = min((len(x) - len(x.lstrip()) for x in body if x.strip()), default=0)
            text = "\n".join(x[indent:] for x in body)
            if text.strip():
                blocks.append(Block(seed, len(blocks), "fenced", i + 2, text))
            i = j + 1
            continue
        m = re.match(r"In \[(\d+|None| )?\]:\s*$", line)
        if m:
            j = i + 1
            while j < n and not re.match(r"In \[", lines[j]) and not lines[j].strip().startswith("```"):
                j += 1
            cell = lines[i + 1:j]
            code = _magics(cell)
            ran = m.group(1) not in ("None", None)  # `In [None]:` cells show no output
            k = 0
            while k < len(cell) and not cell[k].strip():
                k += 1
            # The code; then, if the cell ran and prints, its output up to where prose resumes.
            c = k
            while c < len(cell):
                if not cell[c].strip():
                    c += 1
                    continue
                if c > k and not cell[c - 1].strip() and _prose(cell, c):
                    break
                stop = _statement_end(code, c)
                if stop is None or _is_output(ast.parse("\n".join(code[c:stop])).body):
                    break
                c = stop
            end = c
            ran = ran and _prints("\n".join(code[k:c]))
            while ran and end < len(cell) and not (
                    cell[end].strip() and not cell[end - 1].strip() and _prose(cell, end)):
                end += 1
            text = "\n".join(cell[k:end]).rstrip()
            if text:
                blocks.append(Block(seed, len(blocks), "cell", i + 2 + k, text, has_output=ran))
            i = j
            continue
        i += 1
    return blocks


# ---- rewriting and running ---------------------------------------------------------------------
def rewrite_imports(code):
    """cupy and cupyx imports spelled as a user of cuarray spells them."""
    def one_import(m):
        items = []
        for item in m.group(2).split(","):
            name, _, alias = item.strip().partition(" as ")
            name, alias = name.strip(), alias.strip()
            if name in ("cupy", "cupyx"):
                items.append(f"cuarray as {alias or name}")
            elif name.startswith(("cupy.", "cupyx.")):
                new = "cuarray" + name[name.index("."):]
                items.append(f"{new} as {alias}" if alias else f"{new} as {name.split('.')[-1]}")
            else:
                items.append(item.strip())
        return m.group(1) + "import " + ", ".join(items)

    code = re.sub(r"^(\s*(?:>>> )?)import\s+(.+)$", one_import, code, flags=re.M)
    return re.sub(r"^(\s*(?:>>> )?from\s+)cupyx?(?=[\s.])", r"\1cuarray", code, flags=re.M)


def _segments(text):
    """[(code, shown output or None)] of a block; `>>>` examples are ('>>>', src, want)."""
    lines = _magics(text.splitlines())
    segs, code, out, i = [], [], [], 0
    first_prompt = next((k for k, x in enumerate(lines) if x.startswith(">>>")), len(lines))

    def flush():
        if code or out:
            segs.append(("\n".join(code), "\n".join(out).strip("\n") or None))
        code.clear()
        out.clear()

    while i < first_prompt:
        line = lines[i]
        if not line.strip():
            (out if out else code).append(line)
            i += 1
            continue
        stop = _statement_end(lines[:first_prompt], i)
        if stop is None or _is_output(ast.parse("\n".join(lines[i:stop])).body):
            out.append(line)
            i += 1
            continue
        if out:
            flush()
        code += lines[i:stop]
        i = stop
    flush()
    while i < len(lines):
        line = lines[i]
        if not line.startswith(">>>"):
            i += 1
            continue
        src = [line[4:] if len(line) > 3 else ""]
        i += 1
        while i < len(lines) and lines[i].startswith("..."):
            src.append(lines[i][4:])
            i += 1
        want = []
        while i < len(lines) and lines[i].strip() and not lines[i].startswith(">>>"):
            want.append(lines[i])
            i += 1
        # A session pasted without its `...` prompts: the "output" is the statement's rest.
        while want and not _complete("\n".join(src)):
            src.append(want.pop(0))
        segs.append((">>>", "\n".join(src), "\n".join(want) or None))
    return segs


def _complete(src):
    try:
        compile(src + "\n", "<check>", "single")
    except SyntaxError:
        return False
    return True


_NUM = re.compile(r"(?<![A-Za-z_\d.])[-+]?(?:nan|inf|\d+\.?\d*(?:e[-+]?\d+)?|\.\d+)"
                  r"(?![A-Za-ik-z_\d])")


def _normal(text):
    text = re.sub(r"\bcupyx?\b", "cuarray", text)
    # benchmark()'s "+/-%7.3f": a wide deviation would glue the sign to its number
    text = text.replace("+/-", "+/- ")
    lines = [x.rstrip() for x in text.splitlines() if "_util.experimental(" not in x]
    return "\n".join(lines).strip("\n")


def compare(got, want, mode):
    """None if `got` shows what `want` shows, else a message."""
    got, want = _normal(got), _normal(want)
    g_layout = re.sub(r"\s+", "", _NUM.sub("#", got))
    w_layout = re.sub(r"\s+", "", _NUM.sub("#", want))
    if g_layout != w_layout:
        return f"printed:\n{got}\n--- the tutorial shows:\n{want}"
    if mode == "values":
        for a, b in zip(_NUM.findall(got), _NUM.findall(want)):
            x, y = float(a), float(b)
            if not (x == y or (math.isnan(x) and math.isnan(y)) or
                    abs(x - y) <= 1e-8 + 1e-5 * abs(y)):
                return f"printed {a} where the tutorial shows {b}:\n{got}\n--- shown:\n{want}"
    return None


def _mode(block, src, want):
    tag = block.seed.name[:3]
    for (t, s_snip, w_snip), (mode, _) in SHOWN_OUTPUT.items():
        if t == tag and (s_snip is None or s_snip in src) and (w_snip is None or w_snip in want):
            return mode
    return "layout" if _VOLATILE.search(block.text) else "values"


def _ipython_timeit(stmt):
    """IPython's %timeit, run once: assignments stay in its own namespace, as in IPython."""
    frame = sys._getframe(1)
    exec(stmt, dict(frame.f_globals))


def _run_code(code, ns, filename, display):
    """Run `code`; print the value of a final expression when `display` (a notebook cell)."""
    tree = ast.parse(code)
    last = None
    if display and tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, filename, "exec"), ns)
    if last is not None:
        v = eval(compile(last, filename, "eval"), ns)
        if v is not None:
            print(repr(v))


def _expected_error(want):
    if want and want.startswith("Traceback (most recent call last):"):
        return want.strip().splitlines()[-1].split(":")[0].split(".")[-1]
    return None


def _numba_probe(a):
    a[0] = 1


@functools.cache
def _numba_cuda_unusable():
    """Why numba.cuda cannot run here (None when it can). Installed is not enough: a Numba
    release refuses to import beside a NumPy newer than it supports."""
    if importlib.util.find_spec("numba") is None:
        return "numba is not installed"
    try:
        from numba import cuda
        if not cuda.is_available():
            return "numba.cuda finds no usable GPU or CUDA libraries"
        # Compiling imports the rest of numba.cuda, where such a mismatch shows.
        cuda.jit("void(float32[:])")(_numba_probe)
    except Exception as e:
        return f"{type(e).__name__}: {e}".splitlines()[0]
    return None


def run_block(block, ns, device_count):
    """('pass' | 'fail' | 'skip', detail)."""
    if block.skip:
        return "skip", block.skip
    code = rewrite_imports(block.text)
    if re.search(r"^\s*(?:>>> )?(?:import|from)\s+numba\b", code, re.M):
        why = _numba_cuda_unusable()
        if why:
            return "skip", f"needs numba.cuda, which cannot run here: {why}"
    if re.search(r"Device\(\s*(?!0\s*\))[\w]", code) and device_count < 2:
        return "skip", f"needs a second GPU; this machine has {device_count}"
    # IPython magics print timings that are not emulated here: such blocks only run.
    compare_output = block.has_output and not re.search(r"^%", block.text, re.M)
    filename = f"<seed {block.id}>"
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    for seg in _segments(code):
        if seg[0] == ">>>":
            src, want = seg[1], seg[2]
            if not src.strip() or src.lstrip().startswith("#") and "\n" not in src.strip():
                continue    # the interpreter accepts a lone comment; compile() does not
            compiled = lambda: exec(compile(src + "\n", filename, "single"), ns)  # noqa: E731
        else:
            src, want = seg
            display = want is not None
            compiled = functools.partial(_run_code, src, ns, filename, display)
        err = _expected_error(want)
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                compiled()
        except Exception as e:
            if err and type(e).__name__ == err:
                continue
            return "fail", (f"{src.strip()}\nraised:\n" +
                            "".join(traceback.format_exception(e)[-6:]))
        if err:
            return "fail", f"{src.strip()}\nshould raise {err}, as the tutorial shows"
        if want is None or not compare_output:
            continue
        mode = _mode(block, src, want)
        if mode == "none":
            continue
        msg = compare(buf.getvalue(), want, mode)
        if msg:
            return "fail", f"{src.strip()}\n{msg}"
    return "pass", ""


def run_file(path, report=None):
    """Run every block of one tutorial in order; a list of (status, detail). `report(i, r)`
    is called after each block, so a caller learns what ran even if the process dies."""
    import numpy
    import cuarray
    try:
        count = cuarray.cuda.runtime.getDeviceCount()
    except Exception:
        count = 0
    ns = {"__name__": "__main__", "np": numpy, "numpy": numpy, "cp": cuarray, "cupy": cuarray,
          "_ipython_timeit": _ipython_timeit}
    results = []
    for i, block in enumerate(extract(Path(path))):
        try:
            results.append(run_block(block, ns, count))
        except BaseException as e:  # a block must not stop the ones after it
            results.append(("fail", "".join(traceback.format_exception(e)[-6:])))
        if report:
            report(i, results[-1])
    return results


# ---- pytest ------------------------------------------------------------------------------------
def _all_blocks():
    if not SEEDS.is_dir():
        return []
    return [b for seed in sorted(SEEDS.glob("*.txt")) for b in extract(seed)]


BLOCKS = _all_blocks()


@functools.lru_cache(maxsize=None)
def _results(seed):
    """Each block's (status, detail), from one subprocess per tutorial. The subprocess
    prints one line per block as it finishes, so a process that dies (a signal, the
    driver) still leaves the results before it, and the block it died in is named."""
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, __file__, str(seed)], capture_output=True, text=True,
                          timeout=900, env=env)
    got = {}
    for line in proc.stdout.splitlines():
        if line.startswith("SEED-RESULT "):
            i, status, detail = json.loads(line[len("SEED-RESULT "):])
            got[i] = (status, detail)
    blocks = extract(seed)
    if len(got) < len(blocks):
        died = (f"the tutorial's process ended with status {proc.returncode} after "
                f"{len(got)} of {len(blocks)} blocks:\n{proc.stdout[-2000:]}\n"
                f"{proc.stderr[-3000:]}")
        for i in range(len(blocks)):
            got.setdefault(i, ("fail", died))
    return [got[i] for i in range(len(blocks))]


@pytest.mark.gpu
@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_seed_block(block):
    if block.skip:
        pytest.skip(block.skip)
    status, detail = _results(block.seed)[block.index]
    if status == "skip":
        pytest.skip(detail)
    assert status == "pass", f"{block.seed.name} line {block.line}:\n{detail}"


def test_extraction_finds_the_tutorials_code():
    if not BLOCKS:
        pytest.skip(f"no tutorials at {SEEDS}")
    texts = [b.text for b in BLOCKS]
    joined = "\n".join(texts)
    # Every use of jit, fuse and profiler in the tutorials is a test.
    for snippet in ("from cupyx import jit", "@jit.rawkernel()", "elementwise_copy[128, 1024]",
                    "saxpy_jit[(blocks,), (threads,)]", "@cp.fuse(kernel_name='squared_diff')",
                    "@cp.fuse()(kernel_name='sum_of_products')",
                    "from cupyx.profiler import benchmark"):
        assert snippet in joined, snippet
    assert all("In [" not in t.splitlines()[0] for t in texts)
    cell = next(b for b in BLOCKS if "print(benchmark(a.sum, (), n_repeat=100))" in b.text)
    segs = _segments(cell.text)
    assert segs[-1][1].startswith("sum                 :    CPU:")
    skipped = [b for b in BLOCKS if b.skip]
    assert len(skipped) <= len(NOT_CODE) + 3


def test_segments_and_rewriting():
    code = ("import cupy as cp\nimport cupy\nfrom cupyx import jit\nfrom cupyx.profiler import "
            "benchmark\nimport cupy as cp, time\n>>> import cupy as cp")
    assert rewrite_imports(code).splitlines() == [
        "import cuarray as cp", "import cuarray as cupy", "from cuarray import jit",
        "from cuarray.profiler import benchmark", "import cuarray as cp, time",
        ">>> import cuarray as cp"]
    segs = _segments("x = f()\nx\narray([1, 2])\nprint(1)\nReduction: 285.0\n>>> y = 2\n>>> y\n2")
    assert segs == [("x = f()\nx", "array([1, 2])"), ("print(1)", "Reduction: 285.0"),
                    (">>>", "y = 2", None), (">>>", "y", "2")]
    assert compare("array([1., 2.], dtype=float32)", "array([ 1.,  2.], dtype=float32)",
                   "values") is None
    assert compare("[0.5 0.25]", "[0.5 0.2]", "values") is not None
    assert compare("[0.5 0.25]", "[0.1 0.2]", "layout") is None
    assert compare("<class 'cuarray.ndarray'>", "<class 'cupy.ndarray'>", "values") is None


if __name__ == "__main__":
    _blocks = extract(Path(sys.argv[1]))

    def _report(i, r):
        detail = r[1].splitlines()[0] if r[1] else ""
        print(f"{_blocks[i].id}: {r[0]} {detail}", file=sys.stderr, flush=True)
        print("SEED-RESULT " + json.dumps([i, r[0], r[1]]), flush=True)
    run_file(sys.argv[1], _report)
