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
				lo, hi := dsl.Let(t, dsl.Lit(^uint32(0))), dsl.Let(t, dsl.N(0))
				t.For(dsl.N(rangePerThread), func(t *dsl.Thread, j dsl.U32) {
					ix := dsl.Let(t, bid.Mul(dsl.N(per)).Add(j.Mul(dsl.N(rangeThreads))).Add(i))
					t.If(ix.Lt(keys.Len()), func(t *dsl.Thread) {
						key := dsl.Let(t, keys.At(ix.Exp))
						lo.Set(lo.Min(key.Exp))
						hi.Set(hi.Max(key.Exp))
					})
				})
				mins.Scan(t, i, lo.Exp)
				maxs.Scan(t, i, hi.Exp)
			})
			b.Sync()
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
				mm.Atomic(t, dsl.AtomicMin, dsl.N(0), mins.Total())
				mm.Atomic(t, dsl.AtomicMax, dsl.N(1), maxs.Total())
			})
		})
	})
	return k
}
