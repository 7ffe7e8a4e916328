package reverse

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Chunk is the number of elements a block reverses.
const Chunk = 256

// Kernels returns the package's kernels: reverse.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{reverseKernel()} }

// reverseKernel returns the kernel that writes input to output in reverse
// order, one block per Chunk elements. Block c writes chunk c of the
// output: it reads the chunk of the input that ends Chunk*c elements
// before its end into shared memory, in memory order (consecutive threads,
// consecutive addresses), and writes it reversed.
func reverseKernel() *dsl.Kernel {
	k := dsl.NewKernel("reverse", Chunk)
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		// chunks.At(c).At(i) is in[len-1-Chunk*c-i], or 0 before the input's start.
		chunks := arrays.SplitUp(Chunk, dsl.N(0), arrays.Reverse(arrays.FromArray(in)))
		arrays.WriteTo(g, out, arrays.MapBlocks(chunks, Chunk,
			func(b *dsl.Block, _ dsl.U32, part arrays.Pull[uint32]) arrays.Push[*dsl.Block, uint32] {
				loaded := arrays.Compute(b, arrays.Reverse(part)) // read forwards, into shared memory
				return arrays.ToPush[*dsl.Block](arrays.Reverse(loaded))
			}))
	})
	return k
}
