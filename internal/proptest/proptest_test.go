package proptest

import (
	"strconv"
	"testing"
)

// TestSeedReplays checks that Seed returns $OBSIDIAN_SEED when it is set,
// including seeds past the range of int64, and a fresh seed otherwise.
func TestSeedReplays(t *testing.T) {
	for _, want := range []uint64{1, 1795541091297746928, 1<<64 - 1} {
		t.Setenv(SeedVar, strconv.FormatUint(want, 10))
		if got := Seed(t); got != want {
			t.Errorf("with %s=%d: Seed returned %d", SeedVar, want, got)
		}
	}
	t.Setenv(SeedVar, "")
	if Seed(t) == Seed(t) {
		t.Error("two seeds without the variable are equal")
	}
}

// TestParametersReplay checks that the same $OBSIDIAN_SEED gives gopter
// the same seed.
func TestParametersReplay(t *testing.T) {
	t.Setenv(SeedVar, "18446744073709551615")
	a, b := Parameters(t, 1), Parameters(t, 1)
	if a.Rng.Int63() != b.Rng.Int63() {
		t.Error("one seed gave two generators")
	}
}
