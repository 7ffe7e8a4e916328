// baseline.cu: the CUB/Thrust baseline of the sort benchmark.
//
// For every key count N and every key distribution (keys.h, the same keys
// cmd/obsbench makes) it times, with CUDA events, the library routines the
// project's sorts are measured against, checks every result against a host
// reference, and prints one CSV row per measurement on stdout:
//
//   n,dist,method,median_ms,min_ms,max_ms,runs
//
// Methods (K the distribution's key type: uint32, uint64 or float; b the bit
// length of the distribution's declared largest key, see keys.h):
//   memcpy           device-to-device copy of the keys (the floor);
//   cub_radix_full   cub::DeviceRadixSort::SortKeys over all the bits of K;
//   cub_radix_bits   the same over bits [0, b) (uint32 keys);
//   cub_pairs_full   cub::DeviceRadixSort::SortPairs, uint32 values 0..N-1,
//                    over all the bits of K;
//   cub_pairs_bits   the same over bits [0, b) (uint32 keys);
//   cub_radix_desc   cub::DeviceRadixSort::SortKeysDescending over all the
//                    bits of K;
//   cub_pairs_desc   cub::DeviceRadixSort::SortPairsDescending, uint32
//                    values 0..N-1, over all the bits of K;
//   thrust_sort      thrust::sort in place (its own temporary allocation and
//                    final synchronisation included, as a Thrust user gets it);
//   cub_sort_unique  the radix sort (over [0, b) for uint32 keys, all bits
//                    otherwise) then cub::DeviceSelect::Unique, giving the
//                    sorted distinct keys and their count;
//   cub_scan         cub::DeviceScan::ExclusiveSum of the keys (uint32 keys,
//                    modulo 2^32), beside which the library's scan is timed.
//
// Checks, on the host after the first timed method run: sorts element by
// element against std::sort (reversed for the descending sorts); pairs also
// that the values are a permutation of 0..N-1 whose keys are the sorted keys,
// equal keys in the order of their indices (CUB's radix sort is stable, in
// either order); sort+unique against std::unique and
// its count; the scan against the host's sums. A wrong result prints what was
// wrong and exits with status 1.
//
// Timing: buffers and temporary storage are allocated once per N and
// distribution (grown if a method needs more), outside the timed region. Each
// method runs 3 untimed warm-ups, then R timed runs (-runs, default 15, at
// least 15), each between its own pair of events on the default stream; the
// median, minimum and maximum of the R are reported.
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -lpthread -o baseline baseline.cu
// Usage: baseline [-n N]... [-dist D]... [-method RE] [-runs R] [-seed S]
//   -n may be given several times; without it N = 2^10, 2^16, 1000003, 2^20,
//   2^25, 2^27. -dist (repeatable) picks distributions by name; without it
//   every one of keys.h. -method measures only the methods whose names the
//   regular expression (ECMAScript) matches; without it every one.

#include "keys.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#define CHECK(call) check_cuda((call), #call, __FILE__, __LINE__)

static void check_cuda(cudaError_t err, const char *what, const char *file, int line) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, what, cudaGetErrorString(err));
    std::exit(1);
  }
}

static const int kWarmups = 3;
static const int kMinRuns = 15;

// ---- host reference -------------------------------------------------------

// host_sort is std::sort on equal slices in parallel threads, then pairwise
// std::merge rounds, so that the references for 2^27 keys take a second or two.
template <typename K>
static void host_sort(std::vector<K> &v) {
  size_t parts = 1;
  size_t cores = std::max(1u, std::thread::hardware_concurrency());
  while (parts * 2 <= std::min<size_t>(cores, 16)) {
    parts *= 2;
  }
  if (parts == 1 || v.size() < (size_t(1) << 16)) {
    std::sort(v.begin(), v.end());
    return;
  }
  std::vector<size_t> bound(parts + 1);
  for (size_t p = 0; p <= parts; ++p) {
    bound[p] = v.size() * p / parts;
  }
  std::vector<std::thread> workers;
  for (size_t p = 0; p < parts; ++p) {
    workers.emplace_back([&, p] { std::sort(v.begin() + bound[p], v.begin() + bound[p + 1]); });
  }
  for (auto &w : workers) {
    w.join();
  }
  std::vector<K> other(v.size());
  K *src = v.data();
  K *dst = other.data();
  for (size_t width = 1; width < parts; width *= 2) {
    workers.clear();
    for (size_t p = 0; p < parts; p += 2 * width) {
      workers.emplace_back([=, &bound] {
        std::merge(src + bound[p], src + bound[p + width], src + bound[p + width],
                   src + bound[p + 2 * width], dst + bound[p]);
      });
    }
    for (auto &w : workers) {
      w.join();
    }
    std::swap(src, dst);
  }
  if (src != v.data()) {
    v.swap(other);
  }
}

