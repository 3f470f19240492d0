// Dropout fused with a residual add (setting`dropadd, issue 31 item 5): out = x + dropout(h, p)
// for CUDA tensors of one shape, in one NVRTC kernel that neither writes dropout(h) nor a mask,
// and a backward kernel that recomputes the mask from the same random numbers to write h's
// gradient (x's is the incoming gradient itself). Unfused, the same sum takes dropout's kernel
// (reads h, writes its output and a mask), the add (reads both, writes out), and backward the
// cast of out's gradient to h's type and dropout's backward (reads it and the mask). The random
// numbers are drawn as ATen's
// dropout, from the same generator state (src/cxx/dropout_add_kernel.h): with a seed, the masks,
// the values and the generator's state after the call are those of the unfused layers. A backward pass
// that is itself recorded (create_graph) writes the mask and runs ATen's differentiable dropout
// backward with it. Where the kernels do not apply (the CPU, shapes that differ, other types, a
// graph being captured before they were compiled, no NVRTC), the unfused layers run.
#include <ATen/ATen.h>
#include <torch/csrc/autograd/custom_function.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "attempt.h"

#ifdef KTORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include "dropout_add_kernel.h"
#include "nvrtc.h"
#endif

namespace {
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

std::atomic<long> fused_calls{0};  // forward passes through the kernel (tests)

#ifdef KTORCH_CUDA
int code(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return 0;
    case at::kBFloat16: return 1;
    case at::kHalf: return 2;
    default: return -1;
  }
}

// The kernel's view of ATen's PhiloxCudaState (the layout of `rng` in the kernel source).
struct Rng {
  unsigned long long seed_val;
  const int64_t* seed_ptr;
  unsigned long long off_val;
  const int64_t* off_ptr;
  unsigned long long intragraph;
};

struct Kernels {
  void *fwd, *bwd, *mask;
};
// The kernels for (device, x, h, out types, vector width); compiled at the first call outside a
// CUDA graph capture, null where they cannot be had (then the unfused layers, for good where
// NVRTC or the driver is missing).
const Kernels* kernels(int dev, int xt, int ht, int ot, int vec) {
  static std::mutex mu;
  static auto* cache = new std::map<std::tuple<int, int, int, int, int>, Kernels>();
  static std::atomic<bool> unavailable{false};
  std::lock_guard<std::mutex> l(mu);
  auto key = std::make_tuple(dev, xt, ht, ot, vec);
  auto it = cache->find(key);
  if (it != cache->end()) return &it->second;
  cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(c10::cuda::getCurrentCUDAStream().stream(), &cap);
  if (cap != cudaStreamCaptureStatusNone || unavailable.load()) return nullptr;
  try {
    std::string src = "#define XT " + std::to_string(xt) + "\n#define HT " + std::to_string(ht) +
                      "\n#define OT " + std::to_string(ot) + "\n#define VEC " + std::to_string(vec) + "\n" +
                      ktorch_dropout_add_source;
    std::string name = "dropadd:" + std::to_string(xt) + std::to_string(ht) + std::to_string(ot) + ":" +
                       std::to_string(vec);
    const auto& mod = ktorch_nvrtc::compiled(dev, name, src,
                                             {"ktorch_dropadd_fwd", "ktorch_dropadd_bwd", "ktorch_dropadd_mask"});
    return &cache->emplace(key, Kernels{mod.functions[0], mod.functions[1], mod.functions[2]}).first->second;
  } catch (...) {
    unavailable.store(true);
    return nullptr;
  }
}

bool aligned(const at::Tensor& t) {
  return reinterpret_cast<uintptr_t>(t.data_ptr()) % (4 * t.element_size()) == 0;
}

// The vector width ATen's dropout takes for h (get_vector_size of Dropout.cu): 16 bytes' worth
// at most, as far as h's address is aligned for it, halved until it divides the count.
int vector_width(const at::Tensor& h) {
  auto address = reinterpret_cast<uintptr_t>(h.data_ptr());
  int size = static_cast<int>(h.element_size());
  int v = 16 / size;
  while (v > 1 && address % (static_cast<uintptr_t>(v) * size) != 0) v /= 2;
  while (v > 1 && h.numel() % v != 0) v /= 2;
  return v;
}

