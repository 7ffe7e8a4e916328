package sorts_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestGPUBlockSort runs the one-block radix sort on the GPU on fresh
// random keys of every type and every length of blockSortLengths (random,
// few, equal, sorted and reversed; every bit and a random range of them;
// in place and not), RadixSort, SortPairs and Argsort, and compares them
// with Go's stable sort, in the default shapes and in blocks that rank by
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
	for _, block := range []kernels.RadixShape{{}, {Threads: 512, PerThread: 16, Bits: 5, Rank: kernels.RankByCounters}} {
		s.SetBlockShape(block)
		for _, c := range blockCases {
			for _, n := range blockSortLengths() {
				for _, shape := range blockShapes {
					for _, inPlace := range []bool{false, true} {
						if msg := c.check(s, g, r, shape, n, 0, 64, inPlace); msg != "" {
							t.Errorf("block %+v: %s", block, msg)
						}
						begin := r.IntN(40)
						if msg := c.check(s, g, r, shape, n, begin, begin+1+r.IntN(24), inPlace); msg != "" {
							t.Errorf("block %+v: %s", block, msg)
						}
					}
				}
			}
		}
	}
	s.SetBlockShape(kernels.RadixShape{})
	checkSmallSorts(t, s, r)
}
