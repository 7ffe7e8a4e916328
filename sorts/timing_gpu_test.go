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

	"github.com/obsidian-go/obsidian/internal/gputest"
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

// timingRun is what the timing tests share: a Sorter, a paper-pipeline
// Sorter, 2^25 keys, out and bins buffers on the GPU, a timer and a
// generator.
type timingRun struct {
	s, paper        *sorts.Sorter
	keys, out, bins *runtime.Buffer[uint32]
	tm              timer
	r               *rand.Rand
}

// timingN is the number of keys the timing tests sort.
const timingN = 1 << 25

// newTimingRun opens the GPU and sets up a timingRun, or skips the test
// unless OBSIDIAN_SORT_TIMINGS is set; everything is freed at the test's
// end.
func newTimingRun(t *testing.T) *timingRun {
	if os.Getenv(timingVar) == "" {
		t.Skipf("set %s=1 to time the sorts", timingVar)
	}
	g := gputest.Open(t)
	tr := &timingRun{tm: newTimer(t, g), r: rand.New(rand.NewPCG(1, 2))}
	var err error
	if tr.s, err = sorts.New(g); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.s.Close() })
	if tr.paper, err = sorts.New(g, sorts.Paper()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.paper.Close() })
	for _, b := range []**runtime.Buffer[uint32]{&tr.keys, &tr.out, &tr.bins} {
		if *b, err = runtime.Alloc[uint32](g, timingN); err != nil {
			t.Fatal(err)
		}
		buf := *b
		t.Cleanup(func() { buf.Free() })
	}
	return tr
}

// timingMethod is a sort (or the histogram alone) of the timing tests: it
// sorts the keys of [0, hi) into out and returns the number of keys
// written (-1 for the histogram, which writes bins).
type timingMethod struct {
	name   string
	unique bool
	sort   func(hi uint32) (int, error)
}

// methods returns the timed methods: the fast and paper pipelines of
// counting and occurrence sort, and the fast histogram alone.
func (tr *timingRun) methods() []timingMethod {
	s, out, keys := tr.s, tr.out, tr.keys
	return []timingMethod{
		{"counting", false, func(hi uint32) (int, error) { return timingN, s.CountingSort(out, keys, 0, hi) }},
		{"counting_paper", false, func(hi uint32) (int, error) { return timingN, s.PaperCountingSort(out, keys, 0, hi) }},
		// counting sort without the read back of its range check.
		{"counting_enqueued", false, func(hi uint32) (int, error) { return timingN, s.EnqueueCountingSort(out, keys, 0, hi) }},
		{"occurrence", true, func(hi uint32) (int, error) { return s.OccurrenceSort(out, keys, 0, hi) }},
		{"occurrence_paper", true, func(hi uint32) (int, error) { return s.PaperOccurrenceSort(out, keys, 0, hi) }},
		{"histogram_only", false, func(hi uint32) (int, error) { return -1, s.Histogram(tr.bins.View(0, int(hi)), keys, 0) }},
	}
}

// load copies keys of d to the GPU and returns them sorted, and their
// distinct values.
func (tr *timingRun) load(t *testing.T, d timingKeys) (want, distinct []uint32) {
	t.Helper()
	host := d.keys(tr.r, timingN)
	if err := tr.keys.CopyFrom(host); err != nil {
		t.Fatal(err)
	}
	want = slices.Sorted(slices.Values(host))
	return want, slices.Compact(slices.Clone(want))
}

// time checks m's result on the loaded keys against want (or distinct)
// once, then returns its median time in milliseconds.
func (tr *timingRun) time(t *testing.T, m timingMethod, hi uint32, want, distinct []uint32) float64 {
	t.Helper()
	k, err := m.sort(hi)
	if err != nil {
		t.Fatal(err)
	}
	if k >= 0 {
		got, err := tr.out.View(0, k).ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		w := want
		if m.unique {
			w = distinct
		}
		if i := firstDiff(got, w); i >= 0 {
			t.Fatalf("%s: first difference at %d", m.name, i)
		}
	}
	return tr.tm.median(t, func() error { _, err := m.sort(hi); return err })
}

