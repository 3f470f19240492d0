// The CUDA source of the fused layer-norm backward (src/cxx/fused_ln.cpp compiles it with NVRTC
// at first use, once per device, feature count and vector width). The sizes arrive as #defines
// in front of it:
//   NF  features a row (the normalized size); VEC 4 (float4 loads: NF % 4 == 0, every pointer
//   16-byte aligned) or 1; NV = NF / VEC vectors a row;
//   T   threads a row (a power of two, 32..1024), G rows at once in a block (BLOCK = T * G),
//   K   vectors each thread owns in a row: ceil(NV / T);
//   LOW the type of the forward's output y and the backward's incoming gradient dy: 0 float32,
//       1 bfloat16, 2 float16 (`setting`lncast`: under autocast, the output in autocast's type,
//       as the next linear layer would cast it). x, gamma, beta, dx and the sums stay float32.
// Thread t of a row group owns vectors t, t + T, ..., t + (K-1) T of every row it visits: its
// columns never change, so its dgamma and dbeta partial sums stay in registers across rows.
// Blocks walk the rows in steps of gridDim.x * G (every thread of a block takes the same number
// of steps, so __syncthreads is reached by all); x and dy are read from global memory once.
#pragma once

static const char* ktorch_fused_ln_source = R"CUDA(
#define NV (NF / VEC)
#define BLOCK (T * G)
#define WARPS (T / 32)

// low_t: the storage of y and dy; to_f and from_f convert one value (round to nearest even, as
// Tensor.to does). NVRTC compiles without CUDA's headers here, so the 16-bit types are their bits.
#if LOW == 0
typedef float low_t;
__device__ __forceinline__ float to_f(float v) { return v; }
__device__ __forceinline__ float from_f(float v) { return v; }
#else
typedef unsigned short low_t;
#if LOW == 1
__device__ __forceinline__ float to_f(unsigned short v) { return __uint_as_float(((unsigned)v) << 16); }
__device__ __forceinline__ unsigned short from_f(float f) {
  unsigned short h;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}
#else
__device__ __forceinline__ float to_f(unsigned short v) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v));
  return f;
}
__device__ __forceinline__ unsigned short from_f(float f) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}
#endif
#endif

// VEC values of type low_t at vector index j of row p, as floats (in: inside the row), and back
__device__ __forceinline__ void load_low(const low_t* p, int j, bool in, float* out) {
#if VEC == 4 && LOW == 0
  float4 a = in ? reinterpret_cast<const float4*>(p)[j] : make_float4(0.f, 0.f, 0.f, 0.f);
  out[0] = a.x; out[1] = a.y; out[2] = a.z; out[3] = a.w;
#elif VEC == 4
  uint2 a = in ? reinterpret_cast<const uint2*>(p)[j] : make_uint2(0u, 0u);
  out[0] = to_f((unsigned short)(a.x & 0xffffu)); out[1] = to_f((unsigned short)(a.x >> 16));
  out[2] = to_f((unsigned short)(a.y & 0xffffu)); out[3] = to_f((unsigned short)(a.y >> 16));
#else
  out[0] = in ? to_f(p[j]) : 0.f;
#endif
}
__device__ __forceinline__ void store_low(low_t* p, int j, const float* v) {
#if VEC == 4 && LOW == 0
  reinterpret_cast<float4*>(p)[j] = make_float4(v[0], v[1], v[2], v[3]);
#elif VEC == 4
  uint2 a;
  a.x = (unsigned)from_f(v[0]) | ((unsigned)from_f(v[1]) << 16);
  a.y = (unsigned)from_f(v[2]) | ((unsigned)from_f(v[3]) << 16);
  reinterpret_cast<uint2*>(p)[j] = a;
#else
  p[j] = from_f(v[0]);
#endif
}

// sum over the T threads of a row group, the same order every time (deterministic). With
// T > 32, red holds WARPS values a pair for each group; every thread of the block calls this.
__device__ __forceinline__ void group_sum(float& a, float& b, float (*red)[2][WARPS], int g, int t) {
  #pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    a += __shfl_xor_sync(0xffffffffu, a, o);
    b += __shfl_xor_sync(0xffffffffu, b, o);
  }
#if WARPS > 1
  if ((t & 31) == 0) { red[g][0][t >> 5] = a; red[g][1][t >> 5] = b; }
  __syncthreads();
  a = 0.f; b = 0.f;
  #pragma unroll
  for (int w = 0; w < WARPS; w++) { a += red[g][0][w]; b += red[g][1][w]; }
  __syncthreads();  // red is written again by the next row
#endif
}

