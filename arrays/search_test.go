package arrays_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// searchKernel returns a kernel that looks every query up in the sorted
// array with LowerBound and UpperBound.
func searchKernel[T dsl.Number]() *dsl.Kernel {
	k := dsl.NewKernel("search", 128)
	sorted, queries := dsl.Input[T](k, "sorted"), dsl.Input[T](k, "queries")
	lower, upper := dsl.Output[uint32](k, "lower"), dsl.Output[uint32](k, "upper")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(queries.Len(), func(t *dsl.Thread, i dsl.U32) {
			a := arrays.FromArray(sorted)
			lower.Store(t, i, arrays.LowerBound(t, a, queries.At(i)))
			upper.Store(t, i, arrays.UpperBound(t, a, queries.At(i)))
		})
	})
	return k
}

// searchAll runs searchKernel on dev.
func searchAll[T dsl.Number](dev runtime.Device, sorted, queries []T) (lower, upper []uint32, err error) {
	kernel, err := searchKernel[T]().Build()
	if err != nil {
		return nil, nil, err
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		return nil, nil, err
	}
	sb, err := runtime.FromSlice(dev, sorted)
	if err != nil {
		return nil, nil, err
	}
	defer sb.Free()
	qb, err := runtime.FromSlice(dev, queries)
	if err != nil {
		return nil, nil, err
	}
	defer qb.Free()
	lb, err := runtime.Alloc[uint32](dev, len(queries))
	if err != nil {
		return nil, nil, err
	}
	defer lb.Free()
	ub, err := runtime.Alloc[uint32](dev, len(queries))
	if err != nil {
		return nil, nil, err
	}
	defer ub.Free()
	if err := dev.Launch(fn, runtime.LaunchConfig{}, sb, qb, lb, ub); err != nil {
		return nil, nil, err
	}
	if lower, err = lb.ToSlice(); err != nil {
		return nil, nil, err
	}
	upper, err = ub.ToSlice()
	return lower, upper, err
}

// checkSearch compares searchKernel with sort.Search for a sorted array
// of n values drawn from value and queries drawn likewise and from the
// array itself.
func checkSearch[T dsl.Number](dev runtime.Device, n int, seed uint64, value func(r *rand.Rand) T) string {
	r := rand.New(rand.NewPCG(seed, 1))
	sorted := make([]T, n)
	for i := range sorted {
		sorted[i] = value(r)
	}
	slices.SortFunc(sorted, cmp.Compare)
	queries := make([]T, 200)
	for i := range queries {
		if n > 0 && i%2 == 0 {
			queries[i] = sorted[r.IntN(n)]
		} else {
			queries[i] = value(r)
		}
	}
	lower, upper, err := searchAll(dev, sorted, queries)
	if err != nil {
		return err.Error()
	}
	for i, x := range queries {
		lo := sort.Search(n, func(j int) bool { return sorted[j] >= x })
		hi := sort.Search(n, func(j int) bool { return sorted[j] > x })
		if int(lower[i]) != lo || int(upper[i]) != hi {
			return fmt.Sprintf("%d sorted values, query %v: bounds [%d, %d), sort.Search gives [%d, %d)", n, x,
				lower[i], upper[i], lo, hi)
		}
	}
	return ""
}

// TestSearchEqualsSortSearch checks LowerBound and UpperBound against
// sort.Search on random sorted arrays of up to 2^12 values, with many
// duplicates (values of a small range) or few, signed and unsigned.
func TestSearchEqualsSortSearch(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 30))
	props.Property("LowerBound and UpperBound equal sort.Search", prop.ForAll(
		func(n int, seed uint64, span uint32) string {
			if msg := checkSearch(dev, n, seed, func(r *rand.Rand) uint32 { return r.Uint32N(span) }); msg != "" {
				return "uint32: " + msg
			}
			if msg := checkSearch(dev, n, seed, func(r *rand.Rand) int32 {
				return int32(r.Uint32N(span)) - int32(span/2)
			}); msg != "" {
				return "int32: " + msg
			}
			return ""
		},
		gen.IntRange(0, 1<<12), gen.UInt64(), gen.UInt32Range(1, 1<<31)))
	props.TestingRun(t)
	for _, n := range []int{0, 1, 2, 3} {
		if msg := checkSearch(dev, n, 7, func(r *rand.Rand) uint32 { return r.Uint32N(3) }); msg != "" {
			t.Error(msg)
		}
	}
	if msg := checkSearch(dev, 1000, 8, func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }); msg != "" {
		t.Error("float32: " + msg)
	}
}
