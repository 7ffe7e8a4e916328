package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/ir"
)

// TestWarpTotalsGPU runs WarpTotals on the GPU for every uint32 operator
// of the laws, in blocks of 32, 256 and 1024 threads, on fresh random
// data, and compares it with Go's sequential scans and with the evaluator.
func TestWarpTotalsGPU(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 1))
	for _, o := range u32Ops {
		for _, threads := range []int{32, 256, 1024} {
			for _, n := range gpuLengths(r) {
				xs := o.values(r.Uint64(), n)
				if msg := checkWarpTotals(gpu, o, threads, xs); msg != "" {
					t.Error("GPU: " + msg)
				}
				blocks := (n + threads - 1) / threads
				warps := blocks * threads / ir.WarpSize
				// The outputs: scan, warps, totals and before.
				sameOnBoth(t, gpu, func() *dsl.Kernel { return warpTotalsKernel(o, threads) },
					fmt.Sprintf("%s, %d elements, %d threads", o.name, n, threads), xs, n, warps, blocks, warps)
			}
		}
	}
}
