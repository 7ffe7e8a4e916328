package scan_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// TestGPUScanMatchesGo scans fresh random data on the GPU, with every
// operator and kind, for small lengths, 2^24-1 and 2^25+7 elements (New's
// two shapes), and compares
// every element with the scan in Go. The large scans run several times on
// one Scan, so that a stale status word of an earlier run would show.
func TestGPUScanMatchesGo(t *testing.T) {
	g := gputest.Open(t)
	seed := proptest.Seed(t)
	tile := arrays.DeviceScanTile
	// New's shape changes at 2^24 elements (arrays.DeviceScanShapeFor).
	sizes := []int{1, 2, 255, tile - 1, tile, tile + 1, 100*tile + 3, 1<<24 - 1, 1<<25 + 7}
	for _, o := range operators {
		for _, kind := range []scan.Kind{scan.Inclusive, scan.Exclusive} {
			s, err := scan.New(g, o.op, o.identity, kind)
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range sizes {
				repeats := 1
				if n > 1<<20 {
					repeats = 3
				}
				for r := range repeats {
					xs := randomWords(n, seed+uint64(i*31+r), o)
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
						t.Fatalf("%s %v scan of %d: %v", o.name, kind, n, err)
					}
					got, err := out.ToSlice()
					if err != nil {
						t.Fatal(err)
					}
					if d := firstDifference(got, sequential(o, kind, xs)); d != "" {
						t.Errorf("%s %v scan of %d (run %d): %s", o.name, kind, n, r, d)
					}
					in.Free()
					out.Free()
				}
			}
			s.Close()
		}
	}
}

// TestGPUExclusiveSumInPlace runs ExclusiveSum on the GPU with out = in
// for 2^25+7 random words.
func TestGPUExclusiveSumInPlace(t *testing.T) {
	g := gputest.Open(t)
	seed := proptest.Seed(t)
	xs := randomWords(1<<25+7, seed, operators[0])
	buf, err := runtime.FromSlice(g, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	if err := scan.ExclusiveSum(g, buf, buf); err != nil {
		t.Fatal(err)
	}
	got, err := buf.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	if d := firstDifference(got, sequential(operators[0], scan.Exclusive, xs)); d != "" {
		t.Error(d)
	}
}
