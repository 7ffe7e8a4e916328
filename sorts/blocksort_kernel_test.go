package sorts_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
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

// blockOrder is how a test's keys map to the bits the kernel sorts: its
// orderings in the DSL and in Go, and a draw of keys.
type blockOrder[U kernels.KeyBits] struct {
	name     string
	to, from kernels.Ordering[U]
	less     func(a, b U) int // the keys' own order
	draw     func(r *rand.Rand) U
}

const sign32 = uint32(1) << 31

// blockOrders32 are the orders of the 32-bit tests: unsigned, int32 (sign
// bit flipped) and float32 (IEEE totalOrder: negative floats' bits
// inverted, positive ones' sign bit set).
var blockOrders32 = []blockOrder[uint32]{
	{"uint32", nil, nil, cmp.Compare[uint32], func(r *rand.Rand) uint32 { return r.Uint32() }},
	{"int32", flipSign, flipSign, func(a, b uint32) int { return cmp.Compare(int32(a), int32(b)) },
		func(r *rand.Rand) uint32 { return r.Uint32() }},
	{"float32", floatToOrder, floatFromOrder, func(a, b uint32) int {
		return cmp.Compare(math.Float32frombits(a), math.Float32frombits(b))
	}, func(r *rand.Rand) uint32 { return math.Float32bits(float32(r.NormFloat64() * 1e3)) }},
}

func flipSign(x dsl.U32) dsl.U32 { return x.Xor(dsl.N(sign32)) }

func floatToOrder(x dsl.U32) dsl.U32 {
	return dsl.Select(x.And(dsl.N(sign32)).Ne(dsl.N(0)), x.Not(), x.Or(dsl.N(sign32)))
}

func floatFromOrder(x dsl.U32) dsl.U32 {
	return dsl.Select(x.And(dsl.N(sign32)).Ne(dsl.N(0)), x.Xor(dsl.N(sign32)), x.Not())
}

// blockOrders64 are the orders of the 64-bit tests: unsigned, and int64
// (sign bit flipped).
var blockOrders64 = []blockOrder[uint64]{
	{"uint64", nil, nil, cmp.Compare[uint64], func(r *rand.Rand) uint64 { return r.Uint64() }},
	{"int64", func(x dsl.Exp[uint64]) dsl.Exp[uint64] { return x.Xor(dsl.Lit(uint64(1) << 63)) },
		func(x dsl.Exp[uint64]) dsl.Exp[uint64] { return x.Xor(dsl.Lit(uint64(1) << 63)) },
		func(a, b uint64) int { return cmp.Compare(int64(a), int64(b)) }, func(r *rand.Rand) uint64 { return r.Uint64() }},
}

// blockShapes are the shapes of keys: random, few values (many equal
// keys), all equal, sorted, reversed.
var blockShapes = []string{"random", "few", "equal", "sorted", "reversed"}

// blockKeys draws n keys of shape by o.
func blockKeys[U kernels.KeyBits](r *rand.Rand, o blockOrder[U], shape string, n int) []U {
	keys := make([]U, n)
	few := []U{o.draw(r), o.draw(r), o.draw(r)}
	for i := range keys {
		switch shape {
		case "few":
			keys[i] = few[r.IntN(len(few))]
		case "equal":
			keys[i] = few[0]
		default:
			keys[i] = o.draw(r)
		}
	}
	switch shape {
	case "sorted":
		slices.SortFunc(keys, o.less)
	case "reversed":
		slices.SortFunc(keys, func(a, b U) int { return o.less(b, a) })
	}
	return keys
}

// runBlockSort sorts keys (with the values vals, unless nil) by kernel k
// on dev and returns the keys and values it wrote.
func runBlockSort[U kernels.KeyBits](dev runtime.Device, k *dsl.Kernel, keys []U, vals []uint32) ([]U, []uint32, error) {
	built, err := k.Build()
	if err != nil {
		return nil, nil, err
	}
	fn, err := dev.Load(built)
	if err != nil {
		return nil, nil, err
	}
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		return nil, nil, err
	}
	defer in.Free()
	out, err := runtime.Alloc[U](dev, len(keys))
	if err != nil {
		return nil, nil, err
	}
	defer out.Free()
	args := []any{in, out}
	var outVals *runtime.Buffer[uint32]
	if vals != nil {
		vb, err := runtime.FromSlice(dev, vals)
		if err != nil {
			return nil, nil, err
		}
		defer vb.Free()
		if outVals, err = runtime.Alloc[uint32](dev, len(vals)); err != nil {
			return nil, nil, err
		}
		defer outVals.Free()
		args = []any{in, vb, out, outVals}
	}
	if err := dev.Launch(fn, runtime.LaunchConfig{}, args...); err != nil {
		return nil, nil, err
	}
	gotKeys, err := out.ToSlice()
	if err != nil || vals == nil {
		return gotKeys, nil, err
	}
	gotVals, err := outVals.ToSlice()
	return gotKeys, gotVals, err
}

