// Kernels compiled at run time with NVRTC (the libnvrtc of the torch wheel) and launched through
// the CUDA driver API on the current ATen stream, for fusions libtorch has no kernel for
// (issue 31 item 5). Only built with KTORCH_CUDA. Every function throws std::runtime_error with
// a message that says what is missing (NVRTC, the driver, a compile error and its log); the
// callers are inside attempt() (attempt.h), so nothing escapes to Rust.
#pragma once
#ifdef KTORCH_CUDA
#include <string>
#include <vector>

namespace ktorch_nvrtc {

// The functions of one compiled module, in the order their names were given.
struct Module {
  std::vector<void*> functions;  // CUfunction each
};

// Compile `source` for device `device` (its sm_XX from the device's properties) and load it in
// the device's primary context, once per key: later calls with the same key answer the module
// made the first time (kept for the life of the process). `names` are extern "C" kernels.
const Module& compiled(int device, const std::string& key, const std::string& source,
                       const std::vector<std::string>& names);

// Launch f on the current CUDA stream of the current device (what ATen uses, so that CUDA graph
// capture records it); args as cuLaunchKernel takes them (pointers to each argument).
void launch(void* f, unsigned grid, unsigned block, void** args);

// How many blocks of `block` threads of f fit on one multiprocessor at once (its registers and
// shared memory decide), for grids of one wave.
int resident_blocks(void* f, int block);

// The number of multiprocessors of device d (for grid sizes), cached.
int multiprocessors(int device);

}  // namespace ktorch_nvrtc
#endif