// ATen's dropout launch for n elements: blocks of 256, at most as many as the device holds at
// once (its threads a multiprocessor / 256, times the multiprocessors), and the offsets it takes
// from the generator: 4 for each curand_uniform4 call a thread makes.
struct Launch {
  unsigned grid;
  long long offsets;
};
Launch launch_for(int dev, long long n) {
  auto* p = at::cuda::getDeviceProperties(dev);
  long long cap = static_cast<long long>(p->multiProcessorCount) * (p->maxThreadsPerMultiProcessor / 256);
  long long grid = std::min((n + 255) / 256, cap);
  return Launch{static_cast<unsigned>(grid), ((n - 1) / (256 * grid * 4) + 1) * 4};
}

// The generator's state for one call, `offsets` reserved as ATen's dropout reserves them.
Rng draw(const at::Device& d, long long offsets) {
  auto gen = at::get_generator_or_default<at::CUDAGeneratorImpl>(
      std::nullopt, at::cuda::detail::getDefaultCUDAGenerator(d.index()));
  at::PhiloxCudaState st;
  {
    std::lock_guard<std::mutex> lock(gen->mutex_);
    st = gen->philox_cuda_state(static_cast<uint64_t>(offsets));
  }
  Rng r{};
  if (st.captured_) {
    r.seed_ptr = st.seed_.ptr;
    r.off_ptr = st.offset_.ptr;
    r.intragraph = st.offset_intragraph_;
  } else {
    r.seed_val = st.seed_.val;
    r.off_val = st.offset_.val;
  }
  return r;
}

// The state a backward pass needs, kept in the autograd context as integers.
void save(AutogradContext* ctx, const Rng& r) {
  ctx->saved_data["seed_val"] = static_cast<int64_t>(r.seed_val);
  ctx->saved_data["seed_ptr"] = reinterpret_cast<int64_t>(r.seed_ptr);
  ctx->saved_data["off_val"] = static_cast<int64_t>(r.off_val);
  ctx->saved_data["off_ptr"] = reinterpret_cast<int64_t>(r.off_ptr);
  ctx->saved_data["intragraph"] = static_cast<int64_t>(r.intragraph);
}
Rng saved(AutogradContext* ctx) {
  Rng r;
  r.seed_val = static_cast<unsigned long long>(ctx->saved_data["seed_val"].toInt());
  r.seed_ptr = reinterpret_cast<const int64_t*>(ctx->saved_data["seed_ptr"].toInt());
  r.off_val = static_cast<unsigned long long>(ctx->saved_data["off_val"].toInt());
  r.off_ptr = reinterpret_cast<const int64_t*>(ctx->saved_data["off_ptr"].toInt());
  r.intragraph = static_cast<unsigned long long>(ctx->saved_data["intragraph"].toInt());
  return r;
}

