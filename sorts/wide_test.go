package sorts_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// load builds k and loads it on dev.
func load(t *testing.T, dev runtime.Device, k *dsl.Kernel) runtime.Function {
	t.Helper()
	ir, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	f, err := dev.Load(ir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// warpKeys are key patterns for the warp-combined kernels, with values in
// [lo, lo+bins): runs of equal keys of several lengths (lanes of a warp
// that share a bin or word, runs crossing warps), keys that repeat but
// not next to each other, and one value only.
var warpKeys = []struct {
	name string
	keys func(r *rand.Rand, n int, lo uint32, bins int) []uint32
}{
	{"sorted", func(_ *rand.Rand, n int, lo uint32, bins int) []uint32 { return runs(n, lo, bins, 1) }},
	{"runs3", func(_ *rand.Rand, n int, lo uint32, bins int) []uint32 { return runs(n, lo, bins, 3) }},
	{"runs40", func(_ *rand.Rand, n int, lo uint32, bins int) []uint32 { return runs(n, lo, bins, 40) }},
	{"alternating", func(_ *rand.Rand, n int, lo uint32, bins int) []uint32 {
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = lo + uint32(i%2*(bins-1))
		}
		return keys
	}},
	{"few", func(r *rand.Rand, n int, lo uint32, bins int) []uint32 { return keysIn(r, n, lo, uint32(min(bins, 5))) }},
	{"spread", spread},
	{"equal", equal},
}

// runs gives sorted keys, each value repeated run times, wrapping around
// the range.
func runs(n int, lo uint32, bins, run int) []uint32 {
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = lo + uint32(i/run%bins)
	}
	return keys
}

// window is a window of a table: count cells from cell from.
type window struct{ from, count int }

// launchWarpTable runs a warp-combined kernel over keys on a zeroed table
// of cells cells, once per window, and returns the table and the bad flag.
// With skipping (the histogram) the first launch records the warps' ranges
// and the later ones skip by them.
func launchWarpTable(t *testing.T, dev runtime.Device, f runtime.Function, skipping bool, keys []uint32, lo uint32, bins, cells int, windows ...window) (table []uint32, bad uint32) {
	t.Helper()
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	tab, err := runtime.FromSlice(dev, make([]uint32, cells))
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Free()
	flag, err := runtime.FromSlice(dev, []uint32{0})
	if err != nil {
		t.Fatal(err)
	}
	defer flag.Free()
	// The ranges start out empty, so that counts skipped by a range the
	// first launch did not record would show; a warp covers at least 256
	// keys, so there are ranges for all warps.
	ranges, err := runtime.FromSlice(dev, slices.Repeat([]uint32{^uint32(0), 0}, (len(keys)+255)/256*8))
	if err != nil {
		t.Fatal(err)
	}
	defer ranges.Free()
	for i, w := range windows {
		args := []any{in, lo, uint32(bins), uint32(w.from), uint32(w.count), tab, flag}
		if skipping {
			record := uint32(0)
			if i == 0 {
				record = 1
			}
			args = append(args, ranges, record)
		}
		if err := dev.Launch(f, runtime.LaunchConfig{}, args...); err != nil {
			t.Fatal(err)
		}
	}
	if table, err = tab.ToSlice(); err != nil {
		t.Fatal(err)
	}
	got, err := flag.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	return table, got[0]
}

