"""The norm kernels shaped for a C-contiguous matrix (a warp per row; column tiles with
split row ranges finished by the last block) against numpy.linalg.norm, on the CPU
stand-in ("emu", with the size thresholds and tile shapes shrunk) and on the GPU."""
import numpy
import pytest

from emulation import pytest_generate_tests  # noqa: F401  (the emu/gpu variants)
from cuarray.linalg import _norm_axis, _norm_reduce

ORDS = [None, 2, 1, numpy.inf, -numpy.inf]


@pytest.fixture
def small_tiles(xp, monkeypatch):
    """Thresholds and tiles small enough for host threads (and for small GPU cases)."""
    monkeypatch.setattr(_norm_reduce, "_plans", {})
    monkeypatch.setattr(_norm_axis, "_MIN_ELEMENTS", 1)
    monkeypatch.setattr(_norm_axis, "_MIN_ROWS", 4)
    monkeypatch.setattr(_norm_axis, "_ROW_WARPS", 2)
    monkeypatch.setattr(_norm_axis, "_COL_TX", 4)
    monkeypatch.setattr(_norm_axis, "_COL_RY", 2)
    monkeypatch.setattr(_norm_axis, "_COL_SPLITS", 3)
    monkeypatch.setattr(_norm_axis, "_MIN_TILES", 2)


def _check(got, want, dtype):
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.shape)
    tol = 2e-5 if numpy.dtype(dtype).char == "f" else 1e-12
    numpy.testing.assert_allclose(g, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("ord", ORDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rows_and_columns(xp, small_tiles, ord, dtype):
    rng = numpy.random.default_rng(11)
    h = rng.standard_normal((20, 2, 48)).astype(dtype)
    h[3, 1, ::5] = 0
    h[7, 0, 4] = -9.5
    d = xp.asarray(h)
    assert _norm_axis.applies(d, "l2", 2) and _norm_axis.applies(d, "l2", 0)
    for axis in (2, 0):
        _check(xp.linalg.norm(d, ord, axis=axis), numpy.linalg.norm(h, ord, axis=axis), dtype)
    # twice more: the tile counters are back at zero after each call
    for _ in range(2):
        _check(xp.linalg.norm(d, ord, axis=0), numpy.linalg.norm(h, ord, axis=0), dtype)


def test_nan_propagates(xp, small_tiles):
    h = numpy.ones((20, 96), numpy.float32)
    h[5, 17] = numpy.nan
    d = xp.asarray(h)
    for ord in (numpy.inf, -numpy.inf, None):
        for axis in (0, 1):
            _check(xp.linalg.norm(d, ord, axis=axis), numpy.linalg.norm(h, ord, axis=axis),
                   "float32")


def test_layouts_that_do_not_apply(xp, small_tiles):
    h = numpy.ones((20, 96), numpy.float32)
    d = xp.asarray(h)
    assert not _norm_axis.applies(d[:, 1:], "l2", 1)          # not C-contiguous
    assert not _norm_axis.applies(d.astype(numpy.float16), "l2", 1)
    assert not _norm_axis.applies(d, "lp", 1)                 # ord 3: the engine's
    assert not _norm_axis.applies(xp.ones((20, 94), numpy.float32), "l2", 1)  # no whole vectors
    assert not _norm_axis.applies(xp.ones(4096, numpy.float32), "l2", 0)      # 1-D
    # the engine still answers where the shaped kernels do not apply
    _check(xp.linalg.norm(d[:, 1:], axis=1), numpy.linalg.norm(h[:, 1:], axis=1), "float32")
