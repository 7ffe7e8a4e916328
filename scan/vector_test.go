package scan_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// checkVectorViews runs, on dev, a scan with vector rows on views of in and
// out at every pair of element offsets from 0 to 4, of n elements each (n
// of a few tiles and a partial one), and compares each result with the
// sequential scan: aligned views take the vector kernel, the others the
// fallback, and all must give the same scan.
func checkVectorViews(t *testing.T, dev runtime.Device, shape arrays.DeviceScanShape, n int) {
	o := operators[0]
	s, err := scan.NewShaped(dev, o.op, o.identity, scan.Exclusive, shape)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	xs := randomWords(n+4, uint64(n), o)
	in, err := runtime.FromSlice(dev, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](dev, n+4)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	for inOff := range 5 {
		for _, outOff := range []int{0, 1, 2, 4} {
			if err := out.Fill(0xFFFFFFFF); err != nil {
				t.Fatal(err)
			}
			if err := s.Run(in.View(inOff, n), out.View(outOff, n)); err != nil {
				t.Fatalf("shape %v, in at %d, out at %d: %v", shape, inOff, outOff, err)
			}
			got, err := out.View(outOff, n).ToSlice()
			if err != nil {
				t.Fatal(err)
			}
			if d := firstDifference(got, sequential(o, scan.Exclusive, xs[inOff:inOff+n])); d != "" {
				t.Errorf("shape %v, in at %d, out at %d: %s", shape, inOff, outOff, d)
			}
		}
	}
}

// TestVectorScanOfUnalignedViews checks on the CPU device that a scan with
// vector rows computes the scan of views at any offset.
func TestVectorScanOfUnalignedViews(t *testing.T) {
	shape := arrays.DeviceScanShape{Threads: 32, PerThread: 8, FullTiles: true, Vector: true}
	checkVectorViews(t, runtime.CPU(), shape, 3*shape.Tile()+7)
}

// TestGPUVectorScanOfUnalignedViews is TestVectorScanOfUnalignedViews on
// the GPU, in the shape the variants time, over 2^20+3 elements.
func TestGPUVectorScanOfUnalignedViews(t *testing.T) {
	checkVectorViews(t, gputest.Open(t), arrays.DeviceScanShape{Threads: 256, PerThread: 16, FullTiles: true, Vector: true},
		1<<20+3)
}
