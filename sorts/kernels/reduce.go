package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// rangeThreads and rangePerThread shape the key-range reduction: each block
// folds rangeThreads*rangePerThread keys.
const (
	rangeThreads   = 256
	rangePerThread = 8
)

// RangeKernel returns the kernel that finds the smallest and largest key:
// every thread folds its keys in registers, the block reduces its threads'
// minima and maxima (arrays.WarpTotals), and one thread per block merges
// the block's result into mm[0] (min) and mm[1] (max) with atomics. The
// host sets mm to {max uint32, 0} first.
func RangeKernel() *dsl.Kernel {
	k := dsl.NewKernel("keyRange", rangeThreads)
	keys := dsl.Input[uint32](k, "keys")
	mm := dsl.Output[uint32](k, "mm")
	per := uint32(rangeThreads * rangePerThread)
	k.Body(func(g *dsl.Grid) {
		blocks := dsl.CeilDiv(keys.Len(), dsl.N(per))
		g.ForAllBlocks(blocks, func(b *dsl.Block, bid dsl.U32) {
			mins, maxs := arrays.NewWarpTotals(b, dsl.U32.Min), arrays.NewWarpTotals(b, dsl.U32.Max)
			b.ForAll(dsl.N(rangeThreads), func(t *dsl.Thread, i dsl.U32) {
				// The thread's keys, j*rangeThreads + i of the block's, with
				// pad past the end.
				mine := func(pad uint32) arrays.Pull[uint32] {
					return arrays.Generate(dsl.N(rangePerThread), func(j dsl.U32) dsl.U32 {
						ix := bid.Mul(dsl.N(per)).Add(j.Mul(dsl.N(rangeThreads))).Add(i)
						return dsl.Select(ix.Lt(keys.Len()), keys.At(ix), dsl.Lit(pad))
					})
				}
				mins.Scan(t, i, arrays.Fold(t, dsl.U32.Min, dsl.Lit(^uint32(0)), mine(^uint32(0))))
				maxs.Scan(t, i, arrays.Fold(t, dsl.U32.Max, dsl.N(0), mine(0)))
			})
			b.Sync()
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
				mm.Atomic(t, dsl.AtomicMin, dsl.N(0), mins.Total(t))
				mm.Atomic(t, dsl.AtomicMax, dsl.N(1), maxs.Total(t))
			})
		})
	})
	return k
}
