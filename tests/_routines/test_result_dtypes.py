"""Result dtypes (and values) as NumPy 2 and CuPy give them, for the routines issue 12 names:
mean/var/std of integer and bool input, linalg norms, einsum in every subscript form (and
the view NumPy returns for 'ii->i'), angle and real/imag of real input, window functions.
GPU only (reductions, cuBLAS); with CuPy installed the dtypes are also compared with CuPy's."""
import numpy
import pytest

pytestmark = pytest.mark.gpu

INT_DTYPES = ["?", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8"]
ALL_DTYPES = INT_DTYPES + ["e", "f", "d", "F", "D"]


def _cuarray():
    import cuarray
    return cuarray


def _check(got, want, rtol=1e-6):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == numpy.shape(want)
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("dt", ALL_DTYPES)
@pytest.mark.parametrize("name", ["mean", "var", "std", "nanmean", "nanvar", "nanstd"])
def test_statistics_dtypes(dt, name):
    cp = _cuarray()
    if name.startswith("nan") and dt in INT_DTYPES[:1]:
        pytest.skip("NumPy's nan-functions of bool follow the plain ones")
    h = (numpy.arange(24) % 5).astype(dt).reshape(4, 6)
    g = cp.asarray(h)
    rtol = 1e-2 if dt in "eF" else 1e-6
    for axis in (None, 0, 1):
        _check(getattr(cp, name)(g, axis=axis), getattr(numpy, name)(h, axis=axis), rtol)


@pytest.mark.parametrize("dt", ["i4", "f", "d", "F", "D"])
def test_norm_dtypes(dt):
    cp = _cuarray()
    h = (numpy.arange(12) % 5 - 2).astype(dt).reshape(3, 4)
    g = cp.asarray(h)
    for ord_ in (None, 1, 2, numpy.inf, -numpy.inf, 0, 3):
        _check(cp.linalg.norm(g[0], ord_), numpy.linalg.norm(h[0], ord_), 1e-5)
    for ord_ in (None, "fro", "nuc", 1, -1, 2, numpy.inf):
        _check(cp.linalg.norm(g, ord_), numpy.linalg.norm(h, ord_), 1e-5)
    _check(cp.linalg.vector_norm(g, axis=1), numpy.linalg.vector_norm(h, axis=1), 1e-5)
    _check(cp.linalg.matrix_norm(g), numpy.linalg.matrix_norm(h), 1e-5)


EINSUM = ["ii->i", "ii", "ij->ji", "ij->", "ij,jk->ik", "ij,ij->ij", "i,j->ij", "ijk->kj",
          "...i,...i->...", "ij,j", "i,i", "bij,bjk->bik", "ii->"]


@pytest.mark.parametrize("subs", EINSUM)
@pytest.mark.parametrize("dt", ["?", "i1", "i4", "f", "d", "D"])
def test_einsum_dtypes(subs, dt):
    cp = _cuarray()
    rng = numpy.random.default_rng(4)
    ins = subs.split("->")[0].split(",")
    shapes = {"ii": (3, 3), "ij": (3, 4), "jk": (4, 5), "i": (3,), "j": (4,), "ijk": (2, 3, 4),
              "...i": (2, 3), "bij": (2, 3, 4), "bjk": (2, 4, 5)}
    hs = [rng.integers(0, 3, shapes[s]).astype(dt) for s in ins]
    if subs == "ij,j":
        hs[1] = rng.integers(0, 3, 4).astype(dt)
    got = cp.einsum(subs, *[cp.asarray(h) for h in hs])
    want = numpy.einsum(subs, *hs)
    _check(got, numpy.asarray(want), 1e-5)


def test_einsum_diagonal_is_a_view():
    cp = _cuarray()
    g = cp.arange(9.0).reshape(3, 3)
    d = cp.einsum("ii->i", g)
    numpy.testing.assert_array_equal(d.get(), [0.0, 4.0, 8.0])
    assert cp.shares_memory(d, g)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
def test_window_dtypes_match_cupy(name):
    cupy = pytest.importorskip("cupy")
    cp = _cuarray()
    for M in (0, 1, 7):
        assert getattr(cp, name)(M).dtype == getattr(cupy, name)(M).dtype


@pytest.mark.parametrize("dt", ALL_DTYPES)
def test_dtypes_match_cupy(dt):
    cupy = pytest.importorskip("cupy")
    cp = _cuarray()
    h = (numpy.arange(6) % 3).astype(dt)
    for name in ("angle", "real", "imag", "mean", "var"):
        assert getattr(cp, name)(cp.asarray(h)).dtype == getattr(cupy, name)(cupy.asarray(h)).dtype, name
