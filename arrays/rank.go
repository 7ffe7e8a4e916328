package arrays

import "github.com/obsidian-go/obsidian/dsl"

// CountBefore returns the number of elements of a at indices [lo, hi)
// (clamped to a) that a stable sort in ascending order puts before an
// element x at index i of a: the elements less than x, and those equal to
// x at indices below i. An i of lo or less counts no equal element, one
// of hi or more every one. The thread t reads those elements once, in
// order, by their indices in a: the elements below i compared with <= x,
// the rest with < x (so that floats order as by those operators: a NaN is
// below nothing).
//
// Summed over ranges that cover a, it is the element's place in a's
// stable sort: the rank sort of sorts/kernels splits its keys among a
// block's warps so.
func CountBefore[T dsl.Number](t *dsl.Thread, a Pull[T], lo, hi dsl.U32, x dsl.Exp[T], i dsl.U32) dsl.U32 {
	end := dsl.Let(t, hi.Min(a.n)).Exp
	start := dsl.Let(t, lo.Min(end)).Exp
	split := dsl.Let(t, i.Max(start).Min(end)).Exp
	count := dsl.Let(t, dsl.N(0))
	countWhere(t, a, start, split, func(y dsl.Exp[T]) dsl.Bool { return y.Le(x) }, count)
	countWhere(t, a, split, end, func(y dsl.Exp[T]) dsl.Bool { return y.Lt(x) }, count)
	return count.Exp
}

// countWhere adds to count the number of elements of a at indices [from,
// to) for which pred holds, read by the thread t in a loop over their
// indices in a: the compiler then sees consecutive elements at
// consecutive indices, and reads an unrolled run of them from one
// address with constant offsets.
func countWhere[T dsl.Scalar](t *dsl.Thread, a Pull[T], from, to dsl.U32, pred func(dsl.Exp[T]) dsl.Bool,
	count dsl.Var[uint32]) {
	k := dsl.Let(t, from)
	t.While(k.Lt(to), func(t *dsl.Thread) {
		count.Set(count.Add(dsl.Cast[uint32](pred(a.ix(k.Exp)))))
		k.Set(k.Add(dsl.N(1)))
	})
}
