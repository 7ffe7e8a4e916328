// Package bad has a kernel with a mistake: a barrier inside a thread's
// body, through the Block builder the body captured.
package bad

import "github.com/obsidian-go/obsidian/dsl"

// Kernels returns the package's kernels.
func Kernels() []*dsl.Kernel {
	k := dsl.NewKernel("divergent", 64)
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
				b.Sync() // the mistake: line 14
				out.Store(t, i, i)
			})
		})
	})
	return []*dsl.Kernel{k}
}
