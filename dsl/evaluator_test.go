package dsl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
)

// launchBad builds k and runs it in the evaluator on n elements of input
// and output with the given number of blocks, returning the launch error.
func launchBad(t *testing.T, k *dsl.Kernel, n, blocks int) error {
	t.Helper()
	kern, err := k.Build()
	if err != nil {
		t.Fatalf("Build rejected a program only the evaluator can catch: %v", err)
	}
	in, out := eval.NewBuffer(ir.Uint32, n), eval.NewBuffer(ir.Uint32, n)
	for i := range n {
		in.Set(i, ir.UintValue(ir.Uint32, uint64(i*7)))
	}
	return eval.Launch(kern, eval.Config{Blocks: blocks}, []eval.Arg{{Buffer: in}, {Buffer: out}})
}

// TestEvaluatorCatchesWrongPrograms covers the mistakes that only running a
// kernel shows, each reported at the user's line.
func TestEvaluatorCatchesWrongPrograms(t *testing.T) {
	cases := []struct {
		name   string
		kernel func() *dsl.Kernel
		n      int
		blocks int
		want   string
	}{
		{"missing Compute", func() *dsl.Kernel {
			// Reverse a shared array in place: each thread reads the
			// element another thread writes, with no barrier between.
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				sh := dsl.Shared[uint32](b, 256)
				arrays.ComputeInto(b, sh, arrays.Take(dsl.N(256), arrays.FromArray(in)))
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					sh.Store(t, i, sh.At(dsl.N(255).Sub(i))) // bad: missing Compute
				})
			})
		}, 1024, 4, "race"},
		{"missing Warp.Sync", func() *dsl.Kernel {
			// Each lane reads the element of a warp's own shared array
			// that another lane writes, with no barrier between.
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllWarps(dsl.N(8), func(w *dsl.Warp, wid dsl.U32) {
					region := dsl.WarpShared[uint32](w, 32)
					w.ForAll(dsl.N(32), func(t *dsl.Thread, i dsl.U32) {
						region.Store(t, i, in.At(i))
						out.Store(t, wid.Mul(dsl.N(32)).Add(i), region.At(dsl.N(31).Sub(i))) // bad: missing Warp.Sync
					})
				})
			})
		}, 1024, 4, "race"},
		{"warp-shared array read as an earlier pass left it", func() *dsl.Kernel {
			// 16 passes on a block of 8 warps: only passes 0 to 7 write
			// their region, and passes 8 to 15, run by the same warps,
			// read it.
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllWarps(dsl.N(16), func(w *dsl.Warp, wid dsl.U32) {
					region := dsl.WarpShared[uint32](w, 32)
					w.ForAll(dsl.N(32), func(t *dsl.Thread, i dsl.U32) {
						t.If(wid.Lt(dsl.N(8)), func(t *dsl.Thread) { region.Store(t, i, in.At(i)) })
					})
					w.Sync()
					w.ForAll(dsl.N(32), func(t *dsl.Thread, i dsl.U32) {
						out.Store(t, wid.Mul(dsl.N(32)).Add(i), region.At(dsl.N(31).Sub(i))) // bad: warp-shared array read as an earlier pass left it
					})
				})
			})
		}, 1024, 4, "read of warp-shared memory wsh[31] that warp 0 has not written in this pass of its ForAllWarps"},
		{"index past a warp's region", func() *dsl.Kernel {
			// An index of 32 or more would reach the next warp's region.
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllWarps(dsl.N(8), func(w *dsl.Warp, wid dsl.U32) {
					region := dsl.WarpShared[uint32](w, 32)
					w.ForAll(dsl.N(32), func(t *dsl.Thread, i dsl.U32) {
						region.Store(t, i.Add(in.At(dsl.N(1)).Rem(dsl.N(64))), i) // bad: index past a warp's region
					})
				})
			})
		}, 1024, 4, "out of bounds (length 32)"},
		{"held array read before this block wrote it", func() *dsl.Kernel {
			// Thread 255 never writes its held element, and reads it after
			// the barrier: what an earlier block, or nothing, left there.
			return copyKernel(func(k *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				h := dsl.Held[uint32](b, 2)
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					t.If(i.Lt(dsl.N(255)), func(t *dsl.Thread) { h.Store(t, dsl.N(1), in.At(i)) })
				})
				b.Sync()
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, h.At(dsl.N(1))) // bad: held array read before this block wrote it
				})
			})
		}, 1024, 1, "read of held array held[1] by thread 255 of block 0, which has not written it in this block body"},
		{"held array read as an earlier block left it", func() *dsl.Kernel {
			// Thread 255 writes its held element in the first block body
			// alone; the next body, run by the same thread, reads it.
			k := dsl.NewKernel("bad", 256)
			in, out := dsl.Input[uint32](k, "input"), dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				g.ForAllBlocks(dsl.N(4), func(b *dsl.Block, bid dsl.U32) {
					h := dsl.Held[uint32](b, 2)
					b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
						t.If(i.Lt(dsl.N(255)).Or(bid.Eq(dsl.N(0))), func(t *dsl.Thread) { h.Store(t, dsl.N(0), in.At(i)) })
					})
					b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
						out.Store(t, i, h.At(dsl.N(0))) // bad: held array read as an earlier block left it
					})
				})
			})
			return k
		}, 1024, 1, "read of held array held[0] by thread 255"},
		{"local array read before its thread wrote it", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				loc := dsl.Local[uint32](t, 4)
				t.If(i.Lt(dsl.N(100)), func(t *dsl.Thread) { loc.Store(t, dsl.N(1), in.At(i)) })
				out.Store(t, i, loc.At(dsl.N(1))) // bad: local array read before its thread wrote it
			})
		}, 1024, 1, "read of local array loc[1] by thread 100 of block 0, which has not written it in this iteration of its ForAll"},
		{"local array read as an earlier iteration left it", func() *dsl.Kernel {
			// 512 iterations on 256 threads: the first 256 write the
			// array, and the next, run by the same threads, read it.
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(512), func(t *dsl.Thread, i dsl.U32) {
					loc := dsl.Local[uint32](t, 2)
					t.If(i.Lt(dsl.N(256)), func(t *dsl.Thread) { loc.Store(t, dsl.N(0), in.At(i)) })
					out.Store(t, i, loc.At(dsl.N(0))) // bad: local array read as an earlier iteration left it
				})
			})
		}, 1024, 1, "read of local array loc[0] by thread 0 of block 0, which has not written it in this iteration"},
		{"index past a thread's local array", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				loc := dsl.Local[uint32](t, 4)
				loc.Store(t, in.At(i).Rem(dsl.N(8)), i) // bad: index past a thread's local array
			})
		}, 1024, 4, "out of bounds (length 4)"},
		{"index past a constant table", func() *dsl.Kernel {
			return copyKernel(func(k *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				tab := dsl.ConstTable(k, "tab", []uint32{10, 20, 30})
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, tab.At(in.At(i).Rem(dsl.N(8)))) // bad: index past a constant table
				})
			})
		}, 1024, 4, "tab[7] out of bounds (length 3)"},
		{"atomic mixed with a plain write", func() *dsl.Kernel {
			k := dsl.NewKernel("mixed", 256)
			in := dsl.Input[uint32](k, "input")
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				g.ForAll(in.Len(), func(t *dsl.Thread, i dsl.U32) {
					out.Atomic(t, dsl.AtomicAdd, dsl.N(0), dsl.N(1))
					t.If(i.Eq(dsl.N(5)), func(t *dsl.Thread) {
						out.Store(t, dsl.N(0), dsl.N(0)) // bad: atomic mixed with a plain write
					})
				})
			})
			return k
		}, 300, 2, "race"},
		{"shuffle with a lane outside the warp", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.Shuffle(t, dsl.ShuffleIdx, in.At(i), i.And(dsl.N(63)))) // bad: shuffle with a lane outside the warp
			})
		}, 1024, 4, "lane"},
		{"out-of-bounds write in the last partial block", func() *dsl.Kernel {
			k := dsl.NewKernel("tail", 256)
			in := dsl.Input[uint32](k, "input")
			out := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				g.ForAllBlocks(in.Len().Add(dsl.N(255)).Div(dsl.N(256)), func(b *dsl.Block, bid dsl.U32) {
					b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
						out.Store(t, bid.Mul(dsl.N(256)).Add(i), dsl.N(1)) // bad: out-of-bounds write in the last partial block
					})
				})
			})
			return k
		}, 1000, 4, "out of bounds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := launchBad(t, c.kernel(), c.n, c.blocks)
			if err == nil {
				t.Fatal("the evaluator found nothing wrong")
			}
			where := fmt.Sprintf("evaluator_test.go:%d", markerLineIn(t, "evaluator_test.go", c.name))
			if !strings.Contains(err.Error(), where) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error does not name %s and say %q:\n%v", where, c.want, err)
			}
		})
	}
}

