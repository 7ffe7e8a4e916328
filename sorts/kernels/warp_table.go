package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// Per-key kernels on a table in global memory (for ranges too wide for
// shared memory) whose warps combine their updates before they reach
// global memory. Every warp reads warpTableKeys*ir.WarpSize consecutive
// keys, a key per lane at a time (lane l takes key l of each step, so every load is coalesced),
// loading them all before it updates anything. At each step every lane
// computes the cell of its key, the lanes with the same cell combine their
// values in one lane (arrays.WarpAggregateHot: a warp reduction when every
// lane holds one cell, as on sorted keys with repeats; groups by
// __match_any_sync when two neighbouring lanes share a cell, as on hot
// keys in any order), and only that lane updates the table, so that hot
// cells take one atomic per warp, not one per lane. On random keys of a
// wide range no two lanes share a cell, which two ballots see, and the
// grouping is skipped; a step whose keys all miss the window does nothing
// but read them.
//
// The kernels update only the cells of a window [from, from+count) of the
// table, so that the host can cover a table wider than the L2 cache in
// passes that each keep their updates in it. The windowed histogram also
// records, in its first pass, the lowest and highest cell of every warp's
// keys, and later passes skip the warps whose cells miss their window: on
// sorted or nearly sorted keys a later pass reads little more than that
// record.

// noCell is a cell of no table (none has 2^32-ir.WarpSize cells): noCell
// and the ir.WarpSize-1 values below it mark lanes without an update.
const noCell = ^uint32(0)

// warpTableThreads is the block size of the warp-combined kernels.
const warpTableThreads = 256

// warpTableKeys is the number of keys each thread of a warp-combined
// kernel handles, so that a pass over keys none of which fall in the
// window costs little more than reading them.
const warpTableKeys = 16

// warpTableWarps is the number of warps of a block of the warp-combined
// kernels.
const warpTableWarps = warpTableThreads / ir.WarpSize

// WarpRanges returns the length of the ranges array that
// GlobalHistogramWarpKernel records for keys keys: two words per warp.
func WarpRanges(keys int) int {
	perBlock := warpTableThreads * warpTableKeys
	return 2 * (keys/perBlock + min(keys%perBlock, 1)) * warpTableWarps
}

// warpKind is a table kind with the value a key adds to its cell.
type warpKind struct {
	tableKind
	value func(bin dsl.U32) dsl.U32
	// combined folds the updates of cells that two or more lanes of a warp
	// share into a block's arrays.Combiner (with dsl.AtomicAdd) before the
	// global table, so that a cell hot in every warp takes one atomic per
	// block instead of one per warp: the histogram's counters, where every
	// update is an atomic. A bitset's updates test before they set, so
	// its hot words cost reads only.
	combined bool
}

var (
	warpCounts = warpKind{counts, func(dsl.U32) dsl.U32 { return dsl.N(1) }, true}
	warpBits   = warpKind{bits, bitOf, false}
)

// The block Combiner of a combined warp kernel: slots (8 KiB of shared
// memory) and probes. A block of warpTableThreads*warpTableKeys keys
// rarely holds more hot cells than a quarter of the slots.
const (
	combinerSlots  = 1 << 10
	combinerProbes = 4
)

