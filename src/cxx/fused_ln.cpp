// Layer norm with a fused backward (setting`fusedln, issue 31 item 5): a custom autograd
// function whose forward is ATen's native_layer_norm (which keeps each row's mean and 1/std) and
// whose backward, for float32 CUDA tensors with a weight (what autocast runs layer norm in),
// reads x and dy once in one NVRTC kernel that writes dx and per-block partial sums of dgamma and
// dbeta, then adds the partials in a second small kernel (src/cxx/fused_ln_kernel.h). ATen's
// backward takes two passes over x and dy (its GammaBetaBackward kernel runs at about a third of
// the memory bandwidth on an H100: ~2 ms of char.q's GPT step). Anything else (other types, the
// CPU, no weight, a graph being captured before the kernel was compiled, a build without the
// CUDA headers) runs ATen's native_layer_norm_backward in the same function, so the setting
// never changes what is computed, only how. A backward pass that is itself recorded (double
// backward, create_graph) runs ATen's differentiable backward.
// With setting`lncast under CUDA autocast, the output is written in autocast's type (bfloat16 or
// float16) by an NVRTC forward kernel, in place of ATen's float32 output and the cast the next
// linear layer makes of it; the gradient then arrives in that type and the backward kernel reads
// it as it is (the cast's backward, a float32 copy of it, is not made either).
#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>
#include <torch/csrc/autograd/custom_function.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "attempt.h"

#ifdef KTORCH_CUDA
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include "fused_ln_kernel.h"
#include "nvrtc.h"
#endif

namespace {
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// backward passes through the fused kernels (for tests and the profile's cross-check)
std::atomic<long> fused_calls{0};

#ifdef KTORCH_CUDA
// The launch shape for n features at vector width vec (see fused_ln_kernel.h); k == 0 when the
// row does not fit the kernel (more than 8192 vectors a row: ATen's backward then).
struct Shape {
  int t = 32, g = 8, k = 0;
};
Shape shape_for(long n, int vec) {
  long nv = n / vec;
  Shape s;
  for (s.t = 32; s.t < 1024 && (nv + s.t - 1) / s.t > 4; s.t *= 2) {}
  long k = (nv + s.t - 1) / s.t;
  s.k = k <= 8 ? static_cast<int>(k) : 0;
  s.g = s.t >= 256 ? 1 : 256 / s.t;
  return s;
}

// The kernels for (device, features, vector width, low type: 0 float32, 1 bfloat16, 2 float16;
// see fused_ln_kernel.h), and how many blocks of each run at once (one wave: each block walks the
// rows, and the backward's partials are a row a block, so no more blocks than run at once).
// Looked up on every pass without building the source (host time is what a small layer norm
// costs); compiled when `make` and not there yet (null otherwise).
struct Kernels {
  void *fwd, *bwd, *reduce;
  long fwd_wave, wave;
};
const Kernels* kernels(int dev, long n, int vec, int low, const Shape& s, bool make) {
  static std::mutex mu;
  static auto* cache = new std::map<std::tuple<int, long, int, int>, Kernels>();  // lives on, as the modules
  std::lock_guard<std::mutex> l(mu);
  auto key = std::make_tuple(dev, n, vec, low);
  auto it = cache->find(key);
  if (it != cache->end()) return &it->second;
  if (!make) return nullptr;
  std::string src = "#define NF " + std::to_string(n) + "\n#define VEC " + std::to_string(vec) +
                    "\n#define T " + std::to_string(s.t) + "\n#define G " + std::to_string(s.g) +
                    "\n#define K " + std::to_string(s.k) + "\n#define LOW " + std::to_string(low) +
                    "\n" + ktorch_fused_ln_source;
  const auto& mod = ktorch_nvrtc::compiled(
      dev, "ln:" + std::to_string(n) + ":" + std::to_string(vec) + ":" + std::to_string(low), src,
      {"ktorch_ln_fwd", "ktorch_ln_bwd", "ktorch_ln_bwd_reduce"});
  long sms = ktorch_nvrtc::multiprocessors(dev);
  long fwd_wave = sms * std::max(1, ktorch_nvrtc::resident_blocks(mod.functions[0], s.t * s.g));
  long wave = sms * std::max(1, ktorch_nvrtc::resident_blocks(mod.functions[1], s.t * s.g));
  return &cache->emplace(key, Kernels{mod.functions[0], mod.functions[1], mod.functions[2], fwd_wave, wave})
              .first->second;
}

// The low type's code in the kernel source, -1 for a type the kernels do not take.
int low_code(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return 0;
    case at::kBFloat16: return 1;
    case at::kHalf: return 2;
    default: return -1;
  }
}

