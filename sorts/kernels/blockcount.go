package kernels

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// A counting sort of a few thousand keys of a narrow range in one block,
// one launch: keys without values, whose sorted order is their counts, so
// that no key moves. The block counts the keys in a table in shared
// memory (a warp whose keys are all one value adding their count in one
// atomic, arrays.WarpAllEqual, so that a hot value does not serialise), scans the table, marks the start of every value's run among
// the outputs, and fills the outputs with a max-scan of the marks. It
// takes two block scans whatever the bits of the range, where the block
// radix sort (RadixBlockKernel) takes a pass of ranking and moving the
// keys for each digit.

// BlockCountMaxBins is the most values a block counting sort takes: its
// table in shared memory.
const BlockCountMaxBins = 1 << 12

// BlockCountKernel returns the kernel that sorts up to shape.Tile()
// uint32 keys, each in [lo, lo+bins) for bins at most BlockCountMaxBins,
// in one block of shape.Threads threads counting shape.PerThread keys
// each. Its
// parameters are keys, out (of keys' length; it may be keys itself), lo
// and bins. Only the first min(len(keys), shape.Tile()) keys are
// sorted: the host passes at most that many. A key outside [lo,
// lo+min(bins, BlockCountMaxBins)) makes the block copy the keys to out
// as they are: nothing is lost and nothing is written outside out, but
// they are not sorted.
func BlockCountKernel(shape BlockCountShape) *dsl.Kernel {
	threads, perThread := shape.Threads, shape.PerThread
	k := dsl.NewKernel(fmt.Sprintf("blockCount%dx%d", threads, perThread), threads)
	keys := dsl.Input[uint32](k, "keys")
	out := dsl.Output[uint32](k, "out")
	lo := dsl.Param[uint32](k, "lo")
	bins := dsl.Param[uint32](k, "bins")
	tile := threads * perThread
	k.Body(func(g *dsl.Grid) {
		if threads%ir.WarpSize != 0 || perThread < 1 {
			dsl.Let(g, dsl.Invalid[uint32](fmt.Sprintf("BlockCountKernel of %d threads of %d keys: want whole warps and a key a thread at least", threads, perThread)))
			return
		}
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			n := dsl.Let(b, keys.Len().Min(dsl.N(uint32(tile)))).Exp
			used := dsl.Let(b, bins.Min(dsl.N(BlockCountMaxBins))).Exp
			// The table and the marks are read in runs of consecutive
			// elements a thread by the scans: padded, so that a warp's
			// reads fall in different banks.
			table := dsl.Shared[uint32](b, arrays.BankPaddedLen(BlockCountMaxBins))
			marks := dsl.Shared[uint32](b, arrays.BankPaddedLen(tile))
			stray := dsl.Shared[uint32](b, 1)
			b.ForAll(used, func(t *dsl.Thread, v dsl.U32) { table.Store(t, arrays.BankPadded(v), dsl.N(0)) })
			b.ForAll(n, func(t *dsl.Thread, i dsl.U32) { marks.Store(t, arrays.BankPadded(i), dsl.N(0)) })
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { stray.Store(t, dsl.N(0), dsl.N(0)) })
			b.Sync()
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				// Every key of the thread is loaded before any is counted,
				// so that the loads overlap.
				bin := make([]dsl.U32, perThread)
				at := make([]dsl.U32, perThread)
				for u := range perThread {
					at[u] = dsl.Let(t, tid.Add(dsl.N(uint32(u*threads)))).Exp
					bin[u] = dsl.Let(t, dsl.Select(at[u].Lt(n), keys.At(at[u]), lo).Sub(lo)).Exp
				}
				for u := range perThread {
					// The lanes holding keys are the warp's first.
					lanes := dsl.Let(t, arrays.LanesBelow(n, at[u]))
					holds := dsl.LaneIdx.Lt(lanes.Exp)
					t.If(holds.And(bin[u].Ge(used)), func(t *dsl.Thread) { stray.StoreSame(t, dsl.N(0), dsl.N(1)) })
					// A warp of one value adds its count once; otherwise
					// each key adds its own (a few lanes of one value cost
					// less than grouping them).
					t.IfElse(arrays.WarpAllEqual(t, bin[u], lanes.Exp), func(t *dsl.Thread) {
						t.If(dsl.LaneIdx.Eq(dsl.N(0)).And(holds).And(bin[u].Lt(used)), func(t *dsl.Thread) {
							table.Atomic(t, dsl.AtomicAdd, arrays.BankPadded(bin[u]), lanes.Exp)
						})
					}, func(t *dsl.Thread) {
						t.If(holds.And(bin[u].Lt(used)), func(t *dsl.Thread) {
							table.Atomic(t, dsl.AtomicAdd, arrays.BankPadded(bin[u]), dsl.N(1))
						})
					})
				}
			})
			b.Sync()
			b.IfElse(stray.At(dsl.N(0)).Ne(dsl.N(0)), func(b *dsl.Block) {
				b.ForAll(n, func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, keys.At(i)) })
			}, func(b *dsl.Block) {
				counts := arrays.Generate(used, func(v dsl.U32) dsl.U32 { return table.At(arrays.BankPadded(v)) })
				// Value v's run starts at the count of the values below it.
				arrays.ScanExclusive[*dsl.Block](dsl.U32.Add, dsl.N(0), counts).Run(b, func(t *dsl.Thread, v, start dsl.U32) {
					t.If(counts.At(v).Ne(dsl.N(0)), func(t *dsl.Thread) { marks.Store(t, arrays.BankPadded(start), v) })
				})
				b.Sync()
				// Output i holds the value of the last run started at or
				// before it: the greatest mark up to i.
				runs := arrays.Generate(n, func(i dsl.U32) dsl.U32 { return marks.At(arrays.BankPadded(i)) })
				arrays.Scan[*dsl.Block](dsl.U32.Max, runs).Run(b, func(t *dsl.Thread, i, v dsl.U32) {
					marks.Store(t, arrays.BankPadded(i), v)
				})
				b.Sync()
				b.ForAll(n, func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, marks.At(arrays.BankPadded(i)).Add(lo)) })
			})
		})
	})
	return k
}

