// cuComplex.h's API for RawKernel(..., translate_cucomplex=True), without the CUDA toolkit.
#pragma once
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
__host__ __device__ inline float cuCrealf(cuFloatComplex x) { return x.x; }
__host__ __device__ inline float cuCimagf(cuFloatComplex x) { return x.y; }
__host__ __device__ inline cuFloatComplex make_cuFloatComplex(float r, float i) { cuFloatComplex z; z.x = r; z.y = i; return z; }
__host__ __device__ inline cuFloatComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
__host__ __device__ inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
__host__ __device__ inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x + b.x, a.y + b.y); }
__host__ __device__ inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x - b.x, a.y - b.y); }
__host__ __device__ inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__host__ __device__ inline cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) {
  float s = fabsf(b.x) + fabsf(b.y), oos = 1.0f / s;
  float ars = a.x * oos, ais = a.y * oos, brs = b.x * oos, bis = b.y * oos;
  s = 1.0f / (brs * brs + bis * bis);
  return make_cuFloatComplex((ars * brs + ais * bis) * s, (ais * brs - ars * bis) * s);
}
__host__ __device__ inline float cuCabsf(cuFloatComplex x) { return hypotf(x.x, x.y); }
__host__ __device__ inline double cuCreal(cuDoubleComplex x) { return x.x; }
__host__ __device__ inline double cuCimag(cuDoubleComplex x) { return x.y; }
__host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { cuDoubleComplex z; z.x = r; z.y = i; return z; }
__host__ __device__ inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
__host__ __device__ inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x + b.x, a.y + b.y); }
__host__ __device__ inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x - b.x, a.y - b.y); }
__host__ __device__ inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__host__ __device__ inline cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) {
  double s = fabs(b.x) + fabs(b.y), oos = 1.0 / s;
  double ars = a.x * oos, ais = a.y * oos, brs = b.x * oos, bis = b.y * oos;
  s = 1.0 / (brs * brs + bis * bis);
  return make_cuDoubleComplex((ars * brs + ais * bis) * s, (ais * brs - ars * bis) * s);
}
__host__ __device__ inline double cuCabs(cuDoubleComplex x) { return hypot(x.x, x.y); }
__host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) { return make_cuDoubleComplex(c.x, c.y); }
__host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) { return make_cuFloatComplex((float)c.x, (float)c.y); }
