package arrays_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
)

// TestGPUEachBatch runs EachBatch's kernel on the GPU against plain loops
// over its rounds and batches, on fresh random values: full and partial
// batches, a constant step and one passed at launch, rounds with and
// without gaps.
func TestGPUEachBatch(t *testing.T) {
	gpu := gputest.Open(t)
	seed := proptest.Seed(t)
	for i, c := range []struct{ n, threads, gap, batch int }{
		{0, 32, 0, 8}, {1, 32, 0, 8}, {255, 32, 0, 8}, {256, 32, 0, 8}, {257, 32, 0, 8},
		{100000, 32, 0, 8}, {100001, 40, 1, 5}, {77777, 7, 3, 9}, {4096, 32, 2, 1},
	} {
		for _, stepParam := range []bool{false, true} {
			if msg := checkBatch(gpu, c.n, c.threads, c.gap, c.batch, stepParam, seed+uint64(i)); msg != "" {
				t.Error(msg)
			}
		}
	}
}
