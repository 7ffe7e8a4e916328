// Host stand-in for cub::DeviceScan (see ../../cuda_runtime.h).
#pragma once

namespace cub {
struct DeviceScan {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t ExclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                                  OutputIteratorT d_out, NumItemsT num_items, cudaStream_t = nullptr) {
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = 64;
      return cudaSuccess;
    }
    auto acc = d_in[0] - d_in[0];
    for (NumItemsT i = 0; i < num_items; ++i) {
      auto v = d_in[i];
      d_out[i] = acc;
      acc += v;
    }
    if (num_items > 0 && fake_broken("scan")) {
      d_out[num_items - 1] += 1;
    }
    return cudaSuccess;
  }
};
}  // namespace cub