// The kernels for x's device, n features at vector width vec and low type `low`, compiled at the
// first call outside a CUDA graph capture (compiling and loading a module is no work a graph may
// record: during a capture, only a kernel compiled by an earlier eager step is used); null where
// they cannot be had (then ATen's layer norm, for good where NVRTC or the driver is missing: the
// settings change how layer norm is computed, never what).
const Kernels* kernels_for(int dev, long n, int vec, int low, const Shape& s) {
  const Kernels* k = kernels(dev, n, vec, low, s, false);
  if (k) return k;
  cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(c10::cuda::getCurrentCUDAStream().stream(), &cap);
  if (cap != cudaStreamCaptureStatusNone) return nullptr;
  static std::atomic<bool> unavailable{false};
  if (unavailable.load()) return nullptr;
  try {
    return kernels(dev, n, vec, low, s, true);
  } catch (...) {
    unavailable.store(true);
    return nullptr;
  }
}

bool aligned(const at::Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr()) % 16 == 0; }

// dx, dgamma, dbeta through the NVRTC kernels; false (nothing done) where they do not apply.
// res, when defined: a float32 gradient of x from elsewhere (a residual sum), added into dx by
// the kernel as autograd would add it.
bool fused_backward(const at::Tensor& dy0, const at::Tensor& x0, const at::Tensor& mean,
                    const at::Tensor& rstd, const at::Tensor& w, long n, const at::Tensor& res0,
                    at::Tensor& dx, at::Tensor& dw, at::Tensor& db) {
  int low = low_code(dy0.scalar_type());
  if (!x0.is_cuda() || !w.defined() || x0.scalar_type() != at::kFloat || low < 0 ||
      w.scalar_type() != at::kFloat || mean.scalar_type() != at::kFloat ||
      rstd.scalar_type() != at::kFloat)
    return false;
  long m = n > 0 ? x0.numel() / n : 0;
  if (m == 0 || n == 0 || w.numel() != n) return false;
  auto x = x0.contiguous(), dy = dy0.contiguous(), g = w.contiguous();
  auto mu = mean.contiguous(), rs = rstd.contiguous();
  if (mu.numel() != m || rs.numel() != m) return false;
  at::Tensor res;
  if (res0.defined()) {
    if (res0.scalar_type() != at::kFloat || res0.device() != x0.device() || res0.numel() != x0.numel()) return false;
    res = res0.contiguous();
  }
  c10::cuda::CUDAGuard guard(x.device());
  int dev = x.get_device();
  // dx comes from the caching allocator, whose blocks are aligned far beyond 16 bytes
  int vec = n % 4 == 0 && aligned(x) && aligned(dy) && aligned(g) && (!res.defined() || aligned(res)) ? 4 : 1;
  Shape s = shape_for(n, vec);
  if (s.k == 0) return false;
  const Kernels* k = kernels_for(dev, n, vec, low, s);
  if (!k) return false;
  dx = at::empty_like(x, at::MemoryFormat::Contiguous);
  int grid = static_cast<int>(std::min<long>((m + s.g - 1) / s.g, k->wave));
  auto part = at::empty({grid, 2 * n}, x.options());
  dw = at::empty({n}, x.options());
  db = at::empty({n}, x.options());
  const void* dyp = dy.data_ptr();
  const float *xp = x.data_ptr<float>(), *mp = mu.data_ptr<float>(),
              *rp = rs.data_ptr<float>(), *gp = g.data_ptr<float>();
  float *dxp = dx.data_ptr<float>(), *pp = part.data_ptr<float>(), *dwp = dw.data_ptr<float>(),
        *dbp = db.data_ptr<float>();
  long long rows = m;
  const float* rsp = res.defined() ? res.data_ptr<float>() : nullptr;
  void* a1[] = {&xp, &dyp, &mp, &rp, &gp, &dxp, &pp, &rows, &rsp};
  ktorch_nvrtc::launch(k->bwd, grid, s.t * s.g, a1);
  int p = grid;
  void* a2[] = {&pp, &p, &dwp, &dbp};
  ktorch_nvrtc::launch(k->reduce, static_cast<unsigned>((2 * n + 31) / 32), 1024, a2);
  dx = dx.view(x0.sizes());
  dw = dw.view(w.sizes());
  db = db.view(w.sizes());
  fused_calls++;
  return true;
}

