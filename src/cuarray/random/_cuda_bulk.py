"""CUDA C of cuarray.random, last part: the bulk kernels' templates (`bulk_fill` and the
`Make*` functors), W outputs per Philox block with vector stores when aligned.

One of the three pieces of `_kernels.LIBRARY` (after _cuda_generators.py and
_cuda_distributions.py).
"""

BULK = r"""
// ---- bulk kernels: W outputs per Philox block, vector stores when aligned ------------------
template <int W, class T> struct alignas(W * sizeof(T) < 16 ? W * sizeof(T) : 16) Pack { T v[W]; };

template <int W, class T, class Make>
__device__ __forceinline__ void bulk_fill(T* __restrict__ out, u64 n, uint2 k, u64 ctr,
                                          const Make& make) {
  const u64 nq = n / W, stride = (u64)gridDim.x * blockDim.x;
  u64 q = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (reinterpret_cast<u64>(out) % alignof(Pack<W, T>) == 0) {
    Pack<W, T>* po = reinterpret_cast<Pack<W, T>*>(out);
    for (; q < nq; q += stride) {
      Pack<W, T> p;
      make(philox_block(k, ctr + q, 0u, 0u), ctr + q, p.v);
      po[q] = p;
    }
  } else {
    for (; q < nq; q += stride) {
      T v[W];
      make(philox_block(k, ctr + q, 0u, 0u), ctr + q, v);
#pragma unroll
      for (int l = 0; l < W; ++l) out[q * W + l] = v[l];
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && nq * W < n) {  // the partial last block
    T v[W];
    make(philox_block(k, ctr + nq, 0u, 0u), ctr + nq, v);
#pragma unroll
    for (int l = 0; l < W; ++l)
      if (nq * W + l < n) out[nq * W + l] = v[l];
  }
}

template <bool OPEN, class F> struct MakeUniformF32 {
  F f;
  __device__ __forceinline__ float u(u32 x) const { return OPEN ? unit_f32_open(x) : unit_f32(x); }
  __device__ __forceinline__ void operator()(const uint4& r, u64, float* v) const {
    v[0] = f(u(r.x)); v[1] = f(u(r.y)); v[2] = f(u(r.z)); v[3] = f(u(r.w));
  }
};
template <bool OPEN, class F> struct MakeUniformF64 {
  F f;
  __device__ __forceinline__ double u(u32 a, u32 b) const {
    return OPEN ? unit_f64_open(a, b) : unit_f64(a, b);
  }
  __device__ __forceinline__ void operator()(const uint4& r, u64, double* v) const {
    v[0] = f(u(r.x, r.y)); v[1] = f(u(r.z, r.w));
  }
};
template <class F> struct MakeNormalF32 {
  F f;
  __device__ __forceinline__ void operator()(const uint4& r, u64, float* v) const {
    float z0, z1, z2, z3;
    box_muller_f32(r.x, r.y, z0, z1);
    box_muller_f32(r.z, r.w, z2, z3);
    v[0] = f(z0); v[1] = f(z1); v[2] = f(z2); v[3] = f(z3);
  }
};
template <class F> struct MakeNormalF64 {
  F f;
  __device__ __forceinline__ void operator()(const uint4& r, u64, double* v) const {
    double z0, z1;
    box_muller_f64(r, z0, z1);
    v[0] = f(z0); v[1] = f(z1);
  }
};
struct MakeRaw {
  __device__ __forceinline__ void operator()(const uint4& r, u64, u32* v) const {
    v[0] = r.x; v[1] = r.y; v[2] = r.z; v[3] = r.w;
  }
};

// [lo, lo + range) for range <= 2^32, one word per output (Lemire). A rejected lane l
// redraws from its own stream (position, tag 1 + l), so no other output moves. The
// redraw is rare: one loop rotates through the lanes, so its engine is inlined once.
template <class T> struct MakeBounded32 {
  uint2 k; u64 range, lo; u32 thresh;
  __device__ __forceinline__ void operator()(const uint4& w, u64 pos, T* v) const {
    u32 x0 = w.x, x1 = w.y, x2 = w.z, x3 = w.w;
    if (range > 0xFFFFFFFFull) {  // the full 32-bit range
      v[0] = (T)(lo + x0); v[1] = (T)(lo + x1); v[2] = (T)(lo + x2); v[3] = (T)(lo + x3);
      return;
    }
    const u32 r = (u32)range;
    if (x0 * r < thresh || x1 * r < thresh || x2 * r < thresh || x3 * r < thresh) {
#pragma unroll 1
      for (u32 lane = 0; lane < 4; ++lane) {  // x0 is the current lane; rotate after
        if (x0 * r < thresh) {
          PhiloxEngine e(k, pos, 1u + lane);
          do { x0 = e.next(); } while (x0 * r < thresh);
        }
        const u32 t = x0; x0 = x1; x1 = x2; x2 = x3; x3 = t;
      }
    }
    v[0] = (T)(lo + __umulhi(x0, r)); v[1] = (T)(lo + __umulhi(x1, r));
    v[2] = (T)(lo + __umulhi(x2, r)); v[3] = (T)(lo + __umulhi(x3, r));
  }
};
// [lo, lo + rm1] for wider ranges, two words per output (Lemire, 64-bit).
template <class T> struct MakeBounded64 {
  uint2 k; u64 rm1, lo, thresh;
  __device__ __forceinline__ void operator()(const uint4& w, u64 pos, T* v) const {
    u64 x0 = ((u64)w.x << 32) | w.y, x1 = ((u64)w.z << 32) | w.w;
    if (rm1 == ~0ull) { v[0] = (T)(lo + x0); v[1] = (T)(lo + x1); return; }
    const u64 r = rm1 + 1ull;
    if (x0 * r < thresh || x1 * r < thresh) {
#pragma unroll 1
      for (u32 lane = 0; lane < 2; ++lane) {
        if (x0 * r < thresh) {
          PhiloxEngine e(k, pos, 1u + lane);
          do { const u64 hi = e.next(); x0 = (hi << 32) | e.next(); } while (x0 * r < thresh);
        }
        const u64 t = x0; x0 = x1; x1 = t;
      }
    }
    v[0] = (T)(lo + __umul64hi(x0, r)); v[1] = (T)(lo + __umul64hi(x1, r));
  }
};
"""
