package dsl_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
)

// indexKernel writes, for every pair (n, m) of its input, CeilDiv(n, m),
// LaneOf(n) and WarpOf(n).
func indexKernel() *dsl.Kernel {
	k := dsl.NewKernel("indices", 64)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(in.Len().Div(dsl.N(2)), func(t *dsl.Thread, i dsl.U32) {
			n, m := in.At(i.Mul(dsl.N(2))), in.At(i.Mul(dsl.N(2)).Add(dsl.N(1)))
			out.Store(t, i.Mul(dsl.N(3)), dsl.CeilDiv(n, m))
			out.Store(t, i.Mul(dsl.N(3)).Add(dsl.N(1)), dsl.LaneOf(n))
			out.Store(t, i.Mul(dsl.N(3)).Add(dsl.N(2)), dsl.WarpOf(n))
		})
	})
	return k
}

// TestIndexHelpersEqualGo checks CeilDiv, LaneOf and WarpOf against Go's
// arithmetic on random pairs and on the pairs where n + m - 1 would wrap.
func TestIndexHelpersEqualGo(t *testing.T) {
	edges := []uint32{0, 1, 2, 31, 32, 33, math.MaxUint32 - 1, math.MaxUint32}
	check := func(pairs []uint32) string {
		got, err := runOnCPU(indexKernel(), pairs, len(pairs)/2*3)
		if err != nil {
			return err.Error()
		}
		for i := 0; i < len(pairs)/2; i++ {
			n, m := uint64(pairs[2*i]), uint64(pairs[2*i+1])
			want := []uint32{uint32((n + m - 1) / m), uint32(n % 32), uint32(n / 32)}
			for j, w := range want {
				if got[3*i+j] != w {
					return fmt.Sprintf("n=%d m=%d: got %v, want %v", n, m, got[3*i:3*i+3], want)
				}
			}
		}
		return ""
	}
	var pairs []uint32
	for _, n := range edges {
		for _, m := range edges[1:] {
			pairs = append(pairs, n, m)
		}
	}
	if msg := check(pairs); msg != "" {
		t.Fatal(msg)
	}
	props := gopter.NewProperties(proptest.Parameters(t, 50))
	props.Property("CeilDiv, LaneOf and WarpOf equal Go's arithmetic", prop.ForAll(func(ns, ms []uint32) string {
		var pairs []uint32
		for i := range min(len(ns), len(ms)) {
			pairs = append(pairs, ns[i], max(ms[i], 1))
		}
		return check(pairs)
	}, gen.SliceOf(gen.UInt32()), gen.SliceOf(gen.UInt32Range(1, 1000))))
	props.TestingRun(t)
}

// warpUniformKernel returns a kernel whose warps shuffle under conditions
// that are the same in every lane of a warp: Any and All of a ballot, and
// a value shuffled from lane 0. Each lane writes its value plus its
// neighbour's (lane ^ 1) where some lane of its warp is above 100, twice
// its value where every lane is, and its value plus lane 0's where lane
// 0's is odd.
func warpUniformKernel() *dsl.Kernel {
	k := dsl.NewKernel("warpUniform", 64)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(in.Len(), dsl.N(64)), func(b *dsl.Block, bid dsl.U32) {
			b.ForAll(dsl.N(64), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, bid.Mul(dsl.N(64)).Add(tid))
				x := dsl.Let(t, dsl.Select(i.Lt(in.Len()), in.At(i.Exp), dsl.N(0)))
				r := dsl.Let(t, dsl.N(0))
				t.If(dsl.Any(t, x.Gt(dsl.N(100))), func(t *dsl.Thread) {
					r.Set(r.Add(x.Add(dsl.Shuffle(t, dsl.ShuffleXor, x.Exp, dsl.N(1)))))
				})
				t.IfElse(dsl.All(t, x.Gt(dsl.N(100))), func(t *dsl.Thread) {
					r.Set(r.Add(dsl.Shuffle(t, dsl.ShuffleIdx, x.Exp, dsl.LaneIdx).Mul(dsl.N(2))))
				}, func(t *dsl.Thread) {})
				first := dsl.Shuffle(t, dsl.ShuffleIdx, x.Exp, dsl.N(0))
				rounds := dsl.Let(t, dsl.N(0)) // the same in every lane
				t.While(first.And(dsl.N(1)).Eq(dsl.N(1)).And(rounds.Lt(dsl.N(1))), func(t *dsl.Thread) {
					r.Set(r.Add(x.Add(dsl.Shuffle(t, dsl.ShuffleIdx, x.Exp, dsl.N(0)))).Or(dsl.N(1 << 30)))
					rounds.Set(rounds.Add(dsl.N(1)))
				})
				t.If(i.Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, i.Exp, r.Exp) })
			})
		})
	})
	return k
}

// TestShuffleUnderWarpUniformCondition runs warpUniformKernel, whose
// shuffles under an if, an if-else and a while on Any, All and a value
// read from lane 0 verify used to reject ("under an if or a loop whose
// condition may differ between lanes"), and compares it with Go.
func TestShuffleUnderWarpUniformCondition(t *testing.T) {
	xs := make([]uint32, 200)
	for i := range xs {
		xs[i] = uint32(i*37%150) + 1
	}
	for i := 64; i < 96; i++ {
		xs[i] = 101 + uint32(i) // every lane of warp 2 is above 100
	}
	for i := 96; i < 128; i++ {
		xs[i] = 2 // warp 3: none is, and lane 0's is even
	}
	got, err := runOnCPU(warpUniformKernel(), xs, len(xs))
	if err != nil {
		t.Fatal(err)
	}
	at := func(i int) uint32 {
		if i < len(xs) {
			return xs[i]
		}
		return 0
	}
	for i, x := range xs {
		warp := i &^ 31
		some, all := false, true
		for l := warp; l < warp+32; l++ {
			some, all = some || at(l) > 100, all && at(l) > 100
		}
		want := uint32(0)
		if some {
			want += x + at(i^1)
		}
		if all {
			want += 2 * x
		}
		if at(warp)%2 == 1 {
			want = (want + x + at(warp)) | 1<<30
		}
		if got[i] != want {
			t.Errorf("out[%d] = %d, want %d", i, got[i], want)
		}
	}
}
