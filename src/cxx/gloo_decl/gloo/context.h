// See README: declarations only. ProcessGroupGloo.hpp's inline setTimeout calls
// Context::setTimeout, so the class is given that member; dist.cpp never calls it, and never
// holds a Context but through libtorch's own pointers.
#pragma once
#include <chrono>
namespace gloo {
class Context {
 public:
  void setTimeout(std::chrono::milliseconds timeout);
};
}  // namespace gloo