// y in type `out` (float32, or autocast's bfloat16 or float16), mean and rstd of x through the
// NVRTC forward kernel; false (nothing done) where it does not apply. mean and rstd are shaped
// as native_layer_norm's (x's leading sizes, then a 1 for each normalized one).
bool fused_forward(const at::Tensor& x0, const at::Tensor& w, const at::Tensor& b, long n, int nshape,
                   double eps, at::ScalarType out, at::Tensor& y, at::Tensor& mean, at::Tensor& rstd) {
  int low = low_code(out);
  if (!x0.is_cuda() || !w.defined() || x0.scalar_type() != at::kFloat || low < 0 ||
      w.scalar_type() != at::kFloat || (b.defined() && b.scalar_type() != at::kFloat))
    return false;
  long m = n > 0 ? x0.numel() / n : 0;
  if (m == 0 || n == 0 || w.numel() != n || (b.defined() && b.numel() != n)) return false;
  auto x = x0.contiguous(), g = w.contiguous();
  at::Tensor bb = b.defined() ? b.contiguous() : at::Tensor();
  c10::cuda::CUDAGuard guard(x.device());
  int dev = x.get_device();
  int vec = n % 4 == 0 && aligned(x) && aligned(g) && (!bb.defined() || aligned(bb)) ? 4 : 1;
  Shape s = shape_for(n, vec);
  if (s.k == 0) return false;
  const Kernels* k = kernels_for(dev, n, vec, low, s);
  if (!k) return false;
  y = at::empty(x0.sizes(), x.options().dtype(out));
  std::vector<int64_t> stat(x0.sizes().begin(), x0.sizes().end() - nshape);
  stat.insert(stat.end(), nshape, 1);
  mean = at::empty(stat, x.options());
  rstd = at::empty(stat, x.options());
  int grid = static_cast<int>(std::min<long>((m + s.g - 1) / s.g, k->fwd_wave));
  const float *xp = x.data_ptr<float>(), *gp = g.data_ptr<float>(),
              *bp = bb.defined() ? bb.data_ptr<float>() : nullptr;
  void* yp = y.data_ptr();
  float *mp = mean.data_ptr<float>(), *rp = rstd.data_ptr<float>();
  float e = static_cast<float>(eps);
  long long rows = m;
  void* a[] = {&xp, &gp, &bp, &yp, &mp, &rp, &e, &rows};
  ktorch_nvrtc::launch(k->fwd, grid, s.t * s.g, a);
  return true;
}
#endif

// Inputs x, w and b, all defined: autograd's custom functions record each tensor input's device
// and type, which an undefined tensor has not ("tensor does not have a device"). Without a bias,
// b is w again and `bias` false: no bias is added and none gets a gradient. `out` is y's type:
// x's, or with `setting`lncast` under autocast autocast's bfloat16 or float16 (then dy arrives
// in it too). `kernels` (`setting`fusedln`) runs the backward through the NVRTC kernels.
at::Tensor ln_forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& w, const at::Tensor& b0,
                      const std::vector<int64_t>& shape, double eps, bool bias, bool kernels, at::ScalarType out) {
  at::Tensor b = bias ? b0 : at::Tensor();
  at::Tensor y, mean, rstd;
  bool done = false;
#ifdef KTORCH_CUDA
  long n = 1;
  for (auto d : shape) n *= d;
  // float32 out: ATen's forward (its kernel is as fast); a lower type out: y written in it
  // by the kernel, in place of ATen's float32 y and a cast
  if (out != x.scalar_type())
    done = fused_forward(x, w, b, n, static_cast<int>(shape.size()), eps, out, y, mean, rstd);
#endif
  if (!done) {
    std::tie(y, mean, rstd) = at::native_layer_norm(x, shape, w, b, eps);
    if (y.scalar_type() != out) y = y.to(out);
  }
  ctx->save_for_backward({x, w, b0, mean, rstd});
  ctx->saved_data["shape"] = shape;
  ctx->saved_data["bias"] = bias;
  ctx->saved_data["kernels"] = kernels;
  return y;
}

