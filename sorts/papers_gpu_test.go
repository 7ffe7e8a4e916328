package sorts_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// papersGPUSizes are the key counts of the papers' sorts' GPU tests.
var papersGPUSizes = []int{1 << 20, 1<<22 + 1, 1<<24 - 1}

// distinctIn returns n distinct keys of [lo, lo+2n) in random order: one
// of 2i and 2i+1 for every i.
func distinctIn(r *rand.Rand, n int, lo uint32) []uint32 {
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = lo + 2*uint32(i) + r.Uint32N(2)
	}
	r.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return keys
}

// fewIn returns n keys drawn from distinct random values of [lo, lo+span).
func fewIn(r *rand.Rand, n, distinct int, lo, span uint32) []uint32 {
	var values []uint32
	for len(values) < distinct {
		if v := lo + r.Uint32N(span); !slices.Contains(values, v) {
			values = append(values, v)
		}
	}
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = values[r.IntN(distinct)]
	}
	return keys
}

// TestGPUHPSorts runs H-P, 1-H-P and 0-compressed H-P on the GPU on fresh
// random keys (H-P: ranges of 2^8 and 2^20 values; 1-H-P: distinct keys of
// a range twice their number; 0-compressed: 100 distinct values of a range
// of 2^24) and compares with slices.Sort element by element.
func TestGPUHPSorts(t *testing.T) {
	g := gputest.Open(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 21))
	for _, n := range papersGPUSizes {
		lo := r.Uint32N(1 << 20)
		cases := []struct {
			name   string
			sort   func(out, keys *runtime.Buffer[uint32], lo, hi uint32) error
			keys   []uint32
			lo, hi uint32
		}{
			{"H-P 2^8 values", s.HPSort, keysIn(r, n, lo, 1<<8), lo, lo + 1<<8},
			{"H-P 2^20 values", s.HPSort, keysIn(r, n, lo, 1<<20), lo, lo + 1<<20},
			{"1-H-P distinct", s.HPSortDistinct, distinctIn(r, n, lo), lo, lo + 2*uint32(n)},
			{"0-compressed H-P 100 values", s.HPSortFew, fewIn(r, n, 100, lo, 1<<24), lo, lo + 1<<24},
		}
		for _, c := range cases {
			got, err := onBuffers(g, c.keys, func(out, keys *runtime.Buffer[uint32]) error { return c.sort(out, keys, c.lo, c.hi) })
			if err != nil {
				t.Fatalf("%s of %d keys: %v", c.name, n, err)
			}
			if i := firstDiff(got, slices.Sorted(slices.Values(c.keys))); i >= 0 {
				t.Errorf("%s of %d keys: first difference at %d", c.name, n, i)
			}
		}
	}
}

// TestGPUCountSortPairs runs the count sort of pairs on the GPU on fresh
// random pairs (keys of ranges of 2^4, 2^16 and 2^24 values, random
// values) and checks that the keys are those of slices.Sort, element by
// element, and that the pairs are the input's.
func TestGPUCountSortPairs(t *testing.T) {
	g := gputest.Open(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 22))
	for _, n := range papersGPUSizes {
		for _, span := range []uint32{1 << 4, 1 << 16, 1 << 24} {
			lo := r.Uint32N(1 << 20)
			keys, vals := keysIn(r, n, lo, span), keysIn(r, n, 0, ^uint32(0))
			got, err := countSortPairs(g, s, keys, vals, lo, lo+span)
			if err != nil {
				t.Fatalf("count sort of %d pairs over %d values: %v", n, span, err)
			}
			gotKeys := make([]uint32, n)
			for i, p := range got {
				gotKeys[i] = p.key
			}
			if i := firstDiff(gotKeys, slices.Sorted(slices.Values(keys))); i >= 0 {
				t.Errorf("count sort of %d pairs over %d values: keys differ first at %d", n, span, i)
			}
			if ok, why := checkSortedPairs(got, zipPairs(keys, vals)); !ok {
				t.Errorf("count sort of %d pairs over %d values: %s", n, span, why)
			}
		}
	}
}

// TestGPUNotesRadixSort runs the notes' radix sort on the GPU with 1-, 2-
// and 4-bit digits on fresh random keys (of all of uint32, and below 2^8,
// which take fewer passes) and compares with slices.Sort element by
// element.
func TestGPUNotesRadixSort(t *testing.T) {
	g := gputest.Open(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 23))
	for _, n := range papersGPUSizes {
		for _, span := range []uint32{^uint32(0), 1 << 8} {
			keys := keysIn(r, n, 0, span)
			want := slices.Sorted(slices.Values(keys))
			for _, digitBits := range sorts.NotesDigitBits {
				got, err := onBuffers(g, keys, func(out, in *runtime.Buffer[uint32]) error {
					return s.NotesRadixSort(out, in, digitBits)
				})
				if err != nil {
					t.Fatalf("radix sort of %d keys below %d by %d-bit digits: %v", n, span, digitBits, err)
				}
				if i := firstDiff(got, want); i >= 0 {
					t.Errorf("radix sort of %d keys below %d by %d-bit digits: first difference at %d", n, span, digitBits, i)
				}
			}
		}
	}
}
