package dsl_test

import (
	"fmt"
	"strings"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
)

// The README's example: every 256-element chunk reversed through shared
// memory, one block per chunk.
func Example() {
	k := dsl.NewKernel("reverse", 256)
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		chunks := arrays.SplitUp(256, dsl.N(0), arrays.FromArray(in)) // one block per 256 elements
		arrays.WriteTo(g, out, arrays.MapBlocks(chunks, 256,
			func(b *dsl.Block, _ dsl.U32, part arrays.Pull[uint32]) arrays.Push[*dsl.Block, uint32] {
				rev := arrays.Reverse(arrays.Compute(b, part)) // into shared memory, then __syncthreads()
				return arrays.ToPush[*dsl.Block](rev)
			}))
	})
	kernel, err := k.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	src, _, err := codegen.CUDA(kernel)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Split(src, "\n")[1])
	// Output:
	// extern "C" __global__ void __launch_bounds__(256) reverse(const unsigned int* input, unsigned int input_len, unsigned int* output, unsigned int output_len) {
}
