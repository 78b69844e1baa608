"""Every loop of every ufunc on the GPU through the public API, against NumPy: random inputs
and every pair of edge values (0, -0.0, +-1, MIN, MAX, NaN, +-inf, subnormals, ...).

Exact operations must match bit for bit (signed zeros included, NaN payloads aside); libm
functions within ufunc_cases.RTOL of |expected| (CUDA's libdevice is not glibc).
"""

import numpy
import pytest

import ufunc_cases

pytestmark = pytest.mark.gpu

_NAMES = sorted({name for name, _ in ufunc_cases.loops()})


def _run(name):
    import cuarray

    def run(sig, arrays):
        res = getattr(cuarray, name)(*[cuarray.asarray(a) for a in arrays])
        res = res if isinstance(res, tuple) else (res,)
        return [cuarray.asnumpy(r) for r in res]
    return run


@pytest.mark.parametrize("name", _NAMES)
def test_ufunc_loops_match_numpy(name):
    fails = []
    for _, sig in (c for c in ufunc_cases.loops() if c[0] == name):
        fails += ufunc_cases.check_loop(name, sig, _run(name))
    assert not fails, "\n".join(fails)


@pytest.mark.parametrize("name", ["add", "multiply", "sin", "maximum", "divmod", "less", "sqrt"])
def test_strided_and_broadcast_inputs(name):
    """Same loops over non-contiguous and broadcast operands (the engine's N-d path)."""
    import cuarray
    u = getattr(numpy, name)
    for sig in [s for n, s in ufunc_cases.loops() if n == name][::3]:
        arrays = ufunc_cases.inputs(name, sig, n=300)
        m = len(arrays[0]) // 2 * 2
        host = [a[:m].reshape(-1, 2)[:, ::-1] for a in arrays]  # strided views
        if len(host) == 2:
            host[1] = host[1][:1]  # broadcast along axis 0
        with numpy.errstate(all="ignore"):
            expect = u(*host)
        got = getattr(cuarray, name)(*[_device_view(cuarray, a) for a in host])
        expect = expect if isinstance(expect, tuple) else (expect,)
        got = got if isinstance(got, tuple) else (got,)
        for g, e in zip(got, expect):
            g = cuarray.asnumpy(g)
            assert g.shape == e.shape and g.dtype == e.dtype
            bad = ufunc_cases.mismatches(name, sig, g.ravel(), e.ravel())
            assert not len(bad), f"{name} {sig}: {len(bad)} differ"


def _device_view(cuarray, a):
    """The same strided view on the device: reverse the columns of a contiguous copy."""
    base = cuarray.asarray(numpy.ascontiguousarray(a[:, ::-1]))
    return base[:, ::-1]
