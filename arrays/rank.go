package arrays

import "github.com/obsidian-go/obsidian/dsl"

// CountBefore returns the number of elements of a that a stable sort in
// ascending order puts before an element x at index i of a longer array
// whose part a is, at the indices 0 to len(a)-1: the elements less than
// x, and those equal to x at indices below i. An i of 0 counts no equal
// element, one of len(a) or more every one. The thread t reads a once, in
// order: the elements below i compared with <= x, the rest with < x (so
// that floats order as by those operators: a NaN is below nothing).
//
// Summed over parts that cover an array, with i taken relative to each
// part, it is the element's place in the array's stable sort: the rank
// sort of sorts/kernels splits its keys among a block's warps so.
func CountBefore[T dsl.Number](t *dsl.Thread, a Pull[T], x dsl.Exp[T], i dsl.U32) dsl.U32 {
	split := dsl.Let(t, i.Min(a.n)).Exp
	count := func(below func(y dsl.Exp[T]) dsl.Bool) func(acc dsl.U32, y dsl.Exp[T]) dsl.U32 {
		return func(acc dsl.U32, y dsl.Exp[T]) dsl.U32 { return acc.Add(dsl.Cast[uint32](below(y))) }
	}
	atMost := Fold(t, count(func(y dsl.Exp[T]) dsl.Bool { return y.Le(x) }), dsl.N(0), Take(split, a))
	return Fold(t, count(func(y dsl.Exp[T]) dsl.Bool { return y.Lt(x) }), atMost, Drop(split, a))
}
