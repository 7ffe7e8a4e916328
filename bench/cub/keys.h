// keys.h: the sort benchmark's key distributions, host C++17 only.
//
// cmd/obsbench (keys.go) makes the very same keys; keys_dump.cpp prints them
// for its test. Every array starts from a fresh generator whose state is the
// seed.
//
//   splitmix64: state += 0x9E3779B97F4A7C15;
//               z = state;
//               z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//               z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//               return z ^ (z >> 31);            (all arithmetic mod 2^64)
//   high32 = splitmix64() >> 32.
//
// Distributions, in the order of the charts (key type; the declared range
// [lo, max] every key lies in):
//   Tx       x = 4..24 and 32: key[i] = uint32(splitmix64() >> (64 - x))
//            (uint32; [0, 2^x - 1]);
//   U64      key[i] = splitmix64() (uint64; every value);
//   F32      key[i] = float(int32(splitmix64() >> 40) - 2^23) * 2^-23: uniform
//            in [-1, 1) on the grid of 2^-23, exact in float (float; none);
//   skewed   v = high32(); u = v; three times u = (u * u) >> 32 (64-bit);
//            key[i] = uint32(u): floor(2^32 × (v/2^32)^8) in fixed point, a
//            power law: a quarter of the keys below 2^16, one in 16 zero
//            (uint32; [0, 2^32 - 1]);
//   few16    table[t] = high32() for t = 0..15, then
//            key[i] = table[splitmix64() >> 60]
//            (uint32; [min table, max table]);
//   equal    v = high32(); key[i] = v (uint32; [v, v]);
//   sorted   key[i] = i (uint32; [0, N-1]);
//   reverse  key[i] = N-1-i (uint32; [0, N-1]);
//   unique   key[i] = i, then for i = N-1 down to 1:
//            j = splitmix64() % (i + 1); swap key[i] and key[j]
//            (uint32; [0, N-1]).
// A radix sort told the range's bits sorts bits [0, b), b the bit length of
// the range's max (at least 1).
//
// Test vectors, seed 1: T8 with N = 8 is 145 190 248 113 113 195 224 133;
// T24 with N = 4 is 9505325 12512141 16290722 7455110; unique with N = 8 is
// 4 3 2 7 5 6 0 1 (cmd/obsbench's TestKeysMatchBaseline holds more).

#ifndef OBSIDIAN_BENCH_KEYS_H
#define OBSIDIAN_BENCH_KEYS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

struct SplitMix64 {
  uint64_t state;

