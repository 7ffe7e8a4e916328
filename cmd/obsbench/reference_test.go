package main

import (
	"slices"
	"testing"
)

// TestSortedCopyMatchesSlicesSort checks the parallel sort on sizes below
// and above its parallel threshold, leaving its input alone.
func TestSortedCopyMatchesSlicesSort(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1<<16 + 3, 1 << 18} {
		keys := distribution{shape: uniformBits, bits: 12}.keys(n, uint64(n))
		orig := slices.Clone(keys)
		got := sortedCopy(keys)
		want := slices.Sorted(slices.Values(keys))
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: sortedCopy differs from slices.Sort", n)
		}
		if !slices.Equal(keys, orig) {
			t.Errorf("n=%d: sortedCopy changed its input", n)
		}
	}
}

func TestDistinctOf(t *testing.T) {
	sorted := []uint32{1, 1, 2, 5, 5, 5, 9}
	if got := distinctOf(sorted); !slices.Equal(got, []uint32{1, 2, 5, 9}) {
		t.Errorf("distinctOf = %v", got)
	}
	if !slices.Equal(sorted, []uint32{1, 1, 2, 5, 5, 5, 9}) {
		t.Errorf("distinctOf changed its input: %v", sorted)
	}
}
