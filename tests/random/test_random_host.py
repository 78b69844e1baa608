"""The GPU tests of cuarray.random, run on the CPU: device arrays are stood in for by a
NumPy subclass, and every kernel launch runs the real kernel source built as host C++
(see test_random_kernels). This exercises the Python layer end to end (parameters, shapes,
validation, counters, kernel arguments) on machines without a GPU; the GPU run of
test_random_gpu remains the test of the device itself.
"""
import os
import shutil
import subprocess
import tempfile

import numpy
import pytest

import cuarray
import cuarray.random as cr
from cuarray.random import _bit_generator, _distributions, _generator, _kernels as K

import test_random_kernels as host
import test_random_gpu as gpu

pytestmark = pytest.mark.slow


class FakeArray(numpy.ndarray):
    """A NumPy array standing in for a cuarray.ndarray."""

    @classmethod
    def _alloc(cls, shape, dtype, order="C"):
        a = numpy.empty(shape, dtype).view(cls)
        a.reshape(-1).view(numpy.uint8)[...] = 0xA7  # never-written outputs show up
        return a

    @property
    def _c_contig(self):
        return self.flags.c_contiguous

    @property
    def _f_contig(self):
        return self.flags.f_contiguous

    def get(self):
        return numpy.array(self)


def _fake(x):
    return x.view(FakeArray) if isinstance(x, numpy.ndarray) else x


def _wrap(fn):
    return lambda *a, **k: _fake(fn(*[numpy.asarray(v) if isinstance(v, FakeArray) else v
                                       for v in a], **k))


class _HostLib:
    """Kernels built for the host: all of `all_kernels()` at once, others on demand."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="cuarray_random_api_")
        self.libs = {}
        self.add(K.all_kernels())

    def add(self, kernels):
        cxx = shutil.which("g++") or shutil.which("c++")
        src = host._PRELUDE + K.LIBRARY + host._KAT + "".join(
            f"namespace k{i} {{\n{w}\n}}\n" for i, (_, w) in enumerate(kernels))
        base = os.path.join(self.dir, f"k{len(self.libs)}")
        with open(base + ".cpp", "w") as fh:
            fh.write(src)
        r = subprocess.run([cxx, "-std=c++17", "-O1", "-shared", "-fPIC", "-Wno-unknown-pragmas",
                            "-o", base + ".so", base + ".cpp"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[:4000]
        h = host._Host(base + ".so", kernels)
        for name, _ in kernels:
            self.libs[name] = h

    def get(self, name, wrapper):
        if name not in self.libs:
            self.add([(name, wrapper)])
        return self.libs[name]


class _Fn:
    num_regs = 32


class FakeKernel(_bit_generator._Kernel):
    """A kernel whose launch runs every thread of the grid on the host."""

    def __init__(self, lib, name):
        super().__init__(_Fn())
        self.lib, self.name = lib, name

    def __call__(self, grid, args):
        conv = []
        for a in args:
            if isinstance(a, numpy.ndarray):
                assert a.flags.c_contiguous or a.flags.f_contiguous
                conv.append(a)
            elif isinstance(a, numpy.generic):
                conv.append(a.item())
            else:
                conv.append(a)
        self.lib.run(self.name, grid, _bit_generator._BLOCK, *conv)


@pytest.fixture(scope="module", autouse=True)
def fake_device():
    if not (shutil.which("g++") or shutil.which("c++")):
        pytest.skip("no C++ compiler to build the kernels for the host")
    libs = _HostLib()
    built = {}

    def kernel(builder, *args):
        key = (builder, args)
        if key not in built:
            name, wrapper = builder(*args)
            built[key] = FakeKernel(libs.get(name, wrapper), name)
        return built[key]

    def asarray(a, dtype=None, order=None):
        return numpy.array(a, dtype=dtype).view(FakeArray)

    def argsort(a, axis=-1):
        return numpy.argsort(numpy.asarray(a), axis=axis, kind="stable").view(FakeArray)

    with pytest.MonkeyPatch.context() as mp:
        for mod in (_bit_generator, _distributions, _generator):
            mp.setattr(mod, "ndarray", FakeArray)
        mp.setattr(_bit_generator, "kernel", kernel)
        mp.setattr(_distributions, "kernel", kernel)
        mp.setattr(_bit_generator, "properties", lambda dev: {"sm_count": 2})
        mp.setattr(_bit_generator, "get_device_id", lambda: 0)
        mp.setattr(_generator, "get_device_id", lambda: 0)
        mp.setattr(_bit_generator._StatefulBitGenerator, "_default_size", 512)
        mp.setattr(cuarray, "ndarray", FakeArray)
        mp.setattr(cuarray, "asarray", asarray)
        mp.setattr(cuarray, "argsort", argsort, raising=False)
        mp.setattr(cuarray, "empty", lambda shape, dtype=float: FakeArray._alloc(
            (shape,) if isinstance(shape, int) else tuple(shape), numpy.dtype(dtype)))
        for name in ("zeros", "arange", "take", "take_along_axis", "cumsum", "broadcast_to",
                     "sqrt", "abs", "any", "allclose"):
            mp.setattr(cuarray, name, _wrap(getattr(numpy, name)), raising=False)
        linalg = type("linalg", (), {n: staticmethod(_wrap(getattr(numpy.linalg, n)))
                                     for n in ("cholesky", "svd", "eigh")})
        mp.setattr(cuarray, "linalg", linalg, raising=False)
        mp.setitem(__import__("sys").modules, "cuarray.linalg", linalg)
        cr.reset_states()
        yield
        cr.reset_states()


# The GPU test bodies, unchanged, under the host stand-in.
test_continuous = gpu.test_continuous
test_continuous_float32 = gpu.test_continuous_float32
test_discrete = gpu.test_discrete
test_bit_generators = gpu.test_bit_generators
test_same_seed_same_numbers_and_different_seeds_differ = \
    gpu.test_same_seed_same_numbers_and_different_seeds_differ
test_counter_advances_by_the_blocks_used = gpu.test_counter_advances_by_the_blocks_used
test_values_match_the_philox_reference = gpu.test_values_match_the_philox_reference
test_results_do_not_depend_on_the_launch_configuration = \
    gpu.test_results_do_not_depend_on_the_launch_configuration
test_unaligned_output_gives_the_same_values = gpu.test_unaligned_output_gives_the_same_values
test_global_state_and_seed = gpu.test_global_state_and_seed
test_size_none_gives_0d_arrays = gpu.test_size_none_gives_0d_arrays
test_shapes_and_dtypes = gpu.test_shapes_and_dtypes
test_array_parameters_broadcast = gpu.test_array_parameters_broadcast
test_device_parameter_errors = gpu.test_device_parameter_errors
test_randint_ranges_and_dtypes = gpu.test_randint_ranges_and_dtypes
test_choice_permutation_shuffle = gpu.test_choice_permutation_shuffle
test_multivariate = gpu.test_multivariate
test_out_argument_and_bytes = gpu.test_out_argument_and_bytes
