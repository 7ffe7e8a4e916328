package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// aggregateThreads is the block size of the aggregation kernels: two
// warps.
const aggregateThreads = 2 * ir.WarpSize

// aggregation is the input of the aggregation kernels: a key and a value
// per lane, and per warp the number of its lanes that hold one (the
// others hold garbage the results must not depend on).
type aggregation[K dsl.Integer, T dsl.Number] struct {
	keys   []K
	xs     []T
	valids []uint32
}

// aggregateKernel returns a kernel in which every lane runs WarpAggregate
// (or, runs, WarpAggregateRuns) under o on its key and value, with its
// warp's valid count, and writes whether it leads its group and, if it
// does, the group's total (0 where it does not).
func aggregateKernel[K dsl.Integer, T dsl.Number](o operator[T], runs bool) *dsl.Kernel {
	if runs {
		return aggregateKernelOf(o, arrays.WarpAggregateRuns[K, T])
	}
	return aggregateKernelOf(o, arrays.WarpAggregate[K, T])
}

// aggregateKernelOf is aggregateKernel running the aggregation aggregate.
func aggregateKernelOf[K dsl.Integer, T dsl.Number](o operator[T],
	aggregate func(*dsl.Thread, arrays.Op[T], dsl.Exp[K], dsl.Exp[T], dsl.U32) (dsl.Bool, dsl.Exp[T])) *dsl.Kernel {
	k := dsl.NewKernel("aggregate", aggregateThreads)
	keys, xs, valids := dsl.Input[K](k, "keys"), dsl.Input[T](k, "xs"), dsl.Input[uint32](k, "valids")
	leaders, totals := dsl.Output[uint32](k, "leaders"), dsl.Output[T](k, "totals")
	k.Body(func(g *dsl.Grid) {
		n := keys.Len()
		g.ForAllBlocks(dsl.CeilDiv(n, dsl.N(aggregateThreads)), func(b *dsl.Block, bid dsl.U32) {
			b.ForAll(dsl.N(aggregateThreads), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, bid.Mul(dsl.N(aggregateThreads)).Add(tid)).Exp
				in := i.Lt(n)
				key := dsl.Select(in, keys.At(i), dsl.Const[K](0))
				x := dsl.Select(in, xs.At(i), dsl.Const[T](0))
				valid := dsl.Select(in, valids.At(dsl.WarpOf(i)), dsl.N(0))
				leader, total := aggregate(t, o.op, key, x, valid)
				t.If(in, func(t *dsl.Thread) {
					leaders.Store(t, i, dsl.Cast[uint32](leader))
					totals.Store(t, i, dsl.Select(leader, total, dsl.Const[T](0)))
				})
			})
		})
	})
	return k
}

// matchKernel returns a kernel in which every lane writes the MatchAny of
// its key.
func matchKernel[K dsl.Integer]() *dsl.Kernel {
	k := dsl.NewKernel("matchAny", aggregateThreads)
	keys, masks := dsl.Input[K](k, "keys"), dsl.Output[uint32](k, "masks")
	k.Body(func(g *dsl.Grid) {
		n := keys.Len()
		g.ForAllBlocks(dsl.CeilDiv(n, dsl.N(aggregateThreads)), func(b *dsl.Block, bid dsl.U32) {
			b.ForAll(dsl.N(aggregateThreads), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, bid.Mul(dsl.N(aggregateThreads)).Add(tid)).Exp
				peers := dsl.MatchAny(t, dsl.Select(i.Lt(n), keys.At(i), dsl.Const[K](0)))
				t.If(i.Lt(n), func(t *dsl.Thread) { masks.Store(t, i, peers) })
			})
		})
	})
	return k
}

// on runs aggregateKernel on dev and returns its leaders and totals.
func (a aggregation[K, T]) on(dev runtime.Device, k *dsl.Kernel) (leaders []uint32, totals []T, err error) {
	keys, err := runtime.FromSlice(dev, a.keys)
	if err != nil {
		return nil, nil, err
	}
	defer keys.Free()
	xs, err := runtime.FromSlice(dev, a.xs)
	if err != nil {
		return nil, nil, err
	}
	defer xs.Free()
	valids, err := runtime.FromSlice(dev, a.valids)
	if err != nil {
		return nil, nil, err
	}
	defer valids.Free()
	lb, err := runtime.Alloc[uint32](dev, len(a.keys))
	if err != nil {
		return nil, nil, err
	}
	defer lb.Free()
	tb, err := runtime.Alloc[T](dev, len(a.keys))
	if err != nil {
		return nil, nil, err
	}
	defer tb.Free()
	if err := launch(dev, k, keys, xs, valids, lb, tb); err != nil {
		return nil, nil, err
	}
	if leaders, err = lb.ToSlice(); err != nil {
		return nil, nil, err
	}
	totals, err = tb.ToSlice()
	return leaders, totals, err
}

