"""Euclidean and squared Euclidean `cdist` of float32 points in one tiled kernel.

|a - b|^2 = |a|^2 + |b|^2 - 2 a.b: a block computes a 128 x 128 tile of a.b the way a GEMM
does (both operands staged through shared memory 16 coordinates at a time, each thread
accumulating 8 x 8 products in registers, in float32 as cuBLAS's sgemm would), then adds
the norms in double, clamps at 0, takes the root and writes the float64 tile. A GEMM
followed by an elementwise pass writes the (mA, mB) product to memory and reads it back
(for float32, half the bytes of the float64 result, twice); here the float64 result is
the only full-size traffic.
"""
import numpy

from cuarray._core._kernel_helpers import kernel, launch_grid, render

_TILE = 128      # rows of XA and of XB per block
_KC = 16         # coordinates staged per step

_SRC = r"""
#include <cuarray/core.cuh>
// Thread (tx, ty) of 16 x 16 owns rows ty*4 + {0..3} and 64 + ty*4 + {0..3} of the tile,
// and columns tx*4 + {0..3} and 64 + tx*4 + {0..3}: shared-memory reads are 16-byte
// vectors and a warp's stores are runs of 32 consecutive doubles.
extern "C" __global__ void __launch_bounds__(256) ${NAME}(
    const float* __restrict__ xa, const float* __restrict__ xb, const double* __restrict__ aa,
    const double* __restrict__ bb, double* __restrict__ out, long long ma, long long mb,
    long long n) {
  __shared__ __align__(16) float as[${KC}][${TILE}];
  __shared__ __align__(16) float bs[${KC}][${TILE}];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
  const long long r0 = (long long)blockIdx.y * ${TILE}, c0 = (long long)blockIdx.x * ${TILE};
  float acc[8][8];
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    #pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  }
  // staging: thread t loads 8 coordinates (k0 + (t & 1) * 8 ...) of row t >> 1 of each tile
  const int lr = t >> 1, lk = (t & 1) * 8;
  const long long ra = r0 + lr, rb = c0 + lr;
  for (long long k0 = 0; k0 < n; k0 += ${KC}) {
    #pragma unroll
    for (int q = 0; q < 8; ++q) {
      const long long k = k0 + lk + q;
      as[lk + q][lr] = (ra < ma && k < n) ? xa[ra * n + k] : 0.f;
      bs[lk + q][lr] = (rb < mb && k < n) ? xb[rb * n + k] : 0.f;
    }
    __syncthreads();
    #pragma unroll
    for (int kk = 0; kk < ${KC}; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(&as[kk][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&as[kk][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&bs[kk][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&bs[kk][64 + tx * 4]);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
      #pragma unroll
      for (int i = 0; i < 8; ++i) {
        #pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    __syncthreads();
  }
  #pragma unroll
  for (int i = 0; i < 8; ++i) {
    const long long r = r0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
    if (r >= ma) continue;
    const double ar = aa[r];
    double* row = out + r * mb;
    #pragma unroll
    for (int j = 0; j < 8; ++j) {
      const long long c = c0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + j - 4);
      if (c < mb) {
        const double d2 = fmax(ar + bb[c] - 2.0 * (double)acc[i][j], 0.0);
        row[c] = ${RESULT};
      }
    }
  }
}
"""


def tile_distances(XA, XB, aa, bb, root, out):
    """Write the (squared, unless `root`) Euclidean distances of the rows of float32,
    C-contiguous XA and XB into `out` (float64, C-contiguous); aa, bb: the rows' squared
    norms in float64."""
    name = f"cuarray_cdist_tiles_{'euclidean' if root else 'sqeuclidean'}"
    entry = kernel(("cdist-tiles", root), lambda: (
        render(_SRC, NAME=name, KC=_KC, TILE=_TILE, RESULT="sqrt(d2)" if root else "d2"),
        name, ["P", "P", "P", "P", "P", "q", "q", "q"]))
    ma, mb = XA.shape[0], XB.shape[0]
    grid = ((mb + _TILE - 1) // _TILE, (ma + _TILE - 1) // _TILE, 1)
    launch_grid(entry, grid, (16, 16, 1),
                [XA._ptr, XB._ptr, aa._ptr, bb._ptr, out._ptr, ma, mb, XA.shape[1]])
