"""CuPy's `cupy.cuda.runtime`: device, memory, stream, event and graph calls on int handles."""
from cuarray._runtime.driver import CUDARuntimeError  # noqa: F401
from cuarray._runtime.runtime_api import *  # noqa: F401,F403
from cuarray._runtime.runtime_api import (  # noqa: F401
    PointerAttributes, get_build_version, get_local_runtime_version, is_hip)
from cuarray._runtime import runtime_api as _api

_attrs = None


def __getattr__(name):
    # The `cudaDevAttr*` constants come from the driver's enum, read on first use so that
    # `import cuarray` does not load cuda.bindings.
    global _attrs
    if name.startswith("cudaDevAttr"):
        if _attrs is None:
            table = {}
            _api._fill_attribute_constants(table)
            _attrs = table
        if name in _attrs:
            return _attrs[name]
    raise AttributeError(f"module 'cuarray.cuda.runtime' has no attribute {name!r}")

from cuarray._runtime.texture import (  # noqa: E402,F401  (texture constants, as CuPy's runtime)
    cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned, cudaChannelFormatKindFloat,
    cudaChannelFormatKindNone, cudaResourceTypeArray, cudaResourceTypeMipmappedArray,
    cudaResourceTypeLinear, cudaResourceTypePitch2D, cudaAddressModeWrap, cudaAddressModeClamp,
    cudaAddressModeMirror, cudaAddressModeBorder, cudaFilterModePoint, cudaFilterModeLinear,
    cudaReadModeElementType, cudaReadModeNormalizedFloat, cudaArrayDefault,
    cudaArraySurfaceLoadStore)
