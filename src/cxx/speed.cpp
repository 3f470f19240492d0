// What GPU training speed needs from libtorch that tch does not wrap: the TF32 and float32
// matmul precision switches of at::Context (PyTorch's torch.backends.cuda.matmul.allow_tf32,
// torch.backends.cudnn.allow_tf32, torch.set_float32_matmul_precision), ATen's fused optimizer
// kernels (_fused_adam_, _fused_adamw_, _fused_sgd_: one launch for every parameter, where the
// single-tensor algorithm takes about ten a parameter), the autocast state of this thread (device
// type and reduced dtype), GradScaler's two kernels, and a tensor's version counter (to know that
// a mask tensor seen before is unchanged). Every entry point catches each C++ exception: 0 on
// success, -1 with the message kept for ktorch_last_error (attempt.h's thread-local last error).
#include <ATen/ATen.h>
#include <ATen/Context.h>
#include <ATen/autocast_mode.h>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "attempt.h"

static std::vector<at::Tensor> list(at::Tensor** t, int n) {
  std::vector<at::Tensor> v;
  v.reserve(n);
  for (int i = 0; i < n; i++) v.push_back(*t[i]);
  return v;
}

static std::optional<at::Tensor> opt(at::Tensor* t) {
  return t ? std::optional<at::Tensor>(*t) : std::nullopt;
}

