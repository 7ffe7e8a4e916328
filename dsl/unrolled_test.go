package dsl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// unrolledTile is the indices each virtual block of unrolledKernel covers:
// four rounds of its 128 threads.
const unrolledTile = 512

// unrolledKernel writes out[j] = 3*in[j] + (j mod unrolledTile) + 1 for
// every j of every tile three ways, through ForAllUnrolled by by: over the
// tile, a constant multiple of the block (its rounds counted); over two
// constant parts of it that are not; and over the part of the tile the
// input holds, a count known at run time (so the last tile may be short).
// The outputs are full, whatever the input's length: the first two ways
// write zeros past its end.
func unrolledKernel(by int) *dsl.Kernel {
	k := dsl.NewKernel("unrolled", 128)
	in := dsl.Input[uint32](k, "in")
	whole, parts, held := dsl.Output[uint32](k, "whole"), dsl.Output[uint32](k, "parts"), dsl.Output[uint32](k, "held")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(in.Len(), dsl.N(unrolledTile)), func(b *dsl.Block, bid dsl.U32) {
			base := dsl.Let(b, bid.Mul(dsl.N(unrolledTile))).Exp
			value := func(j dsl.U32) dsl.U32 {
				at := base.Add(j)
				return dsl.Select(at.Lt(in.Len()), in.At(at).Mul(dsl.N(3)).Add(j).Add(dsl.N(1)), dsl.N(0))
			}
			b.ForAllUnrolled(dsl.N(unrolledTile), by, func(t *dsl.Thread, j dsl.U32) { whole.Store(t, base.Add(j), value(j)) })
			b.ForAllUnrolled(dsl.N(300), by, func(t *dsl.Thread, j dsl.U32) { parts.Store(t, base.Add(j), value(j)) })
			b.ForAllUnrolled(dsl.N(unrolledTile-300), by, func(t *dsl.Thread, j dsl.U32) {
				parts.Store(t, base.Add(j).Add(dsl.N(300)), value(j.Add(dsl.N(300))))
			})
			count := in.Len().Sub(base).Min(dsl.N(unrolledTile))
			b.ForAllUnrolled(count, by, func(t *dsl.Thread, j dsl.U32) { held.Store(t, base.Add(j), value(j)) })
		})
	})
	return k
}

// TestForAllUnrolledOnTheCPU runs unrolledKernel in the evaluator.
func TestForAllUnrolledOnTheCPU(t *testing.T) { checkUnrolled(t, runtime.CPU()) }

// TestGPUForAllUnrolled runs unrolledKernel's CUDA on the GPU, where the
// unrolled loops are the compiler's.
func TestGPUForAllUnrolled(t *testing.T) {
	checkUnrolled(t, gputest.Open(t))
}

// checkUnrolled runs unrolledKernel unrolled by 0 to 5 on dev over random
// inputs of random lengths (whole tiles and not) and compares every
// output with Go's.
func checkUnrolled(t *testing.T, dev runtime.Device) {
	rng := rand.New(rand.NewPCG(proptest.Seed(t), 7))
	for by := range 6 {
		kernel, err := unrolledKernel(by).Build()
		if err != nil {
			t.Fatal(err)
		}
		fn, err := dev.Load(kernel)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{unrolledTile, 1 + rng.IntN(10*unrolledTile)} {
			tiles := (n + unrolledTile - 1) / unrolledTile
			keys := make([]uint32, n)
			for i := range keys {
				keys[i] = rng.Uint32()
			}
			want := make([]uint32, tiles*unrolledTile)
			for j := range want {
				if j < n {
					want[j] = 3*keys[j] + uint32(j%unrolledTile) + 1
				}
			}
			in, _ := runtime.FromSlice(dev, keys)
			outs := make([]*runtime.Buffer[uint32], 3)
			for i := range outs {
				outs[i], _ = runtime.FromSlice(dev, make([]uint32, len(want)))
			}
			if err := dev.Launch(fn, runtime.LaunchConfig{}, in, outs[0], outs[1], outs[2]); err != nil {
				t.Fatal(err)
			}
			for o, name := range []string{"whole", "parts", "held"} {
				got, err := outs[o].ToSlice()
				if err != nil {
					t.Fatal(err)
				}
				for j := range want {
					if got[j] != want[j] {
						t.Fatalf("unrolled by %d, %d keys: %s[%d] = %d, want %d", by, n, name, j, got[j], want[j])
					}
				}
			}
		}
	}
}