// BlockCountShape is the shape of a block counting sort: threads, each
// counting PerThread keys.
type BlockCountShape struct{ Threads, PerThread int }

// Tile is the most keys the shape sorts.
func (s BlockCountShape) Tile() int { return s.Threads * s.PerThread }

// blockCountShapes are the block counting sort's shapes by the number of
// keys (more than keysAbove, up to keys) and of values (more than
// binsAbove, up to bins): the first row that takes both sorts them;
// outside every row, the block radix sort or the rank sort does. Measured
// on an H200 (TestGPUBlockCountOrBlockSort, SortKeys of uniform keys with
// the launch, medians of 15, two runs): for 5000 and 8192 keys of 10 and
// 12 bits the count took 14.5–15.1 µs in 512×16 (1024×8 within 0.4)
// where the block radix sort's two passes took 17.4–18.5; of 8 bits and
// fewer (one pass) it was slower or within the spread (8192 keys of 8 bits
// 14.5 against 15.0 and 18.3 against 14.0 in two runs); for up to 4096
// keys, where one pass or the rank sort sorts them, slower up to 8 bits
// (4096 keys of 4 bits 13.0 µs against 11.6; kernels under ncu, 4096
// keys: 7.5 µs in 1024×4 against 6.3 for the block radix sort) and at 10
// and 12 bits faster by 0.3 to 1.4 µs in one run only.
var blockCountShapes = []struct {
	keysAbove, keys, binsAbove, bins int
	shape                            BlockCountShape
}{
	{keysAbove: 1 << 12, keys: 1 << 13, binsAbove: 1 << 9, bins: BlockCountMaxBins, shape: BlockCountShape{Threads: 512, PerThread: 16}},
}

// BlockCountShapeFor returns the shape of the block counting sort of n
// keys in a range of bins values, and false when another sort takes them.
func BlockCountShapeFor(n int, bins uint64) (BlockCountShape, bool) {
	for _, r := range blockCountShapes {
		if n > r.keysAbove && n <= r.keys && bins > uint64(r.binsAbove) && bins <= uint64(r.bins) {
			return r.shape, true
		}
	}
	return BlockCountShape{}, false
}
