package sorts

import (
	"github.com/obsidian-go/obsidian/dsl"
)

// Per-key kernels on a table in global memory (for ranges too wide for
// shared memory) whose warps combine their updates before they reach
// global memory: every lane computes the cell of its key, runs of lanes
// with the same cell (all the lanes of a warp on sorted keys) reduce their
// values to the run's first lane with shuffles down, and only that lane
// updates the table. On random keys of a wide range every lane is a run
// of its own and updates the table itself.
//
// The kernels update only the cells of a window [from, from+count) of the
// table, so that the host can cover a table wider than the L2 cache in
// passes that each keep their updates in it.

// noCell is the cell of a lane without an update: no table has 2^32 cells.
const noCell = ^uint32(0)

// warpTableThreads is the block size of the warp-combined kernels.
const warpTableThreads = 256

// warpKind is a table kind with the value a key adds to its cell.
type warpKind struct {
	tableKind
	value func(bin dsl.U32) dsl.U32
}

var (
	warpCounts = warpKind{counts, func(dsl.U32) dsl.U32 { return dsl.N(1) }}
	warpBits   = warpKind{bits, func(bin dsl.U32) dsl.U32 { return dsl.N(1).Shl(bin.And(dsl.N(31))) }}
)

// warpTableKernel returns the warp-combined per-key kernel of kind. Its
// parameters are the keys, lo, the number of values bins (keys outside
// [lo, lo+bins) set bad[0]), the window's first cell and its number of
// cells, the global table (zeroed by the host) and the bad flag.
func warpTableKernel(name string, kind warpKind) *dsl.Kernel {
	k := dsl.NewKernel(name, warpTableThreads)
	keys := dsl.Input[uint32](k, "keys")
	lo := dsl.Param[uint32](k, "lo")
	bins := dsl.Param[uint32](k, "bins")
	from := dsl.Param[uint32](k, "from")
	count := dsl.Param[uint32](k, "count")
	table := kind.global(k, "table")
	bad := dsl.Output[uint32](k, "bad")
	threads := dsl.N(warpTableThreads)
	blocks := keys.Len().Div(threads).Add(dsl.Cast[uint32](keys.Len().Rem(threads).Ne(dsl.N(0))))
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(blocks, func(b *dsl.Block, blk dsl.U32) {
			// Every thread of the block runs the shuffles, keys or not.
			b.ForAll(threads, func(t *dsl.Thread, tid dsl.U32) {
				ix := dsl.Let(t, dsl.Cast[uint64](blk).Mul(dsl.Cast[uint64](threads)).Add(dsl.Cast[uint64](tid)))
				cell := dsl.Let(t, dsl.N(noCell))
				value := dsl.Let(t, dsl.N(0))
				t.If(ix.Lt(dsl.Cast[uint64](keys.Len())), func(t *dsl.Thread) {
					inRange(t, keys.At(dsl.Cast[uint32](ix.Exp)), lo, bins, bad, func(t *dsl.Thread, bin dsl.U32) {
						c := dsl.Let(t, kind.cell(bin))
						t.If(c.Sub(from).Lt(count), func(t *dsl.Thread) {
							cell.Set(c.Exp)
							value.Set(kind.value(bin))
						})
					})
				})
				lane := dsl.Let(t, tid.And(dsl.N(warpSize-1)))
				head := dsl.Let(t, isRunHead(t, lane.Exp, cell.Exp))
				combineRuns(t, lane.Exp, head.Exp, value, kind.combine)
				t.If(cell.Ne(dsl.N(noCell)).And(head.Exp), func(t *dsl.Thread) {
					kind.merge(t, table, cell.Exp, value.Exp)
				})
			})
		})
	})
	return k
}

// isRunHead returns whether the lane starts a run of lanes with the same
// cell: it is lane 0 or the lane below has another cell. Every lane of the
// warp must call it.
func isRunHead(t *dsl.Thread, lane, cell dsl.U32) dsl.Bool {
	below := dsl.Shuffle(t, dsl.ShuffleUp, cell, dsl.N(1))
	return lane.Eq(dsl.N(0)).Or(below.Ne(cell))
}

// combineRuns leaves in every run head's value the combination of the
// values of its run (a segmented reduction, five shuffles down), head
// saying whether the lane starts a run: at step d a lane takes the value
// of lane+d when no run starts in (lane, lane+d], so every value is
// counted once. Every lane of the warp must call it.
func combineRuns(t *dsl.Thread, lane dsl.U32, head dsl.Bool, value dsl.Var[uint32], combine func(x, y dsl.U32) dsl.U32) {
	heads := dsl.Let(t, dsl.Ballot(t, head))
	// The run heads above the lane, the lane above it at bit 0.
	above := dsl.Let(t, heads.Shr(lane).Shr(dsl.N(1)))
	for d := uint32(1); d < warpSize; d *= 2 {
		other := dsl.Shuffle(t, dsl.ShuffleDown, value.Exp, dsl.N(d))
		sameRun := lane.Add(dsl.N(d)).Lt(dsl.N(warpSize)).And(above.And(dsl.N(1<<d - 1)).Eq(dsl.N(0)))
		value.Set(dsl.Select(sameRun, combine(value.Exp, other), value.Exp))
	}
}

// GlobalHistogramWarpKernel returns the histogram on a global table for
// ranges too wide for shared memory, with the updates of a warp's keys
// that hit one bin combined into one atomic add, over a window of bins
// (see warpTableKernel). The host zeroes the bins.
func GlobalHistogramWarpKernel() *dsl.Kernel { return warpTableKernel("histogramWarp", warpCounts) }

// GlobalOccursWarpKernel returns occurs on a global bitset with the bits
// of a warp's keys that fall in one word combined into one test-before-set
// atomic or, over a window of words. The host zeroes the bitset.
func GlobalOccursWarpKernel() *dsl.Kernel { return warpTableKernel("occursBitsWarp", warpBits) }
