package countsort

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// logChunk is the log2 of the number of elements a block scans.
const logChunk = 10

// chunk is the number of elements a block scans.
const chunk = 1 << logChunk

// Kernels returns the package's kernels: count, scanBlocks, addTotals and
// reconstruct.
func Kernels() []*dsl.Kernel {
	return []*dsl.Kernel{countKernel(), scanBlocksKernel(), addTotalsKernel(), reconstructKernel()}
}

// countKernel returns the kernel that counts every key k in bins[k-lo]
// with atomicAdd, and sets bad[0] to 1 for a key outside [lo, lo+len(bins)).
func countKernel() *dsl.Kernel {
	k := dsl.NewKernel("count", 256)
	keys := dsl.Input[uint32](k, "keys")
	lo := dsl.Param[uint32](k, "lo")
	bins := dsl.Output[uint32](k, "bins")
	bad := dsl.Output[uint32](k, "bad")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(keys.Len(), func(t *dsl.Thread, i dsl.U32) {
			bin := dsl.Let(t, keys.At(i).Sub(lo))
			t.IfElse(bin.Lt(bins.Len()), func(t *dsl.Thread) {
				bins.Atomic(t, dsl.AtomicAdd, bin.Exp, dsl.N(1))
			}, func(t *dsl.Thread) {
				bad.StoreSame(t, dsl.N(0), dsl.N(1))
			})
		})
	})
	return k
}

// scanBlocksKernel returns the kernel that writes the inclusive prefix sums
// of every chunk of input to output, and each chunk's total to totals.
func scanBlocksKernel() *dsl.Kernel {
	k := dsl.NewKernel("scanBlocks", chunk)
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	totals := dsl.Output[uint32](k, "totals")
	k.Body(func(g *dsl.Grid) {
		chunks := arrays.SplitUp(chunk, dsl.N(0), arrays.FromArray(in))
		g.ForAllBlocks(chunks.Len(), func(b *dsl.Block, bid dsl.U32) {
			sums, total := kernels.SklanskyMax(b, logChunk, chunks.At(bid))
			b.ForAll(dsl.N(chunk), func(t *dsl.Thread, i dsl.U32) {
				at := bid.Mul(dsl.N(chunk)).Add(i)
				t.If(at.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, at, sums.At(i)) })
			})
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { totals.Store(t, bid, total) })
		})
	})
	return k
}

// addTotalsKernel returns the kernel that adds, to every element of chunk
// c > 0 of data, scanned[c-1]: the inclusive scan of the chunk totals.
func addTotalsKernel() *dsl.Kernel {
	k := dsl.NewKernel("addTotals", 256)
	scanned := dsl.Input[uint32](k, "scanned")
	data := dsl.InOut[uint32](k, "data")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(data.Len(), func(t *dsl.Thread, i dsl.U32) {
			c := i.Shr(dsl.N(logChunk))
			t.If(c.Gt(dsl.N(0)), func(t *dsl.Thread) {
				data.Store(t, i, data.At(i).Add(scanned.At(c.Sub(dsl.N(1)))))
			})
		})
	})
	return k
}

// reconstructKernel returns the kernel that writes key v+lo to
// out[ends[v-1]], ..., out[ends[v]-1], where ends is the inclusive scan of
// the histogram (ends[-1] being 0): one thread per key value, looping.
func reconstructKernel() *dsl.Kernel {
	k := dsl.NewKernel("reconstruct", 256)
	ends := dsl.Input[uint32](k, "ends")
	lo := dsl.Param[uint32](k, "lo")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(ends.Len(), func(t *dsl.Thread, v dsl.U32) {
			start := dsl.Let(t, dsl.Select(v.Eq(dsl.N(0)), dsl.N(0), ends.At(v.Sub(dsl.N(1)))))
			t.For(ends.At(v).Sub(start.Exp), func(t *dsl.Thread, j dsl.U32) {
				out.Store(t, start.Add(j), v.Add(lo))
			})
		})
	})
	return k
}
