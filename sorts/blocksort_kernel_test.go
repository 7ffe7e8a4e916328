package sorts_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// blockSortLengths are the lengths the block sort is checked at: the
// smallest, around a warp, around powers of two up to the limit.
func blockSortLengths() []int {
	ls := []int{0, 1, 2, 31, 32, 33}
	for p := 64; p <= kernels.BlockSortMaxKeys; p *= 2 {
		ls = append(ls, p-1, p)
		if p < kernels.BlockSortMaxKeys {
			ls = append(ls, p+1)
		}
	}
	return ls
}

// blockShapes are the shapes of keys: random (special keys mixed in), few
// values (many equal keys), all equal, sorted, reversed.
var blockShapes = []string{"random", "few", "equal", "sorted", "reversed"}

// blockKeys draws n keys of K of shape.
func blockKeys[K sorts.Key](r *rand.Rand, shape string, n int) []K {
	keys := randomKeys[K](r, n, false)
	few := randomKeys[K](r, 3, false)
	for i := range keys {
		switch shape {
		case "few":
			keys[i] = few[r.IntN(len(few))]
		case "equal":
			keys[i] = few[0]
		}
	}
	byOrder := func(a, b K) int { return cmp.Compare(orderOf(a), orderOf(b)) }
	switch shape {
	case "sorted":
		slices.SortFunc(keys, byOrder)
	case "reversed":
		slices.SortFunc(keys, func(a, b K) int { return byOrder(b, a) })
	}
	return keys
}

// blockCase is a key type the block sort is checked with: check sorts
// keys of the type drawn by shape, by the bits [begin, end) (clamped to
// the type's), in place or not, and returns how the result differs from
// Go's, or "".
type blockCase struct {
	name  string
	check func(s *sorts.Sorter, dev runtime.Device, r *rand.Rand, shape string, n, begin, end int, inPlace bool) string
}

// blockCaseOf returns the blockCase of K.
func blockCaseOf[K sorts.Key]() blockCase {
	var k K
	width := 8 * runtime.TypeOf[K]().Size()
	return blockCase{fmt.Sprintf("%T", k), func(s *sorts.Sorter, dev runtime.Device, r *rand.Rand, shape string, n, begin, end int,
		inPlace bool) string {
		begin, end = min(begin, width-1), min(end, width)
		if end <= begin {
			end = width
		}
		return checkBlockSort(s, dev, blockKeys[K](r, shape, n), begin, end, inPlace)
	}}
}

// blockCases are the key types of the block sort's tests.
var blockCases = []blockCase{blockCaseOf[uint32](), blockCaseOf[int32](), blockCaseOf[float32](), blockCaseOf[uint64](),
	blockCaseOf[int64](), blockCaseOf[float64]()}

// checkBlockSort sorts keys (at most kernels.BlockSortMaxKeys, which s
// sorts in one block) by the bits [begin, end) of their order by
// RadixSort, SortPairs with 64-bit values and Argsort, in place when
// inPlace, and returns how they differ from Go's stable sort of the same
// bits, or "".
func checkBlockSort[K sorts.Key](s *sorts.Sorter, dev runtime.Device, keys []K, begin, end int, inPlace bool) string {
	n := len(keys)
	what := fmt.Sprintf("%d %T keys by bits [%d, %d), in place %v", n, *new(K), begin, end, inPlace)
	field := func(k K) uint64 {
		f := orderOf(k) >> begin
		if end-begin < 64 {
			f &= 1<<(end-begin) - 1
		}
		return f
	}
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortStableFunc(order, func(a, b uint32) int { return cmp.Compare(field(keys[a]), field(keys[b])) })
	want := make([]K, n)
	values := make([]uint64, n)
	wantValues := make([]uint64, n)
	for j, i := range order {
		want[j] = keys[i]
		values[j] = uint64(j)<<32 | 0xfeed
		wantValues[j] = uint64(i)<<32 | 0xfeed
	}
	bits := sorts.Bits(begin, end)
	msg, err := onDevice(dev, keys, inPlace, func(in, out *runtime.Buffer[K]) error { return sorts.RadixSort(s, out, in, bits) },
		func(got []K) string { return sameBits("RadixSort of "+what, got, want) })
	if msg := failed(msg, err); msg != "" {
		return msg
	}
	vals, err := runtime.FromSlice(dev, values)
	if err != nil {
		return err.Error()
	}
	defer vals.Free()
	outVals := vals
	if !inPlace {
		if outVals, err = runtime.Alloc[uint64](dev, n); err != nil {
			return err.Error()
		}
		defer outVals.Free()
	}
	msg, err = onDevice(dev, keys, inPlace, func(in, out *runtime.Buffer[K]) error {
		return sorts.SortPairs(s, out, outVals, in, vals, bits)
	}, func(got []K) string {
		gotValues, err := outVals.ToSlice()
		if err != nil {
			return err.Error()
		}
		if !slices.Equal(gotValues, wantValues) {
			return fmt.Sprintf("SortPairs of %s: values %x..., want %x...", what, gotValues[:min(4, n)], wantValues[:min(4, n)])
		}
		return sameBits("SortPairs of "+what, got, want)
	})
	if msg := failed(msg, err); msg != "" {
		return msg
	}
	positions, err := runtime.Alloc[uint32](dev, n)
	if err != nil {
		return err.Error()
	}
	defer positions.Free()
	msg, err = onDevice(dev, keys, false, func(in, _ *runtime.Buffer[K]) error { return sorts.Argsort(s, positions, in, bits) },
		func([]K) string {
			got, err := positions.ToSlice()
			if err != nil {
				return err.Error()
			}
			if !slices.Equal(got, order) {
				return fmt.Sprintf("Argsort of %s: %v..., want %v...", what, got[:min(8, n)], order[:min(8, n)])
			}
			return ""
		})
	return failed(msg, err)
}

