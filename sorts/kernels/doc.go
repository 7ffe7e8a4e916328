// Package kernels holds the sorts' kernels, written in the DSL and nothing
// else: it imports dsl, arrays and ir, never the runtime, and the sorts
// package launches them.
//
// The paper's kernels ("Counting and Occurrence Sort for GPUs using an
// Embedded Language", Svenningsson, Svensson, Sheeran, FHPC'13) are written
// as the paper has them: Sklansky's prefix sum for one block, sklanskyMax
// and distribute for a scan of any length, histogram (atomics), occurs
// (plain writes of 1) and reconstruct (a loop per value, or a conditional
// for occurrence sort). The block-level scan reads as the paper's Haskell:
//
//	func fan(a arrays.Pull[uint32]) arrays.Pull[uint32] {
//		a1, a2 := arrays.Halve(a)
//		last := arrays.Last(a1)
//		return arrays.Append(a1, arrays.Map(a2, func(x dsl.U32) dsl.U32 { return x.Add(last) }))
//	}
//
//	func Sklansky(b *dsl.Block, n int, a arrays.Pull[uint32]) arrays.Pull[uint32] {
//		for i := 0; i < n; i++ {
//			a = arrays.Compute(b, arrays.BinSplit(n-1-i, fan, a))
//		}
//		return a
//	}
//
// The fast pipeline's kernels are written with the collectives of arrays:
// the scan's tiles are loaded by rows, each thread sums its elements in
// registers and WarpTotals scans the threads' sums; the tile reconstruct
// marks the runs that start in its tile and fills it by a block Scan under
// Max; the tile starts are an UpperBound (over the counts each block scans
// into shared memory itself, for few values); the key range is two WarpTotals,
// under Min and Max. The shared-table kernels privatise their table in
// shared memory (a copy per warp for small ranges), the warp-table kernels
// combine the updates of a warp's lanes that hit one cell before they reach
// global memory. RadixBlockKernel sorts up to BlockSortMaxKeys keys of any
// type in one block: the threads hold them in registers,
// BlockMultisplitHeld (by votes) or BlockMultisplitCounted (by per-thread
// counters; RadixShape.Rank) ranks them by one digit at a time, and they
// move to their ranks in shared memory and back.
//
// The radix sort's kernels (RadixHistogramKernel, RadixPassKernel) are
// Onesweep's: a histogram of every pass's digits in one read of the keys,
// then a pass per digit that ranks a tile with arrays.BlockMultisplit and
// finds its digits' offsets with arrays.LookBack; UniqueCountsKernel and
// UniqueKernel keep the first key of each run with arrays.PartitionCount
// and arrays.PartitionRanks.
//
// The other papers' sorts read as their pseudo-code. H-P (Kozakai,
// Fujimoto, Wada) is the library's histogram and scan around
// HPSumsHistogramKernel, line 3 of their Algorithm 2:
//
//	B = Histogram(Ap, n)   // a thread per value v: B[Ap[v]]++ (lanes with equal sums combined)
//	y = Prefix-Sums(B)     // the sorted keys
//
// and 1-H-P's HPDistinctKernel is their figure 4, "if Ap[v] != Ap[v-1]
// then y[Ap[v-1]] = v"; 0-compressed H-P's HPBinarizeKernel,
// HPCompressKernel and HPExpandKernel are their figures 5 to 7. The count
// sort of pairs (Sun, Ma) is four steps, of which CountPairsScatterKernel
// is the last, "b[c[key]++] = (key, value)" with an atomic add. The radix
// sort notes' local sort is a loop over the digit values of a 0/1 mask and
// a Blelloch scan (arrays.BlellochScan):
//
//	for d := 0; d < 2^bits; d++ {
//		scan, count := BlellochScan(mask of the keys whose digit is d)
//		rank[i] = offset + scan[i] for those keys; offset += count
//	}
//
// Every per-key kernel checks its key against the declared range: a key
// outside it sets a flag that the host turns into an error, and is never
// used as an index.
package kernels
