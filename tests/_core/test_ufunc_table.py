"""The ufunc table against NumPy: names, loops, identities; every loop compiled by NVRTC;
every loop's body run on the CPU (the same header built by g++) and compared with NumPy."""
import ctypes
import itertools
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import numpy
import pytest

from cuarray._core import dtypes, ufunc_table
from cuarray._core.ufunc_table import ALIASES, BY_NAME, UFUNCS, body

import ufunc_cases

INCLUDE = os.path.join(os.path.dirname(dtypes.__file__), "include")
SUPPORTED = set("?bBhHiIlLqQefdFD")

# NumPy's numeric ufuncs that CuPy exports.
EXPECTED_NAMES = set("""
add subtract multiply divide true_divide floor_divide negative positive power float_power remainder
mod fmod divmod absolute fabs rint sign heaviside conj conjugate exp exp2 log log2 log10 expm1 log1p
sqrt square cbrt reciprocal gcd lcm sin cos tan arcsin arccos arctan arctan2 hypot sinh cosh tanh
arcsinh arccosh arctanh degrees radians deg2rad rad2deg bitwise_and bitwise_or bitwise_xor invert
bitwise_not bitwise_count left_shift right_shift greater greater_equal less less_equal not_equal
equal logical_and logical_or logical_xor logical_not maximum minimum fmax fmin isfinite isinf isnan
signbit copysign nextafter spacing modf ldexp frexp floor ceil trunc logaddexp logaddexp2 isnat
""".split())
NUMPY2_ALIASES = {"abs", "pow", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh",
                  "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift"}


def _numpy_types(name):
    u = getattr(numpy, name)
    ok = SUPPORTED | set("Mm") if name == "isnat" else SUPPORTED   # isnat has datetime loops only
    return list(dict.fromkeys(t for t in u.types if set(t.replace("->", "")) <= ok))


def _dts(chars):
    return tuple(numpy.dtype(c) for c in chars)


# ---- the table's rows against NumPy ---------------------------------------------------------
def test_names_are_numpys_numeric_ufuncs():
    assert set(BY_NAME) | set(ALIASES) == EXPECTED_NAMES | NUMPY2_ALIASES
    for name in set(BY_NAME) | set(ALIASES):
        assert isinstance(getattr(numpy, name), numpy.ufunc), name
    for alias, name in ALIASES.items():
        assert getattr(numpy, alias) is getattr(numpy, name), alias
        assert ufunc_table.get(alias) is BY_NAME[name]
    # every NumPy ufunc with a numeric loop is in the table (matmul & co. are gufuncs)
    numeric = {n for n in dir(numpy) if isinstance(getattr(numpy, n), numpy.ufunc)
               and getattr(numpy, n).signature is None and _numpy_types(n)}
    assert numeric | {"isnat"} == set(BY_NAME) | set(ALIASES)


@pytest.mark.parametrize("row", UFUNCS, ids=lambda r: r.name)
def test_row_matches_numpy(row):
    u = getattr(numpy, row.name)
    assert (row.nin, row.nout) == (u.nin, u.nout)
    assert row.identity == u.identity and type(row.identity) is type(u.identity)
    assert list(row.types) == _numpy_types(row.name)
    assert row.doc and row.doc[0].isupper() and "\n" not in row.doc


@pytest.mark.parametrize("row", UFUNCS, ids=lambda r: r.name)
def test_numpy_resolution_always_lands_on_a_loop(row):
    """Whatever NumPy resolves for supported dtypes, the table has that loop's body."""
    u = getattr(numpy, row.name)
    for ins in itertools.product(dtypes.SUPPORTED, repeat=row.nin):
        try:
            loop = u.resolve_dtypes(ins + (None,) * row.nout)
        except TypeError:  # NumPy has no loop either (e.g. bitwise_and on floats)
            continue
        code = body(row.name, loop[:row.nin], loop[row.nin:])
        assert "out0" in code


