// keys_dump prints the keys of every distribution of keys.h, one line each,
// "name k0 k1 ...", floats as the decimal value of their bits, then
// "name/span lo max bits" for the integer ones; cmd/obsbench's
// TestKeysMatchTheBaselinesGenerator compares it with the Go generator.
//
// Build: c++ -std=c++17 -o keys_dump keys_dump.cpp
// Usage: keys_dump N SEED

#include "keys.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: keys_dump N SEED\n");
    return 2;
  }
  size_t n = std::strtoull(argv[1], nullptr, 10);
  uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  for (const Distribution &dist : all_distributions()) {
    std::printf("%s", dist.name.c_str());
    switch (dist.type) {
    case KeyType::U32:
      for (uint32_t k : uint32_keys(dist, n, seed)) {
        std::printf(" %" PRIu32, k);
      }
      break;
    case KeyType::U64:
      for (uint64_t k : uint64_keys(dist, n, seed)) {
        std::printf(" %" PRIu64, k);
      }
      break;
    case KeyType::F32:
      for (float k : float_keys(dist, n, seed)) {
        uint32_t bits;
        std::memcpy(&bits, &k, sizeof bits);
        std::printf(" %" PRIu32, bits);
      }
      break;
    }
    std::printf("\n");
    if (dist.type != KeyType::F32) {
      Span s = key_span(dist, n, seed);
      std::printf("%s/span %" PRIu64 " %" PRIu64 " %d\n", dist.name.c_str(), s.lo, s.max, span_bits(s));
    }
  }
  return 0;
}
