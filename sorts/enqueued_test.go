package sorts_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// TestEnqueuedCountingSortsOnCPU enqueues six counting sorts of random
// keys, the third with a key past its range, and checks that the good
// sorts' outputs are sorted, that one Wait reports the bad key naming the
// first ranges and counting the rest, that argument errors come back at
// once, and that a closed Sorter refuses both calls.
func TestEnqueuedCountingSortsOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(proptest.Seed(t), 3))
	if err := s.Wait(); err != nil {
		t.Fatalf("Wait with nothing enqueued: %v", err)
	}
	for i := range 6 {
		lo := uint32(100 * i)
		keys := keysIn(r, 300+r.IntN(700), lo, 64)
		if i == 2 {
			keys[r.IntN(len(keys))] = lo + 64
		}
		got, err := enqueuedSort(dev, s, keys, lo, lo+64)
		if err != nil {
			t.Fatalf("sort %d: %v", i, err)
		}
		if want := slices.Sorted(slices.Values(keys)); i != 2 && !slices.Equal(got, want) {
			t.Errorf("sort %d of %d keys in [%d, %d): not sorted", i, len(keys), lo, lo+64)
		}
	}
	err = s.Wait()
	if !errors.Is(err, sorts.ErrKeyOutOfRange) {
		t.Fatalf("Wait after a bad key: got %v, want ErrKeyOutOfRange", err)
	}
	for _, part := range []string{"6 counting sorts", "[0, 64)", "[300, 364)", "and 2 more"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("Wait's error %q does not say %q", err, part)
		}
	}
	keys, err := runtime.FromSlice(dev, []uint32{3, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	defer keys.Free()
	short, err := runtime.Alloc[uint32](dev, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer short.Free()
	if err := s.EnqueueCountingSort(keys, keys, 5, 5); !errors.Is(err, sorts.ErrBadRange) {
		t.Errorf("an empty range: got %v, want ErrBadRange at once", err)
	}
	if err := s.EnqueueCountingSort(short, keys, 0, 4); err == nil || !strings.Contains(err.Error(), "out") {
		t.Errorf("an output shorter than the keys: got %v, want an error naming out at once", err)
	}
	if err := s.EnqueueCountingSort(keys, keys, 0, 4); err != nil {
		t.Errorf("an in-place sort: %v", err)
	}
	if err := s.Wait(); err != nil {
		t.Errorf("Wait after good sorts and refused ones: %v", err)
	}
	if got, err := keys.ToSlice(); err != nil || !slices.Equal(got, []uint32{1, 2, 3}) {
		t.Errorf("in-place enqueued sort: got %v (%v), want [1 2 3]", got, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.EnqueueCountingSort(keys, keys, 0, 4); !errors.Is(err, sorts.ErrClosed) {
		t.Errorf("EnqueueCountingSort on a closed Sorter: got %v, want ErrClosed", err)
	}
	if err := s.Wait(); !errors.Is(err, sorts.ErrClosed) {
		t.Errorf("Wait on a closed Sorter: got %v, want ErrClosed", err)
	}
}