// dx, dw, db from y's gradient dy and, when defined, a gradient of x from elsewhere (res: the
// residual sum of a `residual` block, FusedLayerNormRes), added into dx.
variable_list ln_backward(AutogradContext* ctx, const at::Tensor& dy, const at::Tensor& res) {
  // create_graph: the backward pass is itself recorded, so it runs ATen's backward, whose own
  // derivative (layer_norm_double_backward) gives the second derivatives as PyTorch's
  bool record = at::GradMode::is_enabled();
  auto s = ctx->get_saved_variables();
  bool bias = ctx->saved_data["bias"].toBool();
  const auto &x = s[0], &w = s[1], &mean = s[3], &rstd = s[4];
  at::Tensor b = bias ? s[2] : at::Tensor();
  auto shape = ctx->saved_data["shape"].toIntVector();
  at::Tensor dx, dw, db;
  if (!dy.defined()) return {res.defined() ? res : dx, dw, db};
  long n = 1;
  for (auto d : shape) n *= d;
  bool done = false;
#ifdef KTORCH_CUDA
  if (!record && ctx->saved_data["kernels"].toBool() && (!res.defined() || ctx->needs_input_grad(0)))
    done = fused_backward(dy, x, mean, rstd, w, n, res, dx, dw, db);
#else
  (void)record;
#endif
  if (!done) {
    std::array<bool, 3> mask = {ctx->needs_input_grad(0), ctx->needs_input_grad(1),
                                bias && ctx->needs_input_grad(2)};
    // a lower-type y: its gradient back in x's type first, as the cast's backward would
    std::tie(dx, dw, db) = at::native_layer_norm_backward(dy.to(x.scalar_type()), x, shape, mean,
                                                          rstd, w, b, mask);
    // the residual's gradient added after, as autograd adds a tensor's two gradients
    if (res.defined() && dx.defined()) dx = res + dx;
  }
  if (!ctx->needs_input_grad(0)) dx = at::Tensor();
  if (!ctx->needs_input_grad(1)) dw = at::Tensor();
  if (!bias || !ctx->needs_input_grad(2)) db = at::Tensor();
  return {dx, dw, db};
}