// warpTableKernel returns the warp-combined per-key kernel of kind. Its
// parameters are the keys, lo, the number of values bins (keys outside
// [lo, lo+bins) set bad[0]), the window's first cell and its number of
// cells, the global table (zeroed by the host) and the bad flag. With
// skipping, two more follow: ranges, two words per warp (its lowest and
// highest cell, lowest > highest when it has no key in range), and record:
// when it is not 0 the kernel writes ranges (and every warp runs), when it
// is 0 it reads them and a warp whose cells miss the window does nothing
// (a warp past the end of ranges runs).
func warpTableKernel(name string, kind warpKind, skipping bool) *dsl.Kernel {
	k := dsl.NewKernel(name, warpTableThreads)
	keys := dsl.Input[uint32](k, "keys")
	lo := dsl.Param[uint32](k, "lo")
	bins := dsl.Param[uint32](k, "bins")
	from := dsl.Param[uint32](k, "from")
	count := dsl.Param[uint32](k, "count")
	table := kind.global(k, "table")
	bad := dsl.Output[uint32](k, "bad")
	var ranges dsl.Array[uint32]
	var record dsl.U32
	if skipping {
		ranges = dsl.InOut[uint32](k, "ranges")
		record = dsl.Param[uint32](k, "record")
	}
	threads := dsl.N(warpTableThreads)
	blocks := dsl.CeilDiv(keys.Len(), dsl.N(warpTableThreads*warpTableKeys))
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(blocks, func(b *dsl.Block, blk dsl.U32) {
			update := func(t *dsl.Thread, cell, total dsl.U32) { kind.merge(t, table, cell, total) }
			var c *arrays.Combiner[uint32]
			if kind.combined {
				c = arrays.NewCombiner[uint32](b, combinerSlots, combinerProbes, dsl.AtomicAdd, dsl.N(0))
				update = func(t *dsl.Thread, cell, total dsl.U32) {
					global := func(t *dsl.Thread) { kind.merge(t, table, cell, total) }
					t.IfElse(total.Gt(dsl.N(1)), func(t *dsl.Thread) { c.Add(t, cell, total, global) }, global)
				}
			}
			// Every thread of the block runs the shuffles, keys or not, and
			// every branch around them is the same for the whole warp.
			b.ForAll(threads, func(t *dsl.Thread, tid dsl.U32) {
				lane := dsl.Let(t, dsl.LaneOf(tid))
				warp := dsl.Let(t, blk.Mul(dsl.N(warpTableWarps)).Add(dsl.WarpOf(tid)))
				first := dsl.Let(t, dsl.Cast[uint64](warp.Exp).Mul(dsl.Const[uint64](ir.WarpSize*warpTableKeys)).Add(dsl.Cast[uint64](lane.Exp)))
				pass := func(t *dsl.Thread, recording bool) {
					warpPass(t, kind, keys, lo, bins, from, count, update, bad, lane.Exp, first.Exp, func(t *dsl.Thread, lowest, highest dsl.U32) {
						if recording {
							recordRange(t, ranges, warp.Exp, lane.Exp, lowest, highest)
						}
					})
				}
				if !skipping {
					pass(t, false)
					return
				}
				t.IfElse(record.Ne(dsl.N(0)), func(t *dsl.Thread) { pass(t, true) }, func(t *dsl.Thread) {
					// A warp without a recorded range runs.
					at := dsl.Let(t, warp.Mul(dsl.N(2)))
					known := dsl.Let(t, at.Add(dsl.N(1)).Lt(ranges.Len()))
					lowest := dsl.Let(t, dsl.Select(known.Exp, ranges.At(at.Exp), dsl.N(0)))
					highest := dsl.Let(t, dsl.Select(known.Exp, ranges.At(at.Add(dsl.N(1))), dsl.N(noCell)))
					hits := lowest.Le(highest.Exp).And(lowest.Lt(from.Add(count))).And(highest.Ge(from))
					t.If(dsl.Any(t, hits), func(t *dsl.Thread) { pass(t, false) })
				})
			})
			if c != nil {
				c.Flush(b, func(t *dsl.Thread, cell dsl.U32, total dsl.U32) { kind.merge(t, table, cell, total) })
			}
		})
	})
	return k
}

