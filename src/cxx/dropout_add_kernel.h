// The CUDA source of dropout fused with a residual add (src/cxx/dropout_add.cpp compiles it with
// NVRTC at first use, once per device and types). out = x + dropout(h, p): the forward writes
// out without writing dropout(h) or a mask; the backward recomputes the mask from the same random
// numbers and writes dh. #defines in front of it: XT, HT, OT, the types of x, h and out: 0
// float32, 1 bfloat16, 2 float16 (out is x's and h's promoted type, as x + dropout(h) gives);
// VEC, 4 or 8, the vector width ATen's dropout takes for h (16 bytes' worth where h is aligned
// for it and its count a multiple of it: 4 for float32, 8 for the 16-bit types).
// The random numbers and their use are those of ATen's dropout (fused_dropout_kernel_vec of
// aten/src/ATen/native/cuda/Dropout.cu): thread t of the grid (ATen's grid: blocks of 256, at
// most as many as the device holds at once; G threads) takes VEC elements at t, t + G, ... (in
// VEC-element steps), and for its i-th step draws VEC/4 times curand's Philox4x32-10, counter
// (offset / 4 + i * VEC/4 + h, t), key the seed (curand_init(seed, t, offset), curand_uniform4),
// the h-th draw for the h-th 4 elements; an element is kept when u * 2^-32 + 2^-33 < 1 - p. The
// values are computed in ATen's order, each operation rounded on its own (no fused multiply-add):
// dropout(h) = h * kept * scale in float32 (scale = 1 / keep, in double, as float) rounded to h's
// type, then added to x in float32 and rounded to out's type;
// h's gradient: out's gradient rounded to h's type (autograd's cast), then kept * g * scale
// rounded again (dropout's backward). So with a seed the masks and the values are ATen's.
#pragma once

static const char* ktorch_dropout_add_source = R"CUDA(
struct bf16s { unsigned short b; };
struct f16s { unsigned short b; };
__device__ __forceinline__ float to_f(float v) { return v; }
__device__ __forceinline__ float to_f(bf16s v) { return __uint_as_float(((unsigned)v.b) << 16); }
__device__ __forceinline__ float to_f(f16s v) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.b));
  return f;
}
__device__ __forceinline__ void from_f(float f, float& o) { o = f; }
__device__ __forceinline__ void from_f(float f, bf16s& o) { asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(o.b) : "f"(f)); }
__device__ __forceinline__ void from_f(float f, f16s& o) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(o.b) : "f"(f)); }
template <int C> struct pick;
template <> struct pick<0> { typedef float t; };
template <> struct pick<1> { typedef bf16s t; };
template <> struct pick<2> { typedef f16s t; };
typedef pick<XT>::t x_t;
typedef pick<HT>::t h_t;
typedef pick<OT>::t o_t;
// v rounded to type T and back (the value a tensor of type T would hold)
template <typename T> __device__ __forceinline__ float round_to(float v) {
  T t;
  from_f(v, t);
  return to_f(t);
}

// 4 consecutive elements at group index j (the pointer aligned for 4 elements)
template <typename T> struct alignas(4 * sizeof(T)) quad { T v[4]; };
template <typename T> __device__ __forceinline__ void load4(const T* p, long long j, float* o) {
  quad<T> q = reinterpret_cast<const quad<T>*>(p)[j];
  #pragma unroll
  for (int k = 0; k < 4; k++) o[k] = to_f(q.v[k]);
}
template <typename T> __device__ __forceinline__ void store4(T* p, long long j, const float* o) {
  quad<T> q;
  #pragma unroll
  for (int k = 0; k < 4; k++) from_f(o[k], q.v[k]);
  reinterpret_cast<quad<T>*>(p)[j] = q;
}

