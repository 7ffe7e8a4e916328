package codegen

import "github.com/obsidian-go/obsidian/ir"

// A block-level loop over a count that is not a constant needs a 64-bit
// counter when the count may come within a stride of 2^32: the 32-bit
// counter would wrap past it. A count with a constant upper bound well
// below that (the length of a tile, min(n - first, 4096)) takes a 32-bit
// counter, two instructions fewer per iteration.

// bounds finds constant upper bounds of unsigned 32-bit expressions.
type bounds struct {
	// inits holds the initial value of each variable declared once and
	// never assigned after: it keeps that value wherever it is read.
	inits map[*ir.Var]ir.Expr
}

// newBounds collects the constant variables of body; assigned holds the
// variables assigned after their declaration.
func newBounds(body []ir.Stmt, assigned map[*ir.Var]bool) bounds {
	b := bounds{inits: map[*ir.Var]ir.Expr{}}
	ir.WalkStmts(body, func(s ir.Stmt) bool {
		if d, ok := s.(*ir.Decl); ok && !assigned[d.Var] && d.Init != nil {
			b.inits[d.Var] = d.Init
		}
		return true
	})
	return b
}

// maxDepth limits how deep upper follows variables and operands.
const maxDepth = 8

// upper returns a constant that e, an unsigned 32-bit expression, never
// exceeds, and whether it found one below 2^32 - 1.
func (b bounds) upper(e ir.Expr, depth int) (uint64, bool) {
	if depth > maxDepth || e == nil || e.Type() != ir.Uint32 {
		return 0, false
	}
	switch e := e.(type) {
	case *ir.Const:
		return e.Value.Bits, true
	case *ir.Var:
		if init, ok := b.inits[e]; ok {
			return b.upper(init, depth+1)
		}
	case *ir.Binary:
		x, okX := b.upper(e.X, depth+1)
		y, okY := b.upper(e.Y, depth+1)
		switch e.Op {
		case ir.Min, ir.And: // at most either
			switch {
			case okX && okY:
				return min(x, y), true
			case okX:
				return x, true
			case okY:
				return y, true
			}
		case ir.Max:
			if okX && okY {
				return max(x, y), true
			}
		}
	}
	return 0, false
}