// matches runs matchKernel on dev and returns its masks.
func matches[K dsl.Integer](dev runtime.Device, keys []K) ([]uint32, error) {
	kb, err := runtime.FromSlice(dev, keys)
	if err != nil {
		return nil, err
	}
	defer kb.Free()
	mb, err := runtime.Alloc[uint32](dev, len(keys))
	if err != nil {
		return nil, err
	}
	defer mb.Free()
	if err := launch(dev, matchKernel[K](), kb, mb); err != nil {
		return nil, err
	}
	return mb.ToSlice()
}

// model returns what aggregateKernel computes, in Go: in each warp, the
// lanes below its valid count grouped by key (runs: runs of equal keys),
// the first lane of each group leading it with the fold of the group's
// values in lane order.
func (a aggregation[K, T]) model(apply func(x, y T) T, runs bool) (leaders []uint32, totals []T) {
	leaders, totals = make([]uint32, len(a.keys)), make([]T, len(a.keys))
	for w, v := range a.valids {
		lanes := a.keys[w*ir.WarpSize : (w+1)*ir.WarpSize][:min(int(v), ir.WarpSize)]
		for l, key := range lanes {
			if runs && l > 0 && lanes[l-1] == key || !runs && slices.Contains(lanes[:l], key) {
				continue
			}
			i := w*ir.WarpSize + l
			leaders[i], totals[i] = 1, a.xs[i]
			for m := l + 1; m < len(lanes) && (!runs || lanes[m] == key); m++ {
				if lanes[m] == key {
					totals[i] = apply(totals[i], a.xs[w*ir.WarpSize+m])
				}
			}
		}
	}
	return leaders, totals
}

// keyDraw draws a key from r.
type keyDraw[K dsl.Integer] func(r *rand.Rand) K

// newAggregation returns warps warps of keys drawn by draw (each warp's
// keys sorted when sorted), values for o and valid counts from 1 to
// ir.WarpSize.
func newAggregation[K dsl.Integer, T dsl.Number](r *rand.Rand, o operator[T], draw keyDraw[K], warps int,
	sorted bool) aggregation[K, T] {
	a := aggregation[K, T]{keys: make([]K, warps*ir.WarpSize), xs: make([]T, warps*ir.WarpSize),
		valids: make([]uint32, warps)}
	for i := range a.keys {
		a.keys[i], a.xs[i] = draw(r), o.value(r)
	}
	for w := range a.valids {
		a.valids[w] = uint32(1 + r.IntN(ir.WarpSize))
		if sorted {
			slices.Sort(a.keys[w*ir.WarpSize : (w+1)*ir.WarpSize])
		}
	}
	return a
}

// check runs both aggregations of a under o on dev and compares them with
// the model.
func (a aggregation[K, T]) check(dev runtime.Device, o operator[T]) string {
	for _, runs := range []bool{false, true} {
		leaders, totals, err := a.on(dev, aggregateKernel[K](o, runs))
		what := fmt.Sprintf("%s, runs %v, keys %v, valid %v: ", o.name, runs, a.keys, a.valids)
		if err != nil {
			return what + err.Error()
		}
		wantLeaders, wantTotals := a.model(o.apply, runs)
		if d := differ("leaders", leaders, wantLeaders) + differ("totals", totals, wantTotals); d != "" {
			return what + d
		}
	}
	return ""
}

// aggregateLaw is the property that both aggregations equal the model for
// the operators ops, keys from the draws, in up to four warps, sorted or
// not.
func aggregateLaw[K dsl.Integer, T dsl.Number](t *testing.T, name string, ops []operator[T], draws []keyDraw[K],
	cases int) {
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	props.Property(name, prop.ForAll(func(op, draw, warps int, sorted bool, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 0xa66))
		return newAggregation(r, ops[op], draws[draw], warps, sorted).check(runtime.CPU(), ops[op])
	}, gen.IntRange(0, len(ops)-1), gen.IntRange(0, len(draws)-1), gen.IntRange(1, 4), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}

