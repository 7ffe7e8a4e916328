package sorts_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

func TestPaperSortsOnCPU(t *testing.T) {
	checkAll(t, runtime.CPU(), 4, 5000, sorts.Paper())
}

func TestPaperKeyOutOfRangeOnCPU(t *testing.T) {
	checkOutOfRange(t, runtime.CPU(), 3000, sorts.Paper())
}

// sortCase is n keys in [lo, lo+bins) made by keys.
type sortCase struct {
	n    int
	lo   uint32
	bins int
	keys func(r *rand.Rand, n int, lo uint32, bins int) []uint32
}

// spread gives random keys, with the range's first and last value among
// them, so that the first and last cell of every table is used.
func spread(r *rand.Rand, n int, lo uint32, bins int) []uint32 {
	keys := keysIn(r, n, lo, uint32(bins))
	if n >= 2 {
		keys[r.IntN(n)] = lo
		keys[r.IntN(n)] = lo + uint32(bins) - 1
	}
	return keys
}

// equal gives n copies of the range's last value.
func equal(_ *rand.Rand, n int, lo uint32, bins int) []uint32 {
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = lo + uint32(bins) - 1
	}
	return keys
}

// gap gives keys at both ends of the range and none between: the empty
// values all fall in one tile.
func gap(r *rand.Rand, n int, lo uint32, bins int) []uint32 {
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = lo
		if r.IntN(8) == 0 {
			keys[i] = lo + uint32(bins) - 1
		}
	}
	return keys
}

// checkCase runs counting sort, occurrence sort and the histogram of c on
// s (a Sorter of dev) against plain Go.
func checkCase(t *testing.T, dev runtime.Device, s *sorts.Sorter, r *rand.Rand, c sortCase) {
	t.Helper()
	keys := c.keys(r, c.n, c.lo, c.bins)
	hi := c.lo + uint32(c.bins)
	want := slices.Sorted(slices.Values(keys))
	got, err := s.SortRange(keys, c.lo, hi)
	if err != nil {
		t.Fatalf("counting sort: %v", err)
	}
	if i := firstDiff(got, want); i >= 0 && len(keys) > 0 {
		t.Fatalf("counting sort: first difference at %d of %d", i, len(keys))
	}
	got, err = s.SortUniqueRange(keys, c.lo, hi)
	if err != nil {
		t.Fatalf("occurrence sort: %v", err)
	}
	if i := firstDiff(got, slices.Compact(want)); i >= 0 && len(keys) > 0 {
		t.Fatalf("occurrence sort: first difference at %d of %d", i, len(got))
	}
	if len(keys) == 0 {
		return
	}
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	bins, err := runtime.Alloc[uint32](dev, c.bins)
	if err != nil {
		t.Fatal(err)
	}
	defer bins.Free()
	if err := s.Histogram(bins, in, c.lo); err != nil {
		t.Fatalf("histogram: %v", err)
	}
	hist, err := bins.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	wantHist := make([]uint32, c.bins)
	for _, k := range keys {
		wantHist[k-c.lo]++
	}
	if i := firstDiff(hist, wantHist); i >= 0 {
		t.Fatalf("histogram: bin %d is %d, want %d", i, hist[i], wantHist[i])
	}
}

// The thresholds of the fast pipeline, in values: the per-warp histogram
// (2^10), the shared histograms (2^13, 2^15) and their widest slicing
// (4*2^15); one bitset word (32), the most words reconstructed by one block
// (2^7 words, 2^12 values) and the shared bitsets (2^18 and 2^20 values)
// with theirs (2^22).
var (
	histogramThresholds = []int{1, 2, 1 << 10, 1 << 13, 1 << 15, 3 << 15, 4 << 15}
	bitsThresholds      = []int{32, 1 << 12, 1 << 18, 1 << 20, 4 << 20}
)

func TestFastThresholdsOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(11, 13))
	for _, th := range histogramThresholds {
		for _, bins := range []int{th - 1, th, th + 1} {
			if bins < 1 {
				continue
			}
			t.Run(fmt.Sprintf("bins=%d", bins), func(t *testing.T) {
				checkCase(t, dev, s, r, sortCase{n: 3000, lo: 77, bins: bins, keys: spread})
			})
		}
	}
}

