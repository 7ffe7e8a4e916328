package sorts_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestGPUSortsMatchCPU runs every Sorter function on the GPU and on the CPU
// evaluator on the same fresh random data and compares them element by
// element.
func TestGPUSortsMatchCPU(t *testing.T) {
	g := gputest.Open(t)
	checkAll(t, g, 25, 100000)
}

func TestGPUKeyOutOfRange(t *testing.T) {
	checkOutOfRange(t, gputest.Open(t), 1<<20)
}

// TestGPULarge sorts 2^25+3 keys (or $OBSIDIAN_SORT_N) of the ranges 2^4,
// 2^16 and 2^24 on the GPU and checks against slices.Sort.
func TestGPULarge(t *testing.T) {
	g := gputest.Open(t)
	n := 1<<25 + 3
	if testing.Short() {
		n = 1<<20 + 3 // under a memory checker, as many tiles and blocks, fewer rounds
	}
	if v := os.Getenv("OBSIDIAN_SORT_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 3))
	for _, bits := range []uint{4, 16, 24} {
		keys := keysIn(r, n, 0, 1<<bits)
		want := slices.Sorted(slices.Values(keys))
		got, err := s.SortRange(keys, 0, 1<<bits)
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("counting sort of %d keys < 2^%d: first difference at %d", n, bits, i)
		}
		got, err = s.SortUniqueRange(keys, 0, 1<<bits)
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, slices.Compact(want)); i >= 0 {
			t.Fatalf("occurrence sort of %d keys < 2^%d: first difference at %d", n, bits, i)
		}
		got, err = s.Sort(keys)
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, slices.Sorted(slices.Values(keys))); i >= 0 {
			t.Fatalf("counting sort (range found) of %d keys < 2^%d: first difference at %d", n, bits, i)
		}
		t.Logf("n=%d range 2^%d: counting, occurrence and found-range sorts match slices.Sort", n, bits)
	}
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff(a, b []uint32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// TestGPUSanitizerWorkload is the run compute-sanitizer (memcheck,
// racecheck, synccheck) checks: counting and occurrence sort of 2^20 keys
// over 2^8 values (tiles filled by search, the bitset reconstructed by one
// block) and over 2^16 (by scan, by the scan's launches), skewed keys over
// 2^18 values (the warp-combined global histogram, its hot cells folded in
// a block's Combiner), and a key past the range; then, each compared with
// Go, the one-launch
// sorts of every key type (RadixSort, SortPairs and Argsort by the rank
// sort, in place by the block sort), the radix sort's passes over 2^22+3
// keys of 4 bytes, the block sort and the radix sort's passes ranking by
// per-thread counters.
func TestGPUSanitizerWorkload(t *testing.T) {
	g := gputest.Open(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(proptest.Seed(t), 5))
	var keys []uint32
	for _, bins := range []uint32{1 << 8, 1 << 18, 1 << 16} {
		keys = keysIn(r, 1<<20, 0, bins)
		if bins == 1<<18 {
			keys = skewed(r, 1<<20, 0, int(bins))
		}
		want := slices.Sorted(slices.Values(keys))
		got, err := s.SortRange(keys, 0, bins)
		if err != nil || firstDiff(got, want) >= 0 {
			t.Fatalf("counting sort of %d values: err %v, first difference at %d", bins, err, firstDiff(got, want))
		}
		got, err = s.SortUniqueRange(keys, 0, bins)
		if err != nil || firstDiff(got, slices.Compact(want)) >= 0 {
			t.Fatalf("occurrence sort of %d values: err %v", bins, err)
		}
	}
	keys[12345] = 1 << 16
	if _, err := s.SortRange(keys, 0, 1<<16); !errors.Is(err, sorts.ErrKeyOutOfRange) {
		t.Fatalf("key at hi: got %v, want ErrKeyOutOfRange", err)
	}
	for _, c := range blockCases {
		for _, n := range []int{1000, 4096} {
			for _, inPlace := range []bool{false, true} {
				if msg := c.check(s, g, r, "random", n, 0, 64, inPlace); msg != "" {
					t.Error(msg)
				}
			}
		}
	}
	// The passes of 4-byte keys past 2^22 keys: keys alone in blocks of
	// their own shape, pairs and argsort in another.
	for _, c := range blockCases[:3] {
		if msg := c.check(s, g, r, "random", 1<<22+3, 0, 32, false); msg != "" {
			t.Error(msg)
		}
	}
	counted := []struct {
		block, passes kernels.RadixShape
		n             int
	}{{block: kernels.RadixShape{Threads: 128, PerThread: 16, Bits: 5, Rank: kernels.RankByCounters}, n: 2000},
		{passes: kernels.RadixShape{Threads: 64, PerThread: 2, Bits: 5, Window: 3, Rank: kernels.RankByCounters}, n: 5000}}
	for _, c := range counted {
		s.SetBlockShape(c.block)
		s.SetRadixShape(c.passes)
		for _, keys := range []blockCase{blockCaseOf[uint32](), blockCaseOf[float64]()} {
			if msg := keys.check(s, g, r, "random", c.n, 0, 64, false); msg != "" {
				t.Errorf("by counters, block %+v, passes %+v: %s", c.block, c.passes, msg)
			}
		}
	}
}

// TestGPUSort2p30 sorts 2^30 fresh random keys of a range of MaxBins
// values (so the histogram runs in windows over global memory and the
// bitset is global) on the GPU, by counting sort, occurrence sort and
// counting sort over the range it finds, and compares each result element
// by element with a sort of the same keys on the host (sortedOnHost). It
// needs about 17 GiB of GPU memory and 17 GiB of host memory.
func TestGPUSort2p30(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 2^30 keys take minutes under a memory checker; run without -short")
	}
	g := gputest.Open(t)
	const n = 1 << 30
	const deviceBytes = 17 << 30 // keys, output, histogram and positions, and the rest
	free, _, err := g.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	if free < deviceBytes {
		t.Skipf("%s has %d MiB free, the test needs %d MiB", g.Name(), free>>20, deviceBytes>>20)
	}
	if avail, ok := hostMemAvailable(); ok && avail < 17<<30 {
		t.Skipf("the host has %d MiB available, the test needs %d MiB", avail>>20, 17<<10)
	}
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seed := proptest.Seed(t)
	r := rand.New(rand.NewPCG(seed, 2))
	lo := r.Uint32N(1 << 31)
	hi := lo + sorts.MaxBins
	keys := keysIn(r, n, lo, sorts.MaxBins)
	keys[r.IntN(n)], keys[r.IntN(n)] = lo, hi-1 // both ends of the range
	want := sortedOnHost(keys)
	check := func(what string, got, want []uint32) {
		t.Helper()
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("%s of 2^30 keys in [%d, %d): first difference at %d of %d (got %d elements, want %d)", what, lo, hi, i, len(want), len(got), len(want))
		}
		t.Logf("%s of 2^30 keys in [%d, %d) matches the host's sort", what, lo, hi)
	}
	got, err := s.SortRange(keys, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	check("counting sort", got, want)
	got = nil // the host holds the keys, the expected result and one result
	got, err = s.Sort(keys)
	if err != nil {
		t.Fatal(err)
	}
	check("counting sort over the range found", got, want)
	got = nil
	got, err = s.SortUniqueRange(keys, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	check("occurrence sort", got, slices.Compact(want))
}

// sortedOnHost returns keys sorted by slices.Sort, in a few chunks at once
// merged in pairs (a 2^30-key slices.Sort alone takes minutes).
func sortedOnHost(keys []uint32) []uint32 {
	const chunks = 16 // a power of two, merged in pairs
	sorted, spare := slices.Clone(keys), make([]uint32, len(keys))
	bound := func(c int) int { return len(keys) * c / chunks }
	var wg sync.WaitGroup
	for c := range chunks {
		wg.Go(func() { slices.Sort(sorted[bound(c):bound(c+1)]) })
	}
	wg.Wait()
	for width := 1; width < chunks; width *= 2 {
		for c := 0; c < chunks; c += 2 * width {
			wg.Go(func() {
				lo, mid, hi := bound(c), bound(c+width), bound(c+2*width)
				merge(spare[lo:hi], sorted[lo:mid], sorted[mid:hi])
			})
		}
		wg.Wait()
		sorted, spare = spare, sorted
	}
	return sorted
}

// merge writes the sorted slices a and b into out, sorted.
func merge(out, a, b []uint32) {
	i, j := 0, 0
	for k := range out {
		if j == len(b) || i < len(a) && a[i] <= b[j] {
			out[k], i = a[i], i+1
		} else {
			out[k], j = b[j], j+1
		}
	}
}

// hostMemAvailable returns the host's available memory as Linux reports
// it (false where it does not).
func hostMemAvailable() (uint64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kib, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kib << 10, err == nil
		}
	}
	return 0, false
}

// TestGPUCountingSortWideGaps sorts 2^24 keys that lie at a few points
// spread over a range of 2^23 values, so that a few tiles of the
// reconstruct span millions of values of no key, and logs the time of a
// counting sort of them on device buffers (the median of 7 calls).
func TestGPUCountingSortWideGaps(t *testing.T) {
	g := gputest.Open(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seed := proptest.Seed(t)
	r := rand.New(rand.NewPCG(seed, 37))
	const n, bins = 1 << 24, 1 << 23
	points := []uint32{0, 1, bins / 3, bins - 2, bins - 1}
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = points[r.IntN(len(points))]
	}
	in, err := runtime.FromSlice(g, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](g, n)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	var times []time.Duration
	for range 7 {
		start := time.Now()
		if err := s.CountingSort(out, in, 0, bins); err != nil {
			t.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	got, err := out.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	if i := firstDiff(got, slices.Sorted(slices.Values(keys))); i >= 0 {
		t.Fatalf("first difference at %d", i)
	}
	slices.Sort(times)
	t.Logf("counting sort of %d keys at %d points of %d values: median %v", n, len(points), bins, times[len(times)/2])
}
