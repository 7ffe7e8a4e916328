package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/half"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// digitShift is where the digits of the multisplit tests' keys start:
// below it each key holds its index, so that the keys are distinct and
// equal outputs mean a stable multisplit. Above the digit's bits a key
// holds noise, which the digit's mask must drop.
const digitShift = 16

// digitOf is the digit function of the multisplit tests.
func digitOf(key dsl.U32) dsl.U32 { return key.Shr(dsl.N(digitShift)) }

// distribution draws the digits of a test: by name, how many distinct
// digits appear and how often.
type distribution struct {
	name  string
	digit func(r *rand.Rand, bits int) uint32
}

var distributions = []distribution{
	{"all digits", func(r *rand.Rand, bits int) uint32 { return r.Uint32N(1 << bits) }},
	{"one digit", func(r *rand.Rand, bits int) uint32 { return (1 << bits) - 1 }},
	{"two digits", func(r *rand.Rand, bits int) uint32 { return uint32(r.IntN(2)) << (bits - 1) }},
	{"skewed", func(r *rand.Rand, bits int) uint32 { // mostly 0, a few of the others
		if r.IntN(8) != 0 {
			return 0
		}
		return r.Uint32N(1 << bits)
	}},
}

// digitKeys returns n distinct keys whose digits follow dist.
func digitKeys(seed uint64, n, bits int, dist distribution) []uint32 {
	r := rand.New(rand.NewPCG(seed, 0xd161))
	keys := make([]uint32, n)
	for i := range keys {
		noise := r.Uint32() << (digitShift + bits)
		if bits+digitShift >= 32 {
			noise = 0
		}
		keys[i] = noise | dist.digit(r, bits)<<digitShift | uint32(i)
	}
	return keys
}

// multisplitKernel returns a one-block kernel that writes the Ranks, the
// keys scattered by them, the Counts and the Offsets of the BlockMultisplit
// of its input by digitOf. With a bound above 0 the keys are first copied
// to shared memory of bound elements, so that their length has a constant
// bound and the multisplit keeps partial ranks.
func multisplitKernel(threads, bits, bound int) *dsl.Kernel {
	k := dsl.NewKernel("multisplit", threads)
	in := dsl.Input[uint32](k, "keys")
	ranks, sorted := dsl.Output[uint32](k, "ranks"), dsl.Output[uint32](k, "sorted")
	counts, offsets := dsl.Output[uint32](k, "counts"), dsl.Output[uint32](k, "offsets")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			keys := arrays.FromArray(in)
			if bound > 0 {
				keys = arrays.ComputeInto(b, dsl.Shared[uint32](b, bound), keys)
			}
			m := arrays.BlockMultisplit(b, bits, keys, digitOf)
			arrays.WriteTo(b, ranks, m.Ranks())
			arrays.WriteTo(b, sorted, arrays.ScatterByRank(m.Ranks(), keys))
			arrays.WriteTo(b, counts, arrays.ToPush[*dsl.Block](m.Counts()))
			arrays.WriteTo(b, offsets, arrays.ToPush[*dsl.Block](m.Offsets()))
		})
	})
	return k
}

// countingSort returns the positions of the keys in their stable
// counting sort by digit, the sorted keys, and the digits' counts and
// offsets.
func countingSort(keys []uint32, bits int) (ranks, sorted, counts, offsets []uint32) {
	digit := func(k uint32) uint32 { return k >> digitShift & (1<<bits - 1) }
	counts, offsets = make([]uint32, 1<<bits), make([]uint32, 1<<bits)
	for _, k := range keys {
		counts[digit(k)]++
	}
	for d := 1; d < len(counts); d++ {
		offsets[d] = offsets[d-1] + counts[d-1]
	}
	next := append([]uint32(nil), offsets...)
	ranks, sorted = make([]uint32, len(keys)), make([]uint32, len(keys))
	for i, k := range keys {
		ranks[i] = next[digit(k)]
		next[digit(k)]++
		sorted[ranks[i]] = k
	}
	return ranks, sorted, counts, offsets
}

// checkMultisplit runs multisplitKernel on keys, with the keys' length
// unbounded and bounded, and compares it with the stable counting sort.
func checkMultisplit(dev runtime.Device, threads, bits int, keys []uint32) string {
	for _, bound := range []int{0, len(keys) + 7} {
		if msg := checkMultisplitBound(dev, threads, bits, bound, keys); msg != "" {
			return msg
		}
	}
	return ""
}

