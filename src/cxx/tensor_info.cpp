// Tensor facts that tch does not wrap: reference counts, raw pointers, storage size and offset,
// pinned memory, memory format, layout, gradient function name, channels-last contiguity, and
// the default generators' seeds. Each entry point takes tch's C_tensor pointer (an at::Tensor*),
// reads without changing anything, and catches every C++ exception: none crosses into Rust.
// Results that can fail are written through an out pointer; the return is 0 on success, -1 on
// error (the message is then available from ktorch_last_error).
#include <ATen/ATen.h>
#include <ATen/Context.h>
#include <ATen/EmptyTensor.h>
#include <torch/csrc/autograd/function.h>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "attempt.h"

static char* dup(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

static int memory_code(c10::MemoryFormat m) {
  switch (m) {
    case c10::MemoryFormat::Contiguous: return 0;
    case c10::MemoryFormat::Preserve: return 1;
    case c10::MemoryFormat::ChannelsLast: return 2;
    case c10::MemoryFormat::ChannelsLast3d: return 3;
    default: return -1;
  }
}

extern "C" {
// Owning references to the TensorImpl (0 for an undefined tensor), and weak references.
int ktorch_use_count(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = t->defined() ? (int64_t)t->use_count() : 0; }); }
int ktorch_weak_count(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = t->defined() ? (int64_t)t->weak_use_count() : 0; }); }
// The TensorImpl's address (what ktorch calls ptr), 0 if undefined.
int ktorch_impl_ptr(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = (int64_t)(intptr_t)t->unsafeGetTensorImpl(); }); }

// Storage facts: references, data address, bytes; all 0 for an undefined tensor or one with no storage.
static bool has_storage(const at::Tensor& t) { return t.defined() && !t.is_sparse() && t.has_storage(); }
int ktorch_storage_count(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = has_storage(*t) ? (int64_t)t->storage().use_count() : 0; }); }
int ktorch_storage_ptr(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = has_storage(*t) ? (int64_t)(intptr_t)t->storage().data() : 0; }); }
int ktorch_storage_bytes(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = has_storage(*t) ? (int64_t)t->storage().nbytes() : 0; }); }
// 1 when a tensor's sizes, strides and offset lie within its storage's bytes, as every kernel
// assumes; 0 when they do not: ATen's resize of an out= tensor sets the new sizes before it
// allocates, so a resize that failed (`fftfreq(1000000000000;2;r)`: no memory) leaves r's new
// sizes over its old storage, and the next kernel given r wrote past it (SIGSEGV, found by
// ktorch-fuzz --seed 15392495 --only fftfreq). Anything without strided storage fits.
int ktorch_storage_fits(const at::Tensor* t, int64_t* r) {
  return attempt([&] {
    *r = 1;
    if (!has_storage(*t) || t->layout() != c10::kStrided || t->numel() == 0) return;
    auto need = at::detail::computeStorageNbytes(t->sizes(), t->strides(), t->dtype().itemsize(),
                                                 t->storage_offset());
    *r = need <= t->storage().nbytes() ? 1 : 0;
  });
}
int ktorch_storage_offset(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = t->defined() && !t->is_sparse() ? (int64_t)t->storage_offset() : 0; }); }

// A tensor's items as one run of host memory (src/cxx/storage.rs's views): *ok 1, the address of
// its first item and the bytes of all (numel x item size) when it is defined, strided (not
// sparse, not MKL-DNN), on the CPU, contiguous and backed by a storage; else *ok 0. One call
// for what would be eight through tch, on the per-call path of every conversion.
int ktorch_host_data(const at::Tensor* t, void** p, int64_t* n, int64_t* ok) {
  return attempt([&] {
    *p = nullptr;
    *n = 0;
    *ok = 0;
    if (!t->defined() || t->layout() != c10::kStrided || !t->device().is_cpu() || !t->has_storage() ||
        !t->is_contiguous())
      return;
    int64_t items = t->numel();
    *n = items * (int64_t)t->element_size();
    *p = items ? t->data_ptr() : nullptr;
    *ok = items == 0 || *p != nullptr;
  });
}

// 1 if the tensor's memory is page-locked (only CPU tensors can be), else 0.
int ktorch_is_pinned(const at::Tensor* t, int64_t* r) {
  return attempt([&] { *r = t->defined() && !t->is_sparse() && t->device().is_cpu() && t->is_pinned(); });
}
// Suggested memory format: 0 contiguous, 1 preserve, 2 channels-last (2d), 3 channels-last 3d.
int ktorch_memory_format(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = memory_code(t->suggest_memory_format()); }); }
// Contiguous in the given memory format (codes as above; sparse tensors are never contiguous).
int ktorch_is_contiguous(const at::Tensor* t, int m, int64_t* r) {
  return attempt([&] {
    c10::MemoryFormat f = m == 2 ? c10::MemoryFormat::ChannelsLast
                        : m == 3 ? c10::MemoryFormat::ChannelsLast3d
                                 : c10::MemoryFormat::Contiguous;
    *r = t->defined() && !t->is_sparse() && t->is_contiguous(f);
  });
}
// Layout: 0 strided, 1 sparse (COO), 2 sparse CSR, 3 sparse CSC, 4 sparse BSR, 5 sparse BSC, 6 mkldnn, 7 other.
int ktorch_layout(const at::Tensor* t, int64_t* r) {
  return attempt([&] {
    switch (t->layout()) {
      case c10::kStrided: *r = 0; break;
      case c10::kSparse: *r = 1; break;
      case c10::kSparseCsr: *r = 2; break;
      case c10::kSparseCsc: *r = 3; break;
      case c10::kSparseBsr: *r = 4; break;
      case c10::kSparseBsc: *r = 5; break;
      case c10::kMkldnn: *r = 6; break;
      default: *r = 7; break;
    }
  });
}
// Coalesced: sparse tensors known to have no duplicate indices; dense tensors are by definition.
int ktorch_is_coalesced(const at::Tensor* t, int64_t* r) { return attempt([&] { *r = t->defined() && t->is_sparse() ? t->is_coalesced() : 1; }); }

// 1 if both tensors share their storage.
int ktorch_is_alias(const at::Tensor* a, const at::Tensor* b, int64_t* r) {
  return attempt([&] { *r = a->defined() && b->defined() && a->is_alias_of(*b); });
}

// The name of the tensor's gradient function (malloc'd; "" when none). NULL on error.
char* ktorch_grad_fn(const at::Tensor* t) {
  char* p = nullptr;
  attempt([&] {
    const auto& f = t->defined() ? t->grad_fn() : nullptr;
    p = dup(f ? f->name() : std::string());
  });
  return p;
}

// The current seed of a device's default generator (device type 0 cpu, 1 cuda with index i).
int ktorch_device_seed(int type, int index, int64_t* r) {
  return attempt([&] {
    c10::Device d = type == 0 ? c10::Device(c10::kCPU) : c10::Device(c10::kCUDA, (c10::DeviceIndex)index);
    *r = (int64_t)at::globalContext().defaultGenerator(d).current_seed();
  });
}
}
