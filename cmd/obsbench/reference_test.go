package main

import (
	"slices"
	"testing"
)

// TestSortedCopyMatchesSlicesSort checks the parallel sort on sizes below
// and above its parallel threshold, leaving its input alone.
func TestSortedCopyMatchesSlicesSort(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1<<16 + 3, 1 << 18} {
		keys := uniform(12).keys(n, uint64(n))
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

func TestDistinctKeys(t *testing.T) {
	ref := newReference([]uint32{5, 1, 9, 5, 2, 1, 5})
	if got := ref.distinctKeys(); !slices.Equal(got, []uint32{1, 2, 5, 9}) {
		t.Errorf("distinctKeys = %v", got)
	}
	if !slices.Equal(ref.sorted, []uint32{1, 1, 2, 5, 5, 5, 9}) {
		t.Errorf("distinctKeys changed the sorted keys: %v", ref.sorted)
	}
}

// TestSortedCopyOfFloats sorts float32 keys, negative ones included.
func TestSortedCopyOfFloats(t *testing.T) {
	keys := distNamed(t, "F32").(*dist[float32]).keys(1<<17, 3)
	if got := sortedCopy(keys); !slices.IsSorted(got) || got[0] >= 0 || len(got) != len(keys) {
		t.Errorf("sortedCopy of F32: sorted %v, first %v", slices.IsSorted(got), got[0])
	}
}
