package runtime

import (
	"slices"
	"sync"

	"github.com/obsidian-go/obsidian/ir"
)

// gridCount computes a loaded kernel's number of blocks (gridSize) and
// keeps the last count: a launch whose arguments give the parameters that
// the kernel's Blocks expression reads (lengths of arrays, scalars) the
// values of the launch before reuses its count, so that the launches of a
// loop, which mostly keep their sizes, do not fold the expression again.
type gridCount struct {
	kernel *ir.Kernel // nil for a kernel loaded from CUDA text
	uses   []int      // the parameters Blocks reads, by index

	mu     sync.Mutex
	last   []uint64 // their values at the last launch whose count was found
	blocks int      // that count
}

// newGridCount returns the grid count of k (nil for CUDA text).
func newGridCount(k *ir.Kernel) *gridCount {
	g := &gridCount{kernel: k}
	if k == nil || k.Blocks == nil {
		return g
	}
	ir.WalkExpr(k.Blocks, func(e ir.Expr) {
		for i, p := range k.Params {
			var reads bool
			switch e := e.(type) {
			case *ir.Len:
				reads = p.Array != nil && e.Array == p.Array
			case *ir.Var:
				reads = p.Scalar != nil && e == p.Scalar
			}
			if reads && !slices.Contains(g.uses, i) {
				g.uses = append(g.uses, i)
			}
		}
	})
	return g
}

// size returns the number of blocks of a launch of the kernel named name
// with cfg and args, as gridSize does.
func (g *gridCount) size(name string, cfg LaunchConfig, args []boundArg) (int, error) {
	if cfg.Blocks != 0 || g.kernel == nil || g.kernel.Blocks == nil || len(args) != len(g.kernel.Params) {
		return gridSize(name, g.kernel, cfg, args)
	}
	var store [inlineArgs]uint64
	values := store[:0]
	for _, i := range g.uses {
		if g.kernel.Params[i].Array != nil {
			values = append(values, uint64(args[i].n))
		} else {
			values = append(values, args[i].value.Bits)
		}
	}
	g.mu.Lock()
	if g.last != nil && slices.Equal(values, g.last) {
		blocks := g.blocks
		g.mu.Unlock()
		return blocks, nil
	}
	g.mu.Unlock()
	blocks, err := gridSize(name, g.kernel, cfg, args)
	if err != nil {
		return 0, err
	}
	g.mu.Lock()
	g.last, g.blocks = slices.Clone(values), blocks
	g.mu.Unlock()
	return blocks, nil
}
