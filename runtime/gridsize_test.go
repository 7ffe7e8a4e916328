package runtime_test

import (
	"fmt"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestFoldedGridSizeIsTheEvaluated checks, on random lengths and scalar
// arguments, that a launch's grid size, which folds the kernel's Blocks
// expression with the arguments as constants, is what the evaluator
// computes for it: the same count, or an error when the evaluator fails
// (a divisor of zero).
func TestFoldedGridSizeIsTheEvaluated(t *testing.T) {
	r := testRand(t)
	k := gridKernel()
	cpu := runtime.CPU()
	for range 300 {
		n := 1 + r.IntN(5000)
		buf := must(runtime.Alloc[uint32](cpu, n))(t)
		p := uint32(r.IntN(40))
		e := int32(r.IntN(41) - 20)
		got, err := runtime.GridSize(cpu, k, runtime.LaunchConfig{}, buf, p, e)
		if d := checkGridSize(cpu, k, got, err, buf, p, e); d != "" {
			t.Fatal(d)
		}
		if err := buf.Free(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGridCountFollowsItsParameters checks the count a loaded kernel keeps
// between launches: over a run of launches in which the length and the
// two scalars each change or keep their value at random, every count is
// what the evaluator computes for that launch's arguments.
func TestGridCountFollowsItsParameters(t *testing.T) {
	r := testRand(t)
	k := gridKernel()
	cpu := runtime.CPU()
	count := runtime.GridCounter(k)
	bufs := []*runtime.Buffer[uint32]{must(runtime.Alloc[uint32](cpu, 100))(t), must(runtime.Alloc[uint32](cpu, 1000))(t)}
	var p uint32 = 8
	var e int32 = 3
	buf := bufs[0]
	for range 300 {
		switch r.IntN(4) {
		case 0:
			buf = bufs[r.IntN(2)]
		case 1:
			p = uint32(r.IntN(4))
		case 2:
			e = int32(r.IntN(11) - 5)
		}
		got, err := count(cpu, runtime.LaunchConfig{}, buf, p, e)
		if d := checkGridSize(cpu, k, got, err, buf, p, e); d != "" {
			t.Fatal(d)
		}
	}
}

// gridKernel returns a kernel of a grid of ceil(len(out) / per) + (extra %
// 5) - 2 blocks, as int32 then uint32.
func gridKernel() *ir.Kernel {
	out := global("out", ir.Uint32, ir.Output)
	per := &ir.Var{Name: "per", T: ir.Uint32}
	extra := &ir.Var{Name: "extra", T: ir.Int32}
	// ceil(len(out) / per) + (extra % 5) - 2, as int32 then uint32.
	ceil := bin(ir.Div, bin(ir.Add, &ir.Len{Array: out}, bin(ir.Sub, per, u32(1))), per)
	blocks := bin(ir.Sub, bin(ir.Add, &ir.Convert{To: ir.Int32, X: ceil},
		bin(ir.Rem, extra, &ir.Const{Value: ir.IntValue(ir.Int32, 5)})), &ir.Const{Value: ir.IntValue(ir.Int32, 2)})
	i := &ir.Var{Name: "i", T: ir.Uint32}
	k := &ir.Kernel{
		Name:    "grid",
		Threads: 32,
		Params:  []ir.Param{{Array: out}, {Scalar: per}, {Scalar: extra}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: out},
			Body: []ir.Stmt{&ir.Store{Array: out, Index: i, Value: i}}}},
		Blocks: blocks,
	}
	return k
}

// checkGridSize says how a grid size got (or err) for gridKernel's
// arguments differs from the evaluator's count.
func checkGridSize(d runtime.Device, k *ir.Kernel, got int, err error, buf *runtime.Buffer[uint32], p uint32, e int32) string {
	want, wantErr := runtime.EvaluatedGridSize(d, k, buf, p, e)
	n := buf.Len()
	switch {
	case wantErr != nil && err == nil:
		return fmt.Sprintf("n %d, per %d, extra %d: grid of %d blocks, want the evaluator's error %v", n, p, e, got, wantErr)
	case wantErr == nil && err != nil:
		return fmt.Sprintf("n %d, per %d, extra %d: %v, want %v", n, p, e, err, want)
	case wantErr == nil && got != int(max(1, want.Int())):
		return fmt.Sprintf("n %d, per %d, extra %d: %d blocks, want %d", n, p, e, got, max(1, want.Int()))
	}
	return ""
}
