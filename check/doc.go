// Package check is what the front end checks before anything is printed:
// Verify (types, scopes, names, memory access, the level structure,
// barriers under uniform control, whole-warp operations, the atomics CUDA
// has, shared memory size) reports every problem of a kernel at the user's
// Go line, and Layout places a kernel's shared arrays in one block of
// shared memory, reusing the bytes of arrays whose lifetimes a barrier
// separates or that opposite arms of a uniform block-level If use. The dsl runs Verify when it builds a kernel; codegen compiles
// and prints verified kernels. Neither needs the printer.
package check
