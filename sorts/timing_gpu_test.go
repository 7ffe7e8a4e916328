package sorts_test

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// timingVar is the environment variable that turns on TestGPUTimings.
const timingVar = "OBSIDIAN_SORT_TIMINGS"

// TestGPUTimings times the fast and the paper pipelines, and the fast
// histogram alone, on 2^25 keys of the ranges 2^4 to 2^24 (median of 15 runs after two warm-up runs, CUDA
// events), after checking each sort once. It runs only with
// OBSIDIAN_SORT_TIMINGS=1.
func TestGPUTimings(t *testing.T) {
	if os.Getenv(timingVar) == "" {
		t.Skipf("set %s=1 to time the sorts", timingVar)
	}
	g := openGPU(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 1 << 25
	keys, err := runtime.Alloc[uint32](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer keys.Free()
	out, err := runtime.Alloc[uint32](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	bins, err := runtime.Alloc[uint32](g, 1<<24)
	if err != nil {
		t.Fatal(err)
	}
	defer bins.Free()
	start, _ := g.NewEvent()
	stop, _ := g.NewEvent()
	r := rand.New(rand.NewPCG(1, 2))
	methods := []struct {
		name   string
		unique bool
		sort   func(hi uint32) (int, error)
	}{
		{"counting", false, func(hi uint32) (int, error) { return n, s.CountingSort(out, keys, 0, hi) }},
		{"counting_paper", false, func(hi uint32) (int, error) { return n, s.PaperCountingSort(out, keys, 0, hi) }},
		{"occurrence", true, func(hi uint32) (int, error) { return s.OccurrenceSort(out, keys, 0, hi) }},
		{"occurrence_paper", true, func(hi uint32) (int, error) { return s.PaperOccurrenceSort(out, keys, 0, hi) }},
		{"histogram_only", false, func(hi uint32) (int, error) { return -1, s.Histogram(bins.View(0, int(hi)), keys, 0) }},
	}
	for _, bits := range []uint{4, 8, 16, 20, 24} {
		host := keysIn(r, n, 0, 1<<bits)
		if err := keys.CopyFrom(host); err != nil {
			t.Fatal(err)
		}
		want := slices.Sorted(slices.Values(host))
		distinct := slices.Compact(slices.Clone(want))
		for _, m := range methods {
			k, err := m.sort(1 << bits)
			if err != nil {
				t.Fatal(err)
			}
			if k >= 0 {
				got, err := out.View(0, k).ToSlice()
				if err != nil {
					t.Fatal(err)
				}
				w := want
				if m.unique {
					w = distinct
				}
				if i := firstDiff(got, w); i >= 0 {
					t.Fatalf("T%d %s: first difference at %d", bits, m.name, i)
				}
			}
			times := make([]time.Duration, 0, 15)
			for run := range 17 {
				if err := start.Record(nil); err != nil {
					t.Fatal(err)
				}
				if _, err := m.sort(1 << bits); err != nil {
					t.Fatal(err)
				}
				if err := stop.Record(nil); err != nil {
					t.Fatal(err)
				}
				if err := stop.Synchronize(); err != nil {
					t.Fatal(err)
				}
				d, err := stop.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				if run >= 2 {
					times = append(times, d)
				}
			}
			slices.Sort(times)
			t.Logf("T%-2d %-17s %8.3f ms", bits, m.name, float64(times[len(times)/2].Nanoseconds())/1e6)
		}
	}
}
