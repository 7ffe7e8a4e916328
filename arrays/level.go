package arrays

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
)

// Level is a level that computes arrays into memory of its own (Obsidian's
// Compute t): a block (*dsl.Block) into shared memory, a warp (*dsl.Warp)
// into its own region of shared memory, a thread (*dsl.Thread) into a
// local array. Force, Compute and ComputeInto are written once for all
// three, so that a function generic over the level, such as a reduction
// that halves its array until one element is left, serves every level.
type Level interface {
	*dsl.Thread | *dsl.Warp | *dsl.Block
	dsl.Parallel
}

// Force writes a Push array of level P into new memory of that level and
// returns a Pull array reading it: at Block level a shared array, written
// by the block's threads (one per element), then a barrier
// (__syncthreads); at Warp level a shared array of which each warp of the
// block has its own (dsl.WarpShared), written by the warp's lanes (lane l
// taking elements l, l + 32, ...), then a warp barrier (__syncwarp); at
// Thread level a local array (dsl.Local), written by the thread in order,
// with no barrier. The length must be a constant.
func Force[P Level, T dsl.Scalar](p P, a Push[P, T]) Pull[T] {
	n, ok := constLen(a.n)
	if !ok {
		// Memory of a level has a size fixed when the kernel is built.
		arr := allocate[P, T](p, 1)
		a.run(p, func(t *dsl.Thread, i dsl.U32, _ dsl.Exp[T]) {
			arr.Store(t, i, dsl.Invalid[T]("Compute or Force of an array whose length is not a constant"))
		})
		return FromArray(arr)
	}
	arr := allocate[P, T](p, int(n))
	a.run(p, arr.Store)
	syncOf(p)()
	return FromArray(arr)
}

// Compute writes a Pull array into new memory of level P, one (virtual)
// thread per element, and returns a Pull array reading it (see Force): the
// way to stop fusion and share results between the threads of a block or
// the lanes of a warp, or to keep a thread's values in its own array.
func Compute[P Level, T dsl.Scalar](p P, a Pull[T]) Pull[T] {
	return Force(p, ToPush[P](a))
}

// ComputeInto is Compute writing into the given array of level P's memory
// (dsl.Shared for a block, dsl.WarpShared for a warp, dsl.Local for a
// thread), which must be at least as long as a: for loops where the same
// arrays are reused on every iteration (a ping-pong between two arrays).
// A constant length of a beyond the array's is an error at the user's line.
func ComputeInto[P Level, T dsl.Scalar](p P, arr dsl.Array[T], a Pull[T]) Pull[T] {
	w := arr.Store
	if n, ok := constLen(a.n); ok && arr.IR() != nil && arr.IR().Size > 0 && int64(n) > int64(arr.IR().Size) {
		bad := dsl.Invalid[T](fmt.Sprintf("ComputeInto of an array of %d elements into %s, an array of %d", n,
			arr.IR().Name, arr.IR().Size))
		w = func(t *dsl.Thread, i dsl.U32, _ dsl.Exp[T]) { arr.Store(t, i, bad) }
	}
	ToPush[P](a).run(p, w)
	syncOf(p)()
	return Take(a.n, FromArray(arr))
}

// allocate returns a new array of n elements in memory of level p.
func allocate[P Level, T dsl.Scalar](p P, n int) dsl.Array[T] {
	switch p := any(p).(type) {
	case *dsl.Block:
		return dsl.Shared[T](p, n)
	case *dsl.Warp:
		return dsl.WarpShared[T](p, n)
	case *dsl.Thread:
		return dsl.Local[T](p, n)
	}
	return dsl.Array[T]{} // Level has no other types; a zero Array would fail the build
}

// syncOf returns the barrier of level p (none for a thread).
func syncOf[P Level](p P) func() {
	switch p := any(p).(type) {
	case *dsl.Block:
		return p.Sync
	case *dsl.Warp:
		return p.Sync
	}
	return func() {}
}

// ConstLen returns a's length when it is a constant, as the length of an
// array that Force or Compute write must be (Obsidian's static length, len
// of an SPull), and false otherwise.
func (a Pull[T]) ConstLen() (uint32, bool) { return constLen(a.n) }
