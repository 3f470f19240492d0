// libtorch's warnings (TORCH_WARN, TORCH_WARN_ONCE) into ktorch's log: a c10::WarningHandler
// that passes each warning's text to Rust (src/session/log/warnings.rs) at level warn. c10 keeps
// the handler per thread, so ktorch installs it on each thread it wants covered.
#include <c10/util/Exception.h>
#include "attempt.h"

extern "C" void ktorch_log_from_cxx(int level, const char* text);  // Rust; never unwinds

namespace {
const int kWarn = 3;  // ktorch's level numbers: trace 0 .. error 4

class LogHandler : public c10::WarningHandler {
 public:
  void process(const c10::Warning& warning) override {
    // A warning is raised from inside an op: nothing may escape from here into libtorch.
    try {
      ktorch_log_from_cxx(kWarn, warning.msg().c_str());
    } catch (...) {
    }
  }
};

// One handler for the library's lifetime (c10 keeps only the pointer).
LogHandler handler;
}  // namespace

extern "C" {
// Install the handler on the calling thread: 0, or -1 on error.
int ktorch_install_warning_handler() {
  return attempt([] { c10::WarningUtils::set_warning_handler(&handler); });
}
}