// checkMultisplitBound is checkMultisplit for one bound.
func checkMultisplitBound(dev runtime.Device, threads, bits, bound int, keys []uint32) string {
	got, err := run(dev, multisplitKernel(threads, bits, bound), keys, len(keys), len(keys), 1<<bits, 1<<bits)
	where := fmt.Sprintf("Multisplit of %d keys (bound %d) by %d bits, %d threads: ", len(keys), bound, bits, threads)
	if err != nil {
		return where + err.Error()
	}
	ranks, sorted, counts, offsets := countingSort(keys, bits)
	for _, d := range []string{differ("ranks", got[0], ranks), differ("sorted", got[1], sorted),
		differ("counts", got[2], counts), differ("offsets", got[3], offsets)} {
		if d != "" {
			return where + d
		}
	}
	return ""
}

// TestMultisplitEqualsCountingSort checks BlockMultisplit's Ranks, a
// ScatterByRank of the keys, Counts and Offsets against the stable
// counting sort, for digits of 1 to 8 bits drawn from every distribution,
// blocks of an even and an odd number of warps, and lengths around tiles
// and up to 2^12 keys.
func TestMultisplitEqualsCountingSort(t *testing.T) {
	dev := runtime.CPU()
	for bits := 1; bits <= arrays.MaxDigitBits; bits++ {
		for i, n := range []int{1, 31, 33, 100} {
			dist := distributions[(bits+i)%len(distributions)]
			threads := []int{64, 96}[i%2]
			if msg := checkMultisplit(dev, threads, bits, digitKeys(uint64(n), n, bits, dist)); msg != "" {
				t.Errorf("%s: %s", dist.name, msg)
			}
		}
	}
	// The largest blocks: 32 warps (counters padded to 33 per digit) and 31.
	for _, threads := range []int{1024, 992} {
		keys := digitKeys(uint64(threads), 3000, arrays.MaxDigitBits, distributions[0])
		if msg := checkMultisplit(dev, threads, arrays.MaxDigitBits, keys); msg != "" {
			t.Error(msg)
		}
	}
	props := gopter.NewProperties(proptest.Parameters(t, 25))
	props.Property("Multisplit equals the stable counting sort", prop.ForAll(
		func(n, warps, bits, dist int, seed uint64) string {
			d := distributions[dist]
			if msg := checkMultisplit(dev, warps*ir.WarpSize, bits, digitKeys(seed, n, bits, d)); msg != "" {
				return d.name + ": " + msg
			}
			return ""
		},
		gen.IntRange(1, 1<<12), gen.IntRange(1, 8), gen.IntRange(1, arrays.MaxDigitBits),
		gen.IntRange(0, len(distributions)-1), gen.UInt64()))
	props.TestingRun(t)
}

// TestMultisplitOfNothing checks that no keys have all-zero counts and
// offsets.
func TestMultisplitOfNothing(t *testing.T) {
	if msg := checkMultisplit(runtime.CPU(), 64, 3, nil); msg != "" {
		t.Error(msg)
	}
}

// boundKernel returns a one-block kernel that splits keys with a constant
// bound by the low bits bits of each: keys(b, in) builds them from the
// input. It writes their ranks and counts.
func boundKernel(bits int, keys func(b *dsl.Block, in dsl.Array[uint32]) arrays.Pull[uint32]) *dsl.Kernel {
	k := dsl.NewKernel("boundMultisplit", 64)
	in := dsl.Input[uint32](k, "keys")
	ranks, counts := dsl.Output[uint32](k, "ranks"), dsl.Output[uint32](k, "counts")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			m := arrays.BlockMultisplit(b, bits, keys(b, in), digitOf)
			arrays.WriteTo(b, ranks, m.Ranks())
			arrays.WriteTo(b, counts, arrays.ToPush[*dsl.Block](m.Counts()))
		})
	})
	return k
}

