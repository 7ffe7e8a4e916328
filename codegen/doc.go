// Package codegen turns a kernel's IR into CUDA C.
//
// Compile runs a list of passes once per kernel: verify (check.Verify,
// skipped for a kernel the dsl's Build has verified), a deep copy,
// simplification (constant folding with CUDA's semantics, algebraic
// identities, dead code removed; package simplify), a check that folding
// revealed no division by zero or out-of-range shift, common
// subexpressions computed once into locals (within a statement and across
// the statements of a list, while they keep their value), and the
// shared-memory layout (check.PlaceShared). Print writes a compiled kernel
// as readable, deterministic CUDA C: deep expressions are cut into locals,
// a local never assigned after its declaration is const, and the time it
// takes is linear in the size of the kernel. Prelude is a header that lets
// clang check that text without the CUDA toolkit.
package codegen
