package networks

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Pull is the array type of the sorters: arrays.Pull.
type Pull[T dsl.Scalar] = arrays.Pull[T]

// CmpSwap is the two-sorter (the thesis' cmpSwap (<*)): the smaller
// element first.
func CmpSwap[T dsl.Number](x, y dsl.Exp[T]) (dsl.Exp[T], dsl.Exp[T]) { return x.Min(y), x.Max(y) }

// sortOETCore is the thesis' sortOETCore = sortEvens ->- sortOdds: the
// sync after the odds is the one Rep puts after every round.
func sortOETCore[T dsl.Number](b *dsl.Block, a Pull[T]) Pull[T] {
	sortEvens := arrays.Compute(b, arrays.Evens(CmpSwap, a))
	return arrays.Odds(CmpSwap, sortEvens)
}

// SortOET is odd-even transposition sort of an array of constant length n
// in a block (the thesis' sortOET n, with the fix its QuickCheck found for
// odd n):
//
//	sortOET n = rep (div n 2) sortOETCore ->-
//	    if (mod n 2 /= 0) then evens (cmpSwap (<*)) ->- sync else idM
func SortOET[T dsl.Number](b *dsl.Block, a Pull[T]) Pull[T] {
	n, ok := a.ConstLen()
	if !ok {
		return invalid(b, a, "SortOET of an array whose length is not a constant (SortOETParam sorts those)")
	}
	a = arrays.Rep(b, int(n/2), sortOETCore, a)
	if n%2 != 0 {
		a = arrays.Compute(b, arrays.Evens(CmpSwap, a))
	}
	return a
}

// SortOETParam is odd-even transposition sort of an array whose length n
// is computed in the kernel, at most capacity (the thesis' sortOETParam,
// repE (idiv (n+1) 2) sortOETCore): the array is padded to capacity with
// pad, which must be at least every key (the largest key of T), so that
// the padding stays at the end and takes part in no exchange that matters;
// the result has a's length. A length above capacity is cut to capacity.
func SortOETParam[T dsl.Number](b *dsl.Block, capacity uint32, pad dsl.Exp[T], a Pull[T]) Pull[T] {
	n := a.Len().Min(dsl.N(capacity))
	padded := arrays.Generate(dsl.N(capacity), func(i dsl.U32) dsl.Exp[T] {
		return dsl.Select(i.Lt(n), a.At(i), pad)
	})
	return arrays.Take(n, arrays.RepE(b, n.Add(dsl.N(1)).Shr(dsl.N(1)), sortOETCore, padded))
}

// BubbleSort is the bubble-sort network of an array of constant length n
// in a block, in its parallel form (the thesis' bubblenet): pass p of
// bubble sort compares (0,1), (1,2), ..., (n-2-p, n-1-p), and its
// comparator i runs at step 2p+i, so step t applies the two-sorter to the
// pairs of t's parity below a window that grows and then shrinks: evens or
// odds on an initial segment (initS). 2n-3 steps, two per round.
func BubbleSort[T dsl.Number](b *dsl.Block, a Pull[T]) Pull[T] {
	n := a.Len()
	two := dsl.N(2)
	window := func(t dsl.U32) dsl.U32 { return t.Add(two).Min(n.Shl(dsl.N(1)).Sub(two).Sub(t)) }
	evens := func(a Pull[T]) Pull[T] { return arrays.Evens(CmpSwap, a) }
	odds := func(a Pull[T]) Pull[T] { return arrays.Odds(CmpSwap, a) }
	return arrays.Iterate(b, n.Max(dsl.N(1)).Sub(dsl.N(1)), func(b *dsl.Block, r dsl.U32, a Pull[T]) Pull[T] {
		t := r.Shl(dsl.N(1))
		a = arrays.Compute(b, arrays.InitS(window(t), evens, a))
		return arrays.InitS(window(t.Add(dsl.N(1))), odds, a)
	}, a)
}

// BitonicSort is Batcher's bitonic sort of an array of 2^m elements in a
// block, the thesis' sortB written from the bottom up:
//
//	sortB 0 cmp = id
//	sortB n cmp = par1 (sortB k cmp) (sortB k cmp ->- reverse) ->- bfly n cmp
//
// Stage s sorts the runs of 2^s elements: each run's halves come sorted
// from stage s-1, One Reverse turns the second half down (the reverse of
// sortB's second sorter), and the butterfly of s levels (bfly s, a
// Compute after each level) merges the bitonic run. A length that is not
// a power of two is an error at the caller's line (pad with the largest
// key: see Kernel).
func BitonicSort[T dsl.Number](b *dsl.Block, a Pull[T]) Pull[T] {
	m, ok := log2(a)
	if !ok {
		return invalid(b, a, "BitonicSort of an array whose length is not a constant power of two")
	}
	for s := 1; s <= m; s++ {
		a = bfly(b, s, arrays.BinSplit(m-s, func(run Pull[T]) Pull[T] { return arrays.One(arrays.Reverse[T], run) }, a))
	}
	return a
}

// bfly is the thesis' bfly s cmpSwap with a sync after each level: the
// levels exchange bits s-1, ..., 0 (arrays.Bfly).
func bfly[T dsl.Number](b *dsl.Block, s int, a Pull[T]) Pull[T] {
	for k := s - 1; k >= 0; k-- {
		a = arrays.Compute(b, arrays.Exchange(k, CmpSwap, a))
	}
	return a
}

// log2 returns m when a's length is the constant 2^m.
func log2[T dsl.Scalar](a Pull[T]) (int, bool) {
	n, ok := a.ConstLen()
	if !ok || n == 0 || n&(n-1) != 0 {
		return 0, false
	}
	m := 0
	for 1<<m < n {
		m++
	}
	return m, true
}

// invalid records an error saying msg at the user's line in b and returns
// an array of a's length standing in for the result.
func invalid[T dsl.Scalar](b *dsl.Block, a Pull[T], msg string) Pull[T] {
	dsl.Let(b, dsl.Invalid[uint32](msg))
	return arrays.Replicate(a.Len(), dsl.Invalid[T](msg))
}