// ---- device buffers -------------------------------------------------------

// Buffers holds everything one N of keys of type K needs on the device.
template <typename K>
struct Buffers {
  int n = 0;
  K *keys = nullptr;             // the input, never written by a method
  K *out = nullptr;              // a method's result
  K *work = nullptr;             // in-place sort target, intermediate sorted keys
  uint32_t *values = nullptr;    // 0, 1, ..., n-1: SortPairs' values
  uint32_t *values_out = nullptr;
  int *count = nullptr;          // DeviceSelect::Unique's count of distinct keys
  void *temp = nullptr;          // CUB temporary storage
  size_t temp_bytes = 0;

  explicit Buffers(int count_keys) : n(count_keys) {
    size_t bytes = size_t(n) * sizeof(K);
    CHECK(cudaMalloc(reinterpret_cast<void **>(&keys), bytes));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&out), bytes));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&work), bytes));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&values), size_t(n) * sizeof(uint32_t)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&values_out), size_t(n) * sizeof(uint32_t)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&count), sizeof(int)));
    std::vector<uint32_t> iota(n);
    for (int i = 0; i < n; ++i) {
      iota[i] = uint32_t(i);
    }
    CHECK(cudaMemcpy(values, iota.data(), size_t(n) * sizeof(uint32_t), cudaMemcpyHostToDevice));
  }

  Buffers(const Buffers &) = delete;
  Buffers &operator=(const Buffers &) = delete;

  ~Buffers() {
    CHECK(cudaFree(keys));
    CHECK(cudaFree(out));
    CHECK(cudaFree(work));
    CHECK(cudaFree(values));
    CHECK(cudaFree(values_out));
    CHECK(cudaFree(count));
    CHECK(cudaFree(temp));
  }

  // reserve grows the temporary storage to at least bytes.
  void reserve(size_t bytes) {
    if (bytes <= temp_bytes) {
      return;
    }
    CHECK(cudaFree(temp));
    CHECK(cudaMalloc(&temp, bytes));
    temp_bytes = bytes;
  }

  // poison fills every output with 0xFF bytes (the largest integer, a NaN for
  // floats), so that a method that writes nothing cannot pass on an earlier
  // method's result.
  void poison() {
    size_t bytes = size_t(n) * sizeof(K);
    CHECK(cudaMemset(out, 0xFF, bytes));
    CHECK(cudaMemset(work, 0xFF, bytes));
    CHECK(cudaMemset(values_out, 0xFF, size_t(n) * sizeof(uint32_t)));
    CHECK(cudaMemset(count, 0xFF, sizeof(int)));
  }
};

// ---- timing ---------------------------------------------------------------

struct Timing {
  double median_ms, min_ms, max_ms;
};

// time_runs runs prepare then body kWarmups + runs times, timing only body
// with CUDA events on the default stream.
static Timing time_runs(int runs, const std::function<void()> &prepare,
                        const std::function<void()> &body) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  for (int i = 0; i < kWarmups + runs; ++i) {
    prepare();
    CHECK(cudaEventRecord(start, 0));
    body();
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float elapsed = 0;
    CHECK(cudaEventElapsedTime(&elapsed, start, stop));
    if (i >= kWarmups) {
      ms.push_back(elapsed);
    }
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  size_t mid = ms.size() / 2;
  double median = ms.size() % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
  return {median, ms.front(), ms.back()};
}

