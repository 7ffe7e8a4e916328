package sorts_test

import (
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
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
// counters; then Sort and SortRange of small inputs. The checks of each
// setting run from several goroutines, each with a Sorter of its own (so
// that their kernels compile at once), each check drawing its keys from a
// generator of its own, seeded from the test's seed.
func TestGPUBlockSort(t *testing.T) {
	g := gputest.Open(t)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0xb50))
	for _, setting := range []struct {
		rank  int
		block kernels.RadixShape
	}{{0, kernels.RadixShape{}}, {-1, kernels.RadixShape{}}, {32, kernels.RadixShape{}},
		{0, kernels.RadixShape{Threads: 512, PerThread: 16, Bits: 5, Rank: kernels.RankByCounters}}} {
		var checks []func(s *sorts.Sorter, r *rand.Rand) string
		for _, c := range blockCases {
			for _, n := range blockSortLengths() {
				for _, shape := range blockShapes {
					for _, inPlace := range []bool{false, true} {
						checks = append(checks,
							func(s *sorts.Sorter, r *rand.Rand) string { return c.check(s, g, r, shape, n, 0, 64, inPlace) },
							func(s *sorts.Sorter, r *rand.Rand) string {
								begin := r.IntN(40)
								return c.check(s, g, r, shape, n, begin, begin+1+r.IntN(24), inPlace)
							})
					}
				}
			}
		}
		start, compiles := time.Now(), g.CacheStats().Compiles
		set := func(s *sorts.Sorter) {
			s.SetRankSortWarps(setting.rank)
			s.SetBlockShape(setting.block)
		}
		for _, msg := range inParallel(t, g, set, r.Uint64(), checks) {
			t.Errorf("rank sort warps %d, block %+v: %s", setting.rank, setting.block, msg)
		}
		t.Logf("rank sort warps %d, block %+v: %d checks in %v, %d kernels compiled", setting.rank, setting.block, len(checks),
			time.Since(start).Round(time.Millisecond), g.CacheStats().Compiles-compiles)
	}
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkSmallSorts(t, s, r)
}

// inParallel runs checks from as many goroutines as GOMAXPROCS, each with
// a Sorter of its own on g set by set, check i with a generator seeded by
// seed and i, and returns the messages of those that failed, in the order
// of checks.
func inParallel(t *testing.T, g *runtime.GPU, set func(*sorts.Sorter), seed uint64,
	checks []func(s *sorts.Sorter, r *rand.Rand) string) []string {
	t.Helper()
	msgs := make([]string, len(checks))
	next := make(chan int)
	var wg sync.WaitGroup
	sorters := make([]*sorts.Sorter, goruntime.GOMAXPROCS(0))
	for i := range sorters {
		s, err := sorts.New(g)
		if err != nil {
			for _, s := range sorters[:i] {
				s.Close()
			}
			t.Fatal(err)
		}
		set(s)
		sorters[i] = s
	}
	for _, s := range sorters {
		wg.Go(func() {
			defer s.Close()
			for i := range next {
				msgs[i] = checks[i](s, rand.New(rand.NewPCG(seed, uint64(i))))
			}
		})
	}
	for i := range checks {
		next <- i
	}
	close(next)
	wg.Wait()
	return slices.DeleteFunc(msgs, func(msg string) bool { return msg == "" })
}
