package reduce

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Chunk is the number of elements a block sums.
const Chunk = 256

// Kernels returns the package's kernels: reduce.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{reduceKernel()} }

// reduceKernel returns the kernel that writes the sum of chunk c of input
// (a partial last chunk padded with zeros) to sums[c].
func reduceKernel() *dsl.Kernel {
	k := dsl.NewKernel("reduce", Chunk)
	in := dsl.Input[uint32](k, "input")
	sums := dsl.Output[uint32](k, "sums")
	k.Body(func(g *dsl.Grid) {
		chunks := arrays.SplitUp(Chunk, dsl.N(0), arrays.FromArray(in))
		g.ForAllBlocks(chunks.Len(), func(b *dsl.Block, bid dsl.U32) {
			a := arrays.Compute(b, chunks.At(bid))
			for half := uint32(Chunk / 2); half >= 1; half /= 2 {
				a = arrays.Compute(b, arrays.ZipWith(dsl.U32.Add, arrays.Take(dsl.N(half), a), arrays.Drop(dsl.N(half), a)))
			}
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { sums.Store(t, bid, a.At(dsl.N(0))) })
		})
	})
	return k
}
