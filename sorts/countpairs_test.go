package sorts_test

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// pair is a key and its value.
type pair struct{ key, val uint32 }

// countSortPairs runs CountSortPairs on dev on keys and vals and returns
// the output pairs.
func countSortPairs(dev runtime.Device, s *sorts.Sorter, keys, vals []uint32, lo, hi uint32) ([]pair, error) {
	bufs := make([]*runtime.Buffer[uint32], 4)
	for i, src := range [][]uint32{keys, vals, keysIn(rand.New(rand.NewPCG(1, 2)), len(keys), 0, 1<<31), make([]uint32, len(keys))} {
		b, err := runtime.FromSlice(dev, src)
		if err != nil {
			return nil, err
		}
		defer b.Free()
		bufs[i] = b
	}
	if err := s.CountSortPairs(bufs[2], bufs[3], bufs[0], bufs[1], lo, hi); err != nil {
		return nil, err
	}
	outKeys, err := bufs[2].ToSlice()
	if err != nil {
		return nil, err
	}
	outVals, err := bufs[3].ToSlice()
	if err != nil {
		return nil, err
	}
	return zipPairs(outKeys, outVals), nil
}

func zipPairs(keys, vals []uint32) []pair {
	p := make([]pair, len(keys))
	for i := range keys {
		p[i] = pair{keys[i], vals[i]}
	}
	return p
}

func comparePairs(a, b pair) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.val, b.val)) }

// checkSortedPairs reports whether got is sorted by key and holds the same
// pairs as in, and if not, why.
func checkSortedPairs(got, in []pair) (bool, string) {
	if !slices.IsSortedFunc(got, func(a, b pair) int { return cmp.Compare(a.key, b.key) }) {
		return false, "keys not sorted"
	}
	if !slices.Equal(slices.SortedFunc(slices.Values(got), comparePairs), slices.SortedFunc(slices.Values(in), comparePairs)) {
		return false, "the pairs differ from the input's"
	}
	return true, ""
}

// checkCountPairs checks CountSortPairs: its keys are sorted and its pairs
// are the input's.
func checkCountPairs(t *testing.T, dev runtime.Device, cases, maxN int, maxSpan uint32) {
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	props.Property("count sort of pairs sorts the keys and keeps the pairs", prop.ForAll(func(in papersInput) (bool, error) {
		vals := keysIn(rand.New(rand.NewPCG(uint64(len(in.keys)), uint64(in.lo))), len(in.keys), 0, ^uint32(0))
		got, err := countSortPairs(dev, s, in.keys, vals, in.lo, in.lo+in.span)
		if err != nil {
			return false, err
		}
		ok, why := checkSortedPairs(got, zipPairs(in.keys, vals))
		if !ok {
			t.Logf("count sort of %v: %s", in, why)
		}
		return ok, nil
	}, papersInputs(maxN, maxSpan, anyKeys, fewKeys, equalKeys, distinctKeys)))
	props.TestingRun(t)
}

func TestCountSortPairs(t *testing.T) {
	checkCountPairs(t, runtime.CPU(), 30, 600, 3000)
}

// TestCountSortPairsKeyOutOfRange checks that a key outside the range is
// reported and that nothing is written past the outputs.
func TestCountSortPairsKeyOutOfRange(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, bad := range []uint32{0, 9, 20, ^uint32(0)} {
		keys := []uint32{15, 12, bad, 10, 19}
		in, _ := runtime.FromSlice(dev, keys)
		vals, _ := runtime.FromSlice(dev, []uint32{1, 2, 3, 4, 5})
		outs := make([]*runtime.Buffer[uint32], 2)
		guard := []uint32{0xdead, 0xbeef}
		for i := range outs {
			outs[i], _ = runtime.FromSlice(dev, append(make([]uint32, len(keys)), guard...))
		}
		err := s.CountSortPairs(outs[0].View(0, len(keys)), outs[1].View(0, len(keys)), in, vals, 10, 20)
		if !errors.Is(err, sorts.ErrKeyOutOfRange) {
			t.Errorf("key %d outside [10, 20): error %v, want ErrKeyOutOfRange", bad, err)
		}
		for _, o := range outs {
			if tail, _ := o.View(len(keys), 2).ToSlice(); !slices.Equal(tail, guard) {
				t.Errorf("key %d: wrote past an output: %v", bad, tail)
			}
			o.Free()
		}
		in.Free()
		vals.Free()
	}
}
