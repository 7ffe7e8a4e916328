// Package good has kernels whose parameters take every scalar type and
// names a launcher must rename.
package good

import "github.com/obsidian-go/obsidian/dsl"

// Kernels returns the package's kernels.
func Kernels() []*dsl.Kernel { return []*dsl.Kernel{scale(), shift()} }

func scale() *dsl.Kernel {
	k := dsl.NewKernel("scale", 128)
	in := dsl.Input[float64](k, "in")
	factor := dsl.Param[float64](k, "factor")
	out := dsl.Output[float64](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i).Mul(factor)) })
	})
	return k
}

func shift() *dsl.Kernel {
	k := dsl.NewKernel("shift_by", 64)
	cfg := dsl.Input[int32](k, "cfg")
	n := dsl.Param[uint32](k, "len")
	by := dsl.Param[int64](k, "type")
	on := dsl.Param[bool](k, "on")
	out := dsl.Output[int64](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(n.Shr(dsl.N(1)).Add(cfg.Len()), func(t *dsl.Thread, i dsl.U32) {
			t.If(on.And(i.Lt(out.Len())).And(i.Lt(cfg.Len())), func(t *dsl.Thread) {
				out.Store(t, i, dsl.Cast[int64](cfg.At(i)).Add(by))
			})
		})
	})
	return k
}