func TestFastBitsetThresholdsOnCPU(t *testing.T) {
	s, err := sorts.New(runtime.CPU())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(17, 19))
	for _, th := range bitsThresholds {
		for _, bins := range []int{th - 1, th, th + 1} {
			t.Run(fmt.Sprintf("bins=%d", bins), func(t *testing.T) {
				keys := spread(r, 2000, 5, bins)
				got, err := s.SortUniqueRange(keys, 5, 5+uint32(bins))
				if err != nil {
					t.Fatal(err)
				}
				if want := uniqueSorted(keys); !slices.Equal(got, want) {
					t.Fatalf("occurrence sort: first difference at %d", firstDiff(got, want))
				}
				keys[r.IntN(len(keys))] = 5 + uint32(bins)
				if _, err := s.SortUniqueRange(keys, 5, 5+uint32(bins)); !errors.Is(err, sorts.ErrKeyOutOfRange) {
					t.Fatalf("key at hi: got %v, want ErrKeyOutOfRange", err)
				}
			})
		}
	}
}

// TestFastTilesOnCPU sorts key counts at and around multiples of the tile
// (4096 outputs), so that the last tile is full, one short or holds one
// output, with spread, equal and gapped keys.
func TestFastTilesOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(23, 29))
	for _, n := range []int{1, 2, 4095, 4096, 4097, 8191, 8193} {
		for _, kc := range []struct {
			name string
			keys func(r *rand.Rand, n int, lo uint32, bins int) []uint32
		}{{"spread", spread}, {"equal", equal}, {"gap", gap}} {
			for _, bins := range []int{1, 16, 5000, 20000} {
				t.Run(fmt.Sprintf("n=%d/%s/bins=%d", n, kc.name, bins), func(t *testing.T) {
					checkCase(t, dev, s, r, sortCase{n: n, lo: 1 << 31, bins: bins, keys: kc.keys})
				})
			}
		}
	}
}

// TestFastTileSpansOnCPU sorts keys whose sorted order has a chosen
// number of runs starting in each tile of 4096 outputs (0 to 100), some of
// them with values of no key between, so that the reconstruct fills tiles
// spanning 0 to a few hundred values, by walking (up to 64) and by scan,
// and with wide gaps, tiles spanning over 2^16 values, by search.
func TestFastTileSpansOnCPU(t *testing.T) {
	const tile = 4096
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seed := proptest.Seed(t)
	r := rand.New(rand.NewPCG(seed, 31))
	starts := []int{0, 1, 2, 3, 4, 5, 6, 8, 12, 63, 64, 65, 100, 1}
	n := len(starts)*tile + 7
	for _, gap := range []int{0, 3, 1 << 15} {
		t.Run(fmt.Sprintf("gaps=%d", gap), func(t *testing.T) {
			// Value v of the sorted keys rises at the chosen outputs of each
			// tile, by 1 or, with gaps, by up to 1+gap.
			rises := make([]uint32, n)
			for i, k := range starts {
				for _, at := range r.Perm(tile - 1)[:k] {
					rises[i*tile+1+at] = 1 + uint32(r.IntN(gap+1))
				}
			}
			var v uint32
			keys := make([]uint32, n)
			for p := range keys {
				v += rises[p]
				keys[p] = v
			}
			bins := int(v) + 1
			r.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
			checkCase(t, dev, s, r, sortCase{n: n, lo: 0, bins: bins, keys: func(*rand.Rand, int, uint32, int) []uint32 { return keys }})
		})
	}
}

