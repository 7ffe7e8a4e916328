package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// BankPadded returns the shared-memory slot of element i of an array laid
// out with one slot of padding after every ir.WarpSize elements, i +
// i>>ir.LaneBits (GPU Gems 3's CONFLICT_FREE_OFFSET for 32 banks): the
// strided accesses of Blelloch's scan, 2^k apart, then fall in different
// banks.
func BankPadded(i dsl.U32) dsl.U32 { return i.Add(i.Shr(dsl.N(ir.LaneBits))) }

// BankPaddedLen returns the length of an array that holds n elements laid
// out by BankPadded: n plus a slot of padding per ir.WarpSize elements.
func BankPaddedLen(n int) int { return n + n>>ir.LaneBits }

// BlellochScan records in b the exclusive scan of a under op by Blelloch's
// work-efficient algorithm, and returns it, read from shared memory, with
// the array's total. identity must be op's identity; a's length must be a
// constant. The array is loaded into shared memory (padded with the
// identity up to a power of two, 2^k elements, laid out by BankPadded),
// then
//
//	up-sweep:   for d = 2^(k-1), ..., 2, 1 (a barrier before each level):
//	              thread i < d: s[bi] = s[ai] op s[bi]
//	root:       the total = s[2^k-1]; s[2^k-1] = identity
//	down-sweep: for d = 1, 2, ..., 2^(k-1):
//	              thread i < d: s[ai], s[bi] = s[bi], s[bi] op s[ai]
//
// with ai and bi the last elements of the left and right halves of thread
// i's subtree at that level. Every level is a ForAll of d threads, so 2^k
// may exceed the block: the threads loop. The combination keeps the
// elements' order, so op need not be commutative. It takes 2k+2 barriers
// and 2^k + 2^k/32 + 1 elements of shared memory.
func BlellochScan[T dsl.Number](b *dsl.Block, op Op[T], identity dsl.Exp[T], a Pull[T]) (scan Pull[T], total dsl.Exp[T]) {
	op = op.orInvalid("BlellochScan")
	n, ok := constLen(a.n)
	if !ok {
		bad := dsl.Invalid[T]("BlellochScan of an array whose length is not a constant")
		dsl.Let(b, bad)
		return Replicate(dsl.N(1), bad), bad
	}
	size := uint32(1)
	for size < n {
		size *= 2
	}
	rootAt, totalAt := BankPadded(dsl.N(size-1)), BankPadded(dsl.N(size)) // the total after the last slot
	s := dsl.Shared[T](b, BankPaddedLen(int(size))+1)
	b.ForAll(dsl.N(size), func(t *dsl.Thread, i dsl.U32) {
		t.IfElse(i.Lt(dsl.N(n)),
			func(t *dsl.Thread) { s.Store(t, BankPadded(i), a.At(i)) },
			func(t *dsl.Thread) { s.Store(t, BankPadded(i), identity) })
	})
	// level runs body for every node of the tree with d nodes: the slots
	// of the last elements of its left and right halves.
	level := func(d uint32, body func(t *dsl.Thread, ai, bi dsl.U32)) {
		b.Sync()
		width := size / d // the elements under one node
		b.ForAll(dsl.N(d), func(t *dsl.Thread, i dsl.U32) {
			first := i.Mul(dsl.N(width))
			ai := dsl.Let(t, BankPadded(first.Add(dsl.N(width/2-1))))
			bi := dsl.Let(t, BankPadded(first.Add(dsl.N(width-1))))
			body(t, ai.Exp, bi.Exp)
		})
	}
	for d := size / 2; d > 0; d /= 2 {
		level(d, func(t *dsl.Thread, ai, bi dsl.U32) { s.Store(t, bi, op(s.At(ai), s.At(bi))) })
	}
	b.Sync()
	b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
		s.Store(t, totalAt, s.At(rootAt))
		s.Store(t, rootAt, identity)
	})
	for d := uint32(1); d < size; d *= 2 {
		level(d, func(t *dsl.Thread, ai, bi dsl.U32) {
			left := dsl.Let(t, s.At(ai))
			prefix := dsl.Let(t, s.At(bi))
			s.Store(t, ai, prefix.Exp)
			s.Store(t, bi, op(prefix.Exp, left.Exp))
		})
	}
	b.Sync()
	return Generate(dsl.N(n), func(i dsl.U32) dsl.Exp[T] { return s.At(BankPadded(i)) }), s.At(totalAt)
}