// warpPass runs one warp's keys, from key first (its lane's first) on,
// ir.WarpSize apart, into the window of the table (each group of lanes
// sharing a cell calling update once, in its leader, with the group's
// total), then calls done with the lowest and highest cell of the lane's
// keys in range (noCell and 0 when it has none). Every lane of the warp
// must call it.
func warpPass(t *dsl.Thread, kind warpKind, keys dsl.Array[uint32], lo, bins, from, count dsl.U32,
	update func(t *dsl.Thread, cell, total dsl.U32), bad dsl.Array[uint32],
	lane dsl.U32, first dsl.Exp[uint64], done func(t *dsl.Thread, lowest, highest dsl.U32)) {
	var ok [warpTableKeys]dsl.Bool
	var key [warpTableKeys]dsl.U32
	for u := range warpTableKeys {
		ix := dsl.Let(t, first.Add(dsl.Const[uint64](int64(u*ir.WarpSize))))
		ok[u] = dsl.Let(t, ix.Lt(dsl.Cast[uint64](keys.Len()))).Exp
		key[u] = dsl.Let(t, dsl.Select(ok[u], keys.At(dsl.Cast[uint32](ix.Exp)), lo)).Exp
	}
	lowest := dsl.Let(t, dsl.N(noCell))
	highest := dsl.Let(t, dsl.N(0))
	var cell, value [warpTableKeys]dsl.Var[uint32]
	var has [warpTableKeys]dsl.Var[bool]
	for u := range warpTableKeys {
		// A lane without a cell in the window holds noCell minus its lane,
		// no cell of any table, so that such lanes never look like a hot
		// cell to the grouping.
		cell[u] = dsl.Let(t, dsl.N(noCell).Sub(lane))
		value[u] = dsl.Let(t, dsl.N(0))
		has[u] = dsl.Let(t, dsl.Lit(false))
		t.If(ok[u], func(t *dsl.Thread) {
			inRange(t, key[u], lo, bins, bad, func(t *dsl.Thread, bin dsl.U32) {
				c := dsl.Let(t, kind.cell(bin))
				lowest.Set(lowest.Min(c.Exp))
				highest.Set(highest.Max(c.Exp))
				t.If(c.Sub(from).Lt(count), func(t *dsl.Thread) {
					cell[u].Set(c.Exp)
					value[u].Set(kind.value(bin))
					has[u].Set(dsl.Lit(true))
				})
			})
		})
	}
	for u := range warpTableKeys {
		t.If(dsl.Any(t, has[u].Exp), func(t *dsl.Thread) {
			leader, total := arrays.WarpAggregateHot(t, kind.combine, cell[u].Exp, value[u].Exp, dsl.N(ir.WarpSize))
			t.If(has[u].And(leader), func(t *dsl.Thread) {
				update(t, cell[u].Exp, total)
			})
		})
	}
	done(t, lowest.Exp, highest.Exp)
}

// recordRange reduces the lanes' lowest and highest cells over the warp
// and has its last lane, where their scans end, store them as the warp's
// range. Every lane of the warp must call it.
func recordRange(t *dsl.Thread, ranges dsl.Array[uint32], warp, lane, lowest, highest dsl.U32) {
	low := arrays.WarpScan(t, dsl.U32.Min, lowest, dsl.N(ir.WarpSize))
	high := arrays.WarpScan(t, dsl.U32.Max, highest, dsl.N(ir.WarpSize))
	at := dsl.Let(t, warp.Mul(dsl.N(2)))
	t.If(lane.Eq(dsl.N(ir.WarpSize-1)).And(at.Add(dsl.N(1)).Lt(ranges.Len())), func(t *dsl.Thread) {
		ranges.Store(t, at.Exp, low)
		ranges.Store(t, at.Add(dsl.N(1)), high)
	})
}

// GlobalHistogramWarpKernel returns the histogram on a global table for
// ranges too wide for shared memory, with the updates of a warp's keys
// that hit one bin combined into one atomic add, over a window of bins,
// skipping in later passes the warps whose keys miss the window (see
// warpTableKernel: the parameters are keys, lo, bins, from, count, the
// bins, bad, ranges and record). The host zeroes the bins.
func GlobalHistogramWarpKernel() *dsl.Kernel {
	return warpTableKernel("histogramWarp", warpCounts, true)
}

// GlobalOccursWarpKernel returns occurs on a global bitset with the bits
// of a warp's keys that fall in one word combined into one test-before-set
// atomic or, over a window of words. The host zeroes the bitset.
func GlobalOccursWarpKernel() *dsl.Kernel { return warpTableKernel("occursBitsWarp", warpBits, false) }
