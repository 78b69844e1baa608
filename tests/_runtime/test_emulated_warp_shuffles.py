"""The CPU emulator's warp shuffles agree with the GPU's definitions (a butterfly sum with
__shfl_xor_sync, a prefix sum with __shfl_up_sync), and on the GPU itself."""
import numpy

SOURCE = r"""
extern "C" __global__ void warp_sums(const float* x, float* total, float* prefix) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i], s = v;
  for (int d = 16; d >= 1; d /= 2) s += __shfl_xor_sync(0xffffffffu, s, d);
  total[i] = s;
  float p = v;
  for (int d = 1; d < 32; d *= 2) {
    const float u = __shfl_up_sync(0xffffffffu, p, d);
    if ((threadIdx.x & 31) >= d) p += u;
  }
  prefix[i] = p;
}
"""


def test_butterfly_and_prefix_sums(cp):
    x = numpy.arange(64, dtype=numpy.float32)
    a = cp.asarray(x)
    total, prefix = cp.empty_like(a), cp.empty_like(a)
    cp.RawKernel(SOURCE, "warp_sums")((1,), (64,), (a, total, prefix))
    warps = x.reshape(2, 32)
    numpy.testing.assert_array_equal(total.get(), numpy.repeat(warps.sum(1), 32))
    numpy.testing.assert_array_equal(prefix.get(), numpy.cumsum(warps, axis=1).ravel())
