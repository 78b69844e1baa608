"""cuarray.jit atomics on every dtype CUDA has them for: generated code compiles (CPU),
other dtypes are refused by name, and results match NumPy (GPU)."""
import numpy
import pytest

import cuarray
from cuarray import jit
from cuarray._runtime.compiler import compile_cubin
from cuarray.jit._builtins import _ATOMIC
from cuarray.jit._compile import translate_kernel
from cuarray.jit._types import Array

CASES = [(name, numpy.dtype(c)) for name, (_, kinds) in _ATOMIC.items() for c in kinds
         if name != "atomic_cas"]
CAS = [numpy.dtype(c) for c in _ATOMIC["atomic_cas"][1]]
THREADS = 64


def _kernel(op):
    def k(a, old, vals):
        t = jit.threadIdx.x
        old[t] = op(a, 0, vals[t])
    return k


def _cas_kernel():
    def k(a, old):
        t = jit.threadIdx.x
        # each thread tries to move the value from t to t + 1: exactly one succeeds per step
        old[t] = jit.atomic_cas(a, 0, t, t + 1)
    return k


def _build(func, *types):
    src, name = translate_kernel(func, types)
    assert compile_cubin(src, arch="sm_90", name=name)[0]
    return src


@pytest.mark.parametrize("name,dt", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_atomic_compiles(name, dt):
    src = _build(_kernel(getattr(jit, name)), Array(dt, 1), Array(dt, 1), Array(dt, 1))
    assert "atomic" in src


@pytest.mark.parametrize("dt", CAS, ids=str)
def test_atomic_cas_compiles(dt):
    _build(_cas_kernel(), Array(dt, 1), Array(dt, 1))


def test_unsupported_dtypes_are_named():
    with pytest.raises(TypeError, match="does not support int8 arrays"):
        _build(_kernel(jit.atomic_add), *(Array(numpy.dtype("b"), 1),) * 3)
    with pytest.raises(TypeError, match="does not support float64 arrays"):
        _build(_kernel(jit.atomic_max), *(Array(numpy.dtype("d"), 1),) * 3)


def _vals(name, dt, rng):
    if name in ("atomic_inc", "atomic_dec"):
        return numpy.full(THREADS, 10, dt)  # the wrap-around bound
    if dt.kind == "f":
        return (rng.integers(-8, 8, THREADS) / 4).astype(dt)  # exact sums in any order
    if dt.kind == "u":
        return rng.integers(0, 1000, THREADS).astype(dt)
    return rng.integers(-1000, 1000, THREADS).astype(dt)


_FINAL = {
    "atomic_add": lambda a0, v: a0 + v.sum(dtype=v.dtype),
    "atomic_sub": lambda a0, v: a0 - v.sum(dtype=v.dtype),
    "atomic_min": lambda a0, v: min(a0, v.min()),
    "atomic_max": lambda a0, v: max(a0, v.max()),
    "atomic_and": lambda a0, v: numpy.bitwise_and.reduce(numpy.append(v, a0)),
    "atomic_or": lambda a0, v: numpy.bitwise_or.reduce(numpy.append(v, a0)),
    "atomic_xor": lambda a0, v: numpy.bitwise_xor.reduce(numpy.append(v, a0)),
}


@pytest.mark.gpu
@pytest.mark.parametrize("name,dt", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_atomic_against_numpy(name, dt):
    rng = numpy.random.default_rng(0)
    v = _vals(name, dt, rng)
    a0 = dt.type(3)
    a = cuarray.asarray(numpy.array([a0], dt))
    old = cuarray.zeros(THREADS, dt)
    jit.rawkernel()(_kernel(getattr(jit, name)))((1,), (THREADS,), (a, old, cuarray.asarray(v)))
    got, olds = a.get()[0], old.get()
    with numpy.errstate(over="ignore"):
        if name in _FINAL:
            assert got == _FINAL[name](a0, v)
        elif name == "atomic_exch":
            # the final value is the last thread's; every other value was seen as `old` once
            seen = sorted(olds.tolist() + [got])
            assert seen == sorted(v.tolist() + [a0])
        else:  # inc/dec with bound 10: a count modulo 11, whatever the order
            step = 1 if name == "atomic_inc" else -1
            assert got == (int(a0) + step * THREADS) % 11
    if name in ("atomic_add", "atomic_sub", "atomic_exch"):
        assert a0 in olds.tolist() or name == "atomic_exch" and got == a0  # one thread saw the start


@pytest.mark.gpu
@pytest.mark.parametrize("dt", CAS, ids=str)
def test_atomic_cas_against_numpy(dt):
    a = cuarray.zeros(1, dt)
    old = cuarray.zeros(THREADS, dt)
    k = jit.rawkernel()(_cas_kernel())
    k((1,), (THREADS,), (a, old))
    # the value only ever moves from t to t + 1, starting at 0: thread t succeeds only when
    # the value is t, so the value ends at the number of consecutive successes
    got = int(a.get()[0])
    olds = old.get().astype(numpy.int64)
    assert 1 <= got <= THREADS
    assert all(olds[t] == t for t in range(got))