// TestWarpTablesOnCPU runs the warp-combined histogram and bitset on key
// counts around the warp and the block, with every pattern of warpKeys,
// over the whole table and over windows, and compares them with plain Go;
// a key outside the range sets the flag and is not counted.
func TestWarpTablesOnCPU(t *testing.T) {
	dev := runtime.CPU()
	hist := load(t, dev, kernels.GlobalHistogramWarpKernel())
	occurs := load(t, dev, kernels.GlobalOccursWarpKernel())
	r := rand.New(rand.NewPCG(47, 53))
	const lo = 1000
	for _, n := range []int{1, 31, 32, 33, 255, 257, 1500} {
		for _, kp := range warpKeys {
			for _, bins := range []int{1, 33, 700} {
				words := (bins + 31) / 32
				keys := kp.keys(r, n, lo, bins)
				badKeys := slices.Clone(keys)
				badKeys[r.IntN(n)] = lo + uint32(bins)
				for _, w := range []struct{ from, count int }{{0, bins}, {bins / 3, bins/3 + 1}, {bins - 1, 1}} {
					name := fmt.Sprintf("n=%d/%s/bins=%d/window=%d+%d", n, kp.name, bins, w.from, w.count)
					wantHist := make([]uint32, bins)
					wantBits := make([]uint32, words)
					for _, k := range keys {
						if b := int(k - lo); b >= w.from && b < w.from+w.count {
							wantHist[b]++
						}
						if b := int(k - lo); b/32 >= w.from/32 && b/32 < (w.from+w.count+31)/32 {
							wantBits[b/32] |= 1 << (b % 32)
						}
					}
					got, bad := launchWarpTable(t, dev, hist, true, keys, lo, bins, bins, window{w.from, w.count})
					if i := firstDiff(got, wantHist); i >= 0 || bad != 0 {
						t.Fatalf("%s: histogram: first difference at %d, flag %d", name, i, bad)
					}
					wf, wc := w.from/32, (w.from+w.count+31)/32-w.from/32
					got, bad = launchWarpTable(t, dev, occurs, false, keys, lo, bins, words, window{wf, wc})
					if i := firstDiff(got, wantBits); i >= 0 || bad != 0 {
						t.Fatalf("%s: bitset: first difference at %d, flag %d", name, i, bad)
					}
					got, bad = launchWarpTable(t, dev, hist, true, badKeys, lo, bins, bins, window{0, bins})
					if sum(got) != uint32(n-1) || bad != 1 {
						t.Fatalf("%s: histogram with a key at hi: %d keys counted, flag %d", name, sum(got), bad)
					}
				}
			}
		}
	}
}

func sum(xs []uint32) uint32 {
	var s uint32
	for _, x := range xs {
		s += x
	}
	return s
}