// alphabet returns a draw of keys among n values spread over K.
func alphabet[K dsl.Integer](n int, spread uint64) keyDraw[K] {
	return func(r *rand.Rand) K { return K(uint64(r.IntN(n)) * spread) }
}

// anyKey draws any key of K.
func anyKey[K dsl.Integer](r *rand.Rand) K { return K(r.Uint64()) }

// TestWarpAggregateLaws checks WarpAggregate and WarpAggregateRuns against
// the sequential fold of each group in lane order, for keys from small and
// large alphabets (sorted within the warp or not; runs of the unsorted
// keys are groups of WarpAggregateRuns), every valid count, and add, max,
// min, xor and two operators that are not commutative; with 64-bit keys
// that differ only in their high half, and 8-bit keys, which MatchAny
// takes widened.
func TestWarpAggregateLaws(t *testing.T) {
	aggregateLaw(t, "uint32 keys", u32Ops, []keyDraw[uint32]{alphabet[uint32](2, 1), alphabet[uint32](5, 1),
		alphabet[uint32](40, 1e8), anyKey[uint32]}, 60)
	aggregateLaw(t, "int64 keys", i64Ops, []keyDraw[int64]{alphabet[int64](3, 1<<32), anyKey[int64]}, 10)
	aggregateLaw(t, "uint8 keys", u32Ops, []keyDraw[uint8]{alphabet[uint8](4, 64), anyKey[uint8]}, 10)
}

// TestWarpAggregateEdges checks the aggregations with every lane valid
// (and a valid count past the warp), no lane, and one key or all distinct
// keys in the warp.
func TestWarpAggregateEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, o := range u32Ops {
		for _, valid := range []uint32{0, 1, ir.WarpSize, 100} {
			for _, draw := range []keyDraw[uint32]{alphabet[uint32](1, 1), func(*rand.Rand) uint32 { return 0 }} {
				a := newAggregation(r, o, draw, 2, false)
				a.valids = []uint32{valid, valid}
				if msg := a.check(runtime.CPU(), o); msg != "" {
					t.Error(msg)
				}
			}
			a := newAggregation(r, o, anyKey[uint32], 2, false)
			for i := range a.keys {
				a.keys[i] = uint32(i)
			}
			a.valids = []uint32{valid, valid}
			if msg := a.check(runtime.CPU(), o); msg != "" {
				t.Error(msg)
			}
		}
	}
}

// TestAffineIsAssociativeNotCommutative checks that affine, the laws'
// operator that is not commutative, is associative and is not commutative.
func TestAffineIsAssociativeNotCommutative(t *testing.T) {
	props := gopter.NewProperties(proptest.Parameters(t, 1000))
	props.Property("affine is associative", prop.ForAll(func(p, q, s uint32) bool {
		return affineGo(affineGo(p, q), s) == affineGo(p, affineGo(q, s))
	}, gen.UInt32(), gen.UInt32(), gen.UInt32()))
	props.TestingRun(t)
	if p, q := uint32(2<<16|1), uint32(3<<16|5); affineGo(p, q) == affineGo(q, p) {
		t.Errorf("affine(%#x, %#x) = affine(%#x, %#x) = %#x", p, q, q, p, affineGo(p, q))
	}
}

// TestMatchAnyInKernels checks dsl.MatchAny, 32 and 64-bit, against the
// masks of equal keys computed in Go.
func TestMatchAnyInKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	checkMatches(t, runtime.CPU(), drawKeys(r, alphabet[uint32](3, 1), 4))
	checkMatches(t, runtime.CPU(), drawKeys(r, alphabet[int64](3, 1<<32), 4))
}

// drawKeys returns warps warps of keys drawn by draw.
func drawKeys[K dsl.Integer](r *rand.Rand, draw keyDraw[K], warps int) []K {
	keys := make([]K, warps*ir.WarpSize)
	for i := range keys {
		keys[i] = draw(r)
	}
	return keys
}

// checkMatches runs matchKernel on keys on dev and compares it with Go.
func checkMatches[K dsl.Integer](t *testing.T, dev runtime.Device, keys []K) {
	t.Helper()
	got, err := matches(dev, keys)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]uint32, len(keys))
	for i := range keys {
		w := i / ir.WarpSize * ir.WarpSize
		for l, key := range keys[w : w+ir.WarpSize] {
			if key == keys[i] {
				want[i] |= 1 << l
			}
		}
	}
	if d := differ("masks", got, want); d != "" {
		t.Errorf("MatchAny of %T keys %v: %s", keys[0], keys, d)
	}
}
