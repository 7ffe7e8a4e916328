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
// Compute and Force write an array into new memory of a Level and return a
// Pull array that reads it, as Obsidian's compute does at every level: a
// block's shared memory, ended by __syncthreads; a warp's own region of
// shared memory, written by its lanes (lane l taking l, l + 32, ...) and
// ended by __syncwarp; a thread's local array, written in order. One
// function generic over the level, such as a reduction that halves its
// array until one element is left (see the example), serves all three.
// For pairs and tiles, ComputePairs, ForcePairs and ComputeTile write
// both halves, or a tile, into a block's shared memory with one barrier.
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
// block's total. WarpTotals scans one value per thread of a block, values
// the threads hold in registers, in the two steps around a barrier.
// Search, LowerBound and UpperBound are sort.Search in a thread.
// CountBefore counts, in a thread, the elements of a part of an array
// that a stable sort puts before a given one: summed over parts that
// cover the array, the element's place in it. It reads them in aligned
// groups of 16 bytes; CountBeforeNarrow, for unsigned elements with their
// top bit clear, counts by the sign of differences instead of comparisons.
//
// The ballot collectives deal an array to the warps in tiles of
// ir.WarpSize consecutive elements, a lane per element. Partition is the
// stable split of an array by a predicate at Warp and Block level (written
// once for both): a ballot per tile, popcounts of the lanes below, and at
// Block level the warps' counts scanned with WarpScanExclusive;
// PartitionRanks gives each element's destination and PartitionCount the
// number where the predicate holds. BlockMultisplit is CUB's block radix
// rank: the stable ranks of a block's keys by a digit of 1 to MaxDigitBits
// bits, from the lanes with the same digit (WarpPeers: a ballot per bit),
// per-warp digit counters in shared memory and ScanExclusive of them, with
// the digits' Counts and Offsets. ScatterByRank moves the elements (or the
// values of key-value pairs) to the ranks either gives.
//
// Held is a block's tile that its threads hold in registers (dsl.Held),
// dealt warp-striped (each slot of a warp 32 consecutive elements), across
// the block's barriers: NewHeld and Load fill it with coalesced reads,
// BlockMultisplitHeld ranks held keys keeping each key's rank within its
// warp in registers, two to a register (HeldRanks gives the ranks, held
// alike), and
// ScatterBy writes each held element at its rank. This is how CUB's radix
// sort keeps its keys: one trip through shared memory instead of three.
// Uniform and UniformBits find whether a held tile's elements agree on a
// function of them (a radix digit: UniformBits folds each thread's
// elements with & and |), so that a tile of one digit needs no ranking;
// NewMultisplitCounters zeroes a multisplit's counters ahead, and
// BlockMultisplitHeldOn ranks on them after a barrier the block passes
// anyway, one barrier fewer.
// NewHeldBlocked deals a tile blocked instead (each thread consecutive
// elements), which BlockMultisplitCounted ranks without votes: each thread
// counts its keys' digits in counters of its own, and one scan of the
// counters ranks the block (CUB's single-tile ranking).
//
// Pairs is an array of pairs of two scalar types, as Obsidian's Pull
// arrays of tuples: Zip and Unzip convert, MapPairs, IxMapPairs,
// EvensPairs and OddsPairs transform, and ComputePairs writes both halves
// into shared memory with one barrier. CmpSwapByKey, with EvensPairs and
// OddsPairs, makes sorting networks that move values with their keys.
//
// SeqScan, SeqScanExclusive and MapAccum (Haskell's mapAccumL) run in one
// thread, as Push arrays of Thread level or through a Writer: the
// per-thread programs of MapThreads.
//
// Matrix views an array as a row-major matrix, with its Rows, Cols and
// Transpose; TilesOf cuts one into tiles (partial at the edges), which
// MapTiles gives each to a block and ComputeTile puts in shared memory: a
// tiled transpose is a line of each.
//
// BlellochScan is Blelloch's work-efficient exclusive scan of a block's
// array in shared memory, as GPU Gems 3 and the radix sort notes write it:
// an up-sweep of partial sums, the root cleared, a down-sweep that swaps
// and adds, with the elements laid out by BankPadded (a slot of padding
// every 32) so that its strided accesses avoid bank conflicts.
//
// DeviceScanKernel is a whole kernel: the scan of an array of any length
// by the grid in a single pass with decoupled look-back (CUB's
// DeviceScan), built from these collectives and the atomic loads and
// stores of dsl; package scan runs it. LookBack is its look-back on its
// own, over a vector of values per tile (a radix sort pass's digit counts,
// as in Onesweep): a block publishes its tile's vector and gets, for each
// element, the combination over the tiles before, one thread per element
// waiting only for blocks that took their tile earlier from NextTile (or,
// in a grid of a block per tile, BlockTile: tile i in block i, blocks
// being started in index order, with no wait for the counter);
// LookBackWindow reads the words of several tiles at once, LookBackFrom
// starts the tiles from a seed vector, and LookBackPublish publishes the
// vector at once and returns it for Prefixes, which walks back later in
// the block's work, when more of the tiles before have published theirs.
//
// The warp aggregations combine the values of the lanes of a warp that
// hold equal keys, in lane order, and make the lowest lane of each key its
// leader, holding the total: WarpAggregate for keys in any order (with
// dsl.MatchAny and a log-depth reduction among each key's lanes),
// WarpAggregateRuns for keys sorted within the warp (runs of equal keys,
// a segmented reduction of five shuffles, cheaper). With op Add and value
// 1 they count, so that a histogram makes one atomic per distinct key of
// a warp instead of one per key. WarpAggregateHot pays for the grouping
// only where lanes share keys: a warp of one key (WarpAllEqual) is reduced
// with shuffles, a warp in which two neighbouring lanes share a key
// (WarpAnyNeighboursEqual, the cheap sign of hot keys) is grouped by
// WarpAggregate, and any other warp leaves every lane a group of its own,
// so that keys of a wide range cost little more than one update each.
// WarpReserveHot is the fetch-and-add of the same groups: every lane adds
// one to its cell's counter and gets a slot of its own, the counter's
// value before plus its rank in its group, with one atomic per group.
//
// One level of Sklansky's prefix sum reads:
//
//	func fan(a arrays.Pull[uint32]) arrays.Pull[uint32] {
//		a1, a2 := arrays.Halve(a)
//		last := a1.At(a1.Len().Sub(dsl.N(1)))
//		return arrays.Append(a1, arrays.Map(a2, func(x dsl.U32) dsl.U32 { return x.Add(last) }))
//	}
package arrays