// TestGPUTimings times the scans alone (the fast pipeline's and the
// paper's, on 2^20, 2^24 and 2^25 elements), then the fast and the paper
// pipelines and the fast histogram alone on 2^25 keys of the ranges 2^4 to
// 2^24, on sorted and unique keys (0 ... 2^25-1 in order and shuffled)
// and on hot keys (skewed: Zipf's law with exponent 1.5 over 2^16 and 2^24
// values, the most common value about 38% of the keys; fewdistinct: 16
// values spread evenly over 2^24; equal: every key 2^24-1), after
// checking each result once. Medians of 15 runs after two warm-up runs,
// CUDA events. It runs only with OBSIDIAN_SORT_TIMINGS=1.
func TestGPUTimings(t *testing.T) {
	tr := newTimingRun(t)
	values := keysIn(tr.r, timingN, 0, 1<<8)
	if err := tr.keys.CopyFrom(values); err != nil {
		t.Fatal(err)
	}
	for _, m := range []int{1 << 20, 1 << 24, timingN} {
		want := prefixSums(values[:m])
		for _, sc := range []struct {
			name string
			s    *sorts.Sorter
		}{{"scan_fast", tr.s}, {"scan_paper", tr.paper}} {
			in, o := tr.keys.View(0, m), tr.out.View(0, m)
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
			ms := tr.tm.median(t, func() error { return sc.s.Scan(o, in) })
			t.Logf("scan 2^%-2d %-17s %8.3f ms", bits.TrailingZeros(uint(m)), sc.name, ms)
		}
	}
	dists := []timingKeys{uniformKeys(4), uniformKeys(8), uniformKeys(16), uniformKeys(20), uniformKeys(24),
		{"sorted", timingN, ascending, false}, {"unique", timingN, permutation, false},
		hotKeys("skewed16", skewed, 16), hotKeys("skewed", skewed, 24), hotKeys("fewdistinct", fewDistinct, 24),
		hotKeys("equal", equal, 24)}
	for _, d := range dists {
		want, distinct := tr.load(t, d)
		for _, m := range tr.methods() {
			if d.hot && strings.HasSuffix(m.name, "_paper") {
				continue
			}
			t.Logf("%-6s %-17s %8.3f ms", d.name, m.name, tr.time(t, m, d.hi, want, distinct))
		}
	}
}

// fivePoints gives keys at 5 points of [lo, lo+bins): its two ends, the
// values next to them and its middle, each as likely.
func fivePoints(r *rand.Rand, n int, lo uint32, bins int) []uint32 {
	points := []uint32{lo, lo + 1, lo + uint32(bins/2), lo + uint32(bins-2), lo + uint32(bins-1)}
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = points[r.IntN(len(points))]
	}
	return keys
}

// TestGPUWideTimings times the zeroing of 2^25 bins, then the Sorter's
// wide-table variants side by side on 2^25 keys of the ranges 2^18 to
// 2^24, on sorted and unique keys and on hot keys of wide ranges (5
// points, 16 values and Zipf's law over 2^23, Zipf's law over 2^20), each
// result checked. It runs only with OBSIDIAN_SORT_TIMINGS=1.
func TestGPUWideTimings(t *testing.T) {
	tr := newTimingRun(t)
	ms := tr.tm.median(t, func() error { return tr.bins.Fill(0) })
	t.Logf("fill 2^25 bins %8.3f ms", ms)
	variants := []struct {
		name                 string
		perKeyUpTo, window   int
		warpOccurs           bool
		warpReconstructWords int
	}{
		{"perKey", math.MaxInt, 0, false, math.MaxInt},
		{"perKey_to_w23", 1 << 23, 1 << 23, true, 1 << 17},
		{"warp_w23", 0, 1 << 23, true, 1 << 17},
		{"warp_onepass", 0, 0, true, 1 << 17},
		{"warp_w22", 0, 1 << 22, true, 1 << 17},
	}
	dists := []timingKeys{uniformKeys(18), uniformKeys(20), uniformKeys(22), uniformKeys(23), uniformKeys(24),
		{"sorted", timingN, ascending, false}, {"unique", timingN, permutation, false},
		hotKeys("points5", fivePoints, 23), hotKeys("fewdistinct23", fewDistinct, 23),
		hotKeys("skewed23", skewed, 23), hotKeys("skewed20", skewed, 20)}
	for _, d := range dists {
		want, distinct := tr.load(t, d)
		for _, v := range variants {
			tr.s.SetWide(v.perKeyUpTo, v.window, v.warpOccurs, v.warpReconstructWords)
			for _, m := range tr.methods() {
				if strings.HasSuffix(m.name, "_paper") {
					continue
				}
				t.Logf("wide %-13s %-13s %-15s %8.3f ms", d.name, v.name, m.name, tr.time(t, m, d.hi, want, distinct))
			}
		}
	}
}

