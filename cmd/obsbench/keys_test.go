package main

import (
	"slices"
	"testing"
)

// TestKeysMatchBaseline checks the generator against the test vectors of
// the baseline's header comment (seed 1).
func TestKeysMatchBaseline(t *testing.T) {
	for _, tc := range []struct {
		dist distribution
		n    int
		want []uint32
	}{
		{distribution{name: "T8", shape: uniformBits, bits: 8}, 8, []uint32{145, 190, 248, 113, 113, 195, 224, 133}},
		{distribution{name: "T24", shape: uniformBits, bits: 24}, 4, []uint32{9505325, 12512141, 16290722, 7455110}},
		{distribution{name: "unique", shape: permutation}, 8, []uint32{4, 3, 2, 7, 5, 6, 0, 1}},
		{distribution{name: "sorted", shape: ascending}, 5, []uint32{0, 1, 2, 3, 4}},
	} {
		if got := tc.dist.keys(tc.n, 1); !slices.Equal(got, tc.want) {
			t.Errorf("%s, n=%d: keys %v, want %v", tc.dist.name, tc.n, got, tc.want)
		}
	}
}

// TestKeysLieInTheirRange checks every distribution's keys against its
// bound, and that unique keys are a permutation.
func TestKeysLieInTheirRange(t *testing.T) {
	const n = 1000
	dists := distributions()
	if len(dists) != maxBits-minBits+1+2 || dists[0].name != "T4" || dists[len(dists)-1].name != "unique" {
		t.Fatalf("distributions %v", dists)
	}
	for _, d := range dists {
		keys := d.keys(n, 7)
		for i, k := range keys {
			if k >= d.bound(n) {
				t.Fatalf("%s: key %d is %d, outside [0, %d)", d.name, i, k, d.bound(n))
			}
		}
		if d.shape == permutation {
			sorted := sortedCopy(keys)
			for i, k := range sorted {
				if k != uint32(i) {
					t.Fatalf("unique keys are not a permutation: sorted, element %d is %d", i, k)
				}
			}
		}
	}
	if slices.Equal(dists[0].keys(n, 1), dists[0].keys(n, 2)) {
		t.Error("seeds 1 and 2 give the same T4 keys")
	}
}
