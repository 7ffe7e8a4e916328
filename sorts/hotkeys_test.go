package sorts_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// hotBins are ranges that take every histogram and bitset kernel: the
// per-warp and shared tables, a sliced shared table, the global
// warp-combined histogram in one pass and the global bitset.
var hotBins = []int{16, 1 << 10, 1 << 13, 1 << 15, 3 << 15, 4<<15 + 1, 4<<20 + 1}

// hotCase sorts keys over [lo, lo+bins) on s, a Sorter of dev, and counts
// them when bins is at most countBins, and returns how the histogram,
// counting sort or occurrence sort differ from Go, or "".
func hotCase(dev runtime.Device, s *sorts.Sorter, keys []uint32, lo uint32, bins, countBins int) string {
	hi := lo + uint32(bins)
	want := slices.Sorted(slices.Values(keys))
	if bins <= countBins {
		in, err := runtime.FromSlice(dev, keys)
		if err != nil {
			return err.Error()
		}
		defer in.Free()
		out, err := runtime.Alloc[uint32](dev, bins)
		if err != nil {
			return err.Error()
		}
		defer out.Free()
		if err := s.Histogram(out, in, lo); err != nil {
			return "histogram: " + err.Error()
		}
		hist, err := out.ToSlice()
		if err != nil {
			return err.Error()
		}
		wantHist := make([]uint32, bins)
		for _, k := range keys {
			wantHist[k-lo]++
		}
		if i := firstDiff(hist, wantHist); i >= 0 {
			return fmt.Sprintf("histogram: bin %d is %d, want %d", i, hist[i], wantHist[i])
		}
		got, err := s.SortRange(keys, lo, hi)
		if err != nil {
			return "counting sort: " + err.Error()
		}
		if i := firstDiff(got, want); i >= 0 {
			return fmt.Sprintf("counting sort: first difference at %d of %d", i, len(keys))
		}
	}
	got, err := s.SortUniqueRange(keys, lo, hi)
	if err != nil {
		return "occurrence sort: " + err.Error()
	}
	if i := firstDiff(got, slices.Compact(want)); i >= 0 {
		return fmt.Sprintf("occurrence sort: first difference at %d of %d distinct keys", i, len(slices.Compact(want)))
	}
	return ""
}

// TestHotKeysOnCPU checks that the histogram, counting sort and occurrence
// sort equal Go on hot keys (Zipf's law, 16 values spread over the range,
// all keys equal) and uniform ones, over ranges that take every table
// kernel, with the default wide strategy (the global histogram in one
// warp-combined pass) and with windows of 2^16 bins (the windowed histogram, two or
// more passes).
func TestHotKeysOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	windowed, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer windowed.Close()
	windowed.SetWide(0, 1<<16, true, 1<<17)
	props := gopter.NewProperties(proptest.Parameters(t, 40))
	props.Property("hot keys", prop.ForAll(func(d, b, n int, lo uint32, win bool, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 0x407))
		bins := hotBins[b]
		lo = min(lo, ^uint32(0)-uint32(bins))
		keys := hotDists[d].keys(r, n, lo, bins)
		on := s
		if win {
			on = windowed
		}
		if msg := hotCase(dev, on, keys, lo, bins, 4<<15+1); msg != "" {
			return fmt.Sprintf("%s keys, %d of them, in [%d, %d+%d), windowed %v: %s", hotDists[d].name, n, lo, lo, bins, win, msg)
		}
		return ""
	}, gen.IntRange(0, len(hotDists)-1), gen.IntRange(0, len(hotBins)-1), gen.IntRange(1, 5000), gen.UInt32(),
		gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}
