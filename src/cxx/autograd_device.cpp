// What tch does not wrap for autograd and devices: backward with a gradient and retain/create
// flags, resetting a gradient (zero it or drop it), the current CUDA device (get/set through
// c10's device guard, registered by libtorch_cuda when CUDA is present), and copies into a
// memory format (channels last). Each entry point takes tch's C_tensor pointers (at::Tensor*)
// and catches every C++ exception: 0 on success, -1 on error with the message kept for
// ktorch_last_error.
#include <ATen/ATen.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <ATen/Context.h>
#include <cstdlib>
#include <cstring>
#include <string>

#include "attempt.h"

extern "C" {
// at::manual_seed (what torch::manual_seed calls): the CPU generator and every CUDA device's.
// After a device-side assert the CUDA generators throw, and tch's at_manual_seed lets that
// escape into Rust (an abort, found by ktorch-fuzz on the GPU machine): here it is an error.
int ktorch_manual_seed(int64_t seed) {
  return attempt([&] { at::manual_seed(static_cast<uint64_t>(seed)); });
}

// t.backward(g, retain_graph, create_graph); g may be null (an implicit gradient of 1).
int ktorch_backward(at::Tensor* t, at::Tensor* g, int retain, int create) {
  return attempt([&] {
    at::Tensor grad = g ? *g : at::Tensor();
    t->backward(grad, retain != 0, create != 0);
  });
}

// As ktorch's zerograd/nograd: detach the gradient, then zero it (none=0) or drop it (none=1).
int ktorch_reset_grad(at::Tensor* t, int none) {
  return attempt([&] {
    auto& g = t->mutable_grad();
    if (g.defined()) {
      // set_to_none drops the gradient as PyTorch's zero_grad does (p.grad = None): no detach
      // first, which costs an operator a parameter every step
      if (none) { g.reset(); return; }
      g = g.detach();
      g.zero_();
    }
  });
}

// self += alpha * other in one kernel (ATen's add_ with alpha, which tch does not wrap): the
// optimizers' updates, one launch instead of a multiply and an add.
int ktorch_add_alpha_(at::Tensor* self, const at::Tensor* other, double alpha) {
  return attempt([&] { self->add_(*other, alpha); });
}

// self += value * t1 * t2 and self += value * t1 / t2, one kernel each (tch wraps them without
// the value): Adam's and the others' moment updates.
int ktorch_addcmul_value_(at::Tensor* self, const at::Tensor* t1, const at::Tensor* t2, double value) {
  return attempt([&] { self->addcmul_(*t1, *t2, value); });
}
int ktorch_addcdiv_value_(at::Tensor* self, const at::Tensor* t1, const at::Tensor* t2, double value) {
  return attempt([&] { self->addcdiv_(*t1, *t2, value); });
}

// The current CUDA device's index.
int ktorch_cuda_current(long* r) {
  return attempt([&] {
    auto* g = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA);
    *r = g->getDevice().index();
  });
}

int ktorch_cuda_set(int i) {
  return attempt([&] {
    auto* g = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA);
    g->setDevice(c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(i)));
  });
}

// A copy of t in memory format m (0 contiguous, 2 channels last, 3 channels last 3d), or t
// itself when already so; *out is a new at::Tensor* for tch to own.
int ktorch_to_memory_format(at::Tensor* t, int m, at::Tensor** out) {
  return attempt([&] {
    auto f = m == 2 ? c10::MemoryFormat::ChannelsLast
           : m == 3 ? c10::MemoryFormat::ChannelsLast3d
                    : c10::MemoryFormat::Contiguous;
    *out = new at::Tensor(t->contiguous(f));
  });
}

// t in page-locked (pinned) host memory, for fast asynchronous copies to the GPU. Called
// without a device: libtorch deprecates naming one.
int ktorch_pin_memory(at::Tensor* t, at::Tensor** out) {
  return attempt([&] { *out = new at::Tensor(t->pin_memory()); });
}
}

// A random generator of its own for shuffling a multi-task model's training data (kmodel.cpp
// reshuffle): a clone of the default generator of the CPU (type 0) or of CUDA device `index`
// (type 1), seeded with `seed`, so every task draws the same permutations. *out is owned by
// the caller (ktorch_generator_free).
extern "C" {
int ktorch_generator_new(int type, int index, int64_t seed, at::Generator** out) {
  return attempt([&] {
    c10::Device d = type == 0 ? c10::Device(c10::kCPU) : c10::Device(c10::kCUDA, (c10::DeviceIndex)index);
    auto g = at::globalContext().defaultGenerator(d).clone();
    g.set_current_seed((uint64_t)seed);
    *out = new at::Generator(std::move(g));
  });
}

void ktorch_generator_free(at::Generator* g) { delete g; }

// torch::randperm(n, g): a long permutation on the generator's device; *out a new at::Tensor*
// (randperm takes the generator's mutex itself).
int ktorch_generator_randperm(at::Generator* g, int64_t n, at::Tensor** out) {
  return attempt([&] {
    *out = new at::Tensor(at::randperm(n, *g, at::TensorOptions().dtype(at::kLong).device(g->device())));
  });
}
}
