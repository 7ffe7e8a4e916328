package vecadd

import "github.com/obsidian-go/obsidian/dsl"

// Kernels returns the package's kernels: vecadd.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{vecaddKernel()} }

// vecaddKernel returns the kernel that writes a[i]+b[i] to sum[i], one
// thread per element over the whole grid.
func vecaddKernel() *dsl.Kernel {
	k := dsl.NewKernel("vecadd", 256)
	a := dsl.Input[float32](k, "a")
	b := dsl.Input[float32](k, "b")
	sum := dsl.Output[float32](k, "sum")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(sum.Len(), func(t *dsl.Thread, i dsl.U32) {
			sum.Store(t, i, a.At(i).Add(b.At(i)))
		})
	})
	return k
}
