"""CPU tests: every CUDA source of the k-d tree and the Delaunay triangulation compiles
with NVRTC for sm_90 (the GPU tests run them; the host emulation builds them with g++)."""
import pytest

from cuarray._core._kernel_helpers import render
from cuarray._runtime import compiler
from cuarray.scipy.spatial import _delaunay, _delaunay_kernels as dk, _kdtree_kernels as kk


def _compile(src, name):
    compiler.compile_cubin("#include <cuarray/core.cuh>\n" + src, (), (), "sm_90", name)


@pytest.mark.parametrize("pm", ["1", "2", "inf", "p"])
@pytest.mark.parametrize("m", [1, 3, 7])
def test_kdtree_kernels_compile(pm, m):
    length, add = kk._POW[pm]
    for klocal in (0, 8):
        _compile(render(kk.QUERY, M=m, LEN=length, ADD=add, KLOCAL=klocal, ROOT=kk.ROOT[pm]),
                 "kd_query")
    _compile(render(kk.BALL, M=m, LEN=length, ADD=add), "kd_ball")
    _compile(render(kk.LEAF, M=m, LEN=length, ADD=add), "kd_leaf")


@pytest.mark.parametrize("m", [1, 3, 7])
@pytest.mark.parametrize("kt", ["unsigned int", "unsigned long long"])
def test_kdtree_build_kernels_compile(m, kt):
    src = render(kk.BUILD, M=m, K=kt, P="unsigned int")
    for name in ("kd_bounds", "kd_split", "kd_keys", "kd_sval"):
        _compile(src, name)


def test_delaunay_kernels_compile():
    _compile(dk.BUILD, "dt_build")
    _compile(dk.LOCATE, "dt_locate")
    src = render(dk.PARALLEL, CMAX=_delaunay._CMAX)
    for name in ("dt_walk", "dt_claim", "dt_insert"):
        _compile(src, name)


def test_kdtree_depth_and_node_ranges():
    """The implicit tree: level-L node j owns [(j n) >> L, ((j + 1) n) >> L), and the
    position-to-node formula of the build inverts it."""
    for n in (1, 2, 3, 10, 17, 1000):
        for lev in range(0, 11):
            nseg = 1 << lev
            if nseg > n:
                break
            for p in range(n):
                j = ((p + 1) * nseg + n - 1) // n - 1
                assert (j * n) >> lev <= p < ((j + 1) * n) >> lev


@pytest.mark.parametrize("vec", [0, 1])
@pytest.mark.parametrize("y", ["sqrt(d2)", "d2"])
def test_cdist_tiles_compile(vec, y):
    from cuarray.scipy.spatial import _euclidean_tiles
    compiler.compile_cubin(render(_euclidean_tiles._SRC, NAME="cdist_tiles", RESULT=y,
                                  VEC=vec, VEC_OUT=vec), (), (), "sm_90", "cdist_tiles")
