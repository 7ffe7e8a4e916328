package sorts_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// checkSmallSorts runs Sort and SortRange on s for keys of every length
// of blockSortLengths and one past the limit (counting sort), random (any
// uint32), all equal, sorted and reversed, and compares them with
// slices.Sort.
func checkSmallSorts(t *testing.T, s *sorts.Sorter, r *rand.Rand) {
	t.Helper()
	for _, n := range append(blockSortLengths(), kernels.BlockSortMaxKeys+1) {
		for _, shape := range []string{"random", "equal", "sorted", "reversed"} {
			keys := blockKeys[uint32](r, shape, n)
			if shape != "random" || n > kernels.BlockSortMaxKeys {
				for i := range keys {
					keys[i] >>= 12 // a range counting sort takes beyond the block sort
				}
			}
			want := slices.Sorted(slices.Values(keys))
			what := fmt.Sprintf("%d %s keys", n, shape)
			got, err := s.Sort(keys)
			if err != nil {
				t.Fatalf("Sort of %s: %v", what, err)
			}
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("Sort of %s: first difference at %d", what, i)
			}
			if n == 0 {
				continue
			}
			got, err = s.SortRange(keys, want[0], want[n-1]+1)
			switch wide := uint64(want[n-1])+1-uint64(want[0]) > sorts.MaxBins || want[n-1] == ^uint32(0); {
			case wide && !errors.Is(err, sorts.ErrBadRange):
				t.Fatalf("SortRange of %s over [%d, %d]: %v, want ErrBadRange", what, want[0], want[n-1], err)
			case !wide && err != nil:
				t.Fatalf("SortRange of %s: %v", what, err)
			case !wide && firstDiff(got, want) >= 0:
				t.Fatalf("SortRange of %s: first difference at %d", what, firstDiff(got, want))
			}
		}
	}
}

// TestSmallSortsOnCPU checks Sort and SortRange of up to
// kernels.BlockSortMaxKeys keys (the block sort) and one more (counting
// sort) against slices.Sort on the evaluator.
func TestSmallSortsOnCPU(t *testing.T) {
	s, err := sorts.New(runtime.CPU())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkSmallSorts(t, s, rand.New(rand.NewPCG(7, 9)))
}