// The forward pass: y (M x NF, low_t) = (x - mean) * rstd * gamma + beta, with each row's mean
// and rstd = 1/sqrt(biased variance + eps) kept for the backward pass, as native_layer_norm's.
// The row is held in registers: its sum, then the sum of squares about the mean (two passes over
// registers, one read of x). beta may be null (no bias).
extern "C" __global__ void __launch_bounds__(BLOCK)
ktorch_ln_fwd(const float* __restrict__ x, const float* __restrict__ gamma,
              const float* __restrict__ beta, low_t* __restrict__ y, float* __restrict__ mean,
              float* __restrict__ rstd, float eps, long long M) {
  const int t = threadIdx.x % T;
  const int g = threadIdx.x / T;
#if WARPS > 1
  __shared__ float red[G][2][WARPS];
#else
  float (*red)[2][WARPS] = nullptr;
#endif
  float gam[K][VEC], bet[K][VEC];
  #pragma unroll
  for (int k = 0; k < K; k++) {
    const int j = t + k * T;
    #pragma unroll
    for (int v = 0; v < VEC; v++) {
      gam[k][v] = j < NV ? gamma[j * VEC + v] : 0.f;
      bet[k][v] = j < NV && beta ? beta[j * VEC + v] : 0.f;
    }
  }
  const float inv_n = 1.f / (float)NF;
  for (long long base = (long long)blockIdx.x * G; base < M; base += (long long)gridDim.x * G) {
    const long long r = base + g;
    const bool live = r < M;
    const float* xr = x + (live ? r : 0) * (long long)NF;
    float xv[K][VEC];
    float s = 0.f, z = 0.f;
    #pragma unroll
    for (int k = 0; k < K; k++) {
      const int j = t + k * T;
      const bool in = live && j < NV;
#if VEC == 4
      float4 a = in ? reinterpret_cast<const float4*>(xr)[j] : make_float4(0.f, 0.f, 0.f, 0.f);
      xv[k][0] = a.x; xv[k][1] = a.y; xv[k][2] = a.z; xv[k][3] = a.w;
#else
      xv[k][0] = in ? xr[j] : 0.f;
#endif
      #pragma unroll
      for (int v = 0; v < VEC; v++) s += xv[k][v];
    }
    group_sum(s, z, red, g, t);
    const float mu = s * inv_n;
    float q = 0.f;
    z = 0.f;
    #pragma unroll
    for (int k = 0; k < K; k++) {
      const bool in = live && t + k * T < NV;
      #pragma unroll
      for (int v = 0; v < VEC; v++) {
        const float d = in ? xv[k][v] - mu : 0.f;
        q += d * d;
      }
    }
    group_sum(q, z, red, g, t);
    const float rs = rsqrtf(q * inv_n + eps);
    if (live && t == 0) {
      mean[r] = mu;
      rstd[r] = rs;
    }
    low_t* o = y + (live ? r : 0) * (long long)NF;
    #pragma unroll
    for (int k = 0; k < K; k++) {
      const int j = t + k * T;
      if (!(live && j < NV)) continue;
      float w[VEC];
      #pragma unroll
      for (int v = 0; v < VEC; v++) w[v] = (xv[k][v] - mu) * rs * gam[k][v] + bet[k][v];
      store_low(o, j, w);
    }
  }
}

