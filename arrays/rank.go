package arrays

import (
	"math/bits"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// CountBefore returns the number of elements of a at indices [lo, hi)
// (clamped to a) that a stable sort in ascending order puts before an
// element x at index i of a: the elements less than x, and those equal to
// x at indices below i. An i of lo or less counts no equal element, one
// of hi or more every one. The thread t reads those elements once, in
// order, by their indices in a: the elements below i compared with <= x,
// the rest with < x (so that floats order as by those operators: a NaN is
// below nothing).
//
// It reads the elements in groups of 16 bytes at indices that are
// multiples of the group's size (countWhere), so that for an array in
// memory aligned to 16 bytes, such as a shared array, the compiler loads
// each group at once: a warp whose lanes count over the same range reads
// four 32-bit elements with one load.
//
// Summed over ranges that cover a, it is the element's place in a's
// stable sort: the rank sort of sorts/kernels splits its keys among a
// block's warps so.
func CountBefore[T dsl.Number](t *dsl.Thread, a Pull[T], lo, hi dsl.U32, x dsl.Exp[T], i dsl.U32) dsl.U32 {
	return countBefore(t, a, lo, hi, i,
		func(y dsl.Exp[T]) dsl.U32 { return dsl.Cast[uint32](y.Le(x)) },
		func(y dsl.Exp[T]) dsl.U32 { return dsl.Cast[uint32](y.Lt(x)) })
}

// CountBeforeNarrow is CountBefore for unsigned elements that, as x, lie
// in the lower half of their type's range (their top bit clear): it
// counts an element by the top bit of a difference, y-(x+1) for y <= x
// and y-x for y < x, a subtraction and a shift that the count's addition
// takes in, where a comparison takes a compare and a select as well. An
// element or an x outside the lower half makes the count wrong, never
// out of [0, hi-lo].
func CountBeforeNarrow[T uint32 | uint64](t *dsl.Thread, a Pull[T], lo, hi dsl.U32, x dsl.Exp[T], i dsl.U32) dsl.U32 {
	top := dsl.Lit(T(8*dsl.TypeOf[T]().Size() - 1))
	next := dsl.Let(t, x.Add(dsl.Lit(T(1)))).Exp
	return countBefore(t, a, lo, hi, i,
		func(y dsl.Exp[T]) dsl.U32 { return dsl.Cast[uint32](y.Sub(next).Shr(top)) },
		func(y dsl.Exp[T]) dsl.U32 { return dsl.Cast[uint32](y.Sub(x).Shr(top)) })
}

// countBefore counts, over the elements of a at [lo, hi) (clamped to a),
// those below i by before and the rest by after, each of which returns 1
// for an element counted and 0 otherwise.
func countBefore[T dsl.Scalar](t *dsl.Thread, a Pull[T], lo, hi, i dsl.U32, before, after func(dsl.Exp[T]) dsl.U32) dsl.U32 {
	end := dsl.Let(t, hi.Min(a.n)).Exp
	start := dsl.Let(t, lo.Min(end)).Exp
	split := dsl.Let(t, i.Max(start).Min(end)).Exp
	count := dsl.Let(t, dsl.N(0))
	countWhere(t, a, start, split, before, count)
	countWhere(t, a, split, end, after, count)
	return count.Exp
}

// countWhere adds to count the sum of one over the elements of a at
// indices [from, to) (from <= to), one returning 0 or 1 for each, read by
// the thread t in index order: one at a time up to the first index that
// is a multiple of groupOf[T](), then whole groups of that many from there
// (each group's elements read together and added in one sum), then one at
// a time to the end.
func countWhere[T dsl.Scalar](t *dsl.Thread, a Pull[T], from, to dsl.U32, one func(dsl.Exp[T]) dsl.U32,
	count dsl.Var[uint32]) {
	each := func(from, to dsl.U32) {
		k := dsl.Let(t, from)
		t.While(k.Lt(to), func(t *dsl.Thread) {
			count.Set(count.Add(one(a.ix(k.Exp))))
			k.Set(k.Add(dsl.N(1)))
		})
	}
	group := groupOf[T]()
	if group == 1 {
		each(from, to)
		return
	}
	shift := dsl.N(uint32(bits.TrailingZeros32(group)))
	// The first multiple of group at or after from, or to if that comes
	// first: from plus what from lacks of a multiple, never past to (so
	// that nothing wraps).
	ahead := dsl.Let(t, from.Add(dsl.N(0).Sub(from).And(dsl.N(group-1)).Min(to.Sub(from)))).Exp
	each(from, ahead)
	// The groups lying wholly in [ahead, to): ahead is their first
	// element's index unless it is to.
	g := dsl.Let(t, ahead.Shr(shift))
	groups := dsl.Let(t, to.Shr(shift)).Exp
	t.While(g.Lt(groups), func(t *dsl.Thread) {
		first := dsl.Let(t, g.Shl(shift)).Exp
		sum := one(a.ix(first))
		for c := uint32(1); c < group; c++ {
			sum = sum.Add(one(a.ix(first.Add(dsl.N(c)))))
		}
		count.Set(count.Add(sum))
		g.Set(g.Add(dsl.N(1)))
	})
	each(groups.Shl(shift).Max(ahead), to)
}

// groupOf returns the number of elements of type T that countWhere reads
// as a group: 16 bytes of them (ir.MaxAlign, the widest load).
func groupOf[T dsl.Scalar]() uint32 {
	return uint32(max(1, ir.MaxAlign/dsl.TypeOf[T]().Size()))
}
