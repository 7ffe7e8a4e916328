package scan_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// gpuEpochShapes are the shapes TestGPURunsInARowAreTheSequentialScan
// runs: DeviceScanKernel's, New's two (with Vector rows), and each of
// WarpRows, Vector, Backoff and TilesByBlock.
var gpuEpochShapes = []arrays.DeviceScanShape{
	arrays.DefaultDeviceScanShape,
	{Threads: 256, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 512, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 256, PerThread: 16, FullTiles: true, WarpRows: true},
	{Threads: 256, PerThread: 16, FullTiles: true, Vector: true},
	{Threads: 256, PerThread: 12, FullTiles: true, Backoff: 32},
}

// TestGPURunsInARowAreTheSequentialScan runs, on the GPU, one Scan of
// each of gpuEpochShapes and kind many times in a row on fresh random
// data of lengths that grow and shrink (more tiles then fewer, within the
// state and past it), then across the wrap of the epochs, and compares
// every element of every result with the sequential scan: on the GPU the
// blocks of a launch run at once, so a status word or tile counter left
// stale by one Run would be read by the next.
func TestGPURunsInARowAreTheSequentialScan(t *testing.T) {
	g := gputest.Open(t)
	seed := proptest.Seed(t)
	o := operators[3] // compose: not commutative
	lengths := []int{1<<22 + 5, 1 << 20, 3<<20 + 1, 4097, 1<<22 + 5, 1<<21 - 3, 1 << 24, 77, 1 << 22, 1<<24 - 1}
	for si, shape := range gpuEpochShapes {
		for _, kind := range []scan.Kind{scan.Inclusive, scan.Exclusive} {
			s, err := scan.NewShaped(g, o.op, o.identity, kind, shape)
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range lengths {
				if i == len(lengths)-3 {
					scan.SetEpoch(s, arrays.MaxEpoch-1) // the last three Runs cross the wrap
				}
				xs := randomWords(n, seed+uint64(1000*si+10*i)+uint64(kind), o)
				in, err := runtime.FromSlice(g, xs)
				if err != nil {
					t.Fatal(err)
				}
				out, err := runtime.Alloc[uint32](g, n)
				if err != nil {
					t.Fatal(err)
				}
				if err := out.Fill(0xFFFFFFFF); err != nil {
					t.Fatal(err)
				}
				if err := s.Run(in, out); err != nil {
					t.Fatalf("shape %v, %v scan of %d: %v", shape, kind, n, err)
				}
				got, err := out.ToSlice()
				if err != nil {
					t.Fatal(err)
				}
				if d := firstDifference(got, sequential(o, kind, xs)); d != "" {
					t.Errorf("shape %v, %v scan of %d (Run %d): %s", shape, kind, n, i, d)
				}
				in.Free()
				out.Free()
			}
			if got := scan.Epoch(s); got != 2 {
				t.Errorf("shape %v, %v: next epoch %d after the wrap and one Run, want 2", shape, kind, got)
			}
			s.Close()
		}
	}
}
