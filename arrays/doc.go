// Package arrays holds Obsidian's two array representations and their
// combinators.
//
// A Pull array is a length and an index function: reading element i builds
// the expression that computes it. Pull arrays compose by function
// composition, so a chain of Map, IxMap, Reverse, Halve, ... fuses into one
// expression with no memory traffic.
//
// A Push array is a length and a program parameterised by a write function:
// it decides where its elements go, which makes concatenation, interleaving
// and scatter cheap. Its level (the builder type P: *dsl.Grid, *dsl.Block,
// *dsl.Warp or *dsl.Thread) is a type parameter, so pushing a Grid array
// where a Block one is expected does not compile.
//
// Compute and Force are the only way into shared memory: they write an array
// to a new shared array and insert the barrier (__syncthreads) after it, then
// return a Pull array that reads it.
//
// The collectives combine the elements of an array with an associative
// operator (Op: dsl.U32.Add, dsl.U32.Max, or any function of two
// expressions, commutative or not), in the elements' order. WarpScan,
// WarpScanExclusive and WarpReduce take one value per lane in thread code,
// exchanging them with shuffles (CUB's WarpScan and WarpReduce). Scan,
// ScanExclusive and Reduce take an array of any length and are written once
// for a warp and for a block (the Collective levels): each lane or thread
// folds a run of elements sequentially, the warp scans the runs' totals
// with WarpScan, and a block scans its warps' totals in shared memory with
// the warp scan itself, as CUB's BlockScan does. BlockScan also gives the
// block's total. Search, LowerBound and UpperBound are sort.Search in a
// thread.
//
// The warp aggregations combine the values of the lanes of a warp that
// hold equal keys, in lane order, and make the lowest lane of each key its
// leader, holding the total: WarpAggregate for keys in any order (with
// dsl.MatchAny and a log-depth reduction among each key's lanes),
// WarpAggregateRuns for keys sorted within the warp (runs of equal keys,
// a segmented reduction of five shuffles, cheaper). With op Add and value
// 1 they count, so that a histogram makes one atomic per distinct key of
// a warp instead of one per key.
//
// One level of Sklansky's prefix sum reads:
//
//	func fan(a arrays.Pull[uint32]) arrays.Pull[uint32] {
//		a1, a2 := arrays.Halve(a)
//		last := a1.At(a1.Len().Sub(dsl.N(1)))
//		return arrays.Append(a1, arrays.Map(a2, func(x dsl.U32) dsl.U32 { return x.Add(last) }))
//	}
package arrays
