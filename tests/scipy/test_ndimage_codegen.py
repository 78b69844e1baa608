"""CPU tests of the ndimage kernel generators: every generated source compiles with NVRTC
for sm_90 (no GPU needed), and the host-side tables the kernels read (Gaussian weights,
tap offsets, B-spline poles) match SciPy."""
import numpy
import pytest
import scipy.ndimage as snd

from cuarray._core import dtypes as _dt
from cuarray._runtime import compiler
from cuarray.scipy.ndimage import _edt, _filter_kernels as fk, _filters, _fourier
from cuarray.scipy.ndimage import _interp_kernels as ik, _measure_kernels as mk

REAL = "?bBhHiIlLqQefd"


def _compile(src, name):
    compiler.compile_cubin(src, (), (), "sm_90", name)


@pytest.mark.parametrize("kind", ["corr", "mean", "min", "max"])
@pytest.mark.parametrize("K,P", [(3, 8), (33, 8), (61, 1)])
def test_line_kernels_compile(kind, K, P):
    for tin, tout in (("B", "e"), ("f", "f")) if K == 3 else (("d", "q"),):
        acc = "float" if tin in "ef" else "double"
        if kind in ("min", "max"):
            acc = fk.compute_ctype(numpy.dtype(tin))
        for by_value in ((True, False) if kind == "corr" and K <= fk.UNROLL_TAPS else (False,)):
            src = fk.line_source("k", kind, "reflect", _dt.ctype(numpy.dtype(tin)),
                                 _dt.ctype(numpy.dtype(tout)), acc, K, K // 2, P, "int",
                                 by_value)
            _compile(src, "k")


def test_line_kernel_symmetric_compiles():
    for P in (8, 1):
        for sym in (1, -1):
            for by_value in ((True, False) if P > 1 else (False,)):
                src = fk.line_source("k", "corr", "mirror", "short", "short", "double", 61 if
                                     P == 1 else 9, 4, P, "int", by_value, sym)
                _compile(src, "k")


def test_line_kernel_complex_and_modes():
    for mode in ("reflect", "mirror", "nearest", "wrap", "constant"):
        src = fk.line_source("k", "corr", mode, "complex<double>", "complex<double>",
                             "complex<double>", 5, 2, 8, "long long", True)
        _compile(src, "k")


@pytest.mark.parametrize("kind", sorted(fk.TAP_KINDS))
def test_tap_kernels_compile(kind):
    offs = numpy.array([[-1, 0], [0, -1], [0, 0], [1, 1]])
    user = ("raw", 'extern "C" __device__ void f(const double* x, int n, double* y) { *y = x[0]; }',
            "f")
    for t in "?fQ":
        if kind in ("rank", "generic") and t == "?":
            continue
        acc = fk.compute_ctype(numpy.dtype(t)) if kind not in ("corr",) else "double"
        if kind in ("grey_erode", "grey_dilate"):
            acc = "double"
        src = fk.tap_source("k", kind, "mirror", _dt.ctype(numpy.dtype(t)),
                            _dt.ctype(numpy.dtype(t)), acc, offs, "int", rank=2, user=user)
        _compile(src, "k")


def test_reduction_user_compiles():
    user = ("reduction", "typedef float X; typedef double Y;", "x", "y", "double", "0",
            "x * x", "a + b", "y = a / _in_ind.size()")
    src = fk.tap_source("k", "generic", "wrap", "float", "double", "float",
                        numpy.array([[0, 0], [1, 0]]), "int", user=user)
    _compile(src, "k")


def test_generic_lines_compile():
    user = ("raw", 'extern "C" __device__ void g(const double* a, long long na, double* b, '
            'long long nb) { b[0] = a[0]; }', "g")
    _compile(fk.lines_source("k", "wrap", "float", "double", "int", 3, 1, user), "k")


@pytest.mark.parametrize("order", range(6))
def test_interp_kernels_compile(order):
    modes = ("constant", "grid-constant", "wrap", "reflect", "mirror", "nearest")
    for k, (kind, nd, ond) in enumerate((("map", 2, 2), ("affine", 3, 2), ("zoom", 2, 2),
                                         ("shift", 1, 1))):
        for mode in (modes[(order + k) % 6],):
            for T in ("long long", "int"):
                src = ik.interp_source("k", kind, nd, ond, order, mode, "float",
                                       "unsigned char", "double", "int", (0, 255), T)
                compiler.compile_cubin(src, ik.interp_options(nd, order, T, numpy.uint8),
                                       (), "sm_90", "k")
    assert ik.tap_type(3, 1 << 27) == "int" and ik.tap_type(4, 10) == "long long"
    assert ik.tap_type(2, 1 << 29) == "long long"
    assert "--maxrregcount=32" in ik.interp_options(2, 1, "int", numpy.float32)
    assert ik.interp_options(3, 1, "int", numpy.float32) == ()


