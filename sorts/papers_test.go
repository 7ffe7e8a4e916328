package sorts_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"

	"github.com/obsidian-go/obsidian/runtime"
)

// The inputs of the papers' sorts' properties: lengths 0, 1, odd, 2^k±1
// and random, keys of a random range drawn at random, from a few values,
// all equal, or distinct.

// keyShape is how an input's keys are drawn from its range.
type keyShape int

const (
	anyKeys keyShape = iota
	fewKeys
	equalKeys
	distinctKeys
)

func (k keyShape) String() string {
	return [...]string{"random", "few distinct", "all equal", "distinct"}[k]
}

// papersInput is a sort's input: keys in [lo, lo+span).
type papersInput struct {
	keys     []uint32
	lo, span uint32
	shape    keyShape
}

func (in papersInput) String() string {
	return fmt.Sprintf("%d %s keys in [%d, %d+%d)", len(in.keys), in.shape, in.lo, in.lo, in.span)
}

// papersSizeGen gives lengths up to max: 0, 1, 2^k-1, 2^k, 2^k+1 and
// random ones.
func papersSizeGen(max int) gopter.Gen {
	special := []any{0, 1, 2, 3}
	for p := 4; p <= max; p *= 2 {
		special = append(special, p-1, p, p+1)
	}
	return gen.OneGenOf(gen.OneConstOf(special...), gen.IntRange(0, max))
}

// papersInputs generates inputs of at most maxN keys over ranges of at
// most maxSpan values, of the given shapes.
func papersInputs(maxN int, maxSpan uint32, shapes ...keyShape) gopter.Gen {
	shapeGen := gen.IntRange(0, len(shapes)-1).Map(func(i int) keyShape { return shapes[i] })
	spanGen := gen.OneGenOf(gen.OneConstOf(uint32(1), uint32(2), uint32(16)), gen.UInt32Range(1, maxSpan))
	return gopter.CombineGens(papersSizeGen(maxN), gen.UInt32(), spanGen, shapeGen, gen.UInt64()).Map(func(v []any) papersInput {
		n, lo, span, shape, seed := v[0].(int), v[1].(uint32), v[2].(uint32), v[3].(keyShape), v[4].(uint64)
		lo = min(lo, ^uint32(0)-span) // keep [lo, lo+span) inside uint32
		r := rand.New(rand.NewPCG(seed, 5))
		in := papersInput{lo: lo, span: span, shape: shape}
		switch shape {
		case anyKeys:
			in.keys = keysIn(r, n, lo, span)
		case fewKeys:
			few := keysIn(r, 1+r.IntN(4), lo, span)
			in.keys = make([]uint32, n)
			for i := range in.keys {
				in.keys[i] = few[r.IntN(len(few))]
			}
		case equalKeys:
			in.keys = make([]uint32, n)
			k := lo + r.Uint32N(span)
			for i := range in.keys {
				in.keys[i] = k
			}
		case distinctKeys:
			in.span = max(span, uint32(n))
			in.lo = min(lo, ^uint32(0)-in.span)
			// One key in each of n strides of the range, shuffled.
			stride := in.span / max(uint32(n), 1)
			in.keys = make([]uint32, n)
			for i := range in.keys {
				in.keys[i] = in.lo + uint32(i)*stride + r.Uint32N(stride)
			}
			r.Shuffle(n, func(i, j int) { in.keys[i], in.keys[j] = in.keys[j], in.keys[i] })
		default:
			panic(fmt.Sprintf("unknown key shape %d", shape))
		}
		return in
	})
}

// onBuffers copies keys to dev, runs sort into an output of the same
// length, and returns the output.
func onBuffers(dev runtime.Device, keys []uint32, sort func(out, keys *runtime.Buffer[uint32]) error) ([]uint32, error) {
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.FromSlice(dev, keysIn(rand.New(rand.NewPCG(uint64(len(keys)), 9)), len(keys), 0, 1<<31))
	if err != nil {
		return nil, err
	}
	defer out.Free()
	if err := sort(out, in); err != nil {
		return nil, err
	}
	return out.ToSlice()
}

// containsAll reports whether s contains every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
