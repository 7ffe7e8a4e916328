package sorts_test

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// timingVar is the environment variable that turns on TestGPUTimings.
const timingVar = "OBSIDIAN_SORT_TIMINGS"

// timer times work on a device between two events: the median of 15 runs after
// two warm-up runs.
type timer struct {
	start, stop runtime.Event
}

func newTimer(t *testing.T, g runtime.Device) timer {
	t.Helper()
	start, err := g.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	stop, err := g.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	return timer{start, stop}
}

// median returns the median time of run in milliseconds.
func (tm timer) median(t *testing.T, run func() error) float64 {
	t.Helper()
	times := make([]time.Duration, 0, 15)
	for i := range 17 {
		if err := tm.start.Record(nil); err != nil {
			t.Fatal(err)
		}
		if err := run(); err != nil {
			t.Fatal(err)
		}
		if err := tm.stop.Record(nil); err != nil {
			t.Fatal(err)
		}
		if err := tm.stop.Synchronize(); err != nil {
			t.Fatal(err)
		}
		d, err := tm.stop.Since(tm.start)
		if err != nil {
			t.Fatal(err)
		}
		if i >= 2 {
			times = append(times, d)
		}
	}
	slices.Sort(times)
	return float64(times[len(times)/2].Nanoseconds()) / 1e6
}

// timingKeys is a key distribution of the timings: uniform keys in [0, hi),
// or (hi = n) 0 ... n-1 in order or shuffled.
type timingKeys struct {
	name string
	hi   uint32
	keys func(r *rand.Rand, n int) []uint32
	// hot marks hot keys, which the paper's pipelines (one atomic per
	// key, one thread per value) are not timed on: seconds a run.
	hot bool
}

func uniformKeys(logRange uint) timingKeys {
	return timingKeys{name: fmt.Sprintf("T%d", logRange), hi: 1 << logRange, keys: func(r *rand.Rand, n int) []uint32 {
		return keysIn(r, n, 0, 1<<logRange)
	}}
}

// hotKeys is the timing distribution dist (a keyDist's keys) over [0,
// 2^logRange).
func hotKeys(name string, dist func(r *rand.Rand, n int, lo uint32, bins int) []uint32, logRange uint) timingKeys {
	return timingKeys{name: name, hi: 1 << logRange, hot: true, keys: func(r *rand.Rand, n int) []uint32 {
		return dist(r, n, 0, 1<<logRange)
	}}
}

func ascending(_ *rand.Rand, n int) []uint32 {
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = uint32(i)
	}
	return keys
}

func permutation(r *rand.Rand, n int) []uint32 {
	keys := ascending(r, n)
	r.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return keys
}

