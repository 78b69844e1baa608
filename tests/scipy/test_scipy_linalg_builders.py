"""cuarray.scipy.linalg's structured matrices and array utilities against scipy.linalg
(GPU, and the host emulation without one)."""
import numpy as np
import pytest
import scipy.linalg as sl


def _eq(got, want, rtol=1e-13):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=1e-13)


def test_generated(cp):
    from cuarray.scipy import linalg
    for n in (1, 2, 5):
        _eq(linalg.hilbert(n), sl.hilbert(n))
        _eq(linalg.helmert(n), sl.helmert(n))
        _eq(linalg.helmert(n, full=True), sl.helmert(n, full=True))
        for scale in (None, "sqrtn", "n"):
            _eq(linalg.dft(n, scale), sl.dft(n, scale))
    for n in (1, 2, 8):
        _eq(linalg.hadamard(n), sl.hadamard(n))
        _eq(linalg.hadamard(n, dtype=np.float32), sl.hadamard(n, dtype=np.float32))
    with pytest.raises(ValueError, match="power of 2"):
        linalg.hadamard(6)
    with pytest.raises(ValueError, match="scale"):
        linalg.dft(3, "x")


def test_from_vectors(cp):
    from cuarray.scipy import linalg
    rng = np.random.default_rng(4)
    f, s = rng.random(5), rng.random(4)
    _eq(linalg.leslie(cp.asarray(f), cp.asarray(s)), sl.leslie(f, s))
    with pytest.raises(ValueError, match="one less"):
        linalg.leslie(cp.asarray(f), cp.asarray(f))
    for a in (np.array([2.0, -1, 3, 4]), np.array([1, 2, 3]), np.array([1.0, 5.0])):
        _eq(linalg.companion(cp.asarray(a)), sl.companion(a))
    with pytest.raises(ValueError, match="zero"):
        linalg.companion(cp.asarray(np.array([0.0, 1, 2])))
    a = rng.random(6)
    _eq(linalg.fiedler(cp.asarray(a)), sl.fiedler(a))
    for m in (1, 3, 4):
        v = rng.random(m)
        for n in (1, 2, 5, 6):
            for mode in ("full", "same", "valid"):
                _eq(linalg.convolution_matrix(cp.asarray(v), n, mode),
                    sl.convolution_matrix(v, n, mode))
    with pytest.raises(ValueError, match="mode"):
        linalg.convolution_matrix(cp.asarray(v), 2, "x")


@pytest.mark.gpu
def test_bandwidth(gpu_cp):
    from cuarray.scipy import linalg
    cp = gpu_cp
    rng = np.random.default_rng(6)
    for shape in ((5, 5), (4, 7), (7, 3), (1, 1)):
        a = rng.random(shape)
        for lo, up in ((0, 0), (1, 2), (3, 0)):
            b = np.triu(np.tril(a, up), -lo)
            assert linalg.bandwidth(cp.asarray(b)) == sl.bandwidth(b)
    assert linalg.bandwidth(cp.zeros((0, 3))) == (0, 0)
    with pytest.raises(ValueError, match="2D"):
        linalg.bandwidth(cp.zeros(3))


def test_khatri_rao(cp):
    from cuarray.scipy import linalg
    rng = np.random.default_rng(7)
    a, b = rng.random((3, 4)), rng.random((5, 4))
    _eq(linalg.khatri_rao(cp.asarray(a), cp.asarray(b)), sl.khatri_rao(a, b))
    with pytest.raises(ValueError, match="columns"):
        linalg.khatri_rao(cp.asarray(a), cp.asarray(rng.random((5, 3))))
    with pytest.raises(ValueError, match="2-dimensional"):
        linalg.khatri_rao(cp.asarray(a[0]), cp.asarray(b))


def _scipy_at_least(*version):
    import scipy
    return tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= version


def test_fiedler_companion(cp):
    from cuarray.scipy import linalg
    rng = np.random.default_rng(41)
    cases = [rng.standard_normal(m) for m in (3, 4, 5, 6, 9)]
    cases += [np.array([2.0, 3.0]), np.array([1, 2, 3, 4, 5]),
              np.array([1.0, -16, 86, -176, 105]), np.array([True, False, True]),
              rng.standard_normal(6).astype(np.float32),
              (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64),
              rng.standard_normal((3, 5)), rng.standard_normal((2, 2, 4)),
              rng.standard_normal((4, 2)), np.array([1.5]), np.zeros(0), np.zeros((3, 1)),
              np.zeros((2, 0)), np.float64(5.0)]
    for a in cases:
        if np.shape(a)[-1:] < (2,) and _scipy_at_least(1, 18):
            continue   # SciPy 1.18 changed the shapes of these; cuarray keeps 1.17's
        want = sl.fiedler_companion(a)
        got = linalg.fiedler_companion(cp.asarray(a))
        rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-13
        _eq(got, want, rtol=rtol)
    # its eigenvalues are the polynomial's roots
    p = np.poly([1.0, 3.0, 5.0, 7.0])
    fc = linalg.fiedler_companion(cp.asarray(p)).get()
    np.testing.assert_allclose(np.sort(np.linalg.eigvals(fc).real), [1, 3, 5, 7], rtol=1e-8)
    for bad in (np.array([0.0, 1, 2]), np.array([[1.0, 2, 3], [0.0, 1, 2]])):
        with pytest.raises(ValueError):
            sl.fiedler_companion(bad)
        with pytest.raises(ValueError, match="Leading coefficient is zero"):
            linalg.fiedler_companion(cp.asarray(bad))
    with pytest.raises(TypeError):
        linalg.fiedler_companion(np.array([1.0, 2, 3]))  # host arrays are refused
