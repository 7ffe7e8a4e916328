package scan

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// logChunk is the log2 of Chunk.
const logChunk = 8

// Chunk is the number of elements a block scans.
const Chunk = 1 << logChunk

// Kernels returns the package's kernels: scan.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{scanKernel()} }

// scanKernel returns the kernel that writes the inclusive prefix sums of
// every Chunk-element chunk of input (a partial last chunk padded with
// zeros) to output, and the chunk's total to totals[chunk].
func scanKernel() *dsl.Kernel {
	k := dsl.NewKernel("scan", Chunk)
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	totals := dsl.Output[uint32](k, "totals")
	k.Body(func(g *dsl.Grid) {
		chunks := arrays.SplitUp(Chunk, dsl.N(0), arrays.FromArray(in))
		g.ForAllBlocks(chunks.Len(), func(b *dsl.Block, bid dsl.U32) {
			sums, total := kernels.SklanskyMax(b, logChunk, chunks.At(bid))
			b.ForAll(dsl.N(Chunk), func(t *dsl.Thread, i dsl.U32) {
				at := bid.Mul(dsl.N(Chunk)).Add(i)
				t.If(at.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, at, sums.At(i)) })
			})
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { totals.Store(t, bid, total) })
		})
	})
	return k
}
