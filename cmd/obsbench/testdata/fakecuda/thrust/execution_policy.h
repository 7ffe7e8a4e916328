// Host stand-in for thrust's execution policies (see ../cuda_runtime.h).
#pragma once

namespace thrust {
struct device_t {};
static const device_t device{};
}  // namespace thrust
