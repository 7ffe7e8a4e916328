// baseline.cu: the CUB/Thrust baseline of the sort benchmark.
//
// For every key count N and every key distribution it times, with CUDA events,
// the library routines a counting sort or an occurrence sort is measured
// against, checks every result against a host reference, and prints one CSV
// row per measurement on stdout:
//
//   n,dist,method,median_ms,min_ms,max_ms,runs
//
// Methods:
//   memcpy           device-to-device copy of the keys (the floor);
//   cub_radix_full   cub::DeviceRadixSort::SortKeys over all 32 bits;
//   cub_radix_bits   the same over bits [0, b), b the bits of the largest key;
//   thrust_sort      thrust::sort in place (its own temporary allocation and
//                    final synchronisation included, as a Thrust user gets it);
//   cub_sort_unique  cub radix sort over [0, b) then cub::DeviceSelect::Unique,
//                    giving the sorted distinct keys and their count;
//   cub_scan         cub::DeviceScan::ExclusiveSum of the keys (uint32, modulo
//                    2^32), beside which the library's single-pass scan is timed.
//
// Distributions (uint32 keys):
//   Tx      x = 4..24: uniform keys in [0, 2^x), b = x;
//   sorted  keys 0..N-1 in order, b = ceil(log2 N);
//   unique  a random permutation of 0..N-1, b = ceil(log2 N).
//
// Key generation, exactly (every array starts from a fresh generator whose
// state is the seed, -seed, default 1):
//
//   splitmix64: state += 0x9E3779B97F4A7C15;
//               z = state;
//               z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//               z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
//               return z ^ (z >> 31);            (all arithmetic mod 2^64)
//   Tx:     key[i] = uint32(splitmix64() >> (64 - x)) for i = 0, 1, ..., N-1;
//   sorted: key[i] = i (the generator is not used);
//   unique: key[i] = i, then for i = N-1 down to 1:
//           j = splitmix64() % (i + 1); swap key[i] and key[j].
//
// Test vectors, seed 1: T8 with N = 8 is 145 190 248 113 113 195 224 133;
// T24 with N = 4 is 9505325 12512141 16290722 7455110; unique with N = 8 is
// 4 3 2 7 5 6 0 1.
//
// Timing: buffers and temporary storage are allocated once per N (grown if a
// method needs more), outside the timed region. Each method runs 3 untimed
// warm-ups, then R timed runs (-runs, default 15, at least 15), each between
// its own pair of events; median, minimum and maximum of the R are reported.
//
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -lpthread -o baseline baseline.cu
// Usage: baseline [-n N]... [-runs R] [-seed S]
//   -n may be given several times; without it N = 2^20, 2^21, ..., 2^25.

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
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

// ---- key generation -------------------------------------------------------

struct SplitMix64 {
  uint64_t state;