// checkBlockSort sorts keys of o by the block sort with bits-bit digits on
// dev (as pairs with their indices as values when pairs) and returns how
// the result differs from Go's stable sort, or "".
func checkBlockSort[U kernels.KeyBits](dev runtime.Device, o blockOrder[U], bits int, pairs bool, keys []U) string {
	var k *dsl.Kernel
	var vals []uint32
	if pairs {
		k = kernels.BlockSortPairsKernel[U, uint32]("blockSortPairs", bits, o.to, o.from)
		vals = make([]uint32, len(keys))
		for i := range vals {
			vals[i] = uint32(i)
		}
	} else {
		k = kernels.BlockSortKernel[U]("blockSort", bits, o.to, o.from)
	}
	gotKeys, gotVals, err := runBlockSort(dev, k, keys, vals)
	what := fmt.Sprintf("%s keys, %d of them, %d-bit digits, pairs %v", o.name, len(keys), bits, pairs)
	if err != nil {
		return what + ": " + err.Error()
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return o.less(keys[a], keys[b]) })
	for j, i := range order {
		if gotKeys[j] != keys[i] {
			return fmt.Sprintf("%s: key %d is %#x, want %#x", what, j, gotKeys[j], keys[i])
		}
		if pairs && gotVals[j] != uint32(i) {
			return fmt.Sprintf("%s: value %d is %d, want %d (not stable)", what, j, gotVals[j], i)
		}
	}
	return ""
}

// TestBlockSortKernelOnCPU checks the block sort against Go's stable sort
// on the evaluator: every length of blockSortLengths up to the limit,
// random, few, equal, sorted and reversed keys, uint32, int32 and float32
// orderings, uint64 and int64, keys alone and pairs (whose values must
// follow their keys stably), digits of 4 and 8 bits.
func TestBlockSortKernelOnCPU(t *testing.T) {
	lengths := blockSortLengths()
	props := gopter.NewProperties(proptest.Parameters(t, 30))
	props.Property("block sort", prop.ForAll(func(l, shape, order int, wide, pairs bool, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 0xb50))
		n := lengths[l]
		if wide {
			o := blockOrders64[order%len(blockOrders64)]
			return checkBlockSort(runtime.CPU(), o, 4, pairs, blockKeys(r, o, blockShapes[shape], n))
		}
		o := blockOrders32[order%len(blockOrders32)]
		bits := 4
		if seed%2 == 0 {
			bits = 8
		}
		return checkBlockSort(runtime.CPU(), o, bits, pairs, blockKeys(r, o, blockShapes[shape], n))
	}, gen.IntRange(0, len(lengths)-1), gen.IntRange(0, len(blockShapes)-1), gen.IntRange(0, 5), gen.Bool(), gen.Bool(),
		gen.UInt64()))
	props.TestingRun(t)
}

// TestBlockSortKernelEveryLength sorts random uint32 pairs of every length
// of blockSortLengths once.
func TestBlockSortKernelEveryLength(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	o := blockOrders32[0]
	for _, n := range blockSortLengths() {
		if msg := checkBlockSort(runtime.CPU(), o, 8, true, blockKeys(r, o, "few", n)); msg != "" {
			t.Error(msg)
		}
	}
}

// TestBlockSortKernelShared checks that a block sort whose arrays do not
// fit 48 KiB of shared memory (64-bit pairs in 8-bit digits) and digits
// of 0 or 9 bits are errors naming the problem when the kernel is built.
func TestBlockSortKernelShared(t *testing.T) {
	for _, c := range []struct {
		k    *dsl.Kernel
		want string
	}{
		{kernels.BlockSortPairsKernel[uint64, uint32]("wide", 8, nil, nil), "64-bit keys with values in digits of 8 bits need"},
		{kernels.BlockSortKernel[uint32]("zero", 0, nil, nil), "digits of 0 bits"},
		{kernels.BlockSortKernel[uint32]("nine", 9, nil, nil), "digits of 9 bits"},
	} {
		_, err := c.k.Build()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Build returned %v, want an error containing %q", c.k.Name(), err, c.want)
		}
	}
}
