package networks_test

import (
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/networks"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestGPUNetworks runs every sorter on the GPU over fresh random keys, in
// batches of several lengths (odd ones, powers of two, the largest), and
// compares the result element by element with Go's sort of every batch
// and with the CPU evaluator.
func TestGPUNetworks(t *testing.T) {
	gpu := gputest.Open(t)
	cpu := runtime.CPU()
	for _, alg := range networks.Algorithms() {
		for i, batch := range []int{1, 2, 31, 64, 333, 512, 1000, networks.MaxBatch} {
			keys := randomKeys(40*batch+batch/3, 32, uint64(i)<<8|uint64(alg))
			got := sortOn(t, gpu, alg, batch, keys)
			want := sortedBatches(keys, batch)
			if j := firstDiff(got, want); j >= 0 {
				t.Errorf("%v, batch %d, %d keys: out[%d] = %d, want %d", alg, batch, len(keys), j, got[j], want[j])
				continue
			}
			if batch <= 64 {
				if cpuOut := sortOn(t, cpu, alg, batch, keys); !slices.Equal(cpuOut, got) {
					t.Errorf("%v, batch %d: the CPU evaluator differs from the GPU", alg, batch)
				}
			}
		}
	}
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff(a, b []uint32) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
