"""CuPy's `cupy.cuda.texture`: CUDA arrays, texture and surface objects."""
from cuarray._runtime.texture import (  # noqa: F401
    ChannelFormatDescriptor, CUDAarray, ResourceDescriptor, TextureDescriptor, TextureObject,
    SurfaceObject)
