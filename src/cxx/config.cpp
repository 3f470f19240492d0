// libtorch facts and session flags that tch does not wrap: build configuration, parallel info,
// version, and the global Context flags behind ktorch's `setting`. Every entry point catches C++
// exceptions so that none crosses into Rust (and from there into q).
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <torch/version.h>
#include <cstdlib>
#include <cstring>
#include <string>

#include "attempt.h"

static char* dup(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

extern "C" {
// The last error of this thread's shim calls (attempt.h), malloc'd (the caller frees it): the
// one getter for every shim file.
char* ktorch_last_error() { return dup(last_error); }

// Strings are malloc'd; the caller frees them with free(). NULL on error.
char* ktorch_show_config() { try { return dup(at::show_config()); } catch (...) { return nullptr; } }
char* ktorch_parallel_info() { try { return dup(at::get_parallel_info()); } catch (...) { return nullptr; } }
const char* ktorch_torch_version() { return TORCH_VERSION; }

// Flags: -1 on error.
int ktorch_has_magma() { try { return at::hasMAGMA(); } catch (...) { return -1; } }
int ktorch_has_cudnn() { try { return at::globalContext().hasCuDNN(); } catch (...) { return -1; } }
long ktorch_cudnn_version() { try { return at::globalContext().hasCuDNN() ? at::globalContext().versionCuDNN() : 0; } catch (...) { return -1; } }
int ktorch_get_benchmark() { try { return at::globalContext().benchmarkCuDNN(); } catch (...) { return -1; } }
int ktorch_set_benchmark(int b) { try { at::globalContext().setBenchmarkCuDNN(b); return 0; } catch (...) { return -1; } }
// ktorch's levels: 0 off, 1 warn only, 2 error on an algorithm without a deterministic form
int ktorch_get_deterministic() { try { auto& c = at::globalContext(); return c.deterministicAlgorithms() ? (c.deterministicAlgorithmsWarnOnly() ? 1 : 2) : 0; } catch (...) { return -1; } }
int ktorch_set_deterministic(int n) { try { at::globalContext().setDeterministicAlgorithms(n > 0, n == 1); return 0; } catch (...) { return -1; } }
int ktorch_get_cudnn_deterministic() { try { return at::globalContext().deterministicCuDNN(); } catch (...) { return -1; } }
int ktorch_set_cudnn_deterministic(int b) { try { at::globalContext().setDeterministicCuDNN(b); return 0; } catch (...) { return -1; } }
// The backends scaled_dot_product_attention may choose (torch.backends.cuda.enable_flash_sdp,
// enable_mem_efficient_sdp, enable_cudnn_sdp, enable_math_sdp): 0 flash, 1 memory-efficient,
// 2 cuDNN, 3 math. -1 on error or an unknown backend.
int ktorch_get_sdp(int which) {
  try {
    auto& c = at::globalContext();
    switch (which) {
      case 0: return c.userEnabledFlashSDP();
      case 1: return c.userEnabledMemEfficientSDP();
      case 2: return c.userEnabledCuDNNSDP();
      case 3: return c.userEnabledMathSDP();
      default: return -1;
    }
  } catch (...) { return -1; }
}
int ktorch_set_sdp(int which, int b) {
  try {
    auto& c = at::globalContext();
    switch (which) {
      case 0: c.setSDPUseFlash(b); return 0;
      case 1: c.setSDPUseMemEfficient(b); return 0;
      case 2: c.setSDPUseCuDNN(b); return 0;
      case 3: c.setSDPUseMath(b); return 0;
      default: return -1;
    }
  } catch (...) { return -1; }
}
}
