package dsl_test

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// launchU32 builds k and runs it in the evaluator with the given blocks and
// arguments, failing the test on any error; it returns the built kernel.
func launchU32(t *testing.T, k *dsl.Kernel, blocks int, args ...eval.Arg) *ir.Kernel {
	t.Helper()
	kern, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := eval.Launch(kern, eval.Config{Blocks: blocks}, args); err != nil {
		t.Fatal(err)
	}
	return kern
}

// u32Buffer returns a buffer holding xs.
func u32Buffer(xs []uint32) *eval.Buffer {
	b := eval.NewBuffer(ir.Uint32, len(xs))
	for i, x := range xs {
		b.Set(i, ir.UintValue(ir.Uint32, uint64(x)))
	}
	return b
}

// u32s returns the elements of b.
func u32s(b *eval.Buffer) []uint32 {
	xs := make([]uint32, b.Len())
	for i := range xs {
		xs[i] = uint32(b.Get(i).Bits)
	}
	return xs
}

// TestLoopCountsFromData runs loops whose counts are data: a Thread-level
// For over a count each thread loads, a Block-level For with a barrier over
// a count loaded by every thread of the block, and Grid-level loops over a
// scalar parameter launched with fewer blocks than they need.
func TestLoopCountsFromData(t *testing.T) {
	rng := proptest.Parameters(t, 1).Rng // fresh counts, seed logged
	n := 300
	counts := make([]uint32, n)
	for i := range counts {
		counts[i] = uint32(rng.Intn(40))
	}
	t.Run("Thread For over a loaded count", func(t *testing.T) {
		k := dsl.NewKernel("triangle", 64)
		in := dsl.Input[uint32](k, "in")
		out := dsl.Output[uint32](k, "out")
		k.Body(func(g *dsl.Grid) {
			g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) {
				acc := dsl.Let(t, dsl.N(0))
				t.For(in.At(i), func(t *dsl.Thread, j dsl.U32) { acc.Set(acc.Add(j.Add(dsl.N(1)))) })
				out.Store(t, i, acc.Exp)
			})
		})
		res := eval.NewBuffer(ir.Uint32, n)
		launchU32(t, k, 2, eval.Arg{Buffer: u32Buffer(counts)}, eval.Arg{Buffer: res})
		for i, got := range u32s(res) {
			if c := counts[i]; got != c*(c+1)/2 {
				t.Fatalf("out[%d] = %d, want %d", i, got, c*(c+1)/2)
			}
		}
	})
	t.Run("Block For over a loaded count", func(t *testing.T) {
		k := dsl.NewKernel("rounds", 64)
		in := dsl.Input[uint32](k, "in")
		out := dsl.Output[uint32](k, "out")
		k.Body(func(g *dsl.Grid) {
			g.ForAllBlocks(dsl.N(3), func(b *dsl.Block, bid dsl.U32) {
				sh := dsl.Shared[uint32](b, 64)
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) { sh.Store(t, i, i) })
				b.Sync()
				b.For(in.At(bid), func(b *dsl.Block, _ dsl.U32) {
					// Rotate by one, through a barrier each round.
					tmp := dsl.Shared[uint32](b, 64)
					b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) { tmp.Store(t, i, sh.At(i.Add(dsl.N(1)).Rem(dsl.N(64)))) })
					b.Sync()
					b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) { sh.Store(t, i, tmp.At(i)) })
					b.Sync()
				})
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) { out.Store(t, bid.Mul(dsl.N(64)).Add(i), sh.At(i)) })
			})
		})
		res := eval.NewBuffer(ir.Uint32, 3*64)
		launchU32(t, k, 2, eval.Arg{Buffer: u32Buffer(counts[:3])}, eval.Arg{Buffer: res})
		for i, got := range u32s(res) {
			if want := (uint32(i%64) + counts[i/64]) % 64; got != want {
				t.Fatalf("out[%d] = %d, want %d (block %d rotated %d times)", i, got, want, i/64, counts[i/64])
			}
		}
	})
	t.Run("Grid loops over a scalar parameter", func(t *testing.T) {
		k := dsl.NewKernel("grids", 64)
		p := dsl.Param[uint32](k, "p")
		out := dsl.Output[uint32](k, "out")
		blocksOut := dsl.Output[uint32](k, "blocks_out")
		k.Body(func(g *dsl.Grid) {
			g.ForAll(p, func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, i.Mul(dsl.N(3))) })
			g.ForAllBlocks(p.Div(dsl.N(64)), func(b *dsl.Block, bid dsl.U32) {
				b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { blocksOut.Store(t, bid, bid.Add(dsl.N(7))) })
			})
		})
		m := uint32(len(counts))
		res, blocksRes := eval.NewBuffer(ir.Uint32, n), eval.NewBuffer(ir.Uint32, n/64)
		launchU32(t, k, 2, eval.Arg{Scalar: ir.UintValue(ir.Uint32, uint64(m))}, eval.Arg{Buffer: res},
			eval.Arg{Buffer: blocksRes})
		for i, got := range u32s(res) {
			if got != uint32(3*i) {
				t.Fatalf("out[%d] = %d, want %d", i, got, 3*i)
			}
		}
		for i, got := range u32s(blocksRes) {
			if got != uint32(i+7) {
				t.Fatalf("blocks_out[%d] = %d, want %d", i, got, i+7)
			}
		}
	})
}