// TestWarpReconstructOnCPU rebuilds the values of random bitsets (empty,
// full and sparse words, word counts around the warp and the block) and
// compares them with plain Go.
func TestWarpReconstructOnCPU(t *testing.T) {
	dev := runtime.CPU()
	f := load(t, dev, kernels.BitsReconstructWarpKernel())
	r := rand.New(rand.NewPCG(59, 61))
	const lo = 7
	for _, words := range []int{1, 31, 33, 300} {
		set := make([]uint32, words)
		pos := make([]uint32, words+1)
		var want []uint32
		for j := range set {
			switch r.IntN(4) {
			case 0:
			case 1:
				set[j] = ^uint32(0)
			default:
				set[j] = r.Uint32() & r.Uint32()
			}
			for b := range 32 {
				if set[j]>>b&1 != 0 {
					want = append(want, lo+uint32(32*j+b))
				}
			}
			pos[j+1] = uint32(len(want))
		}
		bitsBuf, err := runtime.FromSlice(dev, set)
		if err != nil {
			t.Fatal(err)
		}
		posBuf, err := runtime.FromSlice(dev, pos)
		if err != nil {
			t.Fatal(err)
		}
		out, err := runtime.FromSlice(dev, make([]uint32, len(want)+1))
		if err != nil {
			t.Fatal(err)
		}
		if err := dev.Launch(f, runtime.LaunchConfig{}, bitsBuf, posBuf, uint32(lo), out); err != nil {
			t.Fatal(err)
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, append(want, 0)); i >= 0 {
			t.Fatalf("%d words: first difference at %d", words, i)
		}
		for _, b := range []*runtime.Buffer[uint32]{bitsBuf, posBuf, out} {
			if err := b.Free(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// wideStrategies are the Sorter's variants for wide tables: one atomic per
// key and a thread per word; warp-combined in one pass; warp-combined in
// windows (3 of them, the last short) and the warp reconstruct for any
// bitset.
var wideStrategies = []struct {
	name                 string
	perKeyUpTo, window   int
	warpOccurs           bool
	warpReconstructWords int
}{
	{"perKey", math.MaxInt, 0, false, math.MaxInt},
	{"warpOnePass", 0, 0, true, math.MaxInt},
	{"warpWindows", 0, 50000, true, 0},
}

// TestWideStrategiesOnCPU sorts sorted, spread and equal keys over a range
// just too wide for the shared histogram with every wide strategy, and
// checks that a key outside the range is reported.
func TestWideStrategiesOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(67, 71))
	const bins = 4<<15 + 1
	for _, st := range wideStrategies {
		s.SetWide(st.perKeyUpTo, st.window, st.warpOccurs, st.warpReconstructWords)
		for _, kp := range warpKeys[:2] {
			t.Run(st.name+"/"+kp.name, func(t *testing.T) {
				checkCase(t, dev, s, r, sortCase{n: 2000, lo: 3, bins: bins, keys: kp.keys})
			})
		}
		t.Run(st.name+"/bad", func(t *testing.T) {
			keys := spread(r, 2000, 3, bins)
			keys[r.IntN(len(keys))] = 2
			if _, err := s.SortRange(keys, 3, 3+bins); !errors.Is(err, sorts.ErrKeyOutOfRange) {
				t.Fatalf("got %v, want ErrKeyOutOfRange", err)
			}
		})
	}
}

// TestWindowedPassesOnCPU runs the histogram in several windows (the first
// recording the warps' ranges, the later ones skipping by them, windows in
// order and out of it) and the bitset in one, on key counts around
// multiples of a warp's and a block's batch of keys, and compares them
// with plain Go; a key outside the range, in a warp of its own or not,
// sets the flag in the first pass and is not counted.
func TestWindowedPassesOnCPU(t *testing.T) {
	dev := runtime.CPU()
	hist := load(t, dev, kernels.GlobalHistogramWarpKernel())
	occurs := load(t, dev, kernels.GlobalOccursWarpKernel())
	r := rand.New(rand.NewPCG(73, 79))
	const lo, bins = 5, 700
	orders := [][]window{
		{{0, 250}, {250, 250}, {500, 200}},
		{{500, 200}, {0, 250}, {250, 250}},
	}
	for _, n := range []int{1, 511, 512, 513, 4095, 4096, 4097, 8193} {
		for _, kp := range []int{0, 2, 5} {
			keys := warpKeys[kp].keys(r, n, lo, bins)
			wantHist := make([]uint32, bins)
			wantBits := make([]uint32, (bins+31)/32)
			for _, k := range keys {
				wantHist[k-lo]++
				wantBits[(k-lo)/32] |= 1 << ((k - lo) % 32)
			}
			for i, order := range orders {
				name := fmt.Sprintf("n=%d/%s/order %d", n, warpKeys[kp].name, i)
				got, bad := launchWarpTable(t, dev, hist, true, keys, lo, bins, bins, order...)
				if i := firstDiff(got, wantHist); i >= 0 || bad != 0 {
					t.Fatalf("%s: histogram: first difference at %d, flag %d", name, i, bad)
				}
			}
			got, bad := launchWarpTable(t, dev, occurs, false, keys, lo, bins, len(wantBits), window{0, len(wantBits)})
			if i := firstDiff(got, wantBits); i >= 0 || bad != 0 {
				t.Fatalf("n=%d/%s: bitset: first difference at %d, flag %d", n, warpKeys[kp].name, i, bad)
			}
			badKeys := slices.Clone(keys)
			badKeys[n-1] = lo - 1
			got, bad = launchWarpTable(t, dev, hist, true, badKeys, lo, bins, bins, orders[0]...)
			if sum(got) != uint32(n-1) || bad != 1 {
				t.Fatalf("n=%d/%s: histogram with a key below lo: %d keys counted, flag %d", n, warpKeys[kp].name, sum(got), bad)
			}
		}
	}
}
