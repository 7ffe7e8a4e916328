// Package eval interprets the IR of a kernel on the CPU. It is the test
// oracle of the library and a debugger for kernels: besides computing what
// the GPU computes, it reports data races between barriers, barriers reached
// by only some threads, out-of-bounds accesses, reads of shared memory that
// was never written (for a warp's own shared array, in the current pass of
// its ForAllWarps), reads of a local array's element that its thread has
// not written in the current iteration of its ForAll (for a held array, in
// the current block body), and reads of variables before their
// declaration, each at the user's Go line that built the offending
// statement.
//
// A launch runs the kernel body once per block. Grid-, Block- and Warp-level
// code is uniform, so it runs once (per block or per warp); Thread-level
// bodies of ForAll statements run SIMT style, a warp of 32 consecutive
// iterations at a time, statement by statement under an active mask, so that
// shuffles and ballots see all lanes. Iterations map onto physical threads
// exactly as the CUDA printout runs them (grid-stride loops, virtualised
// threads and warps), and race detection works on physical thread identity.
//
// Blocks run in parallel, on as many workers (goroutines) as GOMAXPROCS
// allows, each running one block at a time with its own shared memory
// (run.go). Within a block, a record per touched cell keeps the accesses of
// the current barrier interval (race.go): a dense table for shared memory,
// a table of the cells the interval touched for global memory
// (interval.go). Between blocks, nothing is ordered: every cell of global
// memory that the launch writes has a 32-bit word saying which kinds of
// access its first block and the other blocks made (words.go), enough to
// find conflicting accesses of two blocks whichever runs first; a launch
// holds 4 bytes per written element besides its buffers, and the state of
// each running block. The cells' bytes are read and written under locks of
// groups of 16 cells, so that atomics are atomic and the workers race-free.
//
// The problems a launch reports are those a run of the blocks one after
// the other, in order, finds first (the workers' findings are merged in
// block order), except that of two accesses of different blocks that race,
// the one named is the one that ran second. The result of a race-free
// launch does not depend on the order the blocks run in, as on a GPU, with
// one exception the evaluator removes: when the kernel's global atomics
// make it depend on the order (an atomic's old value used, an exchange or
// compare-and-swap, a float addition, atomics of two operations on one
// memory), the blocks run one after the other, in order, so that results
// stay deterministic. A launch's context is checked before each block and
// every few hundred loop iterations within one.
//
// Memory is checked by byte address (see memory.go): array arguments that
// are overlapping views of one buffer are checked against each other, and
// shared memory is the kernel's laid-out bytes (SharedBytes, each shared
// array at its Offset), so that arrays the layout places at the same bytes
// are too. Shared memory holds nothing from one block body to the next.
//
// The IR is compiled once (Compile; Launch compiles for one launch) into a tree
// of Go closures that work on whole warps of values held as uint64 bits, with
// each node's type known when it is compiled. The closures hold only what the
// compiler computed: a launch keeps its state in its workers' machines, so that
// launches of one Program may run at the same time. Intermediate warps come
// from a per-worker stack, and memory accesses are made a warp at a time
// (access.go): the commonest, which race with nothing (the first access of a
// barrier interval to a shared cell, a write after accesses of its own thread
// only, the launch's first access to a global cell), are recorded in loops that
// make no call and keep their state in registers, and the others take the
// general checks; the reads and atomics of a warp on a global region larger
// than the caches read their cells first, so that the processor fetches them at
// once. An operator's operands are read where they are (a constant from a warp
// of it made at compile time, a thread-level variable from its lanes), and the
// commonest operators have vector forms that compute a warp in one loop
// (ops.go), checked against the operator table.
package eval
