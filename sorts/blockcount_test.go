package sorts_test

import (
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

// blockCountShapes are the shapes the block counting sort's tests force
// besides the default (the zero shape): one warp of one key each to 128
// threads of 16.
var blockCountShapes = []kernels.BlockCountShape{{}, {Threads: 32, PerThread: 1}, {Threads: 32, PerThread: 5},
	{Threads: 96, PerThread: 3}, {Threads: 128, PerThread: 16}}

// countKeys draws n keys in [lo, lo+bins) of the given distribution:
// uniform, a few values, one hot value among uniform ones, all equal, the
// range's two ends only, sorted or reversed.
func countKeys(r *rand.Rand, dist string, n int, lo uint32, bins uint64) []uint32 {
	in := func() uint32 { return lo + uint32(r.Uint64N(bins)) }
	few := []uint32{in(), in(), in()}
	keys := make([]uint32, n)
	for i := range keys {
		switch dist {
		case "few":
			keys[i] = few[r.IntN(len(few))]
		case "hot":
			keys[i] = few[0]
			if r.IntN(10) == 0 {
				keys[i] = in()
			}
		case "equal":
			keys[i] = few[0]
		case "ends":
			keys[i] = lo + uint32(bins-1)*uint32(r.IntN(2))
		default:
			keys[i] = in()
		}
	}
	switch dist {
	case "sorted":
		slices.Sort(keys)
	case "reversed":
		slices.Sort(keys)
		slices.Reverse(keys)
	}
	return keys
}

// countDists are countKeys' distributions.
var countDists = []string{"uniform", "few", "hot", "equal", "ends", "sorted", "reversed"}

// sortKeysOnDevice copies keys to dev, sorts them with SortKeys told [lo,
// last] into a view of a larger buffer (or in place), and returns the
// sorted keys, or how the call failed or wrote outside the view.
func sortKeysOnDevice(s *sorts.Sorter, dev runtime.Device, keys []uint32, lo, last uint32, inPlace bool) ([]uint32, string) {
	const guard, poison = 64, 0xdeadbeef
	n := len(keys)
	whole, err := runtime.Alloc[uint32](dev, n+2*guard)
	if err != nil {
		return nil, err.Error()
	}
	defer whole.Free()
	if err := whole.Fill(poison); err != nil {
		return nil, err.Error()
	}
	out := whole.View(guard, n)
	in := out
	if err := out.CopyFrom(keys); err != nil {
		return nil, err.Error()
	}
	if !inPlace {
		if in, err = runtime.FromSlice(dev, keys); err != nil {
			return nil, err.Error()
		}
		defer in.Free()
		if err := out.Fill(poison); err != nil {
			return nil, err.Error()
		}
	}
	if err := s.SortKeys(out, in, lo, last); err != nil {
		return nil, err.Error()
	}
	all, err := whole.ToSlice()
	if err != nil {
		return nil, err.Error()
	}
	for i, k := range all {
		if (i < guard || i >= guard+n) && k != poison {
			return nil, fmt.Sprintf("wrote %d at %d, outside the output", k, i-guard)
		}
	}
	return all[guard : guard+n], ""
}

// TestBlockCountOnCPU checks the block counting sort on the evaluator
// (checkBlockCount).
func TestBlockCountOnCPU(t *testing.T) { checkBlockCount(t, runtime.CPU(), 40) }

// checkBlockCount checks SortKeys by the block counting sort against
// slices.Sort on dev, in cases random cases: every length of
// blockSortLengths that the shape's tile takes, ranges of 1 to
// kernels.BlockCountMaxBins values anywhere in uint32 (its top included),
// every distribution of countDists, in place or not, in every shape of
// blockCountShapes; it checks that the block counting sort was picked
// (with the default shape, where kernels.BlockCountShapeFor takes the
// keys) and that nothing was written outside the output.
func checkBlockCount(t *testing.T, dev runtime.Device, cases int) {
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lengths := blockSortLengths()
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	props.Property("block counting sort", prop.ForAll(func(l, shape, dist int, binsLog, binsOff int, top, inPlace bool,
		seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 0xc0))
		s.SetBlockCountShape(blockCountShapes[shape])
		bins := min(max(uint64(1)<<binsLog+uint64(binsOff)-2, 1), kernels.BlockCountMaxBins)
		lo := uint32(r.Uint64N(1<<32 - bins + 1))
		if top {
			lo = uint32(1<<32 - bins)
		}
		last := uint32(uint64(lo) + bins - 1)
		n := lengths[l]
		if tile := blockCountShapes[shape].Tile(); tile > 0 {
			n = min(n, tile)
		}
		what := fmt.Sprintf("%d %s keys in [%d, %d], shape %+v, in place %v", n, countDists[dist], lo, last,
			blockCountShapes[shape], inPlace)
		_, counts := kernels.BlockCountShapeFor(n, bins)
		if n > 0 && (counts || blockCountShapes[shape] != kernels.BlockCountShape{}) && s.Picked(n, bins) != "blockCount" {
			return what + ": picked " + s.Picked(n, bins)
		}
		keys := countKeys(r, countDists[dist], n, lo, bins)
		got, msg := sortKeysOnDevice(s, dev, keys, lo, last, inPlace)
		if msg != "" {
			return what + ": " + msg
		}
		if msg := checkSorted("SortKeys", got, keys); msg != "" {
			return what + ": " + msg
		}
		return ""
	}, gen.IntRange(0, len(lengths)-1), gen.IntRange(0, len(blockCountShapes)-1), gen.IntRange(0, len(countDists)-1),
		gen.IntRange(0, 12), gen.IntRange(0, 3), gen.Bool(), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}

// TestBlockCountKeyOutsideTheRange checks a key outside the range on the
// evaluator (checkBlockCountStray).
func TestBlockCountKeyOutsideTheRange(t *testing.T) { checkBlockCountStray(t, runtime.CPU()) }

// checkBlockCountStray checks that keys outside the range SortKeys was
// told (one, two, or one in eight), by one below lo or past last, make the
// block counting sort on dev leave the keys as they were, all of them and
// nothing outside the output, in place or not.
func checkBlockCountStray(t *testing.T, dev runtime.Device) {
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.SetBlockCountShape(kernels.BlockCountShape{Threads: 512, PerThread: 16})
	r := rand.New(rand.NewPCG(5, 11))
	const lo, last = 1000, 1099
	for _, n := range []int{1, 33, 1000, kernels.BlockSortMaxKeys} {
		for _, stray := range []uint32{lo - 1, last + 1, 0, ^uint32(0)} {
			for _, inPlace := range []bool{false, true} {
				if got := s.Picked(n, last-lo+1); got != "blockCount" {
					t.Fatalf("%d keys: picked %s", n, got)
				}
				for _, strays := range []int{1, 2, 1 + n/8} {
					keys := countKeys(r, "uniform", n, lo, last-lo+1)
					for range strays {
						keys[r.IntN(n)] = stray
					}
					got, msg := sortKeysOnDevice(s, dev, keys, lo, last, inPlace)
					if msg != "" {
						t.Fatalf("%d keys with %d of %d, in place %v: %s", n, strays, stray, inPlace, msg)
					}
					if !slices.Equal(got, keys) {
						t.Fatalf("%d keys with %d of %d, in place %v: the keys changed", n, strays, stray, inPlace)
					}
				}
			}
		}
	}
}