// TestMultisplitOfABrokenBound checks keys whose constant bound is broken
// at run time (a Take longer than the array it takes from): only the keys
// up to the bound are split, and nothing is read past it. And keys of the
// constant length 0.
func TestMultisplitOfABrokenBound(t *testing.T) {
	const bits, bound, n = 3, 50, 100
	keys := digitKeys(7, n, bits, distributions[0])
	k := boundKernel(bits, func(b *dsl.Block, in dsl.Array[uint32]) arrays.Pull[uint32] {
		tile := arrays.ComputeInto(b, dsl.Shared[uint32](b, bound), arrays.Take(dsl.N(bound), arrays.FromArray(in)))
		return arrays.Take(in.Len(), tile) // longer than the tile: a broken bound
	})
	got, err := run(runtime.CPU(), k, keys, n, 1<<bits)
	if err != nil {
		t.Fatal(err)
	}
	ranks, _, counts, _ := countingSort(keys[:bound], bits)
	if d := differ("ranks", got[0][:bound], ranks) + differ("counts", got[1], counts); d != "" {
		t.Error(d)
	}
	k = boundKernel(bits, func(_ *dsl.Block, in dsl.Array[uint32]) arrays.Pull[uint32] {
		return arrays.Take(dsl.N(0), arrays.FromArray(in))
	})
	got, err = run(runtime.CPU(), k, keys, n, 1<<bits)
	if err != nil {
		t.Fatal(err)
	}
	if d := differ("counts of no keys", got[1], make([]uint32, 1<<bits)); d != "" {
		t.Error(d)
	}
}

// TestMultisplitHeldOnWithoutBarrier checks that counters zeroed by
// NewMultisplitCounters and counted by BlockMultisplitHeldOn with no
// barrier between make the evaluator report a race, at the line of the
// program that ranks.
func TestMultisplitHeldOnWithoutBarrier(t *testing.T) {
	k := dsl.NewKernel("noBarrier", 64)
	in, out := dsl.Input[uint32](k, "keys"), dsl.Output[uint32](k, "ranks")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			counters := arrays.NewMultisplitCounters(b, 4)
			held := arrays.NewHeld[uint32](b, 2, dsl.N(128))
			held.Load(b, arrays.FromArray(in))
			m := arrays.BlockMultisplitHeldOn(b, counters, held, digitOf) // bad: counted with no barrier since the zeroing
			m.Ranks().Run(b, out.Store)
		})
	})
	keys := make([]uint32, 128)
	for i := range keys {
		keys[i] = uint32(i*7919) % 4096
	}
	_, err := run(runtime.CPU(), k, keys, 128)
	where := fmt.Sprintf("multisplit_test.go:%d", markerLine(t, "multisplit_test.go", "counted with no barrier since the zeroing"))
	if err == nil || !strings.Contains(err.Error(), "race") || !strings.Contains(err.Error(), where) {
		t.Fatalf("got %v, want a race reported at %s", err, where)
	}
}

// TestMultisplitHeldOfHalfKeys checks a held multisplit of keys of a
// storage float type, whose digit function converts them, against the
// stable counting sort.
func TestMultisplitHeldOfHalfKeys(t *testing.T) {
	const n, bits = 200, 4
	k := dsl.NewKernel("halfKeys", 64)
	in, out := dsl.Input[uint32](k, "keys"), dsl.Output[uint32](k, "ranks")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			held := arrays.NewHeld[half.Float16](b, 4, dsl.N(n))
			held.Load(b, arrays.Map(arrays.FromArray(in), func(x dsl.U32) dsl.Exp[half.Float16] {
				return dsl.Cast[half.Float16](dsl.Cast[float32](x))
			}))
			m := arrays.BlockMultisplitHeld(b, bits, held, func(x dsl.Exp[half.Float16]) dsl.U32 {
				return dsl.Cast[uint32](dsl.Cast[float32](x))
			})
			m.Ranks().Run(b, out.Store)
		})
	})
	r := rand.New(rand.NewPCG(proptest.Seed(t), 7))
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = r.Uint32N(1 << bits)
	}
	got, err := run(runtime.CPU(), k, keys, n)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _, _ := countingSort(keysAtDigitShift(keys), bits)
	if d := differ("ranks", got[0], want); d != "" {
		t.Error(d)
	}
}

// keysAtDigitShift returns the digits moved to where digitOf reads them.
func keysAtDigitShift(digits []uint32) []uint32 {
	keys := make([]uint32, len(digits))
	for i, d := range digits {
		keys[i] = d << digitShift
	}
	return keys
}