// ---- checking -------------------------------------------------------------

// Check names the measurement a check is of, for its error messages.
struct Check {
  int n;
  const Distribution &dist;
  const char *method;

  // fail prints what was wrong and ends the program.
  [[noreturn]] void fail(const std::string &what) const {
    std::fprintf(stderr, "error: n=%d dist=%s method=%s: %s\n", n, dist.name.c_str(), method,
                 what.c_str());
    std::exit(1);
  }
};

// show writes a key for an error message.
template <typename K>
static std::string show(K k) {
  std::ostringstream s;
  s << +k;
  return s.str();
}

// check_keys copies expected.size() keys back from device and compares them
// with expected element by element.
template <typename K>
static void check_keys(const Check &c, const K *device, const std::vector<K> &expected) {
  std::vector<K> got(expected.size());
  CHECK(cudaMemcpy(got.data(), device, expected.size() * sizeof(K), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < expected.size(); ++i) {
    // != rather than a byte compare: the 0xFF poison of float outputs is a NaN,
    // which equals nothing.
    if (got[i] != expected[i]) {
      c.fail("element " + std::to_string(i) + " is " + show(got[i]) + ", want " + show(expected[i]));
    }
  }
}

// check_argsort checks that the values on the device are the stable argsort
// of keys, whose sorted order is sorted.
template <typename K>
static void check_argsort(const Check &c, const uint32_t *device, const std::vector<K> &keys,
                          const std::vector<K> &sorted) {
  size_t n = keys.size();
  std::vector<uint32_t> got(n);
  CHECK(cudaMemcpy(got.data(), device, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  std::vector<char> seen(n, 0);
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = got[i];
    std::string at = "value " + std::to_string(i) + " is " + std::to_string(v);
    if (v >= n) {
      c.fail(at + ", not an index of the keys");
    }
    if (seen[v]) {
      c.fail(at + ", an index already seen");
    }
    seen[v] = 1;
    if (keys[v] != sorted[i]) {
      c.fail(at + ", whose key " + show(keys[v]) + " is not the sorted key " + show(sorted[i]));
    }
    if (i > 0 && sorted[i - 1] == sorted[i] && got[i - 1] > v) {
      c.fail(at + ", after " + std::to_string(got[i - 1]) + ": equal keys out of their order");
    }
  }
}

static void print_row(int n, const Distribution &dist, const char *method, const Timing &t,
                      int runs) {
  std::printf("%d,%s,%s,%.6f,%.6f,%.6f,%d\n", n, dist.name.c_str(), method, t.median_ms,
              t.min_ms, t.max_ms, runs);
  std::fflush(stdout);
}

// ---- the benchmark --------------------------------------------------------

// kMethods are the names of the methods, in the order they are measured.
static const char *const kMethods[] = {"memcpy",         "cub_radix_full", "cub_pairs_full",
                                       "cub_radix_bits", "cub_pairs_bits", "cub_radix_desc",
                                       "cub_pairs_desc", "thrust_sort",    "cub_sort_unique",
                                       "cub_scan"};

// method_filter holds -method's expression; without one, every method is
// measured.
static std::optional<std::regex> method_filter;

// wanted reports whether the method is measured.
static bool wanted(const char *method) {
  return !method_filter || std::regex_search(method, *method_filter);
}

// RadixBits is one way a radix sort is told the keys' bits.
struct RadixBits {
  const char *keys_method, *pairs_method;
  int end_bit;
};

// bench_keys measures and checks every method on the keys of one
// distribution; bits is b, or 0 where the keys have no integer range.
template <typename K>
static void bench_keys(const Distribution &dist, const std::vector<K> &keys, int bits,
                       int runs) {
  int n = int(keys.size());
  size_t bytes = size_t(n) * sizeof(K);
  Buffers<K> buf(n);
  std::vector<K> sorted = keys;
  host_sort(sorted);
  std::vector<K> distinct = sorted;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  CHECK(cudaMemcpy(buf.keys, keys.data(), bytes, cudaMemcpyHostToDevice));

  auto nothing = [] {};
  size_t need = 0;
  const int full = int(sizeof(K) * 8);

  Timing t{};
  if (wanted("memcpy")) {
    buf.poison();
    t = time_runs(runs, nothing, [&] {
      CHECK(cudaMemcpyAsync(buf.out, buf.keys, bytes, cudaMemcpyDeviceToDevice, 0));
    });
    check_keys(Check{n, dist, "memcpy"}, buf.out, keys);
    print_row(n, dist, "memcpy", t, runs);
  }

  std::vector<RadixBits> radix = {{"cub_radix_full", "cub_pairs_full", full}};
  if (bits > 0) {
    radix.push_back({"cub_radix_bits", "cub_pairs_bits", bits});
  }
  for (const RadixBits &r : radix) {
    int end_bit = r.end_bit;
    if (wanted(r.keys_method)) {
      CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, buf.keys, buf.out, n, 0, end_bit));
      buf.reserve(need);
      buf.poison();
      t = time_runs(runs, nothing, [&] {
        size_t temp_bytes = buf.temp_bytes;
        CHECK(cub::DeviceRadixSort::SortKeys(buf.temp, temp_bytes, buf.keys, buf.out, n, 0,
                                             end_bit));
      });
      check_keys(Check{n, dist, r.keys_method}, buf.out, sorted);
      print_row(n, dist, r.keys_method, t, runs);
    }

    if (wanted(r.pairs_method)) {
      CHECK(cub::DeviceRadixSort::SortPairs(nullptr, need, buf.keys, buf.out, buf.values,
                                            buf.values_out, n, 0, end_bit));
      buf.reserve(need);
      buf.poison();
      t = time_runs(runs, nothing, [&] {
        size_t temp_bytes = buf.temp_bytes;
        CHECK(cub::DeviceRadixSort::SortPairs(buf.temp, temp_bytes, buf.keys, buf.out,
                                              buf.values, buf.values_out, n, 0, end_bit));
      });
      check_keys(Check{n, dist, r.pairs_method}, buf.out, sorted);
      check_argsort(Check{n, dist, r.pairs_method}, buf.values_out, keys, sorted);
      print_row(n, dist, r.pairs_method, t, runs);
    }
  }

  std::vector<K> descending(sorted.rbegin(), sorted.rend());
  if (wanted("cub_radix_desc")) {
    CHECK(cub::DeviceRadixSort::SortKeysDescending(nullptr, need, buf.keys, buf.out, n));
    buf.reserve(need);
    buf.poison();
    t = time_runs(runs, nothing, [&] {
      size_t temp_bytes = buf.temp_bytes;
      CHECK(
          cub::DeviceRadixSort::SortKeysDescending(buf.temp, temp_bytes, buf.keys, buf.out, n));
    });
    check_keys(Check{n, dist, "cub_radix_desc"}, buf.out, descending);
    print_row(n, dist, "cub_radix_desc", t, runs);
  }

  if (wanted("cub_pairs_desc")) {
    CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, need, buf.keys, buf.out,
                                                    buf.values, buf.values_out, n));
    buf.reserve(need);
    buf.poison();
    t = time_runs(runs, nothing, [&] {
      size_t temp_bytes = buf.temp_bytes;
      CHECK(cub::DeviceRadixSort::SortPairsDescending(buf.temp, temp_bytes, buf.keys, buf.out,
                                                      buf.values, buf.values_out, n));
    });
    check_keys(Check{n, dist, "cub_pairs_desc"}, buf.out, descending);
    check_argsort(Check{n, dist, "cub_pairs_desc"}, buf.values_out, keys, descending);
    print_row(n, dist, "cub_pairs_desc", t, runs);
  }

  if (wanted("thrust_sort")) {
    buf.poison();
    t = time_runs(
        runs,
        [&] { CHECK(cudaMemcpyAsync(buf.work, buf.keys, bytes, cudaMemcpyDeviceToDevice, 0)); },
        [&] { thrust::sort(thrust::device, buf.work, buf.work + n); });
    check_keys(Check{n, dist, "thrust_sort"}, buf.work, sorted);
    print_row(n, dist, "thrust_sort", t, runs);
  }

  if (!wanted("cub_sort_unique")) {
    return;
  }
  int unique_bits = bits > 0 ? bits : full;
  size_t unique_need = 0;
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, buf.keys, buf.work, n, 0, unique_bits));
  CHECK(cub::DeviceSelect::Unique(nullptr, unique_need, buf.work, buf.out, buf.count, n));
  buf.reserve(std::max(need, unique_need));
  buf.poison();
  t = time_runs(runs, nothing, [&] {
    size_t temp_bytes = buf.temp_bytes;
    CHECK(cub::DeviceRadixSort::SortKeys(buf.temp, temp_bytes, buf.keys, buf.work, n, 0,
                                         unique_bits));
    temp_bytes = buf.temp_bytes;
    CHECK(cub::DeviceSelect::Unique(buf.temp, temp_bytes, buf.work, buf.out, buf.count, n));
  });
  int count = -1;
  CHECK(cudaMemcpy(&count, buf.count, sizeof(int), cudaMemcpyDeviceToHost));
  Check unique_check{n, dist, "cub_sort_unique"};
  if (count != int(distinct.size())) {
    unique_check.fail(std::to_string(count) + " distinct keys, want " +
                      std::to_string(distinct.size()));
  }
  check_keys(unique_check, buf.out, distinct);
  print_row(n, dist, "cub_sort_unique", t, runs);
}