@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_kernels_compile_and_poles(order):
    for init in ("mirror", "reflect", "wrap"):
        _compile(ik.spline_source("k", order, init, "float", "int"), "k")
    for z in ik.spline_poles(order):
        assert -1 < z < 0
    # the poles are the roots inside the unit circle of the B-spline's z-transform: the
    # filter's gain makes the constant sequence its own coefficients
    x = numpy.ones(9)
    numpy.testing.assert_allclose(snd.spline_filter1d(x, order), x, rtol=1e-12)


@pytest.mark.parametrize("order", [2, 4, 5])
def test_spline_kernel_double_recursion_and_final_rounding(order):
    # SciPy filters a line in double and rounds once when writing a float32 output: the
    # recursions' state is double, and only the last pole's stores round through float
    src = ik.spline_source("k", order, "reflect", "double", "int", round_to="float")
    _compile(src, "k")
    npoles = len(ik.spline_poles(order))
    for decl in ("const double z = ", "double prev = ", "double last = "):
        assert src.count(decl) == npoles
    assert src.count("double xb[8]") == 2 * npoles
    assert "float " not in src.split('extern "C"')[1].replace("(float)", "")
    assert src.count("(double)(float)") == 2
    tail = src[src.rindex("const double z = "):]
    assert tail.count("(double)(float)") == 2
    # the causal 'reflect' initial value reads only the input (not its running sum)
    assert "? acc" not in src


def test_other_kernels_compile():
    for kind in ("gaussian", "uniform", "ellipsoid", "shift"):
        for nd in (1, 2, 3):
            _compile(_fourier.fourier_source("k", kind, nd, "float", "complex<double>",
                                             "complex<double>", 0, kind == "uniform"), "k")
    for step in ("init", "merge", "flatten", "number"):
        for I in ("int", "long long"):
            src = mk.label_source("k", step, 2, "unsigned char", I, [[-1, -1], [-1, 0], [0, -1]])
            _compile(src.replace("OUT", "int").replace("RANK", I), "k")
    for kind in mk.STAT_BODIES:
        _compile(mk.stat_source("k", kind, 3, "short"), "k")


def test_edt_kernels_compile():
    for I in ("int", "long long"):
        _compile(_edt.bands_source("k", I), "k")
        for ndim, last, dist, ind, D in ((1, True, True, True, "double"), (2, False, True, False,
                                         "double"), (1, True, False, True, "float")):
            _compile(_edt.first_source("k", I, ndim, last, dist, ind, D), "k")
        for ndim, ax, last, dist, ind, D, lmax in (
                (2, 1, True, True, True, "double", 2048), (3, 1, False, True, False, "double", 32),
                (3, 2, True, False, True, "float", 4096), (2, 1, True, True, False, "double", 0)):
            src = _edt.line_source("k", I, ndim, ax, last, dist, ind, D, lmax)
            # shared memory below the 48 KB a block may hold without opting in
            assert (lmax > 0) == ("__shared__ FT sF" in src)
            assert lmax * 10 + 4 * _edt.LINE_THREADS + 4 <= 48 * 1024
            _compile(src, "k")
            _compile(_edt.line_source("k", I, ndim, ax, last, dist, ind, D, lmax, "float"), "k")


@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_gaussian_weights_match_scipy(order):
    for sigma in (0.5, 1.7, 4.0):
        r = int(4 * sigma + 0.5)
        w = _filters._gaussian_kernel1d(sigma, order, r)[::-1]
        impulse = numpy.zeros(2 * r + 1)
        impulse[r] = 1
        ref = snd.gaussian_filter1d(impulse, sigma, order=order, mode="constant")
        numpy.testing.assert_allclose(w[::-1], ref, rtol=1e-12, atol=1e-15)


def test_tap_offsets():
    fp = numpy.array([[1, 0, 1], [0, 1, 0]], dtype=bool)
    offs, idx = _filters._tap_offsets(fp, [0, 1])
    assert offs.tolist() == [[-1, -2], [-1, 0], [0, -1]]
    x = numpy.arange(30.0).reshape(5, 6)
    ref = snd.correlate(x, fp.astype(float), mode="constant", origin=(0, 1))
    acc = numpy.zeros_like(x)
    for o in offs:      # the kernel's sum, written out on the host
        acc += numpy.roll(numpy.pad(x, 3), tuple(-o), axis=(0, 1))[3:-3, 3:-3]
    numpy.testing.assert_allclose(acc, ref)