// TestPrintedConstructs checks what the DSL's constructs print as.
func TestPrintedConstructs(t *testing.T) {
	print := func(t *testing.T, k *dsl.Kernel) string {
		t.Helper()
		kern, err := k.Build()
		if err != nil {
			t.Fatal(err)
		}
		src, _, err := codegen.CUDA(kern)
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	t.Run("barriers where Compute put them and nowhere else", func(t *testing.T) {
		k := dsl.NewKernel("twoSteps", 64)
		in := dsl.Input[uint32](k, "input")
		out := dsl.Output[uint32](k, "output")
		k.Body(func(g *dsl.Grid) {
			g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
				a := arrays.Compute(b, arrays.Take(dsl.N(64), arrays.FromArray(in)))
				a = arrays.Compute(b, arrays.Reverse(a))
				arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](a))
			})
		})
		src := print(t, k)
		// Two Computes, and the barrier that ends every pass of a block
		// loop over shared memory.
		if got := strings.Count(src, "__syncthreads()"); got != 3 {
			t.Errorf("%d barriers, want 3:\n%s", got, src)
		}
	})
	t.Run("virtualised forAll loops", func(t *testing.T) {
		src := print(t, copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
			arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](arrays.Take(dsl.N(1000), arrays.FromArray(in))))
		}))
		if !strings.Contains(src, "tid < 1000u; tid += 256") {
			t.Errorf("no virtualised loop:\n%s", src)
		}
	})
	t.Run("sequential loop and atomics", func(t *testing.T) {
		src := print(t, threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
			t.For(dsl.N(4), func(t *dsl.Thread, j dsl.U32) { out.Atomic(t, dsl.AtomicMax, i, j) })
		}))
		for _, want := range []string{"for (unsigned int k = 0u; k < 4u; k++)", "atomicMax(&output["} {
			if !strings.Contains(src, want) {
				t.Errorf("no %q in:\n%s", want, src)
			}
		}
	})
	t.Run("warp shuffle", func(t *testing.T) {
		src := print(t, threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
			out.Store(t, i, dsl.Shuffle(t, dsl.ShuffleXor, in.At(i), dsl.N(1)))
		}))
		if !strings.Contains(src, "__shfl_xor_sync(0xffffffffu") {
			t.Errorf("no shuffle:\n%s", src)
		}
	})
}

