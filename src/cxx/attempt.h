// One way for every C++ entry point to keep exceptions out of Rust (and so out of q): run the
// body, return 0, or keep the exception's message for the caller to fetch and return -1.
#pragma once
#include <exception>
#include <string>

// The last error of this thread, shared by every shim file (C++17 inline variable).
inline thread_local std::string last_error;

template <typename F>
static int attempt(F f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown C++ exception";
  }
  return -1;
}
