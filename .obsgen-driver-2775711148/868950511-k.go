//line /work/main/cmd/obsgen/testdata/pkg-3670243984/k.go:1:1
package p

import "github.com/obsidian-go/obsidian/dsl"

// Kernels returns the package's kernels.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{copyKernel("scale")} }

func copyKernel(name string) *dsl.Kernel {
	k := dsl.NewKernel(name, 64)
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i)) })
	})
	return k
}

                                         
