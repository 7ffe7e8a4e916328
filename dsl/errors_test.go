package dsl_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// markerLine returns the line of this file that carries the comment
// "// bad: <name>".
func markerLine(t *testing.T, name string) int {
	t.Helper()
	return markerLineIn(t, "errors_test.go", name)
}

// markerLineIn returns the line of file that carries "// bad: <name>".
func markerLineIn(t *testing.T, file, name string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "// bad: "+name) {
			return i + 1
		}
	}
	t.Fatalf("no marker %q", name)
	return 0
}

// copyKernel is a kernel of one block-level step through shared memory, with
// the step's body given by each case.
func copyKernel(step func(k *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32])) *dsl.Kernel {
	k := dsl.NewKernel("bad", 256)
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(4), func(b *dsl.Block, bid dsl.U32) { step(k, b, in, out) })
	})
	return k
}

// threadStep is copyKernel with a per-thread body.
func threadStep(body func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32])) *dsl.Kernel {
	return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
		b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) { body(t, i, in, out) })
	})
}

func TestWrongProgramsNameTheUsersLine(t *testing.T) {
	cases := []struct {
		name   string
		kernel func() *dsl.Kernel
		want   string // part of the message
	}{
		{"barrier under a thread-dependent branch", func() *dsl.Kernel {
			// The thesis' two (rev ->- sync): a barrier in each half of a
			// branch on the thread index.
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				b.If(dsl.ThreadIdx.Lt(dsl.N(128)), func(b *dsl.Block) { // bad: barrier under a thread-dependent branch
					arrays.Compute(b, arrays.Reverse(arrays.Take(dsl.N(256), arrays.FromArray(in))))
				})
			})
		}, "thread"},
		{"barrier in thread code", func() *dsl.Kernel {
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					b.Sync() // bad: barrier in thread code
				})
			})
		}, "Block.Sync"},
		{"forAll nested where its level does not allow it", func() *dsl.Kernel {
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					b.ForAll(dsl.N(2), func(t *dsl.Thread, j dsl.U32) {}) // bad: forAll nested where its level does not allow it
				})
			})
		}, "Block.ForAll"},
		{"shared memory over the device limit", func() *dsl.Kernel {
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.ComputeInto(b, dsl.Shared[uint32](b, 1<<17), arrays.FromArray(in)) // bad: shared memory over the device limit
			})
		}, "shared memory"},
		{"negative literal for an unsigned type", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, dsl.Const[uint32](-1)) // bad: negative literal for an unsigned type
			})
		}, "negative literal -1 for unsigned type uint32"},
		{"shift by the bit width", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i).Shl(dsl.N(32))) // bad: shift by the bit width
			})
		}, "shift"},
		{"division by constant zero", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i).Div(dsl.N(0))) // bad: division by constant zero
			})
		}, "Div of a uint32 by constant 0: integer division or remainder by zero"},
		{"shift by a folded constant", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i).Shl(dsl.N(16).Add(dsl.N(16)))) // bad: shift by a folded constant
			})
		}, "Shl of a uint32 by constant 32: shift count negative or not below the bit width"},
		{"remainder by a folded zero", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, in.At(i).Rem(dsl.N(3).Sub(dsl.N(3)))) // bad: remainder by a folded zero
			})
		}, "Rem of a uint32 by constant 0"},
		{"two parameters of one name", func() *dsl.Kernel {
			k := dsl.NewKernel("twice", 256)
			a := dsl.Input[uint32](k, "a")
			b := dsl.Output[uint32](k, "a") // bad: two parameters of one name
			k.Body(func(g *dsl.Grid) {
				g.ForAll(b.Len(), func(t *dsl.Thread, i dsl.U32) { b.Store(t, i, a.At(i)) })
			})
			return k
		}, "two parameters named a"},
		{"write to an input array", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				in.Store(t, i, dsl.N(1)) // bad: write to an input array
			})
		}, "input"},
		{"read of an output array", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				out.Store(t, i, out.At(i)) // bad: read of an output array
			})
		}, "output"},
		{"variable of a block set in thread code", func() *dsl.Kernel {
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				v := dsl.Let(b, dsl.N(0))
				b.ForAll(dsl.N(256), func(t *dsl.Thread, i dsl.U32) {
					v.Set(i) // bad: variable of a block set in thread code
				})
			})
		}, "Block-level variable"},
		{"shift of a float", func() *dsl.Kernel {
			return threadStep(func(t *dsl.Thread, i dsl.U32, in, out dsl.Array[uint32]) {
				x := dsl.Lit[float32](1).Shl(dsl.Lit[float32](2)) // bad: shift of a float
				out.Store(t, i, dsl.Cast[uint32](x))
			})
		}, "Shl on float32 values"},
		{"Compute of a length that is not constant", func() *dsl.Kernel {
			return copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.Compute(b, arrays.FromArray(in)) // bad: Compute of a length that is not constant
			})
		}, "not a constant"},
		{"builder used after its body returned", func() *dsl.Kernel {
			var saved *dsl.Block
			k := copyKernel(func(_ *dsl.Kernel, b *dsl.Block, in, out dsl.Array[uint32]) { saved = b })
			saved.Sync() // bad: builder used after its body returned
			return k
		}, "already returned"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.kernel().Build()
			if err == nil {
				t.Fatal("Build accepted a wrong program")
			}
			where := fmt.Sprintf("errors_test.go:%d", markerLine(t, c.name))
			if !strings.Contains(err.Error(), where) {
				t.Errorf("error does not name %s:\n%v", where, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error does not say %q:\n%v", c.want, err)
			}
		})
	}
}
