package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
)

// TestGPUPartition compares Partition, PartitionRanks and PartitionCount
// at Warp and Block level on the GPU with the evaluator and with the
// sequential stable partition, on fresh random tagged values of densities
// from none to all, in blocks of 32 to 1024 threads.
func TestGPUPartition(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 7))
	sizes := [2]int{32 << r.IntN(6), 32 << r.IntN(6)}
	for i, n := range gpuLengths(r) {
		threads := sizes[i%2]
		xs := tagged(r.Uint64(), n, []float64{0, r.Float64(), 1}[i%3])
		what := fmt.Sprintf("%d elements, %d threads", n, threads)
		sameOnBoth(t, gpu, func() *dsl.Kernel { return partitionKernel(threads, atBlock) }, "Block: "+what, xs, n, n, 1)
		sameOnBoth(t, gpu, func() *dsl.Kernel { return partitionKernel(threads, atWarp) }, "Warp: "+what, xs, n, n, 1)
		for _, msg := range []string{checkPartition(gpu, threads, atBlock, xs), checkPartition(gpu, threads, atWarp, xs)} {
			if msg != "" {
				t.Error(msg)
			}
		}
	}
}
