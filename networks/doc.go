// Package networks holds the sorting networks of the first Obsidian
// (Svensson, "An embedded language for data-parallel programming", MSc
// thesis, 2008), written in the DSL with the thesis' combinators from
// package arrays: odd-even transposition sort (of a constant length, and
// length-parametric), the bubble-sort network, Batcher's bitonic sort and
// iterative vsort (with its permutations computed, looked up with TblLook
// in tables held in constant memory as the thesis' executeTab holds them,
// or parametric in the length).
//
// Each sorter is a block-level program on a Pull array, generic over the
// key type, reading as its Haskell does:
//
//	// sortOETCore = sortEvens ->- sortOdds
//	func sortOETCore[T dsl.Number](b *dsl.Block, a Pull[T]) Pull[T] {
//		sortEvens := arrays.Compute(b, arrays.Evens(CmpSwap, a))
//		return arrays.Odds(CmpSwap, sortEvens)
//	}
//
//	// sortOET n = rep (div n 2) sortOETCore ->- (evens cmpSwap ->- sync, for odd n)
//	a = arrays.Rep(b, int(n/2), sortOETCore, a)
//	if n%2 != 0 {
//		a = arrays.Compute(b, arrays.Evens(CmpSwap, a))
//	}
//
//	// sortB n = par1 (sortB k) (sortB k ->- reverse) ->- bfly n, bottom up
//	for s := 1; s <= m; s++ {
//		a = bfly(b, s, arrays.BinSplit(m-s, func(run Pull[T]) Pull[T] { return arrays.One(arrays.Reverse[T], run) }, a))
//	}
//
// The sorters' limits: SortOET, BubbleSort and BitonicSort take an array of
// constant length (BitonicSort and the vsorts a power of two); SortOETParam an array of any
// length up to a constant capacity, padded with the largest key. Kernel
// runs a sorter on many independent batches of uint32 keys, one block per
// batch, padding a last short batch (and, for Bitonic, every batch to a
// power of two) with the largest key, which sorts to the end and is not
// written. Sorter and Sort launch those kernels on a runtime.Device and
// check their arguments.
//
// The package sits at the repository root, beside sorts, because it
// shares nothing with the counting and occurrence sorts' pipeline there:
// its sorters are block-level programs made of the thesis' combinators,
// and its host side is one launch.
package networks