// TestGPUTimings times the scans alone (the fast pipeline's and the
// paper's, on 2^20, 2^24 and 2^25 elements), then the fast and the paper
// pipelines and the fast histogram alone on 2^25 keys of the ranges 2^4 to
// 2^24, on sorted and unique keys (0 ... 2^25-1 in order and shuffled)
// and on hot keys (skewed: Zipf's law with exponent 1.5 over 2^16 and 2^24
// values, the most common value about 38% of the keys; fewdistinct: 16
// values spread evenly over 2^24; equal: every key 2^24-1), after
// checking each result once; then the zeroing of 2^25 bins and the
// Sorter's wide-table variants side by side on the ranges 2^20 to 2^24 and
// on sorted and unique keys, each result checked. Medians of 15 runs after
// two warm-up runs, CUDA events. It runs only with OBSIDIAN_SORT_TIMINGS=1.
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
	paper, err := sorts.New(g, sorts.Paper())
	if err != nil {
		t.Fatal(err)
	}
	defer paper.Close()
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
	bins, err := runtime.Alloc[uint32](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer bins.Free()
	tm := newTimer(t, g)
	r := rand.New(rand.NewPCG(1, 2))

	values := keysIn(r, n, 0, 1<<8)
	if err := keys.CopyFrom(values); err != nil {
		t.Fatal(err)
	}
	for _, m := range []int{1 << 20, 1 << 24, n} {
		want := prefixSums(values[:m])
		for _, sc := range []struct {
			name string
			s    *sorts.Sorter
		}{{"scan_fast", s}, {"scan_paper", paper}} {
			in, o := keys.View(0, m), out.View(0, m)
			if err := sc.s.Scan(o, in); err != nil {
				t.Fatal(err)
			}
			got, err := o.ToSlice()
			if err != nil {
				t.Fatal(err)
			}
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%s of %d elements: first difference at %d", sc.name, m, i)
			}
			ms := tm.median(t, func() error { return sc.s.Scan(o, in) })
			t.Logf("scan 2^%-2d %-17s %8.3f ms", bits.TrailingZeros(uint(m)), sc.name, ms)
		}
	}

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
	dists := []timingKeys{uniformKeys(4), uniformKeys(8), uniformKeys(16), uniformKeys(20), uniformKeys(24),
		{"sorted", n, ascending, false}, {"unique", n, permutation, false},
		hotKeys("skewed16", skewed, 16), hotKeys("skewed", skewed, 24), hotKeys("fewdistinct", fewDistinct, 24),
		hotKeys("equal", equal, 24)}
	for _, d := range dists {
		host := d.keys(r, n)
		if err := keys.CopyFrom(host); err != nil {
			t.Fatal(err)
		}
		want := slices.Sorted(slices.Values(host))
		distinct := slices.Compact(slices.Clone(want))
		for _, m := range methods {
			if d.hot && strings.HasSuffix(m.name, "_paper") {
				continue
			}
			k, err := m.sort(d.hi)
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
					t.Fatalf("%s %s: first difference at %d", d.name, m.name, i)
				}
			}
			ms := tm.median(t, func() error { _, err := m.sort(d.hi); return err })
			t.Logf("%-6s %-17s %8.3f ms", d.name, m.name, ms)
		}
	}

	// The wide-table variants side by side, on the ranges whose tables do
	// not fit shared memory, after the zeroing of 2^25 bins alone.
	ms := tm.median(t, func() error { return bins.Fill(0) })
	t.Logf("fill 2^25 bins %8.3f ms", ms)
	variants := []struct {
		name                 string
		window               int
		warpOccurs           bool
		warpReconstructWords int
	}{
		{"perKey", 0, false, math.MaxInt},
		{"perKey+rec", 0, false, 0},
		{"warp_w23", 1 << 23, true, math.MaxInt},
		{"warp_w22", 1 << 22, true, math.MaxInt},
		{"warp_w21", 1 << 21, true, math.MaxInt},
		{"warp_w23+rec", 1 << 23, true, 0},
	}
	for _, d := range []timingKeys{uniformKeys(20), uniformKeys(22), uniformKeys(24), {"sorted", n, ascending, false}, {"unique", n, permutation, false}} {
		host := d.keys(r, n)
		if err := keys.CopyFrom(host); err != nil {
			t.Fatal(err)
		}
		want := slices.Sorted(slices.Values(host))
		distinct := slices.Compact(slices.Clone(want))
		for _, v := range variants {
			s.SetWide(v.window, v.warpOccurs, v.warpReconstructWords)
			for _, m := range methods {
				if m.name == "counting_paper" || m.name == "occurrence_paper" {
					continue
				}
				k, err := m.sort(d.hi)
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
						t.Fatalf("%s %s %s: first difference at %d", d.name, v.name, m.name, i)
					}
				}
				ms := tm.median(t, func() error { _, err := m.sort(d.hi); return err })
				t.Logf("wide %-6s %-13s %-15s %8.3f ms", d.name, v.name, m.name, ms)
			}
		}
	}
}

// BenchmarkGPUSortKeys times, on the GPU, SortKeys of fresh random uint32
// keys spanning every value, each sort followed by a synchronisation: the
// latency of a sort, host work included, for a CPU profile of that work
// (-test.cpuprofile).
func BenchmarkGPUSortKeys(b *testing.B) {
	g, err := runtime.Open(0)
	if err != nil {
		b.Skipf("no GPU: %v", err)
	}
	defer g.Close()
	s, err := sorts.New(g)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, n := range []int{1 << 10, 1 << 16, 1 << 20} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(rand.Uint64(), 3))
			host := make([]uint32, n)
			for i := range host {
				host[i] = r.Uint32()
			}
			keys, err := runtime.FromSlice(g, host)
			if err != nil {
				b.Fatal(err)
			}
			defer keys.Free()
			out, err := runtime.Alloc[uint32](g, n)
			if err != nil {
				b.Fatal(err)
			}
			defer out.Free()
			lo, last := slices.Min(host), slices.Max(host)
			for b.Loop() {
				if err := s.SortKeys(out, keys, lo, last); err != nil {
					b.Fatal(err)
				}
				if err := g.Synchronize(); err != nil {
					b.Fatal(err)
				}
			}
			got, err := out.ToSlice()
			if err != nil {
				b.Fatal(err)
			}
			slices.Sort(host)
			if !slices.Equal(got, host) {
				b.Fatal("SortKeys on the GPU: the keys are not sorted")
			}
		})
	}
}
