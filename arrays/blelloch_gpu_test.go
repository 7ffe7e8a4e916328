package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
)

// TestGPUBlellochScan runs BlellochScan on the GPU and in the evaluator on
// fresh random data, under every uint32 operator, at lengths around warps
// and blocks and up to 4096 (the shared memory of one block), with blocks
// of 32 to 1024 threads, and compares them element by element.
func TestGPUBlellochScan(t *testing.T) {
	g := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 31))
	for _, n := range []int{1, 2, 31, 32, 33, 255, 256, 257, 1000, 2048, 4095, 1 + r.IntN(4096)} {
		for _, o := range u32Ops {
			threads := 32 << r.IntN(6)
			xs := o.values(r.Uint64(), n)
			sameOnBoth(t, g, func() *dsl.Kernel { return blellochKernel(o, threads, uint32(n)) },
				fmt.Sprintf("BlellochScan under %s of %d elements, %d threads", o.name, n, threads), xs, n, 1)
		}
	}
}