// failed returns err's message, or msg when err is nil.
func failed(msg string, err error) string {
	if err != nil {
		return err.Error()
	}
	return msg
}

// onDevice copies keys to dev, runs sort from them into an output (the
// same buffer when inPlace) and returns what check says of the output.
func onDevice[K sorts.Key](dev runtime.Device, keys []K, inPlace bool, sort func(in, out *runtime.Buffer[K]) error,
	check func(got []K) string) (string, error) {
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		return "", err
	}
	defer in.Free()
	out := in
	if !inPlace {
		if out, err = runtime.Alloc[K](dev, len(keys)); err != nil {
			return "", err
		}
		defer out.Free()
	}
	if err := sort(in, out); err != nil {
		return "", err
	}
	got, err := out.ToSlice()
	if err != nil {
		return "", err
	}
	return check(got), nil
}

// blockSortShapes are the block shapes the block sort's tests take besides
// the default (the zero shape): digits of 3 to 8 bits, one warp of 4 keys
// each to 128 threads of 16, ranked by votes or by counters; keys beyond
// a shape's tile go to the radix sort's passes.
var blockSortShapes = []kernels.RadixShape{{}, {Threads: 32, PerThread: 4, Bits: 5}, {Threads: 64, PerThread: 8, Bits: 6},
	{Threads: 128, PerThread: 16, Bits: 8}, {Threads: 32, PerThread: 4, Bits: 5, Rank: kernels.RankByCounters},
	{Threads: 64, PerThread: 8, Bits: 3, Rank: kernels.RankByCounters}, {Threads: 128, PerThread: 16, Bits: 4, Rank: kernels.RankByCounters}}

// rankSortWarps are the rank sort's warps the block sort's tests take: 0
// for the default (on the evaluator, the block sort), and rank sorts
// forced in blocks of the fewest to the most warps (which leave sorts in
// place to the block sort).
var rankSortWarps = []int{0, kernels.RankSortMinWarps, 3, 13, kernels.RankSortMaxWarps}

// TestBlockSortOnCPU checks the one-launch sorts (RadixSort, SortPairs and
// Argsort of up to kernels.BlockSortMaxKeys keys: the radix sort in one
// block and the rank sort) against Go's stable sort on the evaluator:
// every key type, every length of blockSortLengths (up to 2049 for the
// rank sort, whose n^2 comparisons take the evaluator seconds at 8192),
// random (with ±0, NaNs, ±Inf and subnormals), few, equal, sorted and
// reversed keys, every bit or a random range of them, in place or not, in
// blocks of every shape of blockSortShapes and rank sorts of every
// rankSortWarps.
func TestBlockSortOnCPU(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lengths := blockSortLengths()
	props := gopter.NewProperties(proptest.Parameters(t, 30))
	props.Property("block sort", prop.ForAll(func(kind, l, shape, begin, span, block, rank int, inPlace bool, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 0xb50))
		if span == 0 {
			begin, span = 0, 64
		}
		n, how := lengths[l], fmt.Sprintf("block shape %+v", blockSortShapes[block])
		s.SetBlockShape(blockSortShapes[block])
		s.SetRankSortWarps(rankSortWarps[rank])
		if rankSortWarps[rank] > 0 {
			s.SetBlockShape(kernels.RadixShape{})
			n, how = min(n, 2049), fmt.Sprintf("rank sort of %d warps", rankSortWarps[rank])
		}
		if msg := blockCases[kind].check(s, dev, r, blockShapes[shape], n, begin, begin+span, inPlace); msg != "" {
			return how + ": " + msg
		}
		return ""
	}, gen.IntRange(0, len(blockCases)-1), gen.IntRange(0, len(lengths)-1), gen.IntRange(0, len(blockShapes)-1),
		gen.IntRange(0, 40), gen.IntRange(0, 24), gen.IntRange(0, len(blockSortShapes)-1),
		gen.IntRange(0, len(rankSortWarps)-1), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}
