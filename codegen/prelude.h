// Declarations that let clang compile the CUDA C printed by package codegen
// in CUDA device mode without the CUDA headers (clang -nocudainc). NVRTC
// provides all of these itself and never sees this file.
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __obs_fn static __device__ __inline__ __attribute__((always_inline))

struct __obs_index {
  unsigned int x;
};
#define threadIdx (__obs_index{(unsigned int)__nvvm_read_ptx_sreg_tid_x()})
#define blockIdx (__obs_index{(unsigned int)__nvvm_read_ptx_sreg_ctaid_x()})
#define blockDim (__obs_index{(unsigned int)__nvvm_read_ptx_sreg_ntid_x()})
#define gridDim (__obs_index{(unsigned int)__nvvm_read_ptx_sreg_nctaid_x()})

// __syncthreads is a clang builtin in CUDA device mode.
__obs_fn void __syncwarp(unsigned int mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }

// Bit casts.
__obs_fn float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__obs_fn int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__obs_fn double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__obs_fn long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }

// Float to integer conversions: truncated toward zero, saturating, NaN to 0.
__obs_fn int __float2int_rz(float x) { return __nvvm_f2i_rz(x); }
__obs_fn unsigned int __float2uint_rz(float x) { return __nvvm_f2ui_rz(x); }
__obs_fn long long __float2ll_rz(float x) { return __nvvm_f2ll_rz(x); }
__obs_fn unsigned long long __float2ull_rz(float x) { return __nvvm_f2ull_rz(x); }
__obs_fn int __double2int_rz(double x) { return __nvvm_d2i_rz(x); }
__obs_fn unsigned int __double2uint_rz(double x) { return __nvvm_d2ui_rz(x); }
__obs_fn long long __double2ll_rz(double x) { return __nvvm_d2ll_rz(x); }
__obs_fn unsigned long long __double2ull_rz(double x) { return __nvvm_d2ull_rz(x); }

// Bit reinterpretations.
__obs_fn unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
__obs_fn float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }

// Integer intrinsics.
__obs_fn int __popc(unsigned int x) { return __builtin_popcount(x); }
__obs_fn int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__obs_fn int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
__obs_fn int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
__obs_fn int __ffs(int x) { return __builtin_ffs(x); }
__obs_fn int __ffsll(long long x) { return __builtin_ffsll(x); }
__obs_fn unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
__obs_fn unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
__obs_fn int __mulhi(int x, int y) { return __nvvm_mulhi_i(x, y); }
__obs_fn unsigned int __umulhi(unsigned int x, unsigned int y) { return __nvvm_mulhi_ui(x, y); }
__obs_fn long long __mul64hi(long long x, long long y) { return __nvvm_mulhi_ll(x, y); }
__obs_fn unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return __nvvm_mulhi_ull(x, y);
}
__obs_fn unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  return __nvvm_prmt(x, y, s);
}
__obs_fn unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int n) {
  return (unsigned int)((((unsigned long long)hi << 32) | lo) << (n & 31) >> 32);
}
__obs_fn unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int n) {
  return (unsigned int)((((unsigned long long)hi << 32) | lo) >> (n & 31));
}

// Integer min and max, overloaded as in CUDA.
#define __OBS_MINMAX(T)                                  \
  __obs_fn T min(T a, T b) { return a < b ? a : b; }     \
  __obs_fn T max(T a, T b) { return a > b ? a : b; }
__OBS_MINMAX(int)
__OBS_MINMAX(unsigned int)
__OBS_MINMAX(long long)
__OBS_MINMAX(unsigned long long)
#undef __OBS_MINMAX

