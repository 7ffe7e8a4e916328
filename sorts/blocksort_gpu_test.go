package sorts_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestGPUBlockSort runs the one-launch sorts on the GPU on fresh random
// keys of every type and every length of blockSortLengths (random, few,
// equal, sorted and reversed; every bit and a random range of them; in
// place and not), RadixSort, SortPairs and Argsort, and compares them with
// Go's stable sort: as the Sorter picks them (the rank sort, and the
// one-block radix sort in place), the one-block radix sort alone, the
// rank sort in blocks of 32 warps, and the one-block radix sort ranking by
// counters; then Sort and SortRange of small inputs.
func TestGPUBlockSort(t *testing.T) {
	g := openGPU(t)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0xb50))
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, sorter := range []struct {
		rank  int
		block kernels.RadixShape
	}{{0, kernels.RadixShape{}}, {-1, kernels.RadixShape{}}, {32, kernels.RadixShape{}},
		{0, kernels.RadixShape{Threads: 512, PerThread: 16, Bits: 5, Rank: kernels.RankByCounters}}} {
		s.SetRankSortWarps(sorter.rank)
		s.SetBlockShape(sorter.block)
		for _, c := range blockCases {
			for _, n := range blockSortLengths() {
				for _, shape := range blockShapes {
					for _, inPlace := range []bool{false, true} {
						if msg := c.check(s, g, r, shape, n, 0, 64, inPlace); msg != "" {
							t.Errorf("rank sort warps %d, block %+v: %s", sorter.rank, sorter.block, msg)
						}
						begin := r.IntN(40)
						if msg := c.check(s, g, r, shape, n, begin, begin+1+r.IntN(24), inPlace); msg != "" {
							t.Errorf("rank sort warps %d, block %+v: %s", sorter.rank, sorter.block, msg)
						}
					}
				}
			}
		}
	}
	s.SetRankSortWarps(0)
	s.SetBlockShape(kernels.RadixShape{})
	checkSmallSorts(t, s, r)
}
