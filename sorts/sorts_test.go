package sorts_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	_ "github.com/obsidian-go/obsidian/internal/golden"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// sizeGen gives the sizes the properties need: 0, 1, powers of two and
// their neighbours, and random sizes up to max.
func sizeGen(max int) gopter.Gen {
	var special []any
	special = append(special, 0, 1, 2, 3)
	for p := 4; p <= max; p *= 4 {
		special = append(special, p-1, p, p+1)
	}
	return gen.OneGenOf(gen.OneConstOf(special...), gen.IntRange(0, max))
}

// keysIn returns n random keys in [lo, lo+span).
func keysIn(r *rand.Rand, n int, lo, span uint32) []uint32 {
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = lo + r.Uint32N(span)
	}
	return keys
}

func uniqueSorted(keys []uint32) []uint32 {
	s := slices.Clone(keys)
	slices.Sort(s)
	return slices.Compact(s)
}

// checkAll runs every function of a Sorter made with opts on random data
// against plain Go, for cases cases of at most maxN keys.
func checkAll(t *testing.T, dev runtime.Device, cases, maxN int, opts ...sorts.Option) {
	s, err := sorts.New(dev, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	spanGen := gen.OneGenOf(gen.OneConstOf(uint32(1), uint32(2), uint32(16), uint32(1<<16)), gen.UInt32Range(1, 1<<20))
	type input struct {
		keys     []uint32
		lo, span uint32
	}
	inputs := gopter.CombineGens(sizeGen(maxN), gen.UInt32(), spanGen, gen.UInt64()).Map(func(v []any) input {
		n, lo, span, seed := v[0].(int), v[1].(uint32), v[2].(uint32), v[3].(uint64)
		lo = min(lo, ^uint32(0)-span) // keep [lo, lo+span) inside uint32
		return input{keysIn(rand.New(rand.NewPCG(seed, 1)), n, lo, span), lo, span}
	})
	props.Property("counting sort equals slices.Sort", prop.ForAll(func(in input) (bool, error) {
		got, err := s.SortRange(in.keys, in.lo, in.lo+in.span)
		want := slices.Sorted(slices.Values(in.keys))
		return slices.Equal(got, want) || len(got) == 0 && len(want) == 0, err
	}, inputs))
	props.Property("counting sort with the range found equals slices.Sort", prop.ForAll(func(in input) (bool, error) {
		got, err := s.Sort(in.keys)
		want := slices.Sorted(slices.Values(in.keys))
		return slices.Equal(got, want) || len(got) == 0 && len(want) == 0, err
	}, inputs))
	props.Property("enqueued counting sort equals slices.Sort, and Wait finds no key out of range", prop.ForAll(
		func(in input) (bool, error) {
			got, err := enqueuedSort(dev, s, in.keys, in.lo, in.lo+in.span)
			if err == nil {
				err = s.Wait()
			}
			want := slices.Sorted(slices.Values(in.keys))
			return slices.Equal(got, want) || len(got) == 0 && len(want) == 0, err
		}, inputs))
	props.Property("occurrence sort equals sorted and deduplicated", prop.ForAll(func(in input) (bool, error) {
		got, err := s.SortUniqueRange(in.keys, in.lo, in.lo+in.span)
		want := uniqueSorted(in.keys)
		return slices.Equal(got, want) || len(got) == 0 && len(want) == 0, err
	}, inputs))
	props.Property("scan equals a sequential prefix sum", prop.ForAll(func(in input) (bool, error) {
		buf, err := runtime.FromSlice(dev, in.keys)
		if err != nil {
			return false, err
		}
		defer buf.Free()
		out, err := runtime.Alloc[uint32](dev, len(in.keys)+1)
		if err != nil {
			return false, err
		}
		defer out.Free()
		if err := s.ScanExclusive(out, buf); err != nil {
			return false, err
		}
		got, err := out.ToSlice()
		want := make([]uint32, len(in.keys)+1)
		for i, k := range in.keys {
			want[i+1] = want[i] + k
		}
		return slices.Equal(got, want), err
	}, inputs))
	props.Property("histogram equals a counted map", prop.ForAll(func(in input) (bool, error) {
		keys, err := runtime.FromSlice(dev, in.keys)
		if err != nil {
			return false, err
		}
		defer keys.Free()
		bins, err := runtime.Alloc[uint32](dev, int(in.span))
		if err != nil {
			return false, err
		}
		defer bins.Free()
		if err := s.Histogram(bins, keys, in.lo); err != nil {
			return false, err
		}
		got, err := bins.ToSlice()
		counts := map[uint32]uint32{}
		for _, k := range in.keys {
			counts[k-in.lo]++
		}
		for i, c := range got {
			if counts[uint32(i)] != c {
				return false, err
			}
		}
		return true, err
	}, inputs))
	props.TestingRun(t)
}

// enqueuedSort sorts keys with EnqueueCountingSort into the middle of a
// device buffer with guard words on both sides, and returns what it wrote
// there once the guards are found intact.
func enqueuedSort(dev runtime.Device, s *sorts.Sorter, keys []uint32, lo, hi uint32) ([]uint32, error) {
	const guards, guard = 5, 0xDEADBEEF
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	outer, err := runtime.FromSlice(dev, slices.Repeat([]uint32{guard}, len(keys)+2*guards))
	if err != nil {
		return nil, err
	}
	defer outer.Free()
	if err := s.EnqueueCountingSort(outer.View(guards, len(keys)), in, lo, hi); err != nil {
		return nil, err
	}
	all, err := outer.ToSlice()
	if err != nil {
		return nil, err
	}
	for i, w := range append(all[:guards:guards], all[guards+len(keys):]...) {
		if w != guard {
			return nil, fmt.Errorf("enqueued counting sort of %d keys in [%d, %d) wrote guard word %d outside its output", len(keys), lo, hi, i)
		}
	}
	return all[guards : guards+len(keys)], nil
}

// checkOutOfRange gives a key at hi, past the range, and checks every
// function that takes a range reports it, on a Sorter made with opts.
func checkOutOfRange(t *testing.T, dev runtime.Device, n int, opts ...sorts.Option) {
	s, err := sorts.New(dev, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(uint64(n), 7))
	for _, lo := range []uint32{0, 1000} {
		keys := keysIn(r, n, lo, 256)
		keys[r.IntN(n)] = lo + 256 // == hi
		if _, err := s.SortRange(keys, lo, lo+256); !errors.Is(err, sorts.ErrKeyOutOfRange) {
			t.Errorf("counting sort of a key at hi: got %v, want ErrKeyOutOfRange", err)
		}
		if _, err := s.SortUniqueRange(keys, lo, lo+256); !errors.Is(err, sorts.ErrKeyOutOfRange) {
			t.Errorf("occurrence sort of a key at hi: got %v, want ErrKeyOutOfRange", err)
		}
		// Enqueued, the sort reports nothing, and the next Wait reports it
		// once; the one after that reports the sorts after it alone.
		if _, err := enqueuedSort(dev, s, keys, lo, lo+256); err != nil {
			t.Errorf("enqueued counting sort of a key at hi: got %v, want no error before Wait", err)
		}
		if err := s.Wait(); !errors.Is(err, sorts.ErrKeyOutOfRange) || !strings.Contains(err.Error(), fmt.Sprintf("[%d, %d)", lo, lo+256)) {
			t.Errorf("Wait after an enqueued counting sort of a key at hi: got %v, want ErrKeyOutOfRange naming the range", err)
		}
		if err := s.Wait(); err != nil {
			t.Errorf("a second Wait: got %v, want nil", err)
		}
		if lo > 0 {
			keys[r.IntN(n)] = lo - 1 // below lo
			if _, err := s.SortRange(keys, lo, lo+256); !errors.Is(err, sorts.ErrKeyOutOfRange) {
				t.Errorf("counting sort of a key below lo: got %v, want ErrKeyOutOfRange", err)
			}
		}
	}
}

func TestSortsOnCPU(t *testing.T) {
	checkAll(t, runtime.CPU(), 12, 20000)
}

func TestKeyOutOfRangeOnCPU(t *testing.T) {
	checkOutOfRange(t, runtime.CPU(), 3000)
}

func TestEdgeCasesOnCPU(t *testing.T) {
	s, err := sorts.New(runtime.CPU())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, keys := range [][]uint32{{}, {7}, {5, 5, 5, 5}, {0}, {^uint32(0), ^uint32(0) - 1}} {
		got, err := s.Sort(keys)
		if err != nil {
			t.Fatalf("%v: %v", keys, err)
		}
		if want := slices.Sorted(slices.Values(keys)); !slices.Equal(got, want) && len(keys) > 0 {
			t.Errorf("Sort(%v) = %v", keys, got)
		}
		got, err = s.SortUnique(keys)
		if err != nil {
			t.Fatalf("%v: %v", keys, err)
		}
		if want := uniqueSorted(keys); !slices.Equal(got, want) && len(keys) > 0 {
			t.Errorf("SortUnique(%v) = %v", keys, got)
		}
	}
	if _, err := s.SortRange([]uint32{1}, 5, 5); err == nil {
		t.Error("an empty range was accepted")
	}
}
