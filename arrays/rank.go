package arrays

import "github.com/obsidian-go/obsidian/dsl"

// CountBefore returns the number of elements of a that a stable sort in
// ascending order puts before an element x at index i of a longer array
// whose part a is, at the indices 0 to len(a)-1: the elements less than
// x, and those equal to x at indices below i. An i of 0 counts no equal
// element, one of len(a) or more every one. The thread t reads a once, in
// order: the elements below i compared with <= x, the rest with < x (so
// that floats order as by those operators: a NaN is below nothing), four
// tests added together for each addition to the count.
//
// Summed over parts that cover an array, with i taken relative to each
// part, it is the element's place in the array's stable sort: the rank
// sort of sorts/kernels splits its keys among a block's warps so.
func CountBefore[T dsl.Number](t *dsl.Thread, a Pull[T], x dsl.Exp[T], i dsl.U32) dsl.U32 {
	split := dsl.Let(t, i.Min(a.n)).Exp
	atMost := countWhere(t, Take(split, a), func(y dsl.Exp[T]) dsl.Bool { return y.Le(x) })
	return atMost.Add(countWhere(t, Drop(split, a), func(y dsl.Exp[T]) dsl.Bool { return y.Lt(x) }))
}

// countGroup is how many elements countWhere tests per step.
const countGroup = 4

// countWhere returns the number of elements of a for which pred holds,
// counted by the thread t countGroup elements a step, their tests added
// together before the count: the count's chain of additions is a step
// long, not an element.
func countWhere[T dsl.Scalar](t *dsl.Thread, a Pull[T], pred func(dsl.Exp[T]) dsl.Bool) dsl.U32 {
	test := func(y dsl.Exp[T]) dsl.U32 { return dsl.Cast[uint32](pred(y)) }
	steps := dsl.Let(t, a.n.Div(dsl.N(countGroup))).Exp
	grouped := Generate(steps, func(s dsl.U32) dsl.U32 {
		sum := test(a.ix(s.Mul(dsl.N(countGroup))))
		for k := uint32(1); k < countGroup; k++ {
			sum = sum.Add(test(a.ix(s.Mul(dsl.N(countGroup)).Add(dsl.N(k)))))
		}
		return sum
	})
	count := Fold(t, dsl.U32.Add, dsl.N(0), grouped)
	return Fold(t, func(acc dsl.U32, y dsl.Exp[T]) dsl.U32 { return acc.Add(test(y)) }, count,
		Drop(steps.Mul(dsl.N(countGroup)), a))
}
