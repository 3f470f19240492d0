// CUDA control that tch does not wrap: device properties and memory, streams, events and CUDA
// graphs, through ATen's and c10's CUDA API. Every entry point catches every C++ exception
// (attempt: 0 on success, -1 with the message kept for ktorch_last_error). Objects cross to Rust
// as opaque pointers that Rust frees through the matching *_free.
//
// Built with KTORCH_CUDA when build.rs finds the CUDA headers of the torch wheel; otherwise every
// entry point fails with one clear message (a libtorch without CUDA support).
#include <cstring>
#include <string>

#include "attempt.h"

#ifdef KTORCH_CUDA
#include <ATen/Context.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

namespace {
// A CUDA runtime call's error as a C++ exception (caught by attempt).
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls are not blamed
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }
}
// The device index c10 wants, after libtorch's lazy CUDA set-up (the caching allocator's
// per-device state exists only once the first CUDA tensor, or this, asked for it).
c10::DeviceIndex index(int d) {
  at::globalContext().lazyInitDevice(c10::DeviceType::CUDA);
  return static_cast<c10::DeviceIndex>(d);
}
}  // namespace

extern "C" {
// name (up to n bytes with its 0), and v: total memory, major, minor, multiprocessors,
// max threads per block, warp size, L2 cache bytes.
int ktorch_cuda_props(int d, char* name, int n, long* v) {
  return attempt([&] {
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, d), "cudaGetDeviceProperties");
    std::strncpy(name, p.name, n - 1);
    name[n - 1] = 0;
    v[0] = static_cast<long>(p.totalGlobalMem);
    v[1] = p.major;
    v[2] = p.minor;
    v[3] = p.multiProcessorCount;
    v[4] = p.maxThreadsPerBlock;
    v[5] = p.warpSize;
    v[6] = p.l2CacheSize;
  });
}

// v: allocated, reserved (cached), peak allocated, peak reserved (the caching allocator's
// counts), then free and total device memory (the driver's view, other processes included).
int ktorch_cuda_memory(int d, long* v) {
  return attempt([&] {
    using c10::CachingAllocator::StatType;
    auto s = c10::cuda::CUDACachingAllocator::getDeviceStats(index(d));
    auto all = static_cast<size_t>(StatType::AGGREGATE);
    v[0] = s.allocated_bytes[all].current;
    v[1] = s.reserved_bytes[all].current;
    v[2] = s.allocated_bytes[all].peak;
    v[3] = s.reserved_bytes[all].peak;
    c10::cuda::CUDAGuard g(index(d));
    size_t f = 0, t = 0;
    check(cudaMemGetInfo(&f, &t), "cudaMemGetInfo");
    v[4] = static_cast<long>(f);
    v[5] = static_cast<long>(t);
  });
}

// Make device d current on a fresh thread with its context bound (cudaSetDevice even when d is
// already the index CUDA reports: a new thread has no context until then, which cuBLAS warns of).
int ktorch_cuda_thread_device(int d) {
  return attempt([&] { c10::cuda::set_device(index(d), /*force=*/true); });
}

int ktorch_cuda_empty_cache() {
  return attempt([] {
    at::globalContext().lazyInitDevice(c10::DeviceType::CUDA);
    c10::cuda::CUDACachingAllocator::emptyCache();
  });
}

int ktorch_cuda_reset_peak(int d) {
  return attempt([&] { c10::cuda::CUDACachingAllocator::resetPeakStats(index(d)); });
}

