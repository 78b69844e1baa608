"""The one-thread and chunked raw kernels of cuarray.scipy.signal (root grouping, maximum
length sequences, ridge lines, Remez exchange) compile with NVRTC for sm_90 without a GPU."""
import os

import pytest

from cuarray._core import dtypes

INCLUDE = os.path.join(os.path.dirname(dtypes.__file__), "include")


def _nvrtc(source):
    pytest.importorskip("cuda.core")
    from cuda.core import Program, ProgramOptions
    opts = ProgramOptions(arch="sm_90", std="c++17", include_path=[INCLUDE])
    return Program(source, "c++", opts).compile("cubin")


def _source(module, subs):
    src = "#include <cuarray/core.cuh>\n" + module._SRC
    for k, v in subs.items():
        src = src.replace("{" + k + "}", str(v))
    return src


@pytest.mark.parametrize("name,subs", [("_residues", {}), ("_max_len_seq", {"W": 1}),
                                       ("_max_len_seq", {"W": 3}), ("_peaks_cwt", {"NT": 32}),
                                       ("_remez", {})])
def test_compiles(name, subs):
    import importlib
    module = importlib.import_module(f"cuarray.scipy.signal.{name}")
    src = _source(module, subs)
    assert "{W}" not in src and "{NT}" not in src
    assert len(_nvrtc(src).code) > 0
