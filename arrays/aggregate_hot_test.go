package arrays_test

import (
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
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// hotModel returns what WarpAggregateHot computes, in Go: in each warp,
// the lanes below its valid count form one group when they hold one key,
// the groups of WarpAggregate (one per key) when two neighbouring lanes
// hold one key, and a group each otherwise; the first lane of each group
// leads it with the fold of the group's values in lane order.
func (a aggregation[K, T]) hotModel(apply func(x, y T) T) (leaders []uint32, totals []T) {
	leaders, totals = make([]uint32, len(a.keys)), make([]T, len(a.keys))
	for w, v := range a.valids {
		lanes := a.keys[w*ir.WarpSize : (w+1)*ir.WarpSize][:min(int(v), ir.WarpSize)]
		neighbours := false
		for l := 1; l < len(lanes); l++ {
			neighbours = neighbours || lanes[l-1] == lanes[l]
		}
		for l, key := range lanes {
			i := w*ir.WarpSize + l
			if neighbours && slices.Contains(lanes[:l], key) {
				continue
			}
			leaders[i], totals[i] = 1, a.xs[i]
			for m := l + 1; neighbours && m < len(lanes); m++ {
				if lanes[m] == key {
					totals[i] = apply(totals[i], a.xs[w*ir.WarpSize+m])
				}
			}
		}
	}
	return leaders, totals
}

// checkHot runs WarpAggregateHot on a under o on dev and compares it with
// hotModel.
func (a aggregation[K, T]) checkHot(dev runtime.Device, o operator[T]) string {
	leaders, totals, err := a.on(dev, aggregateKernelOf(o, arrays.WarpAggregateHot[K, T]))
	what := fmt.Sprintf("%s, keys %v, valid %v: ", o.name, a.keys, a.valids)
	if err != nil {
		return what + err.Error()
	}
	wantLeaders, wantTotals := a.hotModel(o.apply)
	if d := differ("leaders", leaders, wantLeaders) + differ("totals", totals, wantTotals); d != "" {
		return what + d
	}
	return ""
}

// powerLaw draws keys of K by a power law over n values: floor(n × u^k)
// with u uniform in [0, 1), spread apart, so that value 0 takes n^(-1/k)
// of the keys (k = 4, n = 2^20: one key in 32), and a few values most of
// them.
func powerLaw[K dsl.Integer](n float64, k float64, spread uint64) keyDraw[K] {
	return func(r *rand.Rand) K { return K(uint64(n*math.Pow(r.Float64(), k)) * spread) }
}

// hotDraws are the key draws of the WarpAggregateHot laws: hot keys (a
// power law, two or five values, all equal), few values spread over the
// type and any keys.
func hotDraws[K dsl.Integer](spread uint64) []keyDraw[K] {
	return []keyDraw[K]{powerLaw[K](1<<20, 8, spread), alphabet[K](2, spread), alphabet[K](5, spread),
		alphabet[K](1, 1), alphabet[K](16, spread), anyKey[K]}
}

// TestWarpAggregateHotLaws checks WarpAggregateHot against hotModel (one
// group for a warp of one key, WarpAggregate's groups where two
// neighbouring lanes share a key, a group per lane otherwise) for hot,
// few and any keys, sorted within the warp or not, every valid count, and
// operators commutative or not; and that the totals of the leaders of
// each key add up to the sum of that key's values, the law a histogram
// relies on.
func TestWarpAggregateHotLaws(t *testing.T) {
	hotLaw(t, "uint32 keys", u32Ops, hotDraws[uint32](1e8/16), 60)
	hotLaw(t, "int64 keys", i64Ops, hotDraws[int64](1<<40), 10)
	hotLaw(t, "uint8 keys", u32Ops[:1], hotDraws[uint8](1), 10)
}

// hotLaw is the property that WarpAggregateHot equals hotModel, for the
// operators ops, keys from draws, up to four warps, sorted or not.
func hotLaw[K dsl.Integer, T dsl.Number](t *testing.T, name string, ops []operator[T], draws []keyDraw[K], cases int) {
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	props.Property(name, prop.ForAll(func(op, draw, warps int, sorted bool, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 0x407))
		return newAggregation(r, ops[op], draws[draw], warps, sorted).checkHot(runtime.CPU(), ops[op])
	}, gen.IntRange(0, len(ops)-1), gen.IntRange(0, len(draws)-1), gen.IntRange(1, 4), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}

// TestWarpAggregateHotCounts checks the law a histogram relies on: with
// op Add and value 1, the leaders' totals of each key add up to the number
// of valid lanes holding it, on hot keys in every warp of a block.
func TestWarpAggregateHotCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	add := u32Ops[0]
	for _, draw := range hotDraws[uint32](1 << 24) {
		a := newAggregation(r, add, draw, 8, false)
		for i := range a.xs {
			a.xs[i] = 1
		}
		leaders, totals, err := a.on(runtime.CPU(), aggregateKernelOf(add, arrays.WarpAggregateHot[uint32, uint32]))
		if err != nil {
			t.Fatal(err)
		}
		got, want := map[uint32]uint32{}, map[uint32]uint32{}
		for i, key := range a.keys {
			if uint32(i%ir.WarpSize) < a.valids[i/ir.WarpSize] {
				want[key]++
			}
			if leaders[i] != 0 {
				got[key] += totals[i]
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("keys %v, valid %v: counts by leaders %v, want %v", a.keys, a.valids, got, want)
		}
	}
}

// TestWarpAllEqualAndNeighbours checks the two tests WarpAggregateHot
// chooses by, lane by lane, against Go, on warps of one key, of two keys
// apart or side by side, and of distinct keys, for every valid count.
func TestWarpAllEqualAndNeighbours(t *testing.T) {
	k := dsl.NewKernel("warpTests", ir.WarpSize)
	keys, valids := dsl.Input[uint32](k, "keys"), dsl.Input[uint32](k, "valids")
	same, neighbours := dsl.Output[uint32](k, "same"), dsl.Output[uint32](k, "neighbours")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(valids.Len(), func(b *dsl.Block, w dsl.U32) {
			b.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, l dsl.U32) {
				i := dsl.Let(t, w.Mul(dsl.N(ir.WarpSize)).Add(l)).Exp
				valid := valids.At(w)
				s := dsl.Cast[uint32](arrays.WarpAllEqual(t, keys.At(i), valid))
				n := dsl.Cast[uint32](arrays.WarpAnyNeighboursEqual(t, keys.At(i), valid))
				same.Store(t, i, s)
				neighbours.Store(t, i, n)
			})
		})
	})
	var ks, vs []uint32
	var wantSame, wantNeighbours []uint32
	for _, valid := range []int{0, 1, 2, 17, ir.WarpSize} {
		for _, shape := range []func(l int) uint32{
			func(int) uint32 { return 7 },
			func(l int) uint32 { return uint32(l) },
			func(l int) uint32 { return uint32(l % 2) },         // two keys, never side by side
			func(l int) uint32 { return uint32(l) &^ 1 << 20 },  // pairs side by side
			func(l int) uint32 { return uint32(min(l, valid)) }, // distinct below valid, equal past it
		} {
			warp := make([]uint32, ir.WarpSize)
			for l := range warp {
				warp[l] = shape(l)
			}
			lanes := warp[:valid]
			s, n := 1, 0
			for l := range lanes {
				if lanes[l] != lanes[0] {
					s = 0
				}
				if l > 0 && lanes[l] == lanes[l-1] {
					n = 1
				}
			}
			ks, vs = append(ks, warp...), append(vs, uint32(valid))
			for range warp {
				wantSame, wantNeighbours = append(wantSame, uint32(s)), append(wantNeighbours, uint32(n))
			}
		}
	}
	dev := runtime.CPU()
	kb, err := runtime.FromSlice(dev, ks)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := runtime.FromSlice(dev, vs)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := runtime.Alloc[uint32](dev, len(ks))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := runtime.Alloc[uint32](dev, len(ks))
	if err != nil {
		t.Fatal(err)
	}
	if err := launch(dev, k, kb, vb, sb, nb); err != nil {
		t.Fatal(err)
	}
	gotSame, err := sb.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	gotNeighbours, err := nb.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	if d := differ("WarpAllEqual", gotSame, wantSame) + differ("WarpAnyNeighboursEqual", gotNeighbours, wantNeighbours); d != "" {
		t.Errorf("keys %v, valid %v: %s", ks, vs, d)
	}
}
