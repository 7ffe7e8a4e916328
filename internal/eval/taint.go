package eval

import "github.com/obsidian-go/obsidian/ir"

// taint says on which thread indices a value of uniform-level code depends.
type taint uint8

const (
	laneDependent taint = 1 << iota // differs between the threads of a warp
	warpDependent                   // differs between the warps of a block
)

// exprTaint returns the thread dependence of e under the variable taints.
// An expression of a kind it does not know is taken to depend on every
// thread index, the safe answer.
func (c *compiler) exprTaint(e ir.Expr) taint {
	switch e := e.(type) {
	case *ir.Const, *ir.Len, *ir.Invalid:
		return 0
	case *ir.Special:
		switch {
		case e != nil && (e.Kind == ir.ThreadIdx || e.Kind == ir.LaneIdx):
			return laneDependent
		case e != nil && e.Kind == ir.WarpIdx:
			return warpDependent
		}
		return 0
	case *ir.Var:
		return c.taint[e]
	case *ir.Unary:
		if e != nil {
			return c.exprTaint(e.X)
		}
	case *ir.Binary:
		if e != nil {
			return c.exprTaint(e.X) | c.exprTaint(e.Y)
		}
	case *ir.Ternary:
		if e != nil {
			return c.exprTaint(e.X) | c.exprTaint(e.Y) | c.exprTaint(e.Z)
		}
	case *ir.Select:
		if e != nil {
			return c.exprTaint(e.Cond) | c.exprTaint(e.Then) | c.exprTaint(e.Else)
		}
	case *ir.Convert:
		if e != nil {
			return c.exprTaint(e.X)
		}
	case *ir.Load:
		if e != nil {
			return c.exprTaint(e.Index)
		}
	}
	return laneDependent | warpDependent
}

// computeTaints finds the Grid-, Block- and Warp-level variables whose
// values depend on thread indices, to a fixed point.
func (c *compiler) computeTaints(body []ir.Stmt) {
	c.taint = map[*ir.Var]taint{}
	for changed := true; changed; {
		changed = false
		mark := func(v *ir.Var, e ir.Expr) {
			if v == nil {
				return
			}
			if t := c.taint[v] | c.exprTaint(e); t != c.taint[v] {
				c.taint[v] = t
				changed = true
			}
		}
		var walk func([]ir.Stmt)
		walk = func(list []ir.Stmt) {
			for _, s := range list {
				switch s := s.(type) {
				case *ir.Decl:
					if s != nil {
						mark(s.Var, s.Init)
					}
				case *ir.Assign:
					if s != nil {
						mark(s.Var, s.Value)
					}
				case *ir.If:
					if s != nil {
						walk(s.Then)
						walk(s.Else)
					}
				case *ir.For:
					if s != nil {
						walk(s.Body)
					}
				case *ir.While:
					if s != nil {
						walk(s.Body)
					}
				case *ir.ForAll:
					if s != nil && s.Kind.Inner() != ir.ThreadLevel {
						walk(s.Body)
					}
				}
			}
		}
		walk(body)
	}
}