def test_body_rule():
    f2, i8 = numpy.dtype("e"), numpy.dtype("b")
    assert body("add", (i8, i8), (i8,)) == "out0 = (unsigned int)in0 + (unsigned int)in1;"
    assert body("add", "qq", "q") == "out0 = (unsigned long long)in0 + (unsigned long long)in1;"
    assert body("add", "??", "?") == "out0 = in0 || in1;"
    assert body("add", "FF", "F") == "out0 = in0 + in1;"
    # float16 without its own body: the float body on float copies, rounded once
    assert body("sin", (f2,), (f2,)) == ("{ const float _h_in0 = in0; float _h_out0; { const float in0 = "
                                        "_h_in0; float& out0 = _h_out0; out0 = sin(in0); } out0 = _h_out0; }")
    assert body("negative", "e", "e") == "out0 = cuarray_half_bits(in0.x ^ 0x8000u);"
    assert body("less", "qQ", "?") == "out0 = cuarray_mixed_cmp(in0, in1) < 0;"
    assert body("rint", "D", "D") == "out0 = complex<double>(rint(in0.re), rint(in0.im));"
    assert body("mod", "dd", "d") == body("remainder", "dd", "d")
    assert "int_reciprocal" in body("reciprocal", "l", "l")


def test_body_refuses_a_missing_loop():
    with pytest.raises(TypeError, match=r"cuarray.sin has no loop 'l->l'"):
        body("sin", "l", "l")
    with pytest.raises(TypeError, match="has no loop"):
        body("add", "ff", "d")
    with pytest.raises(ValueError, match="no ufunc named 'angle'"):
        body("angle", "d", "d")


def test_the_table_validates():
    ufunc_table._validate()   # not run at import (start-up time): here instead


def test_validation_catches_bad_rows(monkeypatch):
    bad = ufunc_table.Ufunc("add", 2, 1, ["ff->f"], "Duplicate.", any="out0 = in0;")
    monkeypatch.setattr(ufunc_table, "UFUNCS", UFUNCS + (bad,))
    with pytest.raises(AssertionError, match="duplicate ufunc names"):
        ufunc_table._validate()
    bad = ufunc_table.Ufunc("nobody", 1, 1, ["l->l"], "No body.", float="out0 = in0;")
    monkeypatch.setattr(ufunc_table, "UFUNCS", (bad,))
    with pytest.raises(AssertionError, match="no body for loop l->l"):
        ufunc_table._validate()
    bad = ufunc_table.Ufunc("typo", 1, 1, ["d->d"], "Unknown family.", floats="out0 = in0;")
    monkeypatch.setattr(ufunc_table, "UFUNCS", (bad,))
    with pytest.raises(AssertionError, match="unknown families"):
        ufunc_table._validate()


# ---- code: the engine's per-element template around each body -------------------------------
def _element(name, sig, ref_outputs=False):
    """Loads (cast to the loop types), the body, stores (cast back), as the engine emits."""
    ins, outs = sig.split("->")
    lines = []
    for k, c in enumerate(ins):
        C = dtypes.ctype(c)
        lines.append(f"const {C} in{k} = cuarray_cast<{C}>(p{k}[i]);")
    for k, c in enumerate(outs):
        C = dtypes.ctype(c)
        lines.append(f"{C}& out{k} = q{k}[i];" if ref_outputs else f"{C} out{k};")
    lines.append(body(name, _dts(ins), _dts(outs)))
    if not ref_outputs:
        lines += [f"q{k}[i] = cuarray_cast<{dtypes.ctype(c)}>(out{k});" for k, c in enumerate(outs)]
    return "\n    ".join(lines)


def _params(sig):
    ins, outs = sig.split("->")
    return ", ".join([f"const {dtypes.ctype(c)}* p{k}" for k, c in enumerate(ins)] +
                     [f"{dtypes.ctype(c)}* q{k}" for k, c in enumerate(outs)])


def device_source(cases, ref_outputs=False):
    """One kernel per (name, sig) loop, as the engine writes them."""
    src = ["#include <cuarray/core.cuh>"]
    for k, (name, sig) in enumerate(cases):
        src.append(f'extern "C" __global__ void k{k}({_params(sig)}, long long n) {{\n'
                   f"  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;"
                   f" i += (long long)blockDim.x * gridDim.x) {{\n    {_element(name, sig, ref_outputs)}\n  }}\n}}")
    return "\n".join(src)


def nvrtc_compile(source):
    from cuda.core import Program, ProgramOptions
    opts = ProgramOptions(arch="sm_90", std="c++17", include_path=[INCLUDE])
    return Program(source, "c++", opts).compile("cubin")


