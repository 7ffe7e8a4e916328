package saxpy

import "github.com/obsidian-go/obsidian/dsl"

//go:generate go tool obsgen run .

// Kernels returns the package's kernels, for obsgen: saxpy.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{saxpyKernel()} }

// saxpyKernel returns the kernel that computes y = a*x + y, one thread per
// element of the shorter of x and y.
func saxpyKernel() *dsl.Kernel {
	k := dsl.NewKernel("saxpy", 256)
	a := dsl.Param[float32](k, "a")
	x := dsl.Input[float32](k, "x")
	y := dsl.InOut[float32](k, "y")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(x.Len().Min(y.Len()), func(t *dsl.Thread, i dsl.U32) {
			y.Store(t, i, a.Mul(x.At(i)).Add(y.At(i)))
		})
	})
	return k
}
