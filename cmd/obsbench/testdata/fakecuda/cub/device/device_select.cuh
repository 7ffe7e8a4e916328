// Host stand-in for cub::DeviceSelect (see ../../cuda_runtime.h).
#pragma once

#include <algorithm>

namespace cub {
struct DeviceSelect {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT>
  static cudaError_t Unique(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                            cudaStream_t = nullptr) {
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = 64;
      return cudaSuccess;
    }
    *d_num_selected_out = static_cast<int>(std::unique_copy(d_in, d_in + num_items, d_out) - d_out) +
                          (fake_broken("unique") ? 1 : 0);
    return cudaSuccess;
  }
};
}  // namespace cub
