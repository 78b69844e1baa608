"""Texture and surface objects read and written by RawKernels (CuPy's texture examples)."""
import numpy
import pytest

import cuarray
from cuarray.cuda import runtime as rt
from cuarray.cuda import texture

pytestmark = pytest.mark.gpu

_TEX2D = r'''
extern "C" __global__ void lookup(float* out, cudaTextureObject_t tex, int width, int height,
                                  float dx, float dy) {
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[y * width + x] = tex2D<float>(tex, x + dx, y + dy);
}
'''

_SURF = r'''
extern "C" __global__ void fill(cudaSurfaceObject_t surf, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        surf2Dwrite((float)(x * 100 + y), surf, x * sizeof(float), y);
}
'''


def _texture(width, height, filter_mode, data):
    ch = texture.ChannelFormatDescriptor(32, 0, 0, 0, rt.cudaChannelFormatKindFloat)
    arr = texture.CUDAarray(ch, width, height)
    res = texture.ResourceDescriptor(rt.cudaResourceTypeArray, cuArr=arr)
    desc = texture.TextureDescriptor((rt.cudaAddressModeClamp, rt.cudaAddressModeClamp),
                                     filter_mode, rt.cudaReadModeElementType)
    obj = texture.TextureObject(res, desc)
    arr.copy_from(data)
    return arr, obj


def test_point_lookup_reproduces_cupys_example():
    width, height = 8, 16
    data = cuarray.arange(width * height, dtype=numpy.float32).reshape(height, width)
    arr, tex = _texture(width, height, rt.cudaFilterModePoint, data)
    expected = cuarray.zeros_like(data)
    arr.copy_to(expected)
    numpy.testing.assert_array_equal(expected.get(), data.get())
    out = cuarray.zeros_like(data)
    k = cuarray.RawKernel(_TEX2D, "lookup")
    k((1, 1), (width, height), (out, tex, numpy.int32(width), numpy.int32(height),
                                numpy.float32(0), numpy.float32(0)))
    numpy.testing.assert_array_equal(out.get(), data.get())


def test_linear_filtering_interpolates():
    width, height = 8, 16
    rng = numpy.random.default_rng(50)
    h = rng.standard_normal((height, width)).astype(numpy.float32)
    arr, tex = _texture(width, height, rt.cudaFilterModeLinear, h)  # from host memory
    k = cuarray.RawKernel(_TEX2D, "lookup")
    out = cuarray.empty((height, width), dtype=numpy.float32)
    # at texel centres linear filtering returns the texels themselves
    k((1, 1), (width, height), (out, tex, numpy.int32(width), numpy.int32(height),
                                numpy.float32(0.5), numpy.float32(0.5)))
    numpy.testing.assert_allclose(out.get(), h, rtol=1e-6)
    # half-way between columns: the mean of neighbours (the last column clamps)
    k((1, 1), (width, height), (out, tex, numpy.int32(width), numpy.int32(height),
                                numpy.float32(1.0), numpy.float32(0.5)))
    right = numpy.concatenate([h[:, 1:], h[:, -1:]], axis=1)
    numpy.testing.assert_allclose(out.get(), (h + right) / 2, rtol=1e-2, atol=1e-2)
    back = numpy.empty_like(h)
    arr.copy_to(back)
    numpy.testing.assert_array_equal(back, h)


def test_surface_write_and_3d_array():
    width, height = 8, 4
    ch = texture.ChannelFormatDescriptor(32, 0, 0, 0, rt.cudaChannelFormatKindFloat)
    arr = texture.CUDAarray(ch, width, height, flags=rt.cudaArraySurfaceLoadStore)
    surf = texture.SurfaceObject(texture.ResourceDescriptor(rt.cudaResourceTypeArray,
                                                            cuArr=arr))
    cuarray.RawKernel(_SURF, "fill")((1, 1), (width, height), (surf, numpy.int32(width),
                                                              numpy.int32(height)))
    out = cuarray.empty((height, width), dtype=numpy.float32)
    arr.copy_to(out)
    x, y = numpy.meshgrid(numpy.arange(width), numpy.arange(height))
    numpy.testing.assert_array_equal(out.get(), x * 100 + y)
    arr3 = texture.CUDAarray(ch, 4, 3, 2)
    data = cuarray.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    arr3.copy_from(data)
    back = cuarray.zeros_like(data)
    arr3.copy_to(back)
    numpy.testing.assert_array_equal(back.get(), data.get())


def test_texture_errors():
    ch = texture.ChannelFormatDescriptor(32, 0, 0, 0, rt.cudaChannelFormatKindFloat)
    with pytest.raises(ValueError, match="channel widths"):
        texture.ChannelFormatDescriptor(12, 0, 0, 0, rt.cudaChannelFormatKindFloat)
    arr = texture.CUDAarray(ch, 4, 4)
    with pytest.raises(ValueError, match="holds"):
        arr.copy_from(cuarray.zeros(3, dtype=numpy.float32))
    with pytest.raises(TypeError):
        texture.ResourceDescriptor(rt.cudaResourceTypeArray)
    with pytest.raises(ValueError, match="surface"):
        texture.SurfaceObject(texture.ResourceDescriptor(
            rt.cudaResourceTypeLinear, arr=cuarray.zeros(4, dtype=numpy.float32), chDesc=ch))