// Floating-point functions.
__obs_fn float fminf(float a, float b) { return __builtin_fminf(a, b); }
__obs_fn float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
__obs_fn double fmin(double a, double b) { return __builtin_fmin(a, b); }
__obs_fn double fmax(double a, double b) { return __builtin_fmax(a, b); }
__obs_fn float fmodf(float a, float b) { return __builtin_fmodf(a, b); }
__obs_fn double fmod(double a, double b) { return __builtin_fmod(a, b); }
// The math functions, as CUDA's headers provide them: calls of libdevice's
// __nv_ functions, declared here and left unresolved (clang only checks).
#define __OBS_MATH1(F, D)                                                              \
  extern "C" __device__ float __nv_##F(float);                                         \
  extern "C" __device__ double __nv_##D(double);                                       \
  __obs_fn float F(float x) { return __nv_##F(x); }                                    \
  __obs_fn double D(double x) { return __nv_##D(x); }
#define __OBS_MATH2(F, D)                                                              \
  extern "C" __device__ float __nv_##F(float, float);                                  \
  extern "C" __device__ double __nv_##D(double, double);                               \
  __obs_fn float F(float x, float y) { return __nv_##F(x, y); }                        \
  __obs_fn double D(double x, double y) { return __nv_##D(x, y); }
#define __OBS_MATH3(F, D)                                                              \
  extern "C" __device__ float __nv_##F(float, float, float);                           \
  extern "C" __device__ double __nv_##D(double, double, double);                       \
  __obs_fn float F(float x, float y, float z) { return __nv_##F(x, y, z); }            \
  __obs_fn double D(double x, double y, double z) { return __nv_##D(x, y, z); }
__OBS_MATH1(sqrtf, sqrt)
__OBS_MATH1(rsqrtf, rsqrt)
__OBS_MATH1(cbrtf, cbrt)
__OBS_MATH1(expf, exp)
__OBS_MATH1(exp2f, exp2)
__OBS_MATH1(logf, log)
__OBS_MATH1(log2f, log2)
__OBS_MATH1(log1pf, log1p)
__OBS_MATH1(sinf, sin)
__OBS_MATH1(cosf, cos)
__OBS_MATH1(tanf, tan)
__OBS_MATH1(tanhf, tanh)
__OBS_MATH1(fabsf, fabs)
__OBS_MATH1(floorf, floor)
__OBS_MATH1(ceilf, ceil)
__OBS_MATH1(roundf, round)
__OBS_MATH1(truncf, trunc)
__OBS_MATH1(rintf, rint)
__OBS_MATH2(powf, pow)
__OBS_MATH2(copysignf, copysign)
__OBS_MATH3(fmaf, fma)
#undef __OBS_MATH1
#undef __OBS_MATH2
#undef __OBS_MATH3

// Warp shuffles and ballot (all 32 lanes).
#define __OBS_SHUFFLE(NAME, I32, F32, C, LANE)                                      \
  __obs_fn int NAME(unsigned int m, int v, LANE l) { return I32(m, v, l, C); }      \
  __obs_fn unsigned int NAME(unsigned int m, unsigned int v, LANE l) {              \
    return (unsigned int)I32(m, (int)v, l, C);                                      \
  }                                                                                 \
  __obs_fn float NAME(unsigned int m, float v, LANE l) { return F32(m, v, l, C); }  \
  __obs_fn long long NAME(unsigned int m, long long v, LANE l) {                    \
    int lo = I32(m, (int)(unsigned long long)v, l, C);                              \
    int hi = I32(m, (int)((unsigned long long)v >> 32), l, C);                      \
    return (long long)(((unsigned long long)(unsigned int)hi << 32) |               \
                       (unsigned long long)(unsigned int)lo);                       \
  }                                                                                 \
  __obs_fn unsigned long long NAME(unsigned int m, unsigned long long v, LANE l) {  \
    return (unsigned long long)NAME(m, (long long)v, l);                            \
  }                                                                                 \
  __obs_fn double NAME(unsigned int m, double v, LANE l) {                          \
    return __longlong_as_double(NAME(m, __double_as_longlong(v), l));               \
  }
__OBS_SHUFFLE(__shfl_sync, __nvvm_shfl_sync_idx_i32, __nvvm_shfl_sync_idx_f32, 0x1f, int)
__OBS_SHUFFLE(__shfl_up_sync, __nvvm_shfl_sync_up_i32, __nvvm_shfl_sync_up_f32, 0, unsigned int)
__OBS_SHUFFLE(__shfl_down_sync, __nvvm_shfl_sync_down_i32, __nvvm_shfl_sync_down_f32, 0x1f, unsigned int)
__OBS_SHUFFLE(__shfl_xor_sync, __nvvm_shfl_sync_bfly_i32, __nvvm_shfl_sync_bfly_f32, 0x1f, int)
#undef __OBS_SHUFFLE

__obs_fn unsigned int __ballot_sync(unsigned int m, bool p) { return __nvvm_vote_ballot_sync(m, p); }

// Memory fence at GPU scope.
__obs_fn void __threadfence() { __nvvm_membar_gl(); }

// Sleep of about ns nanoseconds (sm_70 and later).
__obs_fn void __nanosleep(unsigned int ns) { asm volatile("nanosleep.u32 %0;" ::"r"(ns)); }

// Warp match (sm_70 and later) of 32 and 64-bit integers; the printer
// passes floats as their bits.
__obs_fn unsigned int __match_any_sync(unsigned int m, unsigned int v) { return __nvvm_match_any_sync_i32(m, v); }
__obs_fn unsigned int __match_any_sync(unsigned int m, int v) { return __nvvm_match_any_sync_i32(m, v); }
__obs_fn unsigned int __match_any_sync(unsigned int m, unsigned long long v) {
  return __nvvm_match_any_sync_i64(m, v);
}
__obs_fn unsigned int __match_any_sync(unsigned int m, long long v) { return __nvvm_match_any_sync_i64(m, v); }

// Atomics: the overloads CUDA provides for the operations and types the
// printer emits (signed 64-bit forms go through unsigned long long casts).
#define __OBS_ATOMIC(NAME, T, BUILTIN, U) \
  __obs_fn T NAME(T* p, T v) { return (T)BUILTIN((U*)p, (U)v); }
__OBS_ATOMIC(atomicAdd, int, __nvvm_atom_add_gen_i, int)
__OBS_ATOMIC(atomicAdd, unsigned int, __nvvm_atom_add_gen_i, int)
__OBS_ATOMIC(atomicAdd, unsigned long long, __nvvm_atom_add_gen_ll, long long)
__OBS_ATOMIC(atomicAdd, float, __nvvm_atom_add_gen_f, float)
__OBS_ATOMIC(atomicAdd, double, __nvvm_atom_add_gen_d, double)
__OBS_ATOMIC(atomicSub, int, __nvvm_atom_sub_gen_i, int)
__OBS_ATOMIC(atomicSub, unsigned int, __nvvm_atom_sub_gen_i, int)
__OBS_ATOMIC(atomicInc, unsigned int, __nvvm_atom_inc_gen_ui, unsigned int)
__OBS_ATOMIC(atomicDec, unsigned int, __nvvm_atom_dec_gen_ui, unsigned int)
__OBS_ATOMIC(atomicMin, int, __nvvm_atom_min_gen_i, int)
__OBS_ATOMIC(atomicMin, unsigned int, __nvvm_atom_min_gen_ui, unsigned int)
__OBS_ATOMIC(atomicMin, long long, __nvvm_atom_min_gen_ll, long long)
__OBS_ATOMIC(atomicMin, unsigned long long, __nvvm_atom_min_gen_ull, unsigned long long)
__OBS_ATOMIC(atomicMax, int, __nvvm_atom_max_gen_i, int)
__OBS_ATOMIC(atomicMax, unsigned int, __nvvm_atom_max_gen_ui, unsigned int)
__OBS_ATOMIC(atomicMax, long long, __nvvm_atom_max_gen_ll, long long)
__OBS_ATOMIC(atomicMax, unsigned long long, __nvvm_atom_max_gen_ull, unsigned long long)
__OBS_ATOMIC(atomicAnd, int, __nvvm_atom_and_gen_i, int)
__OBS_ATOMIC(atomicAnd, unsigned int, __nvvm_atom_and_gen_i, int)
__OBS_ATOMIC(atomicAnd, unsigned long long, __nvvm_atom_and_gen_ll, long long)
__OBS_ATOMIC(atomicOr, int, __nvvm_atom_or_gen_i, int)
__OBS_ATOMIC(atomicOr, unsigned int, __nvvm_atom_or_gen_i, int)
__OBS_ATOMIC(atomicOr, unsigned long long, __nvvm_atom_or_gen_ll, long long)
__OBS_ATOMIC(atomicXor, int, __nvvm_atom_xor_gen_i, int)
__OBS_ATOMIC(atomicXor, unsigned int, __nvvm_atom_xor_gen_i, int)
__OBS_ATOMIC(atomicXor, unsigned long long, __nvvm_atom_xor_gen_ll, long long)
__OBS_ATOMIC(atomicExch, int, __nvvm_atom_xchg_gen_i, int)
__OBS_ATOMIC(atomicExch, unsigned int, __nvvm_atom_xchg_gen_i, int)
__OBS_ATOMIC(atomicExch, unsigned long long, __nvvm_atom_xchg_gen_ll, long long)
#undef __OBS_ATOMIC
__obs_fn float atomicExch(float* p, float v) {
  return __int_as_float(__nvvm_atom_xchg_gen_i((int*)p, __float_as_int(v)));
}
#define __OBS_CAS(T, BUILTIN, U) \
  __obs_fn T atomicCAS(T* p, T c, T v) { return (T)BUILTIN((U*)p, (U)c, (U)v); }
__OBS_CAS(int, __nvvm_atom_cas_gen_i, int)
__OBS_CAS(unsigned int, __nvvm_atom_cas_gen_i, int)
__OBS_CAS(unsigned long long, __nvvm_atom_cas_gen_ll, long long)
#undef __OBS_CAS
