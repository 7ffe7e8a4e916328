package codegen_test

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// boundedLoopKernel copies a tile of its input whose length, count(n),
// may or may not have a constant bound, with a block-level loop.
func boundedLoopKernel(count func(b *dsl.Block, n dsl.U32) dsl.U32) *dsl.Kernel {
	k := dsl.NewKernel("boundedLoop", 256)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAll(count(b, in.Len()), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i).Add(dsl.N(1))) })
		})
	})
	return k
}

// TestLoopCounterWidth checks that a block-level loop over a count with a
// constant bound well below 2^32 (through a min, an and, or a constant
// variable holding one) counts in 32 bits, and one over a count without
// (the input's length, a variable assigned later) in 64 bits; and that
// each copies the right elements.
func TestLoopCounterWidth(t *testing.T) {
	for _, c := range []struct {
		name  string
		count func(b *dsl.Block, n dsl.U32) dsl.U32
		wide  bool
	}{
		{"min", func(_ *dsl.Block, n dsl.U32) dsl.U32 { return n.Min(dsl.N(4096)) }, false},
		{"and", func(_ *dsl.Block, n dsl.U32) dsl.U32 { return n.And(dsl.N(1023)) }, false},
		{"let of a min", func(b *dsl.Block, n dsl.U32) dsl.U32 { return dsl.Let(b, n.Sub(dsl.N(3)).Min(dsl.N(5000))).Exp }, false},
		{"near 2^32", func(_ *dsl.Block, n dsl.U32) dsl.U32 { return n.Min(dsl.N(^uint32(0) - 100)) }, true},
		{"the length", func(_ *dsl.Block, n dsl.U32) dsl.U32 { return n }, true},
		{"a variable assigned later", func(b *dsl.Block, n dsl.U32) dsl.U32 {
			v := dsl.Let(b, n.Min(dsl.N(10)))
			v.Set(n)
			return v.Exp
		}, true},
	} {
		kernel, err := boundedLoopKernel(c.count).Build()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		src, _, err := codegen.CUDA(kernel)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if wide := strings.Contains(src, "for (unsigned long long tid"); wide != c.wide {
			t.Errorf("%s: a 64-bit counter %v, want %v:\n%s", c.name, wide, c.wide, src)
		}
		xs := make([]uint32, 6000)
		for i := range xs {
			xs[i] = uint32(7 * i)
		}
		dev := runtime.CPU()
		fn, err := dev.Load(kernel)
		if err != nil {
			t.Fatal(err)
		}
		in, err := runtime.FromSlice(dev, xs)
		if err != nil {
			t.Fatal(err)
		}
		out, err := runtime.Alloc[uint32](dev, len(xs))
		if err != nil {
			t.Fatal(err)
		}
		if err := dev.Launch(fn, runtime.LaunchConfig{}, in, out); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		copied := 0
		for i, x := range got {
			if x != 0 {
				copied++
				if x != xs[i]+1 {
					t.Fatalf("%s: out[%d] = %d, want %d", c.name, i, x, xs[i]+1)
				}
			}
		}
		if copied == 0 {
			t.Errorf("%s: nothing copied", c.name)
		}
	}
}
