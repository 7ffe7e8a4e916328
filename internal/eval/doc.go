// Package eval interprets the IR of a kernel on the CPU. It is the test
// oracle of the library and a debugger for kernels: besides computing what
// the GPU computes, it reports data races between barriers, barriers reached
// by only some threads, out-of-bounds accesses, reads of shared memory that
// was never written and reads of variables before their declaration, each at
// the user's Go line that built the offending statement.
//
// A launch runs the kernel body once per block. Grid-, Block- and Warp-level
// code is uniform, so it runs once (per block or per warp); Thread-level
// bodies of ForAll statements run SIMT style, a warp of 32 consecutive
// iterations at a time, statement by statement under an active mask, so that
// shuffles and ballots see all lanes. Iterations map onto physical threads
// exactly as the CUDA printout runs them (grid-stride loops, virtualised
// threads and warps), and race detection works on physical thread identity.
//
// Memory is checked by byte address (see memory.go): array arguments that
// are overlapping views of one buffer are checked against each other, and
// shared memory is the kernel's laid-out bytes (SharedBytes, each shared
// array at its Offset), so that arrays the layout places at the same bytes
// are too. Shared memory holds nothing from one block body to the next.
//
// The IR is compiled once per launch into a tree of Go closures that work on
// whole warps of values held as uint64 bits, with each node's type known
// when it is compiled.
package eval