__device__ __forceinline__ uint4 philox(uint4 c, uint2 k) {
  #pragma unroll
  for (int i = 0; i < 10; i++) {
    const unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
    const unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
    c = make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return c;
}

// The generator's state as ATen's PhiloxCudaState carries it: values, or (while a CUDA graph was
// captured) pointers read at each replay plus the offset within the graph.
struct rng {
  unsigned long long seed_val;
  const long long* seed_ptr;
  unsigned long long off_val;
  const long long* off_ptr;
  unsigned long long intragraph;
};
__device__ __forceinline__ void unpack(const rng& s, unsigned long long& seed, unsigned long long& off) {
  if (s.seed_ptr) {
    seed = (unsigned long long)*s.seed_ptr;
    off = (unsigned long long)*s.off_ptr + s.intragraph;
  } else {
    seed = s.seed_val;
    off = s.off_val;
  }
}
// 1 or 0, kept or not, for the 4 elements of thread t's i-th group (curand_uniform4's numbers)
__device__ __forceinline__ void keeps(unsigned long long seed, unsigned long long off, unsigned long long t,
                                      unsigned long long i, float keep, float* k) {
  const unsigned long long c = off / 4 + i;
  uint4 r = philox(make_uint4((unsigned)c, (unsigned)(c >> 32), (unsigned)t, (unsigned)(t >> 32)),
                   make_uint2((unsigned)seed, (unsigned)(seed >> 32)));
  const float a = 2.3283064365386963e-10f, b = 1.1641532182693481e-10f;  // 2^-32, 2^-33
  k[0] = __fmaf_rn((float)r.x, a, b) < keep ? 1.f : 0.f;
  k[1] = __fmaf_rn((float)r.y, a, b) < keep ? 1.f : 0.f;
  k[2] = __fmaf_rn((float)r.z, a, b) < keep ? 1.f : 0.f;
  k[3] = __fmaf_rn((float)r.w, a, b) < keep ? 1.f : 0.f;
}

#define STEPS (VEC / 4)  // draws of 4 a step

// f(q, k) for every group q of 4 elements that this thread takes, with k their 1/0 keep flags:
// the thread's steps in turn (VEC elements a step, G threads apart), STEPS draws a step
template <typename F>
__device__ __forceinline__ void each_group(const rng& s, long long n, float keep, F f) {
  unsigned long long seed, off;
  unpack(s, seed, off);
  const unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long G = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long i = 0;
  for (unsigned long long j = t; j * VEC < (unsigned long long)n; j += G, i++) {
    #pragma unroll
    for (int d = 0; d < STEPS; d++) {
      float k[4];
      keeps(seed, off, t, i * STEPS + d, keep, k);
      f(j * STEPS + d, k);
    }
  }
}

// out = x + dropout(h): n elements (a multiple of VEC)
extern "C" __global__ void __launch_bounds__(256)
ktorch_dropadd_fwd(const x_t* __restrict__ x, const h_t* __restrict__ h, o_t* __restrict__ out,
                   long long n, float keep, float scale, rng s) {
  each_group(s, n, keep, [&](unsigned long long q, const float* k) {
    float xv[4], hv[4], o[4];
    load4(x, q, xv);
    load4(h, q, hv);
    #pragma unroll
    for (int v = 0; v < 4; v++) o[v] = __fadd_rn(xv[v], round_to<h_t>(__fmul_rn(__fmul_rn(hv[v], k[v]), scale)));
    store4(out, q, o);
  });
}

// dh: dropout's backward of g (out's type, rounded first to h's type as autograd casts it)
extern "C" __global__ void __launch_bounds__(256)
ktorch_dropadd_bwd(const o_t* __restrict__ g, h_t* __restrict__ dh, long long n, float keep,
                   float scale, rng s) {
  each_group(s, n, keep, [&](unsigned long long q, const float* k) {
    float gv[4], o[4];
    load4(g, q, gv);
    #pragma unroll
    for (int v = 0; v < 4; v++) o[v] = round_to<h_t>(__fmul_rn(__fmul_rn(round_to<h_t>(gv[v]), k[v]), scale));
    store4(dh, q, o);
  });
}

// the mask itself (1 kept, 0 dropped), for a backward pass that is recorded (create_graph): it
// then runs ATen's differentiable dropout backward with this mask
extern "C" __global__ void __launch_bounds__(256)
ktorch_dropadd_mask(unsigned char* __restrict__ m, long long n, float keep, rng s) {
  each_group(s, n, keep, [&](unsigned long long q, const float* k) {
    #pragma unroll
    for (int v = 0; v < 4; v++) m[q * 4 + v] = k[v] != 0.f ? 1 : 0;
  });
}
)CUDA";
