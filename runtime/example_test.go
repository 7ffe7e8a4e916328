package runtime_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// The example runs on the GPU when there is one and on the CPU evaluator
// otherwise: the host code is the same.
func Example() {
	var dev runtime.Device = runtime.CPU()
	if gpu, err := runtime.Open(0); err == nil {
		defer gpu.Close()
		dev = gpu
	}

	// out[i] = a[i] + b[i], one thread per element, built directly as IR.
	a := &ir.Array{Name: "a", Elem: ir.Float32, Space: ir.Global, Access: ir.Input}
	b := &ir.Array{Name: "b", Elem: ir.Float32, Space: ir.Global, Access: ir.Input}
	out := &ir.Array{Name: "out", Elem: ir.Float32, Space: ir.Global, Access: ir.Output}
	i := &ir.Var{Name: "i", T: ir.Uint32}
	kernel := &ir.Kernel{
		Name:    "add",
		Threads: 128,
		Params:  []ir.Param{{Array: a}, {Array: b}, {Array: out}},
		Body: []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: out}, Body: []ir.Stmt{
			&ir.Store{Array: out, Index: i, Value: &ir.Binary{Op: ir.Add,
				X: &ir.Load{Array: a, Index: i}, Y: &ir.Load{Array: b, Index: i}}},
		}}},
		Blocks: &ir.Const{Value: ir.UintValue(ir.Uint32, 1)},
	}

	f, err := dev.Load(kernel)
	if err != nil {
		fmt.Println(err)
		return
	}
	x, _ := runtime.FromSlice(dev, []float32{1, 2, 3, 4})
	y, _ := runtime.FromSlice(dev, []float32{10, 20, 30, 40})
	sum, _ := runtime.Alloc[float32](dev, 4)
	if err := dev.Launch(f, runtime.LaunchConfig{}, x, y, sum); err != nil {
		fmt.Println(err)
		return
	}
	got, err := sum.ToSlice()
	fmt.Println(got, err)
	fmt.Println(f.Signature())
	// Output:
	// [11 22 33 44] <nil>
	// (a []float32, b []float32, out []float32)
}
