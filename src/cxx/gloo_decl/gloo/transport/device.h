// See README: declarations only (held by shared_ptr and unique_ptr in ProcessGroupGloo.hpp).
#pragma once
namespace gloo {
namespace transport {
class Device;
class UnboundBuffer;
}  // namespace transport
}  // namespace gloo
