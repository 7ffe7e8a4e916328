package sorts

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

// treeReduce halves a (of 2^k elements) in shared memory until one element
// is left, combining pairs with f.
func treeReduce(b *dsl.Block, f func(x, y dsl.U32) dsl.U32, a arrays.Pull[uint32], n uint32) dsl.U32 {
	for s := n / 2; s >= 1; s /= 2 {
		prev, half := a, dsl.N(s)
		a = arrays.Compute(b, arrays.Generate(half, func(i dsl.U32) dsl.U32 { return f(prev.At(i), prev.At(i.Add(half))) }))
	}
	return a.At(dsl.N(0))
}

// RangeKernel returns the kernel that finds the smallest and largest key:
// every block folds its keys in registers and then in shared memory, and
// one thread per block merges the block's result into mm[0] (min) and mm[1]
// (max) with atomics. The host sets mm to {max uint32, 0} first.
func RangeKernel() *dsl.Kernel {
	k := dsl.NewKernel("keyRange", rangeThreads)
	keys := dsl.Input[uint32](k, "keys")
	mm := dsl.Output[uint32](k, "mm")
	per := uint32(rangeThreads * rangePerThread)
	k.Body(func(g *dsl.Grid) {
		blocks := keys.Len().Div(dsl.N(per)).Add(dsl.Cast[uint32](keys.Len().Rem(dsl.N(per)).Ne(dsl.N(0))))
		g.ForAllBlocks(blocks, func(b *dsl.Block, bid dsl.U32) {
			los, his := dsl.Shared[uint32](b, rangeThreads), dsl.Shared[uint32](b, rangeThreads)
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
				los.Store(t, i, lo.Exp)
				his.Store(t, i, hi.Exp)
			})
			b.Sync()
			lo := treeReduce(b, dsl.U32.Min, arrays.FromArray(los), rangeThreads)
			hi := treeReduce(b, dsl.U32.Max, arrays.FromArray(his), rangeThreads)
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
				mm.Atomic(t, dsl.AtomicMin, dsl.N(0), lo)
				mm.Atomic(t, dsl.AtomicMax, dsl.N(1), hi)
			})
		})
	})
	return k
}