// dx of every row, and per-block partial dgamma (part[block][0][c]) and dbeta (part[block][1][c]).
// x, dx: M x NF float, dy: M x NF low_t, contiguous; mean, rstd: M floats; gamma: NF. res, when
// not null (M x NF float): a gradient x has from elsewhere (a residual block's sum), added to dx
// after dx is rounded, as autograd would add the two.
extern "C" __global__ void __launch_bounds__(BLOCK)
ktorch_ln_bwd(const float* __restrict__ x, const low_t* __restrict__ dy,
              const float* __restrict__ mean, const float* __restrict__ rstd,
              const float* __restrict__ gamma, float* __restrict__ dx,
              float* __restrict__ part, long long M, const float* __restrict__ res) {
  const int t = threadIdx.x % T;
  const int g = threadIdx.x / T;
#if WARPS > 1
  __shared__ float red[G][2][WARPS];
#else
  float (*red)[2][WARPS] = nullptr;
#endif
  float gam[K][VEC], dg[K][VEC], db[K][VEC];
  #pragma unroll
  for (int k = 0; k < K; k++) {
    const int j = t + k * T;
    #pragma unroll
    for (int v = 0; v < VEC; v++) {
      gam[k][v] = j < NV ? gamma[j * VEC + v] : 0.f;
      dg[k][v] = 0.f;
      db[k][v] = 0.f;
    }
  }
  const float inv_n = 1.f / (float)NF;
  for (long long base = (long long)blockIdx.x * G; base < M; base += (long long)gridDim.x * G) {
    const long long r = base + g;
    const bool live = r < M;
    const float mu = live ? mean[r] : 0.f;
    const float rs = live ? rstd[r] : 0.f;
    const float* xr = x + (live ? r : 0) * (long long)NF;
    const low_t* dr = dy + (live ? r : 0) * (long long)NF;
    float xh[K][VEC], d[K][VEC];
    float s1 = 0.f, s2 = 0.f;  // sum(dy * gamma), sum(dy * gamma * xhat)
    #pragma unroll
    for (int k = 0; k < K; k++) {
      const int j = t + k * T;
      const bool in = live && j < NV;
#if VEC == 4
      float4 a = in ? reinterpret_cast<const float4*>(xr)[j] : make_float4(0.f, 0.f, 0.f, 0.f);
      float xa[4] = {a.x, a.y, a.z, a.w};
#else
      float xa[1] = {in ? xr[j] : 0.f};
#endif
      float da[VEC];
      load_low(dr, j, in, da);
      #pragma unroll
      for (int v = 0; v < VEC; v++) {
        // outside the row dy is 0, so nothing below adds anything from there
        xh[k][v] = (xa[v] - mu) * rs;
        d[k][v] = da[v];
        const float gd = da[v] * gam[k][v];
        s1 += gd;
        s2 += gd * xh[k][v];
        dg[k][v] += da[v] * xh[k][v];
        db[k][v] += da[v];
      }
    }
    group_sum(s1, s2, red, g, t);
    // dx = rstd * (dy*gamma - mean(dy*gamma) - xhat * mean(dy*gamma*xhat))
    float* o = dx + (live ? r : 0) * (long long)NF;
    const float* rr = res ? res + (live ? r : 0) * (long long)NF : nullptr;
    #pragma unroll
    for (int k = 0; k < K; k++) {
      const int j = t + k * T;
      if (!(live && j < NV)) continue;
      float y[VEC];
      #pragma unroll
      for (int v = 0; v < VEC; v++) y[v] = rs * (d[k][v] * gam[k][v] - (s1 + xh[k][v] * s2) * inv_n);
      if (rr) {
#if VEC == 4
        float4 e = reinterpret_cast<const float4*>(rr)[j];
        y[0] = __fadd_rn(y[0], e.x); y[1] = __fadd_rn(y[1], e.y);
        y[2] = __fadd_rn(y[2], e.z); y[3] = __fadd_rn(y[3], e.w);
#else
        y[0] = __fadd_rn(y[0], rr[j]);
#endif
      }
#if VEC == 4
      reinterpret_cast<float4*>(o)[j] = make_float4(y[0], y[1], y[2], y[3]);
#else
      o[j] = y[0];
#endif
    }
  }
  // this block's partial sums: the G groups added in group order through shared memory
  float* p = part + (long long)blockIdx.x * 2 * NF;
#if G > 1
  __shared__ float acc[2][T * K * VEC];
  for (int h = 0; h < G; h++) {
    if (g == h) {
      #pragma unroll
      for (int k = 0; k < K; k++)
        #pragma unroll
        for (int v = 0; v < VEC; v++) {
          const int c = (t + k * T) * VEC + v;
          acc[0][c] = h == 0 ? dg[k][v] : acc[0][c] + dg[k][v];
          acc[1][c] = h == 0 ? db[k][v] : acc[1][c] + db[k][v];
        }
    }
    __syncthreads();
  }
  for (int c = threadIdx.x; c < NF; c += BLOCK) {
    p[c] = acc[0][c];
    p[NF + c] = acc[1][c];
  }
#else
  #pragma unroll
  for (int k = 0; k < K; k++) {
    const int j = t + k * T;
    if (j >= NV) continue;
    #pragma unroll
    for (int v = 0; v < VEC; v++) {
      p[j * VEC + v] = dg[k][v];
      p[NF + j * VEC + v] = db[k][v];
    }
  }
#endif
}

// dgamma and dbeta: the P partial rows of part (P x 2NF) added up, column by column. A block of
// 1024 threads takes 32 columns: 32 threads down the rows for each, then their 32 sums in order.
extern "C" __global__ void __launch_bounds__(1024)
ktorch_ln_bwd_reduce(const float* __restrict__ part, int P, float* __restrict__ dgamma,
                     float* __restrict__ dbeta) {
  __shared__ float s[32][33];
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const int c = blockIdx.x * 32 + tx;
  float a = 0.f;
  if (c < 2 * NF)
    for (int p = ty; p < P; p += 32) a += part[(long long)p * 2 * NF + c];
  s[ty][tx] = a;
  __syncthreads();
  if (ty == 0 && c < 2 * NF) {
    float b = 0.f;
    for (int w = 0; w < 32; w++) b += s[w][tx];
    if (c < NF) dgamma[c] = b;
    else dbeta[c - NF] = b;
  }
}
)CUDA";