// TestEvaluatorChecksTheLaidOutSharedMemory runs a kernel compiled by
// codegen, whose layout places two shared arrays apart, and the same kernel
// with the second array moved onto the first: the evaluator checks the
// laid-out bytes, so the broken layout is reported.
func TestEvaluatorChecksTheLaidOutSharedMemory(t *testing.T) {
	k := copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
		a := arrays.Compute(b, arrays.Take(dsl.N(256), arrays.FromArray(in)))
		r := arrays.Compute(b, arrays.Reverse(a))
		arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](r))
	})
	kern, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	compiled, err := codegen.Compile(kern, codegen.DefaultTarget)
	if err != nil {
		t.Fatal(err)
	}
	if len(compiled.Shared) != 2 || compiled.Shared[0].Offset == compiled.Shared[1].Offset {
		t.Fatalf("shared arrays at %v", compiled.Shared)
	}
	launch := func() error {
		in, out := eval.NewBuffer(ir.Uint32, 256), eval.NewBuffer(ir.Uint32, 256)
		for i := range 256 {
			in.Set(i, ir.UintValue(ir.Uint32, uint64(i*5+3)))
		}
		err := eval.Launch(compiled, eval.Config{Blocks: 1}, []eval.Arg{{Buffer: in}, {Buffer: out}})
		if err == nil && out.Get(0).Bits != 255*5+3 {
			t.Errorf("out[0] = %v", out.Get(0))
		}
		return err
	}
	if err := launch(); err != nil {
		t.Fatalf("the layout codegen chose: %v", err)
	}
	compiled.Shared[1].Offset = compiled.Shared[0].Offset
	err = launch()
	if err == nil || !strings.Contains(err.Error(), "placed at the same bytes of shared memory") {
		t.Fatalf("overlapping live shared arrays: %v", err)
	}
}
