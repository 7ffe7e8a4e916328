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
