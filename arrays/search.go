package arrays

import "github.com/obsidian-go/obsidian/dsl"

// Search returns the smallest i in [0, n) for which pred(i) holds, or n
// when there is none, where pred(i) implies pred(j) for every j > i: Go's
// sort.Search, as a binary search run sequentially by the thread t. It
// takes as many rounds as n has bits (at most 32), each calling pred once,
// so it ends even for a pred that is not monotone.
func Search(t *dsl.Thread, n dsl.U32, pred func(i dsl.U32) dsl.Bool) dsl.U32 {
	if pred == nil {
		return dsl.Let(t, dsl.Invalid[uint32]("Search with a nil predicate")).Exp
	}
	lo, hi := dsl.Let(t, dsl.N(0)), dsl.Let(t, n)
	// Each round leaves at most half of [lo, hi), rounded down.
	rounds := dsl.N(32).Sub(hi.LeadingZeros())
	t.For(rounds, func(t *dsl.Thread, _ dsl.U32) {
		t.If(lo.Lt(hi.Exp), func(t *dsl.Thread) {
			mid := dsl.Let(t, lo.Add(hi.Sub(lo.Exp).Shr(dsl.N(1)))) // no overflow, unlike (lo+hi)/2
			t.IfElse(pred(mid.Exp), func(*dsl.Thread) { hi.Set(mid.Exp) }, func(*dsl.Thread) { lo.Set(mid.Add(dsl.N(1))) })
		})
	})
	return lo.Exp
}

// LowerBound returns the first index of a, sorted in ascending order, whose
// element is at least x, or len(a) when there is none: where x would be
// inserted before its equals.
func LowerBound[T dsl.Number](t *dsl.Thread, a Pull[T], x dsl.Exp[T]) dsl.U32 {
	return Search(t, a.n, func(i dsl.U32) dsl.Bool { return a.At(i).Ge(x) })
}

// UpperBound returns the first index of a, sorted in ascending order, whose
// element is above x, or len(a) when there is none: where x would be
// inserted after its equals.
func UpperBound[T dsl.Number](t *dsl.Thread, a Pull[T], x dsl.Exp[T]) dsl.U32 {
	return Search(t, a.n, func(i dsl.U32) dsl.Bool { return a.At(i).Gt(x) })
}
