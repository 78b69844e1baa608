"""Tutorial 004's "SciPy-Compatible" cell, unchanged but for `cupyx` spelled `cuarray`, runs
and prints what the tutorial's CuPy prints (the FFT round trip, the solve residual, the
sparse product)."""
import contextlib
import io
import re
from pathlib import Path

import pytest

SEED = next((Path(__file__).resolve().parents[3] / "shared" / "seeds").glob("004_*.txt"), None)


def _cell():
    text = SEED.read_text()
    start = text.index("import cupy as cp\nfrom cupyx.scipy import fftpack, linalg, sparse")
    end = text.index("\n\n\n", start)
    return text[start:end]


def _as_cuarray(code):
    code = re.sub(r"^import cupy as cp$", "import cuarray as cp", code, flags=re.M)
    return re.sub(r"^from cupyx\.", "from cuarray.", code, flags=re.M)


@pytest.mark.skipif(SEED is None, reason="the tutorials are not checked out next to the repo")
def test_cell_is_what_we_think():
    code = _cell()
    assert "fftpack.fft(x)" in code and "linalg.solve(A, b)" in code
    assert "sparse.coo_matrix((vals, (rows, cols)), shape=(3,3)).tocsr()" in code
    assert "import cuarray as cp\nfrom cuarray.scipy import fftpack, linalg, sparse" in \
        _as_cuarray(code)


@pytest.mark.gpu
@pytest.mark.skipif(SEED is None, reason="the tutorials are not checked out next to the repo")
def test_scipy_cell_runs():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(_as_cuarray(_cell()), "004_scipy_cell", "exec"), {})
    lines = out.getvalue().splitlines()
    assert len(lines) == 3, lines
    m = re.fullmatch(r"FFT round‑trip error: (\S+)", lines[0])
    assert m and float(m.group(1)) < 1e-5
    m = re.fullmatch(r"Solve relative residual: (\S+)", lines[1])
    assert m and float(m.group(1)) < 1e-2
    assert lines[2] == "Sparse dot: [ 7.  9. 32.]"
