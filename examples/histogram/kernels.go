package histogram

import "github.com/obsidian-go/obsidian/dsl"

// Kernels returns the package's kernels: histogram.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{histogramKernel()} }

// histogramKernel returns the kernel that adds 1 to bins[k mod len(bins)]
// for every key k, with atomicAdd (no bins: nothing is counted).
func histogramKernel() *dsl.Kernel {
	k := dsl.NewKernel("histogram", 256)
	keys := dsl.Input[uint32](k, "keys")
	bins := dsl.Output[uint32](k, "bins")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(keys.Len(), func(t *dsl.Thread, i dsl.U32) {
			t.If(bins.Len().Gt(dsl.N(0)), func(t *dsl.Thread) {
				bins.Atomic(t, dsl.AtomicAdd, keys.At(i).Rem(bins.Len()), dsl.N(1))
			})
		})
	})
	return k
}