// bench_scan measures and checks the exclusive sum of uint32 keys.
static void bench_scan(const Distribution &dist, const std::vector<uint32_t> &keys, int runs) {
  int n = int(keys.size());
  Buffers<uint32_t> buf(n);
  CHECK(cudaMemcpy(buf.keys, keys.data(), size_t(n) * sizeof(uint32_t), cudaMemcpyHostToDevice));
  std::vector<uint32_t> sums(n);
  uint32_t acc = 0;
  for (int i = 0; i < n; ++i) {
    sums[i] = acc;
    acc += keys[i];
  }
  size_t need = 0;
  CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, buf.keys, buf.out, n));
  buf.reserve(need);
  buf.poison();
  Timing t = time_runs(runs, [] {}, [&] {
    size_t temp_bytes = buf.temp_bytes;
    CHECK(cub::DeviceScan::ExclusiveSum(buf.temp, temp_bytes, buf.keys, buf.out, n));
  });
  check_keys(Check{n, dist, "cub_scan"}, buf.out, sums);
  print_row(n, dist, "cub_scan", t, runs);
}

// bench_distribution makes n keys of dist and measures every method of its
// key type on them.
static void bench_distribution(const Distribution &dist, int n, uint64_t seed, int runs) {
  switch (dist.type) {
  case KeyType::U32: {
    std::vector<uint32_t> keys = uint32_keys(dist, size_t(n), seed);
    bench_keys(dist, keys, span_bits(key_span(dist, size_t(n), seed)), runs);
    if (wanted("cub_scan")) {
      bench_scan(dist, keys, runs);
    }
    return;
  }
  case KeyType::U64:
    bench_keys(dist, uint64_keys(dist, size_t(n), seed), 0, runs);
    return;
  case KeyType::F32:
    bench_keys(dist, float_keys(dist, size_t(n), seed), 0, runs);
    return;
  }
  std::fprintf(stderr, "error: distribution %s has no key type\n", dist.name.c_str());
  std::exit(1);
}

