// Package irgen generates random, well-typed IR for property tests: closed
// expressions of every scalar type and small well-formed kernels, as gopter
// generators whose shrinkers replace a subtree by a smaller one of the same
// type (a child of that type or a constant), so that a failing case shrinks
// to a small tree.
//
// The generated programs are well defined: an integer division's divisor is
// guarded (Select(y == 0, 1, y), and for signed types also away from
// MIN / -1), a shift count is masked to the bit width, and a load's index is
// reduced modulo the array's length. Shrinking keeps these guards whole.
// Unguarded builds the same expressions without the guards and with operands
// drawn towards the faulting values, for tests of how faults are reported.
//
// Kernels are a Grid-level ForAll over the threads of the grid, or a
// Grid-level ForAll over blocks whose body is a sequence of Block-level
// ForAlls with barriers between them that pass values through shared
// memory. Thread bodies declare, assign, branch, loop a constant number of
// times, store into an output at the thread's own index, load from the
// input at in-range indices and update a second output atomically, so that
// a generated kernel has no data race and no out-of-bounds access.
package irgen