@pytest.fixture(scope="module")
def compiled():
    """NVRTC (sm_90) result per ufunc: None, or the exception. Compiled in parallel."""
    pytest.importorskip("cuda.core")

    def one(name):
        try:
            nvrtc_compile(device_source([c for c in ufunc_cases.loops() if c[0] == name]))
        except Exception as e:  # reported by the test of that ufunc
            return e
        return None

    names = [row.name for row in UFUNCS]
    with ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        return dict(zip(names, ex.map(one, names)))


@pytest.mark.parametrize("name", [row.name for row in UFUNCS])
def test_every_loop_compiles_with_nvrtc(compiled, name):
    err = compiled[name]
    assert err is None, f"{name}:\n{err}"


def test_bodies_compile_with_outputs_by_reference():
    """The engine binds `out0` to the output element itself when no cast is needed."""
    pytest.importorskip("cuda.core")
    cases = [c for c in ufunc_cases.loops() if c[0] in ("divmod", "modf", "frexp", "sin", "maximum", "negative")]
    nvrtc_compile(device_source(cases, ref_outputs=True))


# ---- numerics: the bodies built for the host by g++, against NumPy -----------------------------
_HOST_PRELUDE = "#include <math.h>\n#include <cuarray/core.cuh>\n"


def host_source(cases):
    src = [_HOST_PRELUDE]
    for k, (name, sig) in enumerate(cases):
        ins, outs = sig.split("->")
        casts = [f"const {dtypes.ctype(c)}* p{j} = (const {dtypes.ctype(c)}*)pi[{j}];" for j, c in enumerate(ins)]
        casts += [f"{dtypes.ctype(c)}* q{j} = ({dtypes.ctype(c)}*)po[{j}];" for j, c in enumerate(outs)]
        src.append(f'extern "C" void h{k}(void* const* pi, void* const* po, long long n) {{\n'
                   f"  {' '.join(casts)}\n  for (long long i = 0; i < n; ++i) {{\n    {_element(name, sig)}\n  }}\n}}")
    return "\n".join(src)


@pytest.fixture(scope="module")
def host_build(tmp_path_factory):
    """{(name, sig): callable} from the table's bodies compiled by g++ (in parallel chunks)."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++ to build the headers for the host")
    tmp = tmp_path_factory.mktemp("host_ufuncs")
    cases = ufunc_cases.loops()
    nchunks = max(2, os.cpu_count() or 2) * 2
    chunks = [cases[i::nchunks] for i in range(nchunks)]

    def build(k):
        cpp, lib = tmp / f"chunk{k}.cpp", tmp / f"chunk{k}.so"
        cpp.write_text(host_source(chunks[k]))
        r = subprocess.run([gxx, "-std=c++17", "-O1", "-shared", "-fPIC", f"-I{INCLUDE}", "-o", str(lib), str(cpp)],
                           capture_output=True, text=True)
        return r, lib

    with ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        results = list(ex.map(build, range(nchunks)))
    if results[0][0].returncode and "_Float16" in results[0][0].stderr:
        pytest.skip("this g++ has no _Float16")
    fns = {}
    for k, (r, lib) in enumerate(results):
        assert r.returncode == 0, r.stderr[:5000]
        dll = ctypes.CDLL(str(lib))
        for j, case in enumerate(chunks[k]):
            fns[case] = getattr(dll, f"h{j}")
    return fns


def _run_host(fn, sig, arrays):
    outs = [numpy.empty(len(arrays[0]), dtype=c) for c in sig.split("->")[1]]
    ins = [numpy.ascontiguousarray(a) for a in arrays]
    pi = (ctypes.c_void_p * len(ins))(*[a.ctypes.data for a in ins])
    po = (ctypes.c_void_p * len(outs))(*[o.ctypes.data for o in outs])
    fn(pi, po, ctypes.c_longlong(len(ins[0])))
    return outs


@pytest.mark.parametrize("name", [row.name for row in UFUNCS])
def test_host_build_matches_numpy(host_build, name):
    fails = []
    for case in (c for c in ufunc_cases.loops() if c[0] == name):
        fails += ufunc_cases.check_loop(name, case[1], lambda sig, arrays: _run_host(host_build[case], sig, arrays))
    assert not fails, "\n".join(fails)