struct FusedLayerNorm : public torch::autograd::Function<FusedLayerNorm> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& w,
                            const at::Tensor& b0, std::vector<int64_t> shape, double eps, bool bias,
                            bool kernels, at::ScalarType out) {
    return ln_forward(ctx, x, w, b0, shape, eps, bias, kernels, out);
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    auto g = ln_backward(ctx, grads[0], at::Tensor());
    return {g[0], g[1], g[2], at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

// Layer norm that also hands x on (a second output, x itself as autograd's view of it), for a
// `residual` block whose sequential block starts with layer norm and which adds x at its end
// (setting`lnres): x's two gradients, from the sum and through layer norm, meet in this
// function's backward, where the fused kernel adds the sum's into dx as it writes it, in place of
// autograd adding them in a kernel of their own.
struct FusedLayerNormRes : public torch::autograd::Function<FusedLayerNormRes> {
  static variable_list forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& w,
                               const at::Tensor& b0, std::vector<int64_t> shape, double eps, bool bias,
                               bool kernels, at::ScalarType out) {
    return {ln_forward(ctx, x, w, b0, shape, eps, bias, kernels, out), x};
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto& dres = grads[1];
    auto g = ln_backward(ctx, grads[0], dres.defined() && dres.scalar_type() == at::kFloat ? dres
                                                                                           : at::Tensor());
    // a residual gradient the kernel did not take (not float32): added here
    if (dres.defined() && dres.scalar_type() != at::kFloat)
      g[0] = g[0].defined() ? g[0] + dres.to(g[0].scalar_type()) : dres;
    return {g[0], g[1], g[2], at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

// autocast's rule for layer norm (fp32): half and bfloat16 CUDA inputs in float32
at::Tensor as_autocast(const at::Tensor& t) {
  if (!t.defined() || !t.is_cuda() || !at::autocast::is_autocast_enabled(at::kCUDA)) return t;
  return at::autocast::cached_cast(at::kFloat, t, at::kCUDA);
}
// An entry point's inputs as layer norm takes them: x, w and b under autocast's rule (w, b may be
// null: undefined), y's type (flags & 2: autocast's lower type under CUDA autocast, setting`lncast)
// and whether any gradient is to be computed.
struct Inputs {
  at::Tensor x, w, b;
  at::ScalarType type;
  bool grads;
  Inputs(at::Tensor* x0, at::Tensor* w0, at::Tensor* b0, int flags)
      : x(as_autocast(*x0)), w(w0 ? as_autocast(*w0) : at::Tensor()), b(b0 ? as_autocast(*b0) : at::Tensor()) {
    type = x.scalar_type();
    if ((flags & 2) && x.is_cuda() && at::autocast::is_autocast_enabled(at::kCUDA) && type == at::kFloat)
      type = at::autocast::get_autocast_dtype(at::kCUDA);
    grads = at::GradMode::is_enabled() &&
            (x.requires_grad() || (w.defined() && w.requires_grad()) || (b.defined() && b.requires_grad()));
  }
};
}  // namespace

extern "C" {
// torch.nn.functional.layer_norm(x, shape, w, b, eps) through FusedLayerNorm (w, b may be null);
// without gradients to compute, or without a weight, ATen's layer_norm itself.
// flags: 1 the backward through the NVRTC kernels (setting`fusedln), 2 under CUDA autocast the
// output in autocast's type (setting`lncast).
int ktorch_fused_layer_norm(at::Tensor* x, const long* shape, int nshape, at::Tensor* w,
                            at::Tensor* b, double eps, int flags, at::Tensor** out) {
  return attempt([&] {
    Inputs in(x, w, b, flags);
    std::vector<int64_t> s(shape, shape + nshape);
    at::Tensor y;
    // no gradients to compute, or no weight (the fused kernel needs one): ATen's layer norm
    if (!in.grads || !in.w.defined()) {
      y = at::layer_norm(in.x, s, in.w, in.b, eps);
      if (y.scalar_type() != in.type) y = y.to(in.type);
    } else {
      y = FusedLayerNorm::apply(in.x, in.w, in.b.defined() ? in.b : in.w, s, eps, in.b.defined(),
                                (flags & 1) != 0, in.type);
    }
    *out = new at::Tensor(std::move(y));
  });
}
// The same through FusedLayerNormRes: y and x handed on (out_x), where gradients are to be
// computed, a weight is given and x is what layer norm takes (no autocast cast of it); else
// *fused is 0 and nothing is made (the caller runs layer norm and the sum as they are).
int ktorch_fused_layer_norm_res(at::Tensor* x, const long* shape, int nshape, at::Tensor* w,
                                at::Tensor* b, double eps, int flags, int* fused, at::Tensor** out_y,
                                at::Tensor** out_x) {
  return attempt([&] {
    *fused = 0;
    Inputs in(x, w, b, flags);
    if (!in.grads || !in.w.defined() || !in.x.is_same(*x)) return;
    std::vector<int64_t> s(shape, shape + nshape);
    auto r = FusedLayerNormRes::apply(in.x, in.w, in.b.defined() ? in.b : in.w, s, eps, in.b.defined(),
                                      (flags & 1) != 0, in.type);
    *out_y = new at::Tensor(std::move(r[0]));
    *out_x = new at::Tensor(std::move(r[1]));
    *fused = 1;
  });
}
// backward passes that ran the fused kernels so far
long ktorch_fused_layer_norm_calls() { return fused_calls.load(); }
}
