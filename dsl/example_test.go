package dsl_test

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// A kernel of one thread per element: out[i] = a*x[i] + y[i], built and
// run on the CPU evaluator.
func Example() {
	k := dsl.NewKernel("saxpy", 256)
	a := dsl.Param[float32](k, "a")
	x, y := dsl.Input[float32](k, "x"), dsl.Input[float32](k, "y")
	out := dsl.Output[float32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) {
			out.Store(t, i, a.Mul(x.At(i)).Add(y.At(i)))
		})
	})
	kernel, err := k.Build()
	if err != nil {
		fmt.Println(err)
		return
	}

	dev := runtime.CPU()
	fn, err := dev.Load(kernel)
	if err != nil {
		fmt.Println(err)
		return
	}
	xb, _ := runtime.FromSlice(dev, []float32{1, 2, 3, 4})
	yb, _ := runtime.FromSlice(dev, []float32{10, 20, 30, 40})
	outb, _ := runtime.Alloc[float32](dev, 4)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, float32(2), xb, yb, outb); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fn.Signature())
	fmt.Println(outb.ToSlice())
	// Output:
	// (a float32, x []float32, y []float32, out []float32)
	// [12 24 36 48] <nil>
}

// Mistakes in a kernel are errors of Build, each at the line of the Go
// code that made it; nothing panics.
func Example_mistakes() {
	k := dsl.NewKernel("add", 64)
	x := dsl.Input[float32](k, "x")
	y := dsl.Input[float32](k, "x") // a name given twice
	out := dsl.Output[float32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, x.At(i).Add(y.At(i))) })
	})
	_, err := k.Build()
	var mistake *ir.Error
	if errors.As(err, &mistake) {
		fmt.Printf("%s:%d: %s\n", filepath.Base(mistake.Pos.File), mistake.Pos.Line, mistake.Msg)
	}
	// Output:
	// example_test.go:56: kernel add has two parameters named x
}

// A warp sums its 32 values with shuffles: after five butterfly steps
// (lane i adds the value of lane i^16, then i^8, ...) every lane holds the
// warp's sum, and lane 0 writes it.
func ExampleShuffle() {
	k := dsl.NewKernel("warpSums", 64)
	in := dsl.Input[uint32](k, "in")
	sums := dsl.Output[uint32](k, "sums")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAllWarps(sums.Len(), func(w *dsl.Warp, wid dsl.U32) {
				w.ForAll(dsl.N(32), func(t *dsl.Thread, lane dsl.U32) {
					sum := dsl.Let(t, in.At(wid.Mul(dsl.N(32)).Add(lane)))
					for mask := uint32(16); mask > 0; mask /= 2 {
						sum.Set(sum.Add(dsl.Shuffle(t, dsl.ShuffleXor, sum.Exp, dsl.N(mask))))
					}
					t.If(lane.Eq(dsl.N(0)), func(t *dsl.Thread) { sums.Store(t, wid, sum.Exp) })
				})
			})
		})
	})
	xs := make([]uint32, 64)
	for i := range xs {
		xs[i] = uint32(i) // warp 0 sums 0..31, warp 1 32..63
	}
	got, err := runOnCPU(k, xs, 2)
	fmt.Println(got, err)
	// Output: [496 1520] <nil>
}

// Ballot gives every lane the mask of the lanes whose predicate holds.
func ExampleBallot() {
	k := dsl.NewKernel("bigOnes", 32)
	in := dsl.Input[uint32](k, "in")
	masks := dsl.Output[uint32](k, "masks")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAllWarps(dsl.N(1), func(w *dsl.Warp, _ dsl.U32) {
				w.ForAll(dsl.N(32), func(t *dsl.Thread, lane dsl.U32) {
					big := dsl.Ballot(t, in.At(lane).Ge(dsl.N(100)))
					t.If(lane.Eq(dsl.N(0)), func(t *dsl.Thread) { masks.Store(t, dsl.N(0), big) })
				})
			})
		})
	})
	xs := make([]uint32, 32)
	xs[0], xs[3], xs[31] = 100, 250, 1000
	got, err := runOnCPU(k, xs, 1)
	fmt.Printf("%#x %v\n", got, err)
	// Output: [0x80000009] <nil>
}

