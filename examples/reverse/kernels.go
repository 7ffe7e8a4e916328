package reverse

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Chunk is the number of elements a block reverses.
const Chunk = 256

// Kernels returns the package's kernels: reverse.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{reverseKernel()} }

// reverseKernel returns the kernel that reverses every Chunk-element chunk
// of input into output, one block per chunk.
func reverseKernel() *dsl.Kernel {
	k := dsl.NewKernel("reverse", Chunk)
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		chunks := arrays.SplitUp(Chunk, dsl.N(0), arrays.FromArray(in))
		g.ForAllBlocks(chunks.Len(), func(b *dsl.Block, bid dsl.U32) {
			rev := arrays.Reverse(arrays.Compute(b, chunks.At(bid)))
			b.ForAll(dsl.N(Chunk), func(t *dsl.Thread, i dsl.U32) {
				at := bid.Mul(dsl.N(Chunk)).Add(i)
				t.If(at.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, at, rev.At(i)) })
			})
		})
	})
	return k
}
