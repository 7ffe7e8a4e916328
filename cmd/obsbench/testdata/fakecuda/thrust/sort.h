// Host stand-in for thrust::sort (see ../cuda_runtime.h).
#pragma once

#include <algorithm>

namespace thrust {
template <typename Policy, typename It>
void sort(const Policy &, It first, It last) {
  std::sort(first, last);
}
}  // namespace thrust
