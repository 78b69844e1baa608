"""Write univariate_spline_scipy117.json: SciPy 1.17's UnivariateSpline fits whose knot
search resumes (see test_interpolate_univariate_spline.py), for comparison where the
installed SciPy (>= 1.18) restarts such searches without FITPACK's state.

Run with SciPy 1.17 from the repository root:
    python tests/scipy/data/make_univariate_spline_reference.py
For each input of the tests it runs SciPy's first pass (FITPACK's curfit with
nest = max(m // 2, 2k + 2)); where that ends with ier = 1 the search resumes, and the
final fit is stored. It checks that the tests' rule (more than nest knots in the end)
says the same. Every fit after set_smoothing_factor is stored (a resumed search).
"""
import importlib.util
import json
import pathlib
import warnings

import numpy
import scipy
import scipy.interpolate as si
from scipy.interpolate import _fitpack2

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE / "univariate_spline_scipy117.json"


def _tests():
    spec = importlib.util.spec_from_file_location("usp_tests", HERE.parent / "test_interpolate_univariate_spline.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _first_pass_ier(x, y, w, kw):
    """FITPACK's ier after SciPy 1.17's first pass (before any resumption)."""
    k, s = kw.get("k", 3), kw.get("s")
    x, y, w, bbox, _ = si.UnivariateSpline.validate_input(x, y, w, kw.get("bbox", [None] * 2), k, s, 0, False)
    with _fitpack2.FITPACK_LOCK:
        data = _fitpack2.dfitpack.fpcurf0(x, y, k, w=w, xb=bbox[0], xe=bbox[1], s=s)
    return int(data[-1])


def _record(spline, texts):
    t, c, k = spline._eval_args
    return {"class": type(spline).__name__, "k": int(k), "t": [float(v) for v in t], "c": [float(v) for v in c],
            "fp": float(spline.get_residual()), "ier": int(spline._data[-1]), "warnings": texts}


def _caught(fn):
    with warnings.catch_warnings(record=True) as wr:
        warnings.simplefilter("always")
        out = fn()
    return out, [str(a.message) for a in wr]


def main():
    if not scipy.__version__.startswith("1.17."):
        raise SystemExit(f"needs SciPy 1.17 (FITPACK's Fortran curfit), found {scipy.__version__}")
    tests = _tests()
    fits = {}
    for key, x, y, w, kw, s1 in tests.reference_inputs():
        k = kw.get("k", 3)
        spline, texts = _caught(lambda: si.UnivariateSpline(x, y, w=w, **kw))
        resumed = _first_pass_ier(x, y, w, kw) == 1
        assert resumed == tests._resumed(spline, x.size, k, tests._smoothing(kw, x)), key
        if resumed:
            fits[key] = _record(spline, texts)
        if s1 is not None:
            _, texts = _caught(lambda: spline.set_smoothing_factor(s1))
            fits[tests._continued_key(key, s1)] = _record(spline, texts)
    lines = [f"  {json.dumps(key)}: {json.dumps(rec)}" for key, rec in fits.items()]
    with open(OUT, "w") as f:
        versions = json.dumps(scipy.__version__), json.dumps(numpy.__version__)
        f.write('{"scipy": %s, "numpy": %s, "fits": {\n' % versions)
        f.write(",\n".join(lines))
        f.write("\n}}\n")
    print(f"{len(fits)} fits -> {OUT.name}")


if __name__ == "__main__":
    main()
