package sorts_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// openGPU returns GPU 0, or skips the test saying why there is none.
func openGPU(t *testing.T) *runtime.GPU {
	t.Helper()
	g, err := runtime.Open(0)
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// TestGPUSortsMatchCPU runs every Sorter function on the GPU and on the CPU
// evaluator on the same fresh random data and compares them element by
// element.
func TestGPUSortsMatchCPU(t *testing.T) {
	g := openGPU(t)
	checkAll(t, g, 25, 100000)
}

func TestGPUKeyOutOfRange(t *testing.T) {
	checkOutOfRange(t, openGPU(t), 1<<20)
}

// TestGPULarge sorts 2^25+3 keys (or $OBSIDIAN_SORT_N) of the ranges 2^4,
// 2^16 and 2^24 on the GPU and checks against slices.Sort.
func TestGPULarge(t *testing.T) {
	g := openGPU(t)
	n := 1<<25 + 3
	if v := os.Getenv("OBSIDIAN_SORT_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 3))
	for _, bits := range []uint{4, 16, 24} {
		keys := keysIn(r, n, 0, 1<<bits)
		want := slices.Sorted(slices.Values(keys))
		got, err := s.SortRange(keys, 0, 1<<bits)
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, want); i >= 0 {
			t.Fatalf("counting sort of %d keys < 2^%d: first difference at %d", n, bits, i)
		}
		got, err = s.SortUniqueRange(keys, 0, 1<<bits)
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, slices.Compact(want)); i >= 0 {
			t.Fatalf("occurrence sort of %d keys < 2^%d: first difference at %d", n, bits, i)
		}
		got, err = s.Sort(keys)
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, slices.Sorted(slices.Values(keys))); i >= 0 {
			t.Fatalf("counting sort (range found) of %d keys < 2^%d: first difference at %d", n, bits, i)
		}
		t.Logf("n=%d range 2^%d: counting, occurrence and found-range sorts match slices.Sort", n, bits)
	}
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff(a, b []uint32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// TestGPUSanitizerWorkload is the run compute-sanitizer (memcheck,
// racecheck) checks: counting and occurrence sort of 2^20 keys, and a key
// past the range.
func TestGPUSanitizerWorkload(t *testing.T) {
	g := openGPU(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 5))
	keys := keysIn(r, 1<<20, 0, 1<<16)
	want := slices.Sorted(slices.Values(keys))
	got, err := s.SortRange(keys, 0, 1<<16)
	if err != nil || firstDiff(got, want) >= 0 {
		t.Fatalf("counting sort: err %v, first difference at %d", err, firstDiff(got, want))
	}
	got, err = s.SortUniqueRange(keys, 0, 1<<16)
	if err != nil || firstDiff(got, slices.Compact(want)) >= 0 {
		t.Fatalf("occurrence sort: err %v", err)
	}
	keys[12345] = 1 << 16
	if _, err := s.SortRange(keys, 0, 1<<16); !errors.Is(err, sorts.ErrKeyOutOfRange) {
		t.Fatalf("key at hi: got %v, want ErrKeyOutOfRange", err)
	}
}