// ---- command line ---------------------------------------------------------

struct Options {
  std::vector<int> sizes;
  std::vector<Distribution> dists;
  int runs = kMinRuns;
  uint64_t seed = 1;
};

static void usage() {
  std::string names;
  for (const Distribution &d : all_distributions()) {
    names += " " + d.name;
  }
  std::string methods;
  for (const char *m : kMethods) {
    methods += std::string(" ") + m;
  }
  std::fprintf(stderr,
               "usage: baseline [-n N]... [-dist D]... [-method RE] [-runs R] [-seed S]\n"
               "  -n N     key count, 1 <= N <= %d; repeatable (default 2^10, 2^16, 1000003,\n"
               "           2^20, 2^25, 2^27)\n"
               "  -dist D  key distribution; repeatable (default all:%s)\n"
               "  -method RE  measure only the methods whose names RE matches (default all:%s)\n"
               "  -runs R  timed runs per measurement, at least %d (default %d)\n"
               "  -seed S  key generator seed (default 1)\n",
               1 << 30, names.c_str(), methods.c_str(), kMinRuns, kMinRuns);
  std::exit(2);
}

static long long parse_number(const char *flag, const char *text) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text, &end, 0);
  if (errno != 0 || end == text || *end != '\0') {
    std::fprintf(stderr, "error: %s wants a number, got %s\n", flag, text);
    usage();
  }
  return v;
}

