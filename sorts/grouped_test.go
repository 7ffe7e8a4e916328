package sorts_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// groupedBins are ranges too wide for shared memory that the grouped
// histogram counts: just past the sliced shared table, buckets of one bin
// past it, a range of 2^20 values plus a few, and the widest.
var groupedBins = []int{4<<15 + 1, 1<<18 + 3, 1<<20 + 5, kernels.GroupedMaxBins}

// TestGroupedHistogramOnCPU checks that the histogram, counting sort and
// occurrence sort equal Go when the histogram is counted grouped by the
// keys' high bits, on hot keys (Zipf's law, 16 values spread over the
// range, all keys equal) and uniform ones, over ranges of 2^17+1 to
// kernels.GroupedMaxBins values, with tiles full and not (up to three
// tiles and a part).
func TestGroupedHistogramOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.SetGroupedFrom(1)
	props := gopter.NewProperties(proptest.Parameters(t, 16))
	props.Property("grouped", prop.ForAll(func(d, b, n int, lo uint32, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 0x6e0))
		bins := groupedBins[b]
		lo = min(lo, ^uint32(0)-uint32(bins))
		keys := hotDists[d].keys(r, n, lo, bins)
		if msg := hotCase(dev, s, keys, lo, bins, kernels.GroupedMaxBins); msg != "" {
			return fmt.Sprintf("%s keys, %d of them, in [%d, %d+%d): %s", hotDists[d].name, n, lo, lo, bins, msg)
		}
		return ""
	}, gen.IntRange(0, len(hotDists)-1), gen.IntRange(0, len(groupedBins)-1), gen.IntRange(1, 3*kernels.GroupTile+100),
		gen.UInt32(), gen.UInt64()))
	props.TestingRun(t)
}

// TestGroupedHistogramKeyOutOfRange checks that a key below the range or
// at or past its end, in a grouped histogram, is an error naming the
// range, in the first tile, the last or between, and that the keys in
// range are still counted exactly once (the flag touches no bin).
func TestGroupedHistogramKeyOutOfRange(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.SetGroupedFrom(1)
	const bins, lo = 1<<18 + 3, 1000
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, kernels.GroupTile, 2*kernels.GroupTile + 9} {
		for _, bad := range []uint32{lo - 1, lo + bins, ^uint32(0)} {
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = lo + r.Uint32N(bins)
			}
			at := r.IntN(n)
			keys[at] = bad
			in, err := runtime.FromSlice(dev, keys)
			if err != nil {
				t.Fatal(err)
			}
			out, err := runtime.Alloc[uint32](dev, bins)
			if err != nil {
				t.Fatal(err)
			}
			err = s.Histogram(out, in, lo)
			if !errors.Is(err, sorts.ErrKeyOutOfRange) {
				t.Errorf("%d keys, key %d at %d: error %v, want ErrKeyOutOfRange", n, bad, at, err)
			}
			hist, err := out.ToSlice()
			if err != nil {
				t.Fatal(err)
			}
			want := make([]uint32, bins)
			for i, k := range keys {
				if i != at {
					want[k-lo]++
				}
			}
			if i := firstDiff(hist, want); i >= 0 {
				t.Errorf("%d keys, key %d at %d: bin %d is %d, want %d", n, bad, at, i, hist[i], want[i])
			}
			in.Free()
			out.Free()
		}
	}
}