// BenchmarkGPUSortKeysQueued times, on the GPU, SortKeys of 4096 random
// uint32 keys below 2^8 and of 2^20 random keys of every value, queued one
// after the other with a synchronisation only at the end: per sort, the
// host's work to enqueue it (at small sizes, less than the GPU's run of
// it, so that the figure is the larger of the two). With
// -test.cpuprofile it profiles that work.
func BenchmarkGPUSortKeysQueued(b *testing.B) {
	benchSortKeys(b, false, []sortKeysCase{{4096, 8}, {1 << 20, 32}})
}

// BenchmarkGPUSortKeys times, on the GPU, SortKeys of fresh random uint32
// keys spanning every value, each sort followed by a synchronisation: the
// latency of a sort, host work included, for a CPU profile of that work
// (-test.cpuprofile).
func BenchmarkGPUSortKeys(b *testing.B) {
	benchSortKeys(b, true, []sortKeysCase{{1 << 10, 32}, {1 << 16, 32}, {1 << 20, 32}})
}

// sortKeysCase is a SortKeys benchmark's input: n random keys below
// 2^bits.
type sortKeysCase struct{ n, bits int }

// benchSortKeys times SortKeys of each case's fresh random keys (a
// sub-benchmark "<n>_T<bits>"), each sort followed by a synchronisation
// when synchronize is set, after one untimed sort (which compiles the
// kernels), and checks the last result against slices.Sort.
func benchSortKeys(b *testing.B, synchronize bool, cases []sortKeysCase) {
	g := gputest.Open(b)
	s, err := sorts.New(g)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, c := range cases {
		b.Run(fmt.Sprintf("%d_T%d", c.n, c.bits), func(b *testing.B) {
			r := rand.New(rand.NewPCG(rand.Uint64(), 5))
			host := make([]uint32, c.n)
			for i := range host {
				host[i] = uint32(r.Uint64N(1 << c.bits))
			}
			keys, err := runtime.FromSlice(g, host)
			if err != nil {
				b.Fatal(err)
			}
			defer keys.Free()
			out, err := runtime.Alloc[uint32](g, c.n)
			if err != nil {
				b.Fatal(err)
			}
			defer out.Free()
			lo, last := slices.Min(host), slices.Max(host)
			sort := func() {
				if err := s.SortKeys(out, keys, lo, last); err != nil {
					b.Fatal(err)
				}
				if !synchronize {
					return
				}
				if err := g.Synchronize(); err != nil {
					b.Fatal(err)
				}
			}
			sort() // compiles the kernels: not timed
			for b.Loop() {
				sort()
			}
			got, err := out.ToSlice()
			if err != nil {
				b.Fatal(err)
			}
			slices.Sort(host)
			if !slices.Equal(got, host) {
				b.Fatal("SortKeys on the GPU: the keys are not sorted")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N), "µs/sort")
		})
	}
}

// TestGPUPartsTimings times counting sort, occurrence sort and the
// histogram alone on 2^25 keys of the ranges 2^4 to 2^16 with the
// shared-table kernels' keys split into at most 528 to 8192 parts, each
// result checked. It runs only with OBSIDIAN_SORT_TIMINGS=1.
func TestGPUPartsTimings(t *testing.T) {
	tr := newTimingRun(t)
	defer tr.s.SetMostParts(0)
	for _, d := range []timingKeys{uniformKeys(4), uniformKeys(8), uniformKeys(12), uniformKeys(14), uniformKeys(16)} {
		want, distinct := tr.load(t, d)
		for _, parts := range []int{528, 792, 1024, 1056, 1584, 2048, 4096, 8192} {
			tr.s.SetMostParts(parts)
			for _, m := range tr.methods() {
				if strings.HasSuffix(m.name, "_paper") {
					continue
				}
				t.Logf("parts %-6s %5d %-15s %8.3f ms", d.name, parts, m.name, tr.time(t, m, d.hi, want, distinct))
			}
		}
	}
}