extern "C" {
// which: 0 cuBLAS TF32 (matmul), 1 cuDNN TF32 (convolutions). -1 on error.
int ktorch_get_tf32(int which) {
  try {
    auto& c = at::globalContext();
    return which == 0 ? c.allowTF32CuBLAS() : c.allowTF32CuDNN();
  } catch (...) {
    return -1;
  }
}
int ktorch_set_tf32(int which, int b) {
  return attempt([&] {
    auto& c = at::globalContext();
    // cuBLAS's switch through the float32 matmul precision, so that both read back (libtorch
    // refuses to read the precision after the legacy allow_tf32 setter was used)
    if (which == 0) c.setFloat32MatmulPrecision(b ? "high" : "highest");
    else c.setAllowTF32CuDNN(b != 0);
  });
}
// The float32 matmul precision: 0 highest, 1 high, 2 medium; -1 on error.
int ktorch_get_matmul_precision() {
  try {
    switch (at::globalContext().float32MatmulPrecision()) {
      case at::Float32MatmulPrecision::HIGHEST: return 0;
      case at::Float32MatmulPrecision::HIGH: return 1;
      case at::Float32MatmulPrecision::MEDIUM: return 2;
    }
    return -1;
  } catch (...) {
    return -1;
  }
}
int ktorch_set_matmul_precision(const char* s) {
  return attempt([&] { at::globalContext().setFloat32MatmulPrecision(std::string(s)); });
}

// Adam (decoupled=0) or AdamW (decoupled=1) over n parameters in one fused kernel. Steps are
// float32 scalar tensors on the parameters' device, counted here first (as torch.optim's fused
// path does with _foreach_add_). maxsq may be null unless amsgrad; scale and inf are
// GradScaler's (null when unscaled).
int ktorch_fused_adam(int decoupled, int n, at::Tensor** p, at::Tensor** g, at::Tensor** m,
                      at::Tensor** v, at::Tensor** vmax, at::Tensor** step, double lr, double b1,
                      double b2, double decay, double eps, int amsgrad, at::Tensor* scale,
                      at::Tensor* inf) {
  return attempt([&] {
    auto P = list(p, n), G = list(g, n), M = list(m, n), V = list(v, n), S = list(step, n);
    std::vector<at::Tensor> X = amsgrad ? list(vmax, n) : std::vector<at::Tensor>();
    at::_foreach_add_(S, 1);
    if (decoupled)
      at::_fused_adamw_(P, G, M, V, X, S, lr, b1, b2, decay, eps, amsgrad != 0, false, opt(scale), opt(inf));
    else
      at::_fused_adam_(P, G, M, V, X, S, lr, b1, b2, decay, eps, amsgrad != 0, false, opt(scale), opt(inf));
    // a step skipped for an inf/nan gradient does not count (torch.optim's _fused_adam)
    if (inf) at::_foreach_sub_(S, std::vector<at::Tensor>(n, *inf));
  });
}

// SGD over n parameters in one fused kernel; buf null when momentum is 0, else the momentum
// buffers (first: they are set from the gradients, as torch.optim's first step does).
int ktorch_fused_sgd(int n, at::Tensor** p, at::Tensor** g, at::Tensor** buf, double decay,
                     double momentum, double lr, double dampening, int nesterov, int first,
                     at::Tensor* scale, at::Tensor* inf) {
  return attempt([&] {
    auto P = list(p, n), G = list(g, n);
    std::vector<at::Tensor> B = buf ? list(buf, n) : std::vector<at::Tensor>();
    at::_fused_sgd_(P, G, B, decay, momentum, lr, dampening, nesterov != 0, false, first != 0, opt(scale), opt(inf));
  });
}

// A pinned (page-locked) host tensor from libtorch's caching host allocator: the staging buffer
// for q data bound for CUDA. A non-blocking copy from it returns at once, and the allocator
// keeps the block until the copy's stream has passed it (an event recorded by the copy).
int ktorch_empty_pinned(const int64_t* size, int n, int dtype, at::Tensor** out) {
  return attempt([&] {
    auto o = at::TensorOptions().dtype(static_cast<at::ScalarType>(dtype)).pinned_memory(true);
    *out = new at::Tensor(at::empty(at::IntArrayRef(size, n), o));
  });
}

// GradScaler: unscale n gradients in place by inv (a 1-element float tensor), setting found
// (a 1-element float tensor) to 1 where any is inf or nan.
int ktorch_amp_unscale(int n, at::Tensor** g, at::Tensor* found, at::Tensor* inv) {
  return attempt([&] {
    auto G = list(g, n);
    at::_amp_foreach_non_finite_check_and_unscale_(G, *found, *inv);
  });
}
// GradScaler's update: scale *= backoff where found, else grow after `interval` clean steps.
int ktorch_amp_update(at::Tensor* scale, at::Tensor* tracker, at::Tensor* found, double growth,
                      double backoff, long interval) {
  return attempt([&] { at::_amp_update_scale_(*scale, *tracker, *found, growth, backoff, interval); });
}

// Autocast of this thread for a device type (0 cpu, 1 cuda): enter sets enabled with dtype
// (a c10::ScalarType code) and counts the nesting, giving back the previous state in *was and
// *wasdtype; leave restores it and clears the cast cache at the outermost level (cached casts of
// parameters would otherwise outlive the optimizer step that changes the parameters).
int ktorch_autocast_enter(int dev, int dtype, int* was, int* wasdtype) {
  return attempt([&] {
    auto d = dev == 1 ? at::kCUDA : at::kCPU;
    *was = at::autocast::is_autocast_enabled(d);
    *wasdtype = static_cast<int>(at::autocast::get_autocast_dtype(d));
    at::autocast::set_autocast_enabled(d, true);
    at::autocast::set_autocast_dtype(d, static_cast<at::ScalarType>(dtype));
    at::autocast::increment_nesting();
  });
}
int ktorch_autocast_leave(int dev, int was, int wasdtype) {
  return attempt([&] {
    auto d = dev == 1 ? at::kCUDA : at::kCPU;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    at::autocast::set_autocast_enabled(d, was != 0);
    at::autocast::set_autocast_dtype(d, static_cast<at::ScalarType>(wasdtype));
  });
}

// torch.nn.utils.clip_grad_norm_'s multi-tensor path (its default for CUDA gradients): the norms
// of n gradients in one launch, their total norm (max for inf), the coefficient
// max/(total+1e-6) clamped at 1 kept on the device, and every gradient scaled by it in one more
// launch. *total receives the total norm (a new tensor): nothing waits for the GPU here.
int ktorch_clip_norm(int n, at::Tensor** g, double max, double p, at::Tensor** total) {
  return attempt([&] {
    auto G = list(g, n);
    auto norms = at::_foreach_norm(G, p);
    auto all = at::stack(norms);
    at::Tensor t = std::isinf(p) ? all.amax() : all.norm(p);
    auto coef = (max / (t + 1e-6)).clamp_max(1.0);
    at::_foreach_mul_(G, coef);
    *total = new at::Tensor(t);
  });
}

// The version counter of a tensor (bumped by every in-place change).
int ktorch_tensor_version(at::Tensor* t, long* v) {
  return attempt([&] { *v = t->_version(); });
}
}
