package arrays_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// counter is CountBefore's signature, which CountBeforeNarrow shares.
type counter[T dsl.Number] func(t *dsl.Thread, a arrays.Pull[T], lo, hi dsl.U32, x dsl.Exp[T], i dsl.U32) dsl.U32

// countBeforeKernel returns a kernel that ranks every value among all of
// them by count (CountBefore or CountBeforeNarrow) over the parts the
// cuts make ([cuts[p], cuts[p+1]) for each p), summing the parts' counts.
func countBeforeKernel[T dsl.Number](count counter[T]) *dsl.Kernel {
	k := dsl.NewKernel("countBefore", 64)
	values, cuts := dsl.Input[T](k, "values"), dsl.Input[uint32](k, "cuts")
	ranks := dsl.Output[uint32](k, "ranks")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(values.Len(), func(t *dsl.Thread, e dsl.U32) {
			x := dsl.Let(t, values.At(e)).Exp
			rank := dsl.Let(t, dsl.N(0))
			t.For(cuts.Len().Sub(dsl.N(1)), func(t *dsl.Thread, p dsl.U32) {
				rank.Set(rank.Add(count(t, arrays.FromArray(values), cuts.At(p), cuts.At(p.Add(dsl.N(1))), x, e)))
			})
			ranks.Store(t, e, rank.Exp)
		})
	})
	return k
}

// checkCountBefore ranks n values drawn from value, cut into parts parts
// at random, by countBeforeKernel of CountBefore on dev and compares the
// ranks with the places of a stable sort in Go.
func checkCountBefore[T dsl.Number](dev runtime.Device, n, parts int, seed uint64, value func(r *rand.Rand) T) string {
	return checkCounter(dev, arrays.CountBefore[T], n, parts, seed, value)
}

// checkCounter is checkCountBefore of count.
func checkCounter[T dsl.Number](dev runtime.Device, count counter[T], n, parts int, seed uint64, value func(r *rand.Rand) T) string {
	r := rand.New(rand.NewPCG(seed, 2))
	values := make([]T, n)
	for i := range values {
		values[i] = value(r)
	}
	cuts := []uint32{0, uint32(n)}
	for range parts - 1 {
		cuts = append(cuts, uint32(r.IntN(n+1)))
	}
	slices.Sort(cuts)
	want := make([]uint32, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(values[a], values[b]) })
	for place, i := range order {
		want[i] = uint32(place)
	}
	got, err := countBefore(dev, count, values, cuts)
	if err != nil {
		return err.Error()
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Sprintf("%d values in parts cut at %v: value %d (%v) ranked %d, a stable sort puts it at %d", n, cuts, i,
				values[i], got[i], want[i])
		}
	}
	return ""
}

// countBefore runs countBeforeKernel of count on dev and returns its
// ranks.
func countBefore[T dsl.Number](dev runtime.Device, count counter[T], values []T, cuts []uint32) ([]uint32, error) {
	vb, err := runtime.FromSlice(dev, values)
	if err != nil {
		return nil, err
	}
	defer vb.Free()
	cb, err := runtime.FromSlice(dev, cuts)
	if err != nil {
		return nil, err
	}
	defer cb.Free()
	rb, err := runtime.Alloc[uint32](dev, len(values))
	if err != nil {
		return nil, err
	}
	defer rb.Free()
	if err := launch(dev, countBeforeKernel(count), vb, cb, rb); err != nil {
		return nil, err
	}
	return rb.ToSlice()
}

// TestCountBeforeRanksStably checks that CountBefore summed over parts
// that cover an array gives each element its place in a stable sort, for
// arrays of up to 300 values with many or few duplicates cut into 1 to 5
// parts (some empty), signed, unsigned and float values of 32 and 64 bits
// (read in groups of four and of two).
func TestCountBeforeRanksStably(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 30))
	props.Property("CountBefore summed over parts is the stable sort's place", prop.ForAll(
		func(n, parts int, seed uint64, span uint32) string {
			if msg := checkCountBefore(dev, n, parts, seed, func(r *rand.Rand) uint32 { return r.Uint32N(span) }); msg != "" {
				return "uint32: " + msg
			}
			if msg := checkCountBefore(dev, n, parts, seed, func(r *rand.Rand) int32 {
				return int32(r.Uint32N(span)) - int32(span/2)
			}); msg != "" {
				return "int32: " + msg
			}
			if msg := checkCountBefore(dev, n, parts, seed, func(r *rand.Rand) uint64 {
				return uint64(r.Uint32N(span)) << 31
			}); msg != "" {
				return "uint64: " + msg
			}
			if msg := checkCountBefore(dev, n, parts, seed, func(r *rand.Rand) float64 { return float64(r.IntN(int(span%9)+1)) - 4 }); msg != "" {
				return "float64: " + msg
			}
			return checkCountBefore(dev, n, parts, seed, func(r *rand.Rand) float32 { return float32(r.IntN(int(span%9)+1)) - 4 })
		},
		gen.IntRange(0, 300), gen.IntRange(1, 5), gen.UInt64(), gen.UInt32Range(1, 1<<31)))
	props.TestingRun(t)
}

// TestCountBeforeNarrowRanksStably checks CountBeforeNarrow as
// TestCountBeforeRanksStably checks CountBefore, on uint32 and uint64
// values in the lower half of their range: few or many duplicates, a few
// neighbouring values, and values at the half's top, where x+1 is the
// half itself.
func TestCountBeforeNarrowRanksStably(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 30))
	props.Property("CountBeforeNarrow summed over parts is the stable sort's place", prop.ForAll(
		func(n, parts int, seed uint64, span uint32) string {
			if msg := checkCounter(dev, arrays.CountBeforeNarrow[uint32], n, parts, seed, func(r *rand.Rand) uint32 {
				return math.MaxInt32 - r.Uint32N(span)
			}); msg != "" {
				return "uint32 at the top: " + msg
			}
			if msg := checkCounter(dev, arrays.CountBeforeNarrow[uint32], n, parts, seed, func(r *rand.Rand) uint32 {
				return r.Uint32N(span)
			}); msg != "" {
				return "uint32: " + msg
			}
			if msg := checkCounter(dev, arrays.CountBeforeNarrow[uint32], n, parts, seed, func(r *rand.Rand) uint32 {
				return r.Uint32N(span%8 + 1)
			}); msg != "" {
				return "uint32 of a few neighbouring values: " + msg
			}
			return checkCounter(dev, arrays.CountBeforeNarrow[uint64], n, parts, seed, func(r *rand.Rand) uint64 {
				return math.MaxInt64 - uint64(r.Uint32N(span))<<31
			})
		},
		gen.IntRange(0, 300), gen.IntRange(1, 5), gen.UInt64(), gen.UInt32Range(1, 1<<31)))
	props.TestingRun(t)
}
