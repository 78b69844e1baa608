"""The tiled transpose copy's two tile sides (`cuarray._core._transpose`): which one a copy
gets, the sources compiled by NVRTC, and the values of both on the CPU stand-in ("emu")
and the GPU ("gpu")."""
import numpy
import pytest

from cuarray._core import _transpose

from emulation import dtypes, pytest_generate_tests, rand, same  # noqa: F401  (the hook too)


@pytest.mark.parametrize("R,C,batch,itemsize,want", [
    (16384, 16384, 1, 4, 64), (16384, 16384, 1, 2, 64), (16384, 16384, 1, 8, 32),
    (16384, 16384, 1, 16, 32), (1024, 1024, 1, 4, 32), (4096, 4096, 1, 4, 64),
    (64, 64, 2000, 4, 64), (63, 100000, 1, 4, 32), (1024, 1024, 2, 1, 32)])
def test_tile_side_auto(R, C, batch, itemsize, want, monkeypatch):
    monkeypatch.setattr(_transpose, "TILE_CHOICE", "auto")
    assert _transpose.tile_side(R, C, batch, itemsize, 132) == want


def test_tile_side_forced(monkeypatch):
    for choice, it, want in [("32", 4, 32), ("64", 1, 64), ("64", 8, 64), ("64", 16, 32)]:
        monkeypatch.setattr(_transpose, "TILE_CHOICE", choice)
        assert _transpose.tile_side(4096, 4096, 1, it, 132) == want


@pytest.mark.parametrize("itemsize", [1, 2, 4, 8])
def test_big_tile_sources_compile(itemsize):
    pytest.importorskip("cuda.bindings")
    from cuarray._runtime.compiler import compile_cubin
    for idx64 in (False, True):
        src, name = _transpose.source(itemsize, idx64, 64)
        assert name.endswith("_t64") and "tile[T][T + 1]" in src and "#define T 64" in src
        assert compile_cubin(src, arch="sm_90", name=name)[0]
    # the 32 tile keeps its name (and its place in the kernel cache)
    assert _transpose.source(itemsize, False)[1] == f"cuarray_transpose_{itemsize}"


@pytest.mark.parametrize("tile", ["32", "64"])
@dtypes(gpu="BefdD", emu="Bf")
def test_transpose_values(xp, dtype, rng, tile, monkeypatch):
    monkeypatch.setattr(_transpose, "TILE_CHOICE", tile)
    ran = []
    real = _transpose._kernel
    monkeypatch.setattr(_transpose, "_kernel", lambda *a: ran.append(a[2]) or real(*a))
    # edges that are no multiple of either tile, a batch, and a 3-D axis swap
    for shape, perm in [((130, 70), (1, 0)), ((2, 65, 40), (0, 2, 1)), ((20, 3, 66), (2, 1, 0))]:
        h = rand(shape, dtype, rng)
        d = xp.asarray(h)
        same(d.transpose(perm).copy(), h.transpose(perm).copy())
        same(xp.ascontiguousarray(d.transpose(perm)), numpy.ascontiguousarray(h.transpose(perm)))
    # the tiled kernel ran, with that tile (16-byte elements always take 32)
    assert ran and set(ran) == {32 if dtype.itemsize > 8 else int(tile)}