static Options parse_options(int argc, char **argv) {
  Options opt;
  std::vector<Distribution> all = all_distributions();
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "-h" || flag == "-help" || flag == "--help") {
      usage();
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "error: %s wants a value\n", flag.c_str());
      usage();
    }
    const char *value = argv[++i];
    if (flag == "-n") {
      long long n = parse_number("-n", value);
      if (n < 1 || n > (1 << 30)) {
        std::fprintf(stderr, "error: -n %lld is out of range\n", n);
        usage();
      }
      opt.sizes.push_back(int(n));
    } else if (flag == "-dist") {
      auto it = std::find_if(all.begin(), all.end(),
                             [&](const Distribution &d) { return d.name == value; });
      if (it == all.end()) {
        std::fprintf(stderr, "error: unknown distribution %s\n", value);
        usage();
      }
      opt.dists.push_back(*it);
    } else if (flag == "-method") {
      try {
        method_filter.emplace(value);
      } catch (const std::regex_error &e) {
        std::fprintf(stderr, "error: -method %s: %s\n", value, e.what());
        usage();
      }
      if (std::none_of(std::begin(kMethods), std::end(kMethods), wanted)) {
        std::fprintf(stderr, "error: -method %s matches no method\n", value);
        usage();
      }
    } else if (flag == "-runs") {
      long long r = parse_number("-runs", value);
      if (r < kMinRuns || r > 100000) {
        std::fprintf(stderr, "error: -runs %lld: at least %d runs are needed\n", r, kMinRuns);
        usage();
      }
      opt.runs = int(r);
    } else if (flag == "-seed") {
      long long s = parse_number("-seed", value);
      if (s < 0) {
        std::fprintf(stderr, "error: -seed %lld is negative\n", s);
        usage();
      }
      opt.seed = uint64_t(s);
    } else {
      std::fprintf(stderr, "error: unknown flag %s\n", flag.c_str());
      usage();
    }
  }
  if (opt.sizes.empty()) {
    opt.sizes = {1 << 10, 1 << 16, 1000003, 1 << 20, 1 << 25, 1 << 27};
  }
  if (opt.dists.empty()) {
    opt.dists = all;
  }
  return opt;
}

int main(int argc, char **argv) {
  Options opt = parse_options(argc, argv);
  try {
    int device = 0;
    CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, device));
    std::fprintf(stderr, "device %d: %s, %d multiprocessors; runs %d, seed %llu\n", device,
                 prop.name, prop.multiProcessorCount, opt.runs,
                 static_cast<unsigned long long>(opt.seed));

    auto begin = std::chrono::steady_clock::now();
    std::printf("n,dist,method,median_ms,min_ms,max_ms,runs\n");
    std::fflush(stdout);
    for (int n : opt.sizes) {
      for (const Distribution &dist : opt.dists) {
        double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        std::fprintf(stderr, "[%7.1fs] n=%d dist=%s\n", secs, n, dist.name.c_str());
        bench_distribution(dist, n, opt.seed, opt.runs);
      }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::fprintf(stderr, "done in %.1fs, every result checked\n", secs);
  } catch (const std::exception &e) {
    // Thrust reports CUDA errors by throwing.
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
