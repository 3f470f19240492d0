// libtorch's profiler (Kineto, as torch.profiler uses it) for q: start and stop around any q
// code, then read every event (operators on the CPU, kernels and copies on the GPU) and write
// the Chrome trace. One profile at a time per process, as in libtorch; its last result is kept
// here until the next stop, so that q can read the events and save the trace after stopping.
#include <ATen/record_function.h>
#include <torch/csrc/autograd/profiler_kineto.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "attempt.h"

namespace prof = torch::autograd::profiler;
namespace impl = torch::profiler::impl;

namespace {
// One event, copied out of libtorch's result: what the q table shows.
struct Event {
  std::string name;
  std::string shapes;  // "[[200, 128], [512]]" when shapes were recorded, else ""
  int device;          // c10::DeviceType: 0 CPU, 1 CUDA
  int device_index;
  uint64_t start_ns, dur_ns, thread, correlation;
  int activity;  // libkineto's activity type (0: a CPU operator)
};

std::unique_ptr<prof::ProfilerResult> result;
std::vector<Event> events;

// A process that exits with a profile running (q's `exit`, `\\`) would destroy libtorch's
// profiler state (a thread-local) under the running profile and crash in its soft assert: stop
// the profile first. Thread-locals are destroyed in the reverse order of their construction, so
// this one, made at the first start after libtorch made its own, goes first.
struct StopAtThreadExit {
  bool armed = false;
  ~StopAtThreadExit() {
    if (!armed) return;
    try {
      if (prof::profilerEnabled()) prof::disableProfiler();
    } catch (...) {
    }
  }
};

std::string shapes_text(const prof::KinetoEvent& e) {
  if (!e.hasShapes()) return "";
  std::ostringstream o;
  o << "[";
  bool first = true;
  for (const auto& s : e.shapes()) {
    o << (first ? "" : ", ") << "[";
    for (size_t i = 0; i < s.size(); i++) o << (i ? ", " : "") << s[i];
    o << "]";
    first = false;
  }
  o << "]";
  return o.str();
}
}  // namespace

extern "C" {
// Whether a profile is running in this process (libtorch's own state): 1 or 0.
int ktorch_profiler_enabled() { return prof::profilerEnabled() ? 1 : 0; }

// Start: CPU operators always, CUDA kernels and copies when cuda != 0; input shapes and memory
// when asked. libtorch refuses a second profile while one runs (its error is returned).
int ktorch_profiler_start(int cuda, int shapes, int memory) {
  return attempt([&] {
    // Kineto logs at ERROR level when it finds no GPU ("gpuGetDeviceCount failed"), which is
    // the normal case on a CPU machine: keep its log to what it addresses to the user unless the user set one.
    setenv("KINETO_LOG_LEVEL", "5", 0);
    impl::ProfilerConfig config(impl::ProfilerState::KINETO, shapes != 0, memory != 0);
    std::set<impl::ActivityType> acts{impl::ActivityType::CPU};
    if (cuda) acts.insert(impl::ActivityType::CUDA);
    prof::prepareProfiler(config, acts);
    prof::enableProfiler(config, acts);
    static thread_local StopAtThreadExit stop_at_exit;
    stop_at_exit.armed = true;
  });
}

// Stop, keep the result and copy its events; *n is how many.
int ktorch_profiler_stop(long* n) {
  return attempt([&] {
    auto r = prof::disableProfiler();
    std::vector<Event> ev;
    for (const auto& e : r->events()) {
      // libkineto's GPU_USER_ANNOTATION (2): a user range mirrored onto the GPU's timeline,
      // from the first to the last kernel it launched; it is not GPU work and doubles the
      // range's CPU event, so the q tables leave it out (the Chrome trace keeps it)
      if (e.isHiddenEvent() || e.activityType() == 2) continue;
      ev.push_back(Event{e.name(), shapes_text(e), static_cast<int>(e.deviceType()),
                         e.deviceIndex(), e.startNs(), e.durationNs(), e.startThreadId(),
                         e.correlationId(), static_cast<int>(e.activityType())});
    }
    result = std::move(r);
    events = std::move(ev);
    *n = static_cast<long>(events.size());
  });
}

// Events of the last result (-1 with an error when none or out of range). The strings stay
// valid until the next stop; the caller copies them at once.
int ktorch_profiler_event(long i, const char** name, const char** shapes, long* v) {
  return attempt([&] {
    TORCH_CHECK(result, "no profile has been stopped yet");
    TORCH_CHECK(i >= 0 && i < static_cast<long>(events.size()), "event ", i, " out of range");
    const Event& e = events[i];
    *name = e.name.c_str();
    *shapes = e.shapes.c_str();
    v[0] = e.device;
    v[1] = e.device_index;
    v[2] = static_cast<long>(e.start_ns);
    v[3] = static_cast<long>(e.dur_ns);
    v[4] = static_cast<long>(e.thread);
    v[5] = static_cast<long>(e.correlation);
    v[6] = e.activity;
  });
}

// A user range "ktorch::<name>" around one q call, as torch.profiler's record_function: the
// RecordFunction is owned by the caller until range_end. Null when the profiler does not take
// it (no profile, or this thread not observed) or on an error: nothing to close then.
void* ktorch_profiler_range_begin(const char* name, long len) {
  at::RecordFunction* rf = nullptr;
  attempt([&] {
    auto r = std::make_unique<at::RecordFunction>(at::RecordScope::USER_SCOPE);
    if (r->isActive()) {
      r->before("ktorch::" + std::string(name, len));
      rf = r.release();
    }
  });
  return rf;
}

void ktorch_profiler_range_end(void* range) {
  attempt([&] {
    auto* rf = static_cast<at::RecordFunction*>(range);
    rf->end();
    delete rf;
  });
}

// The last result as a Chrome trace (chrome://tracing, Perfetto), as torch.profiler's
// export_chrome_trace writes it.
int ktorch_profiler_save(const char* path) {
  return attempt([&] {
    TORCH_CHECK(result, "no profile has been stopped yet");
    result->save(path);
  });
}
}
