"""Euclidean distances of float32 rows in one kernel: each block forms a 128 x 128 tile of
XA @ XB.T in registers (a thread holds 8 x 8 sums; 16-coordinate slices of both operands
go through shared memory, the next slice loading while this one is summed) and writes
the tile's float64 distances |a|^2 + |b|^2 - 2 a.b (clamped at 0, rooted for euclidean)
straight from the sums. The squared norms are summed in double from the same loaded
slices, so nothing runs before the kernel. The product never goes to memory: the float64 result is the only
full-size traffic, as a GEMM's own output would be.
"""
import numpy

from cuarray._core._kernel_helpers import kernel, render
from cuarray._runtime.launch import LaunchPlan

TILE = 128
MAX_ROW_TILES = 65535   # the grid's y extent: tiles of XA's rows
_SRC = r"""
#include <cuarray/core.cuh>
#define BM 128
#define BK 16
// Thread (tx, ty) of 16 x 16 holds rows ty*4 + {0..3} and 64 + ty*4 + {0..3} of the tile,
// and the same pattern of columns by tx: its shared-memory reads are 16-byte vectors.
extern "C" __global__ void __launch_bounds__(256, 2)
${NAME}(const float* __restrict__ xa, const float* __restrict__ xb, long long ma, long long mb, long long n, double* __restrict__ y) {
  __shared__ __align__(16) float As[2][BK][BM];
  __shared__ __align__(16) float Bs[2][BK][BM];
  __shared__ double nA[BM], nB[BM];
  const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
  const long long r0 = (long long)blockIdx.y * BM, c0 = (long long)blockIdx.x * BM;
  // the loader: thread tid brings 8 coordinates (from lk) of row lr of each operand
  const int lr = tid >> 1, lk = (tid & 1) * 8;
  const bool ina = r0 + lr < ma, inb = c0 + lr < mb;
  const float* pa = xa + (ina ? (r0 + lr) * n : 0);
  const float* pb = xb + (inb ? (c0 + lr) * n : 0);
  float la[8], lb[8];
  double sa = 0.0, sb = 0.0;   // this thread's half of row lr's squared norms
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  auto load = [&](long long k0) {
    const long long k = k0 + lk;
#if ${VEC}
    if (k + 8 <= n) {
      const float4 a0 = ina ? __ldg(reinterpret_cast<const float4*>(pa + k)) : make_float4(0.f, 0.f, 0.f, 0.f);
      const float4 a1 = ina ? __ldg(reinterpret_cast<const float4*>(pa + k) + 1) : make_float4(0.f, 0.f, 0.f, 0.f);
      const float4 b0 = inb ? __ldg(reinterpret_cast<const float4*>(pb + k)) : make_float4(0.f, 0.f, 0.f, 0.f);
      const float4 b1 = inb ? __ldg(reinterpret_cast<const float4*>(pb + k) + 1) : make_float4(0.f, 0.f, 0.f, 0.f);
      la[0] = a0.x; la[1] = a0.y; la[2] = a0.z; la[3] = a0.w;
      la[4] = a1.x; la[5] = a1.y; la[6] = a1.z; la[7] = a1.w;
      lb[0] = b0.x; lb[1] = b0.y; lb[2] = b0.z; lb[3] = b0.w;
      lb[4] = b1.x; lb[5] = b1.y; lb[6] = b1.z; lb[7] = b1.w;
      return;
    }
#endif
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      la[u] = (ina && k + u < n) ? pa[k + u] : 0.f;
      lb[u] = (inb && k + u < n) ? pb[k + u] : 0.f;
    }
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      As[buf][lk + u][lr] = la[u];
      Bs[buf][lk + u][lr] = lb[u];
      sa += (double)la[u] * (double)la[u];
      sb += (double)lb[u] * (double)lb[u];
    }
  };
  const long long steps = (n + BK - 1) / BK;
  load(0);
  store(0);
  __syncthreads();
  for (long long t = 0; t < steps; ++t) {
    const int cur = (int)(t & 1);
    if (t + 1 < steps) load((t + 1) * BK);   // in flight while this slice is summed
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k][64 + tx * 4]);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    if (t + 1 < steps) store(cur ^ 1);   // the other buffer: read by nobody since the last barrier
    __syncthreads();
  }
  sa += __shfl_xor_sync(0xffffffffu, sa, 1);   // the two halves of a row: lanes tid, tid ^ 1
  sb += __shfl_xor_sync(0xffffffffu, sb, 1);
  if ((tid & 1) == 0) {
    nA[lr] = sa;
    nB[lr] = sb;
  }
  __syncthreads();
  double bv[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) bv[j] = nB[j < 4 ? tx * 4 + j : 64 + tx * 4 + j - 4];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const long long r = r0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
    if (r >= ma) continue;
    const double ar = nA[i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4];
    double* yr = y + r * mb;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const long long c = c0 + h * 64 + tx * 4;
      double o[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const double d2 = fmax(ar + bv[h * 4 + q] - 2.0 * (double)acc[i][h * 4 + q], 0.0);
        o[q] = ${RESULT};
      }
#if ${VEC_OUT}
      if (c + 4 <= mb) {
        __stcs(reinterpret_cast<double2*>(yr + c), make_double2(o[0], o[1]));
        __stcs(reinterpret_cast<double2*>(yr + c) + 1, make_double2(o[2], o[3]));
        continue;
      }
#endif
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (c + q < mb) yr[c + q] = o[q];
    }
  }
}
"""


def distances(XA, XB, root, out):
    """out[r, c] = the Euclidean (or squared, unless `root`) distance of float32 rows XA[r]
    and XB[c] (C-contiguous); `out` is C-contiguous float64."""
    ma, mb, n = XA.shape[0], XB.shape[0], XA.shape[1]
    vec = n % 4 == 0 and XA._ptr % 16 == 0 and XB._ptr % 16 == 0
    vec_out = mb % 2 == 0 and out._ptr % 16 == 0
    name = f"cuarray_cdist_tiles_{int(root)}{int(vec)}{int(vec_out)}"
    fn, packer = kernel(("cdist-tiles-norms", root, vec, vec_out), lambda: (
        render(_SRC, NAME=name, RESULT="sqrt(d2)" if root else "d2", VEC=int(vec),
               VEC_OUT=int(vec_out)),
        name, ["P", "P", "q", "q", "q", "P"]))
    grid = ((mb + TILE - 1) // TILE, (ma + TILE - 1) // TILE, 1)
    LaunchPlan(fn, packer, grid, (256, 1, 1)).launch(
        [XA._ptr, XB._ptr, ma, mb, n, out._ptr])
