package sorts_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// stableArgsort returns the positions of keys in their stable sort by
// field, smallest first or, descending, largest first.
func stableArgsort[K sorts.Key](keys []K, field func(K) uint64, descending bool) []uint32 {
	positions := make([]uint32, len(keys))
	for i := range positions {
		positions[i] = uint32(i)
	}
	slices.SortStableFunc(positions, func(a, b uint32) int {
		if descending {
			a, b = b, a
		}
		return cmp.Compare(field(keys[a]), field(keys[b]))
	})
	return positions
}

// checkSliceSorts sorts keys of K of each length (random, with special
// keys; half of them of a few values only) by ArgsortSlice and by
// SortPairsSlice with 32-bit values (the keys' positions), over all their
// bits and over a random range of them, in both orders, and with 64-bit
// values (the positions' negatives as float64) ascending over every bit
// and descending by the range; it compares each result with a stable Go
// sort, bit for bit.
func checkSliceSorts[K sorts.Key](t *testing.T, s *sorts.Sorter, r *rand.Rand, lengths []int) {
	t.Helper()
	width := 8 * runtime.TypeOf[K]().Size()
	for _, n := range lengths {
		keys := randomKeys[K](r, n, r.IntN(2) == 0)
		positions := make([]uint32, n)
		negatives := make([]float64, n)
		for i := range positions {
			positions[i], negatives[i] = uint32(i), -float64(i)
		}
		begin := r.IntN(width)
		end := begin + 1 + r.IntN(width-begin)
		for _, descending := range []bool{false, true} {
			for _, bits := range []bool{false, true} {
				field, opts := orderOf[K], orderOptions(descending)
				if bits {
					field = func(k K) uint64 { return orderOf(k) >> begin & (1<<(end-begin) - 1) }
					opts = append(opts, sorts.Bits(begin, end))
				}
				where := fmt.Sprintf("%d %T keys (descending %v, bits [%d, %d) %v)", n, *new(K), descending, begin, end, bits)
				want := stableArgsort(keys, field, descending)
				got, err := sorts.ArgsortSlice(s, keys, opts...)
				if err != nil {
					t.Fatalf("ArgsortSlice of %s: %v", where, err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("ArgsortSlice of %s: %v..., want %v...", where, got[:min(8, n)], want[:min(8, n)])
				}
				checkPairsSlice(t, s, "uint32 values of "+where, keys, positions, want, opts...)
				if descending == bits { // 64-bit values: ascending over every bit, and descending by a range of bits
					checkPairsSlice(t, s, "float64 values of "+where, keys, negatives, want, opts...)
				}
			}
		}
	}
}

// checkPairsSlice sorts keys with values by SortPairsSlice with opts and
// checks the result against the keys and values at the positions order,
// bit for bit.
func checkPairsSlice[K sorts.Key, V uint32 | float64](t *testing.T, s *sorts.Sorter, where string, keys []K, values []V,
	order []uint32, opts ...sorts.RadixOption) {
	t.Helper()
	wantKeys, wantValues := make([]K, len(order)), make([]V, len(order))
	for i, p := range order {
		wantKeys[i], wantValues[i] = keys[p], values[p]
	}
	gotKeys, gotValues, err := sorts.SortPairsSlice(s, keys, values, opts...)
	if err != nil {
		t.Fatalf("SortPairsSlice with %s: %v", where, err)
	}
	if msg := sameBits("SortPairsSlice's keys with "+where, gotKeys, wantKeys); msg != "" {
		t.Error(msg)
	}
	if !slices.Equal(gotValues, wantValues) {
		n := len(order)
		t.Errorf("SortPairsSlice's %s: %v..., want %v...", where, gotValues[:min(8, n)], wantValues[:min(8, n)])
	}
}

// TestSliceSortsOfPairs checks ArgsortSlice and SortPairsSlice on the CPU
// evaluator, in tiles of 128 keys and in one block: 0, 1 and 2 keys, keys
// all equal (nothing to sort: the input order), and 2^k±1 and random
// lengths.
func TestSliceSortsOfPairs(t *testing.T) {
	tiled, dev := smallTiles(t)
	block, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer block.Close()
	r := rand.New(rand.NewPCG(proptest.Seed(t), 61))
	checkSliceSorts[uint32](t, tiled, r, []int{0, 1, 2, 127, 100 + r.IntN(200)})
	checkSliceSorts[float32](t, tiled, r, []int{129})
	checkSliceSorts[int64](t, tiled, r, []int{129})
	checkSliceSorts[float64](t, tiled, r, []int{129})
	checkSliceSorts[int32](t, block, r, []int{2, 129})
	checkSliceSorts[uint64](t, block, r, []int{257})
	equal := []int32{7, 7, 7, 7, 7}
	positions, err := sorts.ArgsortSlice(tiled, equal, sorts.Descending())
	if err != nil || !slices.Equal(positions, []uint32{0, 1, 2, 3, 4}) {
		t.Errorf("ArgsortSlice of equal keys = %v, %v; want [0 1 2 3 4], nil", positions, err)
	}
	keys, values, err := sorts.SortPairsSlice(tiled, equal, []uint64{5, 1, 4, 2, 3})
	if err != nil || !slices.Equal(keys, equal) || !slices.Equal(values, []uint64{5, 1, 4, 2, 3}) {
		t.Errorf("SortPairsSlice of equal keys = %v, %v, %v; want the input and nil", keys, values, err)
	}
}

// TestGPUSliceSortsOfPairs is TestSliceSortsOfPairs on the GPU, on fresh
// random keys up to 2^20+3, whose sorts take the radix sort's passes.
func TestGPUSliceSortsOfPairs(t *testing.T) {
	g := gputest.Open(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(proptest.Seed(t), 62))
	lengths := []int{1000, 1<<16 + 1, 1<<20 + 3}
	checkSliceSorts[uint32](t, s, r, lengths)
	checkSliceSorts[float32](t, s, r, lengths)
	checkSliceSorts[int64](t, s, r, lengths)
	checkSliceSorts[float64](t, s, r, lengths)
}
