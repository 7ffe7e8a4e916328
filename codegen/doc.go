// Package codegen turns a kernel's IR into CUDA C.
//
// Verify checks a kernel (types, scopes, names, memory access, the level
// structure, barriers under uniform control, whole-warp operations, atomics
// CUDA supports, shared memory size) and reports every problem at the user's
// Go line. Compile verifies, then returns a simplified deep copy (constant
// folding with CUDA's semantics, algebraic identities, dead code removed)
// whose shared arrays are laid out in one block of shared memory, reusing
// bytes of arrays whose lifetimes are separated by a barrier. Print writes
// a compiled kernel as readable, deterministic CUDA C. Prelude is a header
// that lets clang check that text without the CUDA toolkit.
package codegen