// TestFastKeyOutOfRangeOnCPU puts one key outside the range for every
// histogram and bitset path (shared, shared in slices, global) and checks
// that each sort reports it.
func TestFastKeyOutOfRangeOnCPU(t *testing.T) {
	s, err := sorts.New(runtime.CPU())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(31, 37))
	for _, bins := range []int{16, 1 << 13, 4 << 15, 4<<15 + 1, 4<<20 + 1} {
		for _, bad := range []uint32{999, 1000 + uint32(bins)} {
			keys := spread(r, 5000, 1000, bins)
			keys[r.IntN(len(keys))] = bad
			if bins <= 4<<15+1 {
				if _, err := s.SortRange(keys, 1000, 1000+uint32(bins)); !errors.Is(err, sorts.ErrKeyOutOfRange) {
					t.Errorf("counting sort, %d values, key %d: got %v, want ErrKeyOutOfRange", bins, bad, err)
				}
			}
			if _, err := s.SortUniqueRange(keys, 1000, 1000+uint32(bins)); !errors.Is(err, sorts.ErrKeyOutOfRange) {
				t.Errorf("occurrence sort, %d values, key %d: got %v, want ErrKeyOutOfRange", bins, bad, err)
			}
		}
	}
}

// TestPaperMethodsOnCPU checks PaperCountingSort and PaperOccurrenceSort on
// a default (fast) Sorter.
func TestPaperMethodsOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	keys := gap(rand.New(rand.NewPCG(41, 43)), 3000, 10, 300)
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](dev, len(keys))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	if err := s.PaperCountingSort(out, in, 10, 310); err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(slices.Values(keys))
	if got, err := out.ToSlice(); err != nil || !slices.Equal(got, want) {
		t.Fatalf("PaperCountingSort: err %v, first difference at %d", err, firstDiff(got, want))
	}
	n, err := s.PaperOccurrenceSort(out, in, 10, 310)
	if err != nil {
		t.Fatal(err)
	}
	got, err := out.View(0, n).ToSlice()
	if err != nil || !slices.Equal(got, slices.Compact(want)) {
		t.Fatalf("PaperOccurrenceSort: err %v, got %v", err, got)
	}
}

// TestScanStartsOnCPU runs the kernel that scans a histogram and finds
// each output tile's first value on histograms of 1 to
// kernels.ScanStartsMaxBins counts whose keys fill one to hundreds of
// thousands of tiles (many blocks of the kernel, each scanning the counts
// itself),
// with runs of empty values, against the definitions: pos[v] the keys
// before value v, starts[t] the last value v with pos[v] <= t*4096 (the
// total for the last entry).
func TestScanStartsOnCPU(t *testing.T) {
	const tile = 4096
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seed := proptest.Seed(t)
	r := rand.New(rand.NewPCG(seed, 37))
	for _, bins := range []int{1, 2, 16, 1000, kernels.ScanStartsMaxBins} {
		for _, most := range []int{1, 3 * tile, 1 << 20} {
			hist := make([]uint32, bins)
			total := 0
			for v := range hist {
				if r.IntN(3) > 0 {
					hist[v] = uint32(r.IntN(most + 1))
					total += int(hist[v])
				}
			}
			tiles := (total+tile-1)/tile + 1
			pos, starts := runScanStarts(t, dev, s, hist, tiles)
			want := make([]uint32, bins+1)
			for v, c := range hist {
				want[v+1] = want[v] + c
			}
			if !slices.Equal(pos, want) {
				t.Fatalf("bins %d, total %d: pos = %v, want %v", bins, total, pos, want)
			}
			for i, got := range starts {
				target := uint32(i * tile)
				if i == tiles-1 {
					target = want[bins]
				}
				v := bins - 1
				for want[v] > target {
					v--
				}
				if got != uint32(v) {
					t.Fatalf("bins %d, total %d: starts[%d] = %d, want %d", bins, total, i, got, v)
				}
			}
		}
	}
}

// runScanStarts runs Sorter.ScanStarts on hist with tiles tile starts and
// returns pos and starts.
func runScanStarts(t *testing.T, dev runtime.Device, s *sorts.Sorter, hist []uint32, tiles int) (pos, starts []uint32) {
	t.Helper()
	h, err := runtime.FromSlice(dev, hist)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Free()
	p, err := runtime.Alloc[uint32](dev, len(hist)+1)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Free()
	st, err := runtime.Alloc[uint32](dev, tiles)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Free()
	if err := s.ScanStarts(p, st, h); err != nil {
		t.Fatal(err)
	}
	if pos, err = p.ToSlice(); err != nil {
		t.Fatal(err)
	}
	if starts, err = st.ToSlice(); err != nil {
		t.Fatal(err)
	}
	return pos, starts
}
