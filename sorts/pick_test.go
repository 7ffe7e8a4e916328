package sorts_test

import (
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

// TestSortKeysPicksEveryAlgorithm checks, on the CPU device, that SortKeys
// equals slices.Sort for numbers of keys and ranges that make the cost
// model pick each of its algorithms, and that each was picked.
func TestSortKeysPicksEveryAlgorithm(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.SetBlockShape(kernels.RadixShape{Threads: 256, PerThread: 8, Bits: kernels.RadixBits}) // up to 2048 keys in one block
	s.SetCountingAbove(4096, 1<<12)                                                          // counting sort reached with 5000 keys of narrow ranges
	picked := map[string]int{}
	sortKeys := func(n int, rangeBits int, lo uint32, seed uint64) string {
		bins := uint64(1) << rangeBits
		lo = min(lo, uint32(1<<32-bins))
		r := rand.New(rand.NewPCG(seed, 1))
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = lo + uint32(r.Uint64N(bins))
		}
		picked[s.Picked(n, bins)]++
		in, err := runtime.FromSlice(dev, keys)
		if err != nil {
			return err.Error()
		}
		defer in.Free()
		out, err := runtime.Alloc[uint32](dev, n)
		if err != nil {
			return err.Error()
		}
		defer out.Free()
		if err := s.SortKeys(out, in, lo, uint32(uint64(lo)+bins-1)); err != nil {
			return err.Error()
		}
		got, err := out.ToSlice()
		if err != nil {
			return err.Error()
		}
		return checkSorted("SortKeys", got, keys)
	}
	props := gopter.NewProperties(proptest.Parameters(t, 30))
	props.Property("SortKeys sorts", prop.ForAll(sortKeys,
		gen.OneConstOf(1, 7, 2048, 2049, 5000), gen.OneConstOf(0, 1, 3, 8, 12, 25, 31, 32), gen.UInt32(), gen.UInt64()))
	props.TestingRun(t)
	// The random cases may miss an algorithm (counting sort is one case in
	// eight); one case of each, whatever the seed, makes sure none is.
	for _, c := range []struct{ n, rangeBits int }{{7, 8}, {5000, 8}, {5000, 25}} {
		if msg := sortKeys(c.n, c.rangeBits, 12345, uint64(c.n)); msg != "" {
			t.Errorf("%d keys of %d bits: %s", c.n, c.rangeBits, msg)
		}
	}
	for _, a := range []string{"block", "counting", "radix"} {
		if picked[a] == 0 {
			t.Errorf("SortKeys never picked the %s sort: %v", a, picked)
		}
	}
}

// TestCostModelTable checks the cost model's choices at its table's edges:
// the block sort for few keys, the radix sort up to 2^21 keys, counting
// sort inside each of a row's spans of ranges, the radix sort outside them
// (between the spans too) and for ranges past MaxBins whatever the number
// of keys.
func TestCostModelTable(t *testing.T) {
	s, err := sorts.New(runtime.CPU())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct {
		n    int
		bins uint64
		want string
	}{
		{1, 1 << 32, "block"}, {kernels.BlockSortMaxKeys, 1 << 32, "block"}, {kernels.BlockSortMaxKeys + 1, 16, "radix"},
		{1 << 12, 1 << 12, "block"}, {1<<12 + 1, 1 << 9, "block"}, {1<<12 + 1, 1<<9 + 1, "blockCount"},
		{kernels.BlockSortMaxKeys, kernels.BlockCountMaxBins, "blockCount"}, {kernels.BlockSortMaxKeys, kernels.BlockCountMaxBins + 1, "block"},
		{1 << 16, 1 << 20, "radix"},
		{1<<16 + 1, 1 << 16, "radix"}, {1 << 20, 1 << 23, "radix"}, {1 << 20, 16, "radix"},
		{1<<20 + 1, 16, "radix"}, {1 << 21, 1 << 10, "radix"}, {1<<21 + 1, 1 << 8, "radix"},
		{1<<21 + 1, 1<<8 + 1, "counting"}, {1 << 22, 1 << 12, "counting"}, {1 << 22, 1<<12 + 1, "radix"},
		{1 << 22, 1 << 17, "radix"}, {1 << 22, 1<<17 + 1, "counting"}, {1 << 22, 1 << 22, "counting"},
		{1 << 22, 1<<22 + 1, "radix"}, {1<<22 + 1, 16, "counting"}, {1 << 23, 1 << 15, "counting"},
		{1 << 23, 1 << 16, "radix"}, {1 << 23, 1 << 20, "counting"}, {1 << 23, 1 << 23, "radix"},
		{1<<23 + 1, 1 << 16, "counting"}, {1 << 25, 1 << 16, "counting"}, {1 << 25, 1 << 30, "radix"},
		{1 << 30, sorts.MaxBins + 1, "radix"}, {1 << 25, 1 << 23, "counting"}, {1 << 25, 1<<23 + 1, "radix"},
		{1 << 27, 1 << 24, "counting"}, {1 << 27, 1<<24 + 1, "radix"}, {1 << 28, 1 << 24, "counting"},
	} {
		if got := s.Picked(c.n, c.bins); got != c.want {
			t.Errorf("%d keys in %d values: picked %s, want %s", c.n, c.bins, got, c.want)
		}
	}
}