// x, h: CUDA, one shape, contiguous, aligned for 4 elements, 4n elements, types the kernels take
// (checked by the caller, which found the kernels for them).
struct DropoutAdd : public torch::autograd::Function<DropoutAdd> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& h, double p,
                            int64_t vec) {
    c10::cuda::CUDAGuard guard(x.device());
    auto ot = at::result_type(x, h);
    const Kernels* k = kernels(x.get_device(), code(x.scalar_type()), code(h.scalar_type()), code(ot),
                               static_cast<int>(vec));
    TORCH_CHECK(k, "dropadd: kernels missing");  // found by the caller just before
    auto out = at::empty(x.sizes(), x.options().dtype(ot));
    long long n = x.numel();
    Launch l = launch_for(x.get_device(), n);
    Rng r = draw(x.device(), l.offsets);
    // ATen's dropout: the keep probability 1 - p (double) as float, and 1.0 / keep (double) as float
    float keep = static_cast<float>(1.0 - p);
    float scale = static_cast<float>(1.0 / static_cast<double>(keep));
    const void *xp = x.data_ptr(), *hp = h.data_ptr();
    void* op = out.data_ptr();
    void* a[] = {&xp, &hp, &op, &n, &keep, &scale, &r};
    ktorch_nvrtc::launch(k->fwd, l.grid, 256, a);
    save(ctx, r);
    ctx->saved_data["p"] = p;
    ctx->saved_data["vec"] = vec;
    ctx->saved_data["htype"] = static_cast<int64_t>(h.scalar_type());
    ctx->saved_data["xtype"] = static_cast<int64_t>(x.scalar_type());
    fused_calls++;
    return out;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto& g0 = grads[0];
    if (!g0.defined()) return {at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
    auto g = g0.contiguous();
    c10::cuda::CUDAGuard guard(g.device());
    auto ht = static_cast<at::ScalarType>(ctx->saved_data["htype"].toInt());
    auto xt = static_cast<at::ScalarType>(ctx->saved_data["xtype"].toInt());
    double p = ctx->saved_data["p"].toDouble();
    int vec = static_cast<int>(ctx->saved_data["vec"].toInt());
    const Kernels* k = kernels(g.get_device(), code(xt), code(ht), code(g.scalar_type()), vec);
    Rng r = saved(ctx);
    long long n = g.numel();
    Launch l = launch_for(g.get_device(), n);
    float keep = static_cast<float>(1.0 - p);
    // ATen's dropout backward: mask * grad * (1 / (1 - p)), that scale a double taken as float
    double scale64 = 1.0 / (1.0 - p);
    float scale = static_cast<float>(scale64);
    at::Tensor dh;
    if (!at::GradMode::is_enabled() && k && aligned(g)) {
      dh = at::empty(g.sizes(), g.options().dtype(ht));
      const void* gp = g.data_ptr();
      void* dp = dh.data_ptr();
      void* a[] = {&gp, &dp, &n, &keep, &scale, &r};
      ktorch_nvrtc::launch(k->bwd, l.grid, 256, a);
    } else {
      // recorded backward (or no kernel now): the mask, then ATen's dropout backward with it
      TORCH_CHECK(k, "dropadd: the backward pass needs the kernels of its forward pass");
      auto m = at::empty(g.sizes(), g.options().dtype(at::kByte));
      void* mp = m.data_ptr();
      void* a[] = {&mp, &n, &keep, &r};
      ktorch_nvrtc::launch(k->mask, l.grid, 256, a);
      dh = at::native_dropout_backward(g.to(ht), m.to(at::kBool), scale64);
    }
    return {g0, dh, at::Tensor(), at::Tensor()};
  }
};
#endif
}  // namespace

extern "C" {
// x + dropout(h, p) in training: through DropoutAdd where the kernels apply, else ATen's dropout
// and add (the unfused layers). *fused says which ran.
int ktorch_dropout_add(at::Tensor* x, at::Tensor* h, double p, int* fused, at::Tensor** out) {
  return attempt([&] {
    *fused = 0;
#ifdef KTORCH_CUDA
    const at::Tensor &a = *x, &b = *h;
    // where ATen's dropout takes its 4- or 8-wide path (a contiguous h), whose random numbers the
    // kernels draw as it does
    bool fits = a.is_cuda() && b.is_cuda() && a.device() == b.device() && a.sizes() == b.sizes() &&
                a.numel() > 0 && p > 0 && p < 1 && code(a.scalar_type()) >= 0 && code(b.scalar_type()) >= 0 &&
                code(at::result_type(a, b)) >= 0 && b.is_contiguous();
    int vec = fits ? vector_width(b) : 1;
    if (vec == 4 || vec == 8) {
      c10::cuda::CUDAGuard guard(a.device());
      auto xc = a.contiguous();
      if (aligned(xc) && kernels(xc.get_device(), code(xc.scalar_type()), code(b.scalar_type()),
                                 code(at::result_type(xc, b)), vec)) {
        *out = new at::Tensor(DropoutAdd::apply(xc, b, p, vec));
        *fused = 1;
        return;
      }
    }
#endif
    *out = new at::Tensor(at::add(*x, at::dropout(*h, p, true)));
  });
}
// forward passes that ran the fused kernel so far
long ktorch_dropout_add_calls() { return fused_calls.load(); }
}