// TestWarpForAllPastLanes runs Warp.ForAll over more elements than a warp
// has lanes, lane l taking l, l + 32, ...: 100 elements (a last partial
// round) copied, and 64 (two full rounds) whose lanes exchange values with
// a shuffle in each round; the printed loop strides by the warp size.
func TestWarpForAllPastLanes(t *testing.T) {
	const warps, n, m = 3, 100, 64
	k := dsl.NewKernel("wide", 64)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	swapped := dsl.Output[uint32](k, "swapped")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAllWarps(dsl.N(warps), func(w *dsl.Warp, wid dsl.U32) {
				w.ForAll(dsl.N(n), func(t *dsl.Thread, i dsl.U32) {
					j := wid.Mul(dsl.N(n)).Add(i)
					out.Store(t, j, in.At(j).Mul(dsl.N(3)))
				})
				w.ForAll(dsl.N(m), func(t *dsl.Thread, i dsl.U32) {
					j := wid.Mul(dsl.N(m)).Add(i)
					swapped.Store(t, j, dsl.Shuffle(t, dsl.ShuffleXor, in.At(j), dsl.N(1)))
				})
			})
		})
	})
	rng := proptest.Parameters(t, 1).Rng
	xs := make([]uint32, warps*n)
	for i := range xs {
		xs[i] = rng.Uint32()
	}
	res, sw := eval.NewBuffer(ir.Uint32, warps*n), eval.NewBuffer(ir.Uint32, warps*m)
	kern := launchU32(t, k, 1, eval.Arg{Buffer: u32Buffer(xs)}, eval.Arg{Buffer: res}, eval.Arg{Buffer: sw})
	for i, got := range u32s(res) {
		if got != 3*xs[i] {
			t.Fatalf("out[%d] = %d, want %d", i, got, 3*xs[i])
		}
	}
	for i, got := range u32s(sw) {
		if want := xs[i^1]; got != want {
			t.Fatalf("swapped[%d] = %d, want in[%d] = %d", i, got, i^1, want)
		}
	}
	src, _, err := codegen.CUDA(kern)
	if err != nil {
		t.Fatal(err)
	}
	for _, loop := range []string{"for (unsigned int lane = threadIdx.x & 31u; lane < 100u; lane += 32u) {",
		"for (unsigned int lane1 = threadIdx.x & 31u; lane1 < 64u; lane1 += 32u) {"} {
		if !strings.Contains(src, loop) {
			t.Errorf("the CUDA text has no line %q:\n%s", loop, src)
		}
	}
}

// TestWarpSharedInPassesPastTheWarps runs ForAllWarps over twice as many
// passes as the block has warps, each pass writing its warp-shared region
// before a Warp.Sync and reading it reversed after: a pass that writes
// what it reads is accepted even though its warp ran an earlier pass in
// the same region, and every pass's output is its own.
func TestWarpSharedInPassesPastTheWarps(t *testing.T) {
	const warps, passes = 2, 4
	k := dsl.NewKernel("passes", warps*32)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAllWarps(dsl.N(passes), func(w *dsl.Warp, wid dsl.U32) {
				region := dsl.WarpShared[uint32](w, 32)
				w.ForAll(dsl.N(32), func(t *dsl.Thread, i dsl.U32) {
					region.Store(t, i, in.At(wid.Mul(dsl.N(32)).Add(i)))
				})
				w.Sync()
				w.ForAll(dsl.N(32), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, wid.Mul(dsl.N(32)).Add(i), region.At(dsl.N(31).Sub(i)))
				})
				w.Sync()
			})
		})
	})
	rng := proptest.Parameters(t, 1).Rng
	xs := make([]uint32, passes*32)
	for i := range xs {
		xs[i] = rng.Uint32()
	}
	res := eval.NewBuffer(ir.Uint32, len(xs))
	launchU32(t, k, 1, eval.Arg{Buffer: u32Buffer(xs)}, eval.Arg{Buffer: res})
	for i, got := range u32s(res) {
		if want := xs[i^31]; got != want {
			t.Fatalf("out[%d] = %d, want in[%d] = %d", i, got, i^31, want)
		}
	}
}

// TestFreshNamesAreNotCUDAs builds a kernel of two Thread.ForAll loops,
// whose indices the DSL names after "j": the second must not be j1, a
// Bessel function of CUDA's math library (nor y1, for the same reason).
func TestFreshNamesAreNotCUDAs(t *testing.T) {
	k := dsl.NewKernel("twoLoops", 32)
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) {
			acc := dsl.Let(t, dsl.N(0))
			t.ForAll(dsl.N(2), func(t *dsl.Thread, j dsl.U32) { acc.Set(acc.Add(j)) })
			t.ForAll(dsl.N(3), func(t *dsl.Thread, j dsl.U32) { acc.Set(acc.Add(j)) })
			out.Store(t, i, acc.Exp)
		})
	})
	if _, err := k.Build(); err != nil {
		t.Fatal(err)
	}
}
