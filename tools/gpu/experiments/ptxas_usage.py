"""Registers, spills and shared memory of generated kernels, from ptxas (CPU: NVRTC only).

    python tools/gpu/experiments/ptxas_usage.py
"""
import numpy
from cuda.bindings import nvrtc

from cuarray._core import _argwhole
from cuarray._core.scan import ScanOp
from cuarray._runtime.compiler import INCLUDE_DIR


def usage(src, name="k"):
    _, prog = nvrtc.nvrtcCreateProgram(src.encode(), (name + ".cu").encode(), 0, [], [])
    opts = [b"-arch=sm_90", f"-I{INCLUDE_DIR}".encode(), b"--std=c++17", b"--ptxas-options=-v"]
    nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    _, size = nvrtc.nvrtcGetProgramLogSize(prog)
    log = b" " * size
    nvrtc.nvrtcGetProgramLog(prog, log)
    lines = log.decode(errors="replace").splitlines()
    return " | ".join(ln.strip() for ln in lines if "Used" in ln or "spill" in ln or "error" in ln)


if __name__ == "__main__":
    f32 = numpy.dtype(numpy.float32)
    op = ScanOp("cuarray_cumsum_ff", f32, f32, "x", "a + b", None)
    for block, items, min_blocks, keep in [(256, 16, 0, True), (256, 16, 8, True), (256, 16, 8, False),
                                           (128, 16, 16, False), (256, 24, 8, False), (512, 16, 4, False)]:
        src = op._source_lookback(f32, f32, block, items, False, True, False, True, min_blocks, keep)
        print(f"scan block={block} items={items} min_blocks={min_blocks} keep={keep}:", usage(src))
    print("argwhole float32:", usage(_argwhole.source(f32, True)))