// ---- streams: a c10 CUDAStream by value on the heap
int ktorch_stream_new(int d, int high, void** out) {
  return attempt([&] {
    *out = new c10::cuda::CUDAStream(c10::cuda::getStreamFromPool(high != 0, index(d)));
  });
}
int ktorch_stream_current(int d, void** out) {
  return attempt([&] { *out = new c10::cuda::CUDAStream(c10::cuda::getCurrentCUDAStream(index(d))); });
}
int ktorch_stream_default(int d, void** out) {
  return attempt([&] { *out = new c10::cuda::CUDAStream(c10::cuda::getDefaultCUDAStream(index(d))); });
}
int ktorch_stream_copy(void* s, void** out) {
  return attempt([&] { *out = new c10::cuda::CUDAStream(*static_cast<c10::cuda::CUDAStream*>(s)); });
}
void ktorch_stream_free(void* s) { delete static_cast<c10::cuda::CUDAStream*>(s); }
// make s its device's current stream (for this thread, as libtorch keeps it)
int ktorch_stream_set(void* s) {
  return attempt([&] { c10::cuda::setCurrentCUDAStream(*static_cast<c10::cuda::CUDAStream*>(s)); });
}
int ktorch_stream_sync(void* s) {
  return attempt([&] { static_cast<c10::cuda::CUDAStream*>(s)->synchronize(); });
}
int ktorch_stream_query(void* s, int* done) {
  return attempt([&] { *done = static_cast<c10::cuda::CUDAStream*>(s)->query() ? 1 : 0; });
}
// the stream's id (0 for the default stream), device and priority
int ktorch_stream_info(void* s, long* id, int* device, int* priority) {
  return attempt([&] {
    auto* x = static_cast<c10::cuda::CUDAStream*>(s);
    *id = static_cast<long>(x->id());
    *device = x->device_index();
    *priority = x->priority();
  });
}
// is s the very stream of t (same device, same id)?
int ktorch_stream_same(void* a, void* b, int* same) {
  return attempt([&] {
    *same = *static_cast<c10::cuda::CUDAStream*>(a) == *static_cast<c10::cuda::CUDAStream*>(b);
  });
}

// ---- events: at::cuda::CUDAEvent with timing enabled (created lazily at first record)
int ktorch_event_new(int timing, void** out) {
  return attempt([&] {
    *out = new at::cuda::CUDAEvent(timing ? cudaEventDefault : cudaEventDisableTiming);
  });
}
void ktorch_event_free(void* e) { delete static_cast<at::cuda::CUDAEvent*>(e); }
int ktorch_event_record(void* e, void* s) {
  return attempt([&] {
    auto* ev = static_cast<at::cuda::CUDAEvent*>(e);
    auto* st = static_cast<c10::cuda::CUDAStream*>(s);
    // a CUDA event belongs to the device it was first recorded on
    if (ev->isCreated() && ev->device_index() != st->device_index())
      throw std::runtime_error("event was recorded on cuda:" + std::to_string(ev->device_index()) +
                               ", cannot record it on a stream of cuda:" +
                               std::to_string(st->device_index()));
    ev->record(*st);
  });
}
// s waits (on the device) for the work recorded in e; the host does not block
int ktorch_event_block(void* e, void* s) {
  return attempt([&] { static_cast<at::cuda::CUDAEvent*>(e)->block(*static_cast<c10::cuda::CUDAStream*>(s)); });
}
int ktorch_event_sync(void* e) {
  return attempt([&] { static_cast<at::cuda::CUDAEvent*>(e)->synchronize(); });
}
int ktorch_event_query(void* e, int* done) {
  return attempt([&] { *done = static_cast<at::cuda::CUDAEvent*>(e)->query() ? 1 : 0; });
}
int ktorch_event_recorded(void* e, int* yes) {
  return attempt([&] { *yes = static_cast<at::cuda::CUDAEvent*>(e)->isCreated() ? 1 : 0; });
}
// milliseconds from a to b (both recorded and complete, both with timing)
int ktorch_event_elapsed(void* a, void* b, double* ms) {
  return attempt([&] {
    auto* x = static_cast<at::cuda::CUDAEvent*>(a);
    auto* y = static_cast<at::cuda::CUDAEvent*>(b);
    if (!x->isCreated() || !y->isCreated())
      throw std::runtime_error("both events must be recorded before their elapsed time is known");
    *ms = x->elapsed_time(*y);
  });
}

// ---- graphs: at::cuda::CUDAGraph; capture runs on the caller's current stream, which must not
// be the default (legacy) stream: the Rust side switches to a side stream first.
//
// capture_begin points the caching allocator at the graph's private pool, with a filter that
// holds the graph's `this`; only a capture_end that gets past cudaStreamEndCapture points it
// back. After a failed capture the filter stayed, and the next CUDA allocation called it on the
// freed graph: a segfault (found by ktorch-fuzz --cuda). So each graph gets its pool id from us
// (a fresh graph_pool_handle, not shared), and abort ends the allocation to it.
namespace {
struct Captured {
  at::cuda::CUDAGraph graph;
  at::cuda::MempoolId_t pool = at::cuda::graph_pool_handle();
  c10::DeviceIndex device = -1;  // set when capture begins
};
Captured* captured(void* g) { return static_cast<Captured*>(g); }
}  // namespace

