// A host-memory stand-in for the parts of the CUDA runtime that
// bench/cub/baseline.cu calls, so that the baseline builds with a plain C++
// compiler and runs on the CPU in obsbench's tests. "Device" memory is host
// memory; events read a steady clock. With FAKECUDA_BREAK set, one routine
// gives a wrong result, for the tests of the baseline's checks:
//   keys    the radix sorts swap their first two keys;
//   values  the radix sorts of pairs swap their first two values;
//   unique  DeviceSelect::Unique counts one key too many;
//   scan    DeviceScan::ExclusiveSum adds 1 to its last sum;
//   copy    device-to-device copies leave their last byte alone.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>

typedef int cudaError_t;
static const cudaError_t cudaSuccess = 0;
static const cudaError_t cudaErrorMemoryAllocation = 2;
typedef struct CUstream_st *cudaStream_t;
struct CUevent_st {
  std::chrono::steady_clock::time_point at;
};
typedef CUevent_st *cudaEvent_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
struct cudaDeviceProp {
  char name[256];
  int multiProcessorCount;
};

// fake_broken reports whether FAKECUDA_BREAK names what.
inline bool fake_broken(const char *what) {
  const char *b = std::getenv("FAKECUDA_BREAK");
  return b != nullptr && std::strcmp(b, what) == 0;
}

inline const char *cudaGetErrorString(cudaError_t) { return "fake CUDA error"; }
inline cudaError_t cudaMalloc(void **p, size_t bytes) {
  *p = std::malloc(bytes ? bytes : 1);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
template <class T>
cudaError_t cudaMalloc(T **p, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void **>(p), bytes);
}
inline cudaError_t cudaFree(void *p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind) {
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                   cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, kind == cudaMemcpyDeviceToDevice && fake_broken("copy") ? bytes - 1 : bytes, kind);
}
inline cudaError_t cudaMemset(void *p, int v, size_t bytes) {
  std::memset(p, v, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = new CUevent_st;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) {
  e->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop) {
  *ms = std::chrono::duration<float, std::milli>(stop->at - start->at).count();
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  std::strcpy(p->name, "fake CUDA device");
  p->multiProcessorCount = 1;
  return cudaSuccess;
}
