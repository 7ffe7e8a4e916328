// Host stand-in for cub::DeviceRadixSort (see ../../cuda_runtime.h): a stable
// sort that, like CUB's, orders keys by bits [begin_bit, end_bit) only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace cub {
namespace fake {
// ordered returns k's bits [begin, end) as an unsigned number, floats by
// their total order (sign flipped; all bits flipped for negatives), as CUB does.
template <typename K>
uint64_t ordered(K k, int begin, int end) {
  uint64_t bits = 0;
  std::memcpy(&bits, &k, sizeof k);
  if (std::is_floating_point<K>::value) {
    uint64_t sign = uint64_t(1) << (sizeof(K) * 8 - 1);
    bits = (bits & sign) ? ~bits & ((sign << 1) - 1) : bits | sign;
  }
  bits >>= begin;
  int width = end - begin;
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}
}  // namespace fake

struct DeviceRadixSort {
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void *d_temp_storage, size_t &temp_storage_bytes, const KeyT *d_keys_in,
                               KeyT *d_keys_out, const ValueT *d_values_in, ValueT *d_values_out,
                               NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                               cudaStream_t = nullptr) {
    return Sort(false, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                num_items, begin_bit, end_bit);
  }

  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void *d_temp_storage, size_t &temp_storage_bytes, const KeyT *d_keys_in,
                                         KeyT *d_keys_out, const ValueT *d_values_in, ValueT *d_values_out,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t = nullptr) {
    return Sort(true, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                num_items, begin_bit, end_bit);
  }

  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void *d_temp_storage, size_t &temp_storage_bytes, const KeyT *d_keys_in,
                              KeyT *d_keys_out, NumItemsT num_items, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t = nullptr) {
    return Sort<KeyT, uint32_t>(false, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr,
                                num_items, begin_bit, end_bit);
  }

  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void *d_temp_storage, size_t &temp_storage_bytes, const KeyT *d_keys_in,
                                        KeyT *d_keys_out, NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t = nullptr) {
    return Sort<KeyT, uint32_t>(true, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr,
                                num_items, begin_bit, end_bit);
  }

 private:
  // Sort is every method: a stable sort by the bits, largest first when
  // descending.
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t Sort(bool descending, void *d_temp_storage, size_t &temp_storage_bytes, const KeyT *d_keys_in,
                          KeyT *d_keys_out, const ValueT *d_values_in, ValueT *d_values_out, NumItemsT num_items,
                          int begin_bit, int end_bit) {
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = 64;
      return cudaSuccess;
    }
    std::vector<size_t> idx(num_items);
    std::iota(idx.begin(), idx.end(), size_t(0));
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
      if (descending) {
        std::swap(a, b);
      }
      return fake::ordered(d_keys_in[a], begin_bit, end_bit) < fake::ordered(d_keys_in[b], begin_bit, end_bit);
    });
    std::vector<KeyT> keys(d_keys_in, d_keys_in + num_items);
    std::vector<ValueT> values(num_items);
    if (d_values_in != nullptr) {
      values.assign(d_values_in, d_values_in + num_items);
    }
    for (size_t i = 0; i < idx.size(); ++i) {
      d_keys_out[i] = keys[idx[i]];
      if (d_values_out != nullptr) {
        d_values_out[i] = values[idx[i]];
      }
    }
    if (num_items >= 2 && fake_broken(d_values_out != nullptr ? "values" : "keys")) {
      std::swap(d_keys_out[0], d_keys_out[1]);
      if (d_values_out != nullptr) {
        std::swap(d_keys_out[0], d_keys_out[1]);
        std::swap(d_values_out[0], d_values_out[1]);
      }
    }
    return cudaSuccess;
  }
};
}  // namespace cub
