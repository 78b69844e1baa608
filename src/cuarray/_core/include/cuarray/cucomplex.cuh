// cuComplex.h's API for RawKernel(..., translate_cucomplex=True), without the CUDA toolkit.
#pragma once
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
__host__ __device__ inline cuFloatComplex make_cuFloatComplex(float r, float i) { cuFloatComplex z; z.x = r; z.y = i; return z; }
__host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { cuDoubleComplex z; z.x = r; z.y = i; return z; }
__host__ __device__ inline cuFloatComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
// The arithmetic of one precision: R the real type, C the complex one, S the name suffix
// ("f" for float, none for double), MAKE its constructor, FABS and HYPOT its math.
#define CUARRAY_CUCOMPLEX_OPS(R, C, S, MAKE, FABS, HYPOT) \
__host__ __device__ inline R cuCreal##S(C x) { return x.x; } \
__host__ __device__ inline R cuCimag##S(C x) { return x.y; } \
__host__ __device__ inline C cuConj##S(C x) { return MAKE(x.x, -x.y); } \
__host__ __device__ inline C cuCadd##S(C a, C b) { return MAKE(a.x + b.x, a.y + b.y); } \
__host__ __device__ inline C cuCsub##S(C a, C b) { return MAKE(a.x - b.x, a.y - b.y); } \
__host__ __device__ inline C cuCmul##S(C a, C b) { return MAKE(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); } \
__host__ __device__ inline C cuCdiv##S(C a, C b) { \
  R s = FABS(b.x) + FABS(b.y), oos = (R)1 / s; \
  R ars = a.x * oos, ais = a.y * oos, brs = b.x * oos, bis = b.y * oos; \
  s = (R)1 / (brs * brs + bis * bis); \
  return MAKE((ars * brs + ais * bis) * s, (ais * brs - ars * bis) * s); \
} \
__host__ __device__ inline R cuCabs##S(C x) { return HYPOT(x.x, x.y); }
CUARRAY_CUCOMPLEX_OPS(float, cuFloatComplex, f, make_cuFloatComplex, fabsf, hypotf)
CUARRAY_CUCOMPLEX_OPS(double, cuDoubleComplex, , make_cuDoubleComplex, fabs, hypot)
#undef CUARRAY_CUCOMPLEX_OPS
__host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) { return make_cuDoubleComplex(c.x, c.y); }
__host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) { return make_cuFloatComplex((float)c.x, (float)c.y); }