  uint64_t next() {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  uint32_t high32() { return static_cast<uint32_t>(next() >> 32); }
};

enum class KeyType { U32, U64, F32 };

enum class Shape { Range, Uniform64, Float, Skewed, Few, Equal, Sorted, Reverse, Unique };

struct Distribution {
  std::string name;
  Shape shape;
  KeyType type;
  int range_bits;  // x of Tx; unused by the other shapes
};

static const int kFewValues = 16;

static std::vector<Distribution> all_distributions() {
  std::vector<Distribution> dists;
  for (int x = 4; x <= 24; ++x) {
    dists.push_back({"T" + std::to_string(x), Shape::Range, KeyType::U32, x});
  }
  dists.push_back({"T32", Shape::Range, KeyType::U32, 32});
  dists.push_back({"U64", Shape::Uniform64, KeyType::U64, 0});
  dists.push_back({"F32", Shape::Float, KeyType::F32, 0});
  dists.push_back({"skewed", Shape::Skewed, KeyType::U32, 0});
  dists.push_back({"few16", Shape::Few, KeyType::U32, 0});
  dists.push_back({"equal", Shape::Equal, KeyType::U32, 0});
  dists.push_back({"sorted", Shape::Sorted, KeyType::U32, 0});
  dists.push_back({"reverse", Shape::Reverse, KeyType::U32, 0});
  dists.push_back({"unique", Shape::Unique, KeyType::U32, 0});
  return dists;
}

static uint32_t skewed_key(uint32_t v) {
  uint64_t u = v;
  for (int i = 0; i < 3; ++i) {
    u = (u * u) >> 32;
  }
  return static_cast<uint32_t>(u);
}

static float float_key(uint64_t r) {
  return static_cast<float>(static_cast<int32_t>(r >> 40) - 8388608) * (1.0f / 8388608.0f);
}

static std::vector<uint32_t> few_table(SplitMix64 &rng) {
  std::vector<uint32_t> table(kFewValues);
  for (uint32_t &v : table) {
    v = rng.high32();
  }
  return table;
}

// uint32_keys makes n keys of a distribution of uint32 keys.
static std::vector<uint32_t> uint32_keys(const Distribution &dist, size_t n, uint64_t seed) {
  SplitMix64 rng{seed};
  std::vector<uint32_t> keys(n);
  switch (dist.shape) {
  case Shape::Range:
    for (uint32_t &k : keys) {
      k = static_cast<uint32_t>(rng.next() >> (64 - dist.range_bits));
    }
    return keys;
  case Shape::Skewed:
    for (uint32_t &k : keys) {
      k = skewed_key(rng.high32());
    }
    return keys;
  case Shape::Few: {
    std::vector<uint32_t> table = few_table(rng);
    for (uint32_t &k : keys) {
      k = table[rng.next() >> 60];
    }
    return keys;
  }
  case Shape::Equal:
    std::fill(keys.begin(), keys.end(), rng.high32());
    return keys;
  case Shape::Sorted:
  case Shape::Unique:
    for (size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<uint32_t>(i);
    }
    if (dist.shape == Shape::Unique) {
      for (size_t i = n - 1; i >= 1 && i < n; --i) {
        size_t j = static_cast<size_t>(rng.next() % (static_cast<uint64_t>(i) + 1));
        std::swap(keys[i], keys[j]);
      }
    }
    return keys;
  case Shape::Reverse:
    for (size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<uint32_t>(n - 1 - i);
    }
    return keys;
  case Shape::Uniform64:
  case Shape::Float:
    break;
  }
  return {};
}

// uint64_keys makes n keys of U64.
static std::vector<uint64_t> uint64_keys(const Distribution &, size_t n, uint64_t seed) {
  SplitMix64 rng{seed};
  std::vector<uint64_t> keys(n);
  for (uint64_t &k : keys) {
    k = rng.next();
  }
  return keys;
}

// float_keys makes n keys of F32.
static std::vector<float> float_keys(const Distribution &, size_t n, uint64_t seed) {
  SplitMix64 rng{seed};
  std::vector<float> keys(n);
  for (float &k : keys) {
    k = float_key(rng.next());
  }
  return keys;
}

// Span is a distribution's declared range: every key k has lo <= k <= max.
struct Span {
  uint64_t lo, max;
};

// key_span returns the declared range of n keys of an integer distribution.
static Span key_span(const Distribution &dist, size_t n, uint64_t seed) {
  SplitMix64 rng{seed};
  switch (dist.shape) {
  case Shape::Range:
    return {0, (uint64_t(1) << dist.range_bits) - 1};
  case Shape::Uniform64:
    return {0, ~uint64_t(0)};
  case Shape::Skewed:
    return {0, 0xFFFFFFFFull};
  case Shape::Few: {
    std::vector<uint32_t> table = few_table(rng);
    return {*std::min_element(table.begin(), table.end()),
            *std::max_element(table.begin(), table.end())};
  }
  case Shape::Equal: {
    uint64_t v = rng.high32();
    return {v, v};
  }
  case Shape::Sorted:
  case Shape::Reverse:
  case Shape::Unique:
    return {0, n > 0 ? uint64_t(n - 1) : 0};
  case Shape::Float:
    break;
  }
  return {0, 0};
}

// span_bits returns the bit length of max, at least 1: the end bit of a radix
// sort told the range.
static int span_bits(const Span &span) {
  int b = 1;
  while (b < 64 && (span.max >> b) != 0) {
    ++b;
  }
  return b;
}

#endif