  uint64_t next() {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

enum class Shape { Range, Sorted, Unique };

struct Distribution {
  std::string name;
  Shape shape;
  int range_bits;  // x of Tx; unused for Sorted and Unique
};

static std::vector<Distribution> all_distributions() {
  std::vector<Distribution> dists;
  for (int x = 4; x <= 24; ++x) {
    dists.push_back({"T" + std::to_string(x), Shape::Range, x});
  }
  dists.push_back({"sorted", Shape::Sorted, 0});
  dists.push_back({"unique", Shape::Unique, 0});
  return dists;
}

static void generate_keys(const Distribution &dist, uint64_t seed, std::vector<uint32_t> &keys) {
  SplitMix64 rng{seed};
  size_t n = keys.size();
  switch (dist.shape) {
  case Shape::Range:
    for (size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<uint32_t>(rng.next() >> (64 - dist.range_bits));
    }
    break;
  case Shape::Sorted:
    for (size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<uint32_t>(i);
    }
    break;
  case Shape::Unique:
    for (size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<uint32_t>(i);
    }
    for (size_t i = n - 1; i >= 1; --i) {
      size_t j = static_cast<size_t>(rng.next() % (static_cast<uint64_t>(i) + 1));
      std::swap(keys[i], keys[j]);
    }
    break;
  }
}

// ceil_log2 returns the smallest b >= 1 with n <= 2^b: the bits that hold 0..n-1.
static int ceil_log2(size_t n) {
  int b = 1;
  while (b < 32 && (uint64_t(1) << b) < n) {
    ++b;
  }
  return b;
}

// key_bits is the end bit a radix sort needs: every key of dist is below 2^b.
static int key_bits(const Distribution &dist, size_t n) {
  return dist.shape == Shape::Range ? dist.range_bits : ceil_log2(n);
}

// ---- host reference -------------------------------------------------------

// host_sort is std::sort on equal slices in parallel threads, then pairwise
// std::merge rounds, so that the references for 2^25 keys take a fraction of a second.
static void host_sort(std::vector<uint32_t> &v) {
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
  std::vector<uint32_t> other(v.size());
  uint32_t *src = v.data();
  uint32_t *dst = other.data();
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

// Buffers holds everything one N needs on the device.
struct Buffers {
  int n = 0;
  uint32_t *keys = nullptr;  // the input, never written by a method
  uint32_t *out = nullptr;   // a method's result
  uint32_t *work = nullptr;  // in-place sort target, intermediate sorted keys
  int *count = nullptr;      // DeviceSelect::Unique's count of distinct keys
  void *temp = nullptr;      // CUB temporary storage
  size_t temp_bytes = 0;

  explicit Buffers(int count_keys) : n(count_keys) {
    size_t bytes = size_t(n) * sizeof(uint32_t);
    CHECK(cudaMalloc(&keys, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMalloc(&work, bytes));
    CHECK(cudaMalloc(&count, sizeof(int)));
  }

  ~Buffers() {
    CHECK(cudaFree(keys));
    CHECK(cudaFree(out));
    CHECK(cudaFree(work));
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

  // poison fills every output with 0xFF bytes, so that a method that writes
  // nothing cannot pass on an earlier method's result.
  void poison() {
    size_t bytes = size_t(n) * sizeof(uint32_t);
    CHECK(cudaMemset(out, 0xFF, bytes));
    CHECK(cudaMemset(work, 0xFF, bytes));
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

// check_result copies count keys back from device and compares them with
// expected element by element; a mismatch ends the program.
static void check_result(const char *method, const Distribution &dist, int n,
                         const uint32_t *device, const std::vector<uint32_t> &expected,
                         std::vector<uint32_t> &host) {
  CHECK(cudaMemcpy(host.data(), device, expected.size() * sizeof(uint32_t),
                   cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < expected.size(); ++i) {
    if (host[i] != expected[i]) {
      std::fprintf(stderr, "error: n=%d dist=%s method=%s: element %zu is %u, want %u\n", n,
                   dist.name.c_str(), method, i, host[i], expected[i]);
      std::exit(1);
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

// bench_distribution measures and checks every method on one distribution.
static void bench_distribution(Buffers &buf, const Distribution &dist, uint64_t seed, int runs) {
  int n = buf.n;
  size_t bytes = size_t(n) * sizeof(uint32_t);
  int bits = key_bits(dist, n);

  std::vector<uint32_t> keys(n);
  generate_keys(dist, seed, keys);
  std::vector<uint32_t> sorted = keys;
  host_sort(sorted);
  std::vector<uint32_t> distinct = sorted;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<uint32_t> host(n);
  CHECK(cudaMemcpy(buf.keys, keys.data(), bytes, cudaMemcpyHostToDevice));

  auto nothing = [] {};
  size_t need = 0;

  buf.poison();
  Timing t = time_runs(runs, nothing, [&] {
    CHECK(cudaMemcpyAsync(buf.out, buf.keys, bytes, cudaMemcpyDeviceToDevice, 0));
  });
  check_result("memcpy", dist, n, buf.out, keys, host);
  print_row(n, dist, "memcpy", t, runs);

  std::vector<uint32_t> sums(n);
  uint32_t acc = 0;
  for (int i = 0; i < n; ++i) {
    sums[i] = acc;
    acc += keys[i];
  }
  CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, buf.keys, buf.out, n));
  buf.reserve(need);
  buf.poison();
  t = time_runs(runs, nothing, [&] {
    size_t temp_bytes = buf.temp_bytes;
    CHECK(cub::DeviceScan::ExclusiveSum(buf.temp, temp_bytes, buf.keys, buf.out, n));
  });
  check_result("cub_scan", dist, n, buf.out, sums, host);
  print_row(n, dist, "cub_scan", t, runs);

  const int radix_bits[2] = {32, bits};
  const char *radix_names[2] = {"cub_radix_full", "cub_radix_bits"};
  for (int k = 0; k < 2; ++k) {
    int end_bit = radix_bits[k];
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, buf.keys, buf.out, n, 0, end_bit));
    buf.reserve(need);
    buf.poison();
    t = time_runs(runs, nothing, [&] {
      size_t temp_bytes = buf.temp_bytes;
      CHECK(cub::DeviceRadixSort::SortKeys(buf.temp, temp_bytes, buf.keys, buf.out, n, 0,
                                           end_bit));
    });
    check_result(radix_names[k], dist, n, buf.out, sorted, host);
    print_row(n, dist, radix_names[k], t, runs);
  }

  buf.poison();
  t = time_runs(
      runs,
      [&] { CHECK(cudaMemcpyAsync(buf.work, buf.keys, bytes, cudaMemcpyDeviceToDevice, 0)); },
      [&] { thrust::sort(thrust::device, buf.work, buf.work + n); });
  check_result("thrust_sort", dist, n, buf.work, sorted, host);
  print_row(n, dist, "thrust_sort", t, runs);

  size_t unique_need = 0;
  CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, buf.keys, buf.work, n, 0, bits));
  CHECK(cub::DeviceSelect::Unique(nullptr, unique_need, buf.work, buf.out, buf.count, n));
  buf.reserve(std::max(need, unique_need));
  buf.poison();
  t = time_runs(runs, nothing, [&] {
    size_t temp_bytes = buf.temp_bytes;
    CHECK(cub::DeviceRadixSort::SortKeys(buf.temp, temp_bytes, buf.keys, buf.work, n, 0, bits));
    temp_bytes = buf.temp_bytes;
    CHECK(cub::DeviceSelect::Unique(buf.temp, temp_bytes, buf.work, buf.out, buf.count, n));
  });
  int count = -1;
  CHECK(cudaMemcpy(&count, buf.count, sizeof(int), cudaMemcpyDeviceToHost));
  if (count != int(distinct.size())) {
    std::fprintf(stderr, "error: n=%d dist=%s method=cub_sort_unique: %d distinct keys, want %zu\n",
                 n, dist.name.c_str(), count, distinct.size());
    std::exit(1);
  }
  check_result("cub_sort_unique", dist, n, buf.out, distinct, host);
  print_row(n, dist, "cub_sort_unique", t, runs);
}

// ---- command line ---------------------------------------------------------

struct Options {
  std::vector<int> sizes;
  int runs = kMinRuns;
  uint64_t seed = 1;
};

static void usage() {
  std::fprintf(stderr,
               "usage: baseline [-n N]... [-runs R] [-seed S]\n"
               "  -n N     key count, 1 <= N <= %d; repeatable (default 2^20 .. 2^25)\n"
               "  -runs R  timed runs per measurement, at least %d (default %d)\n"
               "  -seed S  key generator seed (default 1)\n",
               INT_MAX, kMinRuns, kMinRuns);
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
      if (n < 1 || n > INT_MAX) {
        std::fprintf(stderr, "error: -n %lld is out of range\n", n);
        usage();
      }
      opt.sizes.push_back(int(n));
    } else if (flag == "-runs") {
      long long r = parse_number("-runs", value);
      if (r < kMinRuns || r > 100000) {
        std::fprintf(stderr, "error: -runs %lld: at least %d runs are needed\n", r, kMinRuns);
        usage();
      }
      opt.runs = int(r);
    } else if (flag == "-seed") {
      opt.seed = uint64_t(parse_number("-seed", value));
    } else {
      std::fprintf(stderr, "error: unknown flag %s\n", flag.c_str());
      usage();
    }
  }
  if (opt.sizes.empty()) {
    for (int e = 20; e <= 25; ++e) {
      opt.sizes.push_back(1 << e);
    }
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
    std::vector<Distribution> dists = all_distributions();
    for (int n : opt.sizes) {
      Buffers buf(n);
      for (const Distribution &dist : dists) {
        double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        std::fprintf(stderr, "[%7.1fs] n=%d dist=%s\n", secs, n, dist.name.c_str());
        bench_distribution(buf, dist, opt.seed, opt.runs);
      }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::fprintf(stderr, "done in %.1fs, every result checked\n", secs);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