int ktorch_graph_new(void** out) {
  return attempt([&] { *out = new Captured(); });
}
void ktorch_graph_free(void* g) {
  // a graph whose capture failed may throw in its destructor's cleanup: never let it escape
  attempt([&] { delete captured(g); });
}
int ktorch_graph_begin(void* g) {
  return attempt([&] {
    auto* c = captured(g);
    c->device = c10::cuda::current_device();
    c->graph.capture_begin(c->pool);
  });
}
int ktorch_graph_end(void* g) {
  return attempt([&] { captured(g)->graph.capture_end(); });
}
int ktorch_graph_replay(void* g) {
  return attempt([&] { captured(g)->graph.replay(); });
}
// After a failed capture: end the stream's capture if it is still going (discarding the
// partial graph) and the allocator's use of the graph's pool, so the stream and the allocator
// are usable again.
int ktorch_graph_abort(void* g) {
  return attempt([&] {
    auto* c = captured(g);
    auto s = c10::cuda::getCurrentCUDAStream();
    cudaStreamCaptureStatus st;
    check(cudaStreamIsCapturing(s.stream(), &st), "cudaStreamIsCapturing");
    if (st != cudaStreamCaptureStatusNone) {
      cudaGraph_t partial = nullptr;
      cudaStreamEndCapture(s.stream(), &partial);
      if (partial) cudaGraphDestroy(partial);
      cudaGetLastError();
    }
    // not found when capture_end got that far: then there is nothing to end
    if (c->device >= 0) {
      try { c10::cuda::CUDACachingAllocator::endAllocateToPool(c->device, c->pool); } catch (...) {}
    }
    // let the graph release its private memory pool state
    try { c->graph.reset(); } catch (...) {}
  });
}
}

#else  // no CUDA headers: one clear error from every entry point

namespace {
int absent() {
  last_error = "ktorch was built without CUDA support (no CUDA headers with its libtorch)";
  return -1;
}
}  // namespace
extern "C" {
int ktorch_cuda_props(int, char*, int, long*) { return absent(); }
int ktorch_cuda_memory(int, long*) { return absent(); }
// Make device d current on a fresh thread with its context bound (cudaSetDevice even when d is
// already the index CUDA reports: a new thread has no context until then, which cuBLAS warns of).
int ktorch_cuda_thread_device(int d) {
  return attempt([&] { c10::cuda::set_device(index(d), /*force=*/true); });
}

int ktorch_cuda_empty_cache() { return absent(); }
int ktorch_cuda_thread_device(int) { return absent(); }
int ktorch_cuda_reset_peak(int) { return absent(); }
int ktorch_stream_new(int, int, void**) { return absent(); }
int ktorch_stream_current(int, void**) { return absent(); }
int ktorch_stream_default(int, void**) { return absent(); }
int ktorch_stream_copy(void*, void**) { return absent(); }
void ktorch_stream_free(void*) {}
int ktorch_stream_set(void*) { return absent(); }
int ktorch_stream_sync(void*) { return absent(); }
int ktorch_stream_query(void*, int*) { return absent(); }
int ktorch_stream_info(void*, long*, int*, int*) { return absent(); }
int ktorch_stream_same(void*, void*, int*) { return absent(); }
int ktorch_event_new(int, void**) { return absent(); }
void ktorch_event_free(void*) {}
int ktorch_event_record(void*, void*) { return absent(); }
int ktorch_event_block(void*, void*) { return absent(); }
int ktorch_event_sync(void*) { return absent(); }
int ktorch_event_query(void*, int*) { return absent(); }
int ktorch_event_recorded(void*, int*) { return absent(); }
int ktorch_event_elapsed(void*, void*, double*) { return absent(); }
int ktorch_graph_new(void**) { return absent(); }
void ktorch_graph_free(void*) {}
int ktorch_graph_begin(void*) { return absent(); }
int ktorch_graph_end(void*) { return absent(); }
int ktorch_graph_replay(void*) { return absent(); }
int ktorch_graph_abort(void*) { return absent(); }
}
#endif