// Agree gives every lane the mask of the lanes whose predicate has the
// same value as its own: ANDed over a digit's bits, the lanes holding the
// same digit.
func ExampleAgree() {
	k := dsl.NewKernel("sameLowBits", 32)
	in := dsl.Input[uint32](k, "in")
	masks := dsl.Output[uint32](k, "masks")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAll(dsl.N(32), func(t *dsl.Thread, lane dsl.U32) {
				x := dsl.Let(t, in.At(lane))
				low := dsl.Agree(t, x.And(dsl.N(1)).Ne(dsl.N(0)))
				high := dsl.Agree(t, x.And(dsl.N(2)).Ne(dsl.N(0)))
				masks.Store(t, lane, low.And(high))
			})
		})
	})
	xs := make([]uint32, 32) // lanes 4 to 31 hold 0
	xs[0], xs[1], xs[2], xs[3] = 7, 5, 6, 9
	got, err := runOnCPU(k, xs, 32)
	fmt.Printf("%#x %v\n", got[:5], err)
	// Output: [0x1 0xa 0x4 0xa 0xfffffff0] <nil>
}

// MatchAny gives every lane the mask of the lanes holding the same value.
func ExampleMatchAny() {
	k := dsl.NewKernel("peers", 32)
	in := dsl.Input[uint32](k, "in")
	masks := dsl.Output[uint32](k, "masks")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAll(dsl.N(32), func(t *dsl.Thread, lane dsl.U32) {
				masks.Store(t, lane, dsl.MatchAny(t, in.At(lane)))
			})
		})
	})
	xs := make([]uint32, 32) // lanes 4 to 31 hold 0
	xs[0], xs[1], xs[2], xs[3] = 7, 5, 7, 5
	got, err := runOnCPU(k, xs, 32)
	fmt.Printf("%#x %v\n", got[:5], err)
	// Output: [0x5 0xa 0x5 0xa 0xfffffff0] <nil>
}

// Any gives every lane of a warp the same answer, so the whole warp takes
// the branch, and the branch may shuffle: in a warp holding a zero, every
// lane takes its neighbour's value.
func ExampleAny() {
	k := dsl.NewKernel("swapNearZeros", 64)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
				x := dsl.Let(t, in.At(i))
				r := dsl.Let(t, x.Exp)
				t.If(dsl.Any(t, x.Eq(dsl.N(0))), func(t *dsl.Thread) {
					r.Set(dsl.Shuffle(t, dsl.ShuffleXor, x.Exp, dsl.N(1)))
				})
				out.Store(t, i, r.Exp)
			})
		})
	})
	xs := make([]uint32, 64)
	for i := range xs {
		xs[i] = uint32(i + 1)
	}
	xs[5] = 0 // in warp 0
	got, err := runOnCPU(k, xs, 64)
	fmt.Println(got[:6], got[32:36], err)
	// Output: [2 1 4 3 0 5] [33 34 35 36] <nil>
}

// A histogram: every thread adds 1 to the bin of its key with an atomic
// add, so that threads with keys of one bin do not race.
func ExampleArray_Atomic() {
	k := dsl.NewKernel("histogram", 256)
	keys := dsl.Input[uint32](k, "keys")
	bins := dsl.Output[uint32](k, "bins")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(keys.Len(), func(t *dsl.Thread, i dsl.U32) {
			bins.Atomic(t, dsl.AtomicAdd, keys.At(i).Rem(bins.Len()), dsl.N(1))
		})
	})
	got, err := runOnCPU(k, []uint32{0, 1, 1, 3, 3, 3, 7, 5, 9}, 4)
	fmt.Println(got, err)
	// Output: [1 4 0 4] <nil>
}

// runOnCPU builds k, whose parameters are an input and an output array,
// runs it on the CPU evaluator with in and an output of n zeros, and
// returns the output.
func runOnCPU(k *dsl.Kernel, in []uint32, n int) ([]uint32, error) {
	kernel, err := k.Build()
	if err != nil {
		return nil, err
	}
	dev := runtime.CPU()
	fn, err := dev.Load(kernel)
	if err != nil {
		return nil, err
	}
	inb, err := runtime.FromSlice(dev, in)
	if err != nil {
		return nil, err
	}
	out, err := runtime.FromSlice(dev, make([]uint32, n))
	if err != nil {
		return nil, err
	}
	if err := dev.Launch(fn, runtime.LaunchConfig{}, inb, out); err != nil {
		return nil, err
	}
	return out.ToSlice()
}
