package codegen

import (
	"slices"

	"github.com/obsidian-go/obsidian/ir"
)

// cloner makes a deep copy of a kernel: new arrays, variables, expressions
// and statements, with pointer identity kept (one new node for each old one).
type cloner struct {
	vars   map[*ir.Var]*ir.Var
	arrays map[*ir.Array]*ir.Array
}

// deepCopy returns a copy of k that shares no node with it.
func deepCopy(k *ir.Kernel) *ir.Kernel {
	c := &cloner{vars: map[*ir.Var]*ir.Var{}, arrays: map[*ir.Array]*ir.Array{}}
	n := *k
	n.Params = make([]ir.Param, len(k.Params))
	for i, p := range k.Params {
		n.Params[i] = ir.Param{Array: c.array(p.Array), Scalar: c.variable(p.Scalar)}
	}
	n.Shared = c.arrayList(k.Shared)
	n.Locals = c.arrayList(k.Locals)
	n.Constants = c.arrayList(k.Constants)
	n.Body = c.stmts(k.Body)
	n.Blocks = c.expr(k.Blocks)
	return &n
}

// arrayList returns copies of the arrays of list (nil for nil).
func (c *cloner) arrayList(list []*ir.Array) []*ir.Array {
	if list == nil {
		return nil
	}
	out := make([]*ir.Array, len(list))
	for i, a := range list {
		out[i] = c.array(a)
	}
	return out
}

func (c *cloner) variable(v *ir.Var) *ir.Var {
	if v == nil {
		return nil
	}
	if n, ok := c.vars[v]; ok {
		return n
	}
	n := *v
	c.vars[v] = &n
	return &n
}

func (c *cloner) array(a *ir.Array) *ir.Array {
	if a == nil {
		return nil
	}
	if n, ok := c.arrays[a]; ok {
		return n
	}
	n := *a
	n.Values = slices.Clone(a.Values)
	c.arrays[a] = &n
	return &n
}

func (c *cloner) stmts(body []ir.Stmt) []ir.Stmt {
	if body == nil {
		return nil
	}
	out := make([]ir.Stmt, len(body))
	for i, s := range body {
		out[i] = c.stmt(s)
	}
	return out
}

func (c *cloner) stmt(s ir.Stmt) ir.Stmt {
	switch s := s.(type) {
	case *ir.Decl:
		return &ir.Decl{Var: c.variable(s.Var), Init: c.expr(s.Init), Pos: s.Pos}
	case *ir.Assign:
		return &ir.Assign{Var: c.variable(s.Var), Value: c.expr(s.Value), Pos: s.Pos}
	case *ir.Store:
		return &ir.Store{Array: c.array(s.Array), Index: c.expr(s.Index), Value: c.expr(s.Value),
			SameValue: s.SameValue, Async: s.Async, Pos: s.Pos}
	case *ir.If:
		return &ir.If{Cond: c.expr(s.Cond), Then: c.stmts(s.Then), Else: c.stmts(s.Else), Pos: s.Pos}
	case *ir.For:
		return &ir.For{Var: c.variable(s.Var), Count: c.expr(s.Count), Body: c.stmts(s.Body), Pos: s.Pos}
	case *ir.While:
		return &ir.While{Cond: c.expr(s.Cond), Body: c.stmts(s.Body), Pos: s.Pos}
	case *ir.ForAll:
		return &ir.ForAll{Kind: s.Kind, Var: c.variable(s.Var), Count: c.expr(s.Count), Body: c.stmts(s.Body),
			Unroll: s.Unroll, Pos: s.Pos}
	case *ir.Sync:
		n := *s
		return &n
	case *ir.Atomic:
		return &ir.Atomic{Op: s.Op, Order: s.Order, Array: c.array(s.Array), Index: c.expr(s.Index),
			Value: c.expr(s.Value), Compare: c.expr(s.Compare), Result: c.variable(s.Result), Pos: s.Pos}
	case *ir.Fence:
		n := *s
		return &n
	case *ir.Sleep:
		n := *s
		return &n
	case *ir.Shuffle:
		return &ir.Shuffle{Mode: s.Mode, Result: c.variable(s.Result), Value: c.expr(s.Value),
			Lane: c.expr(s.Lane), Pos: s.Pos}
	case *ir.Ballot:
		return &ir.Ballot{Result: c.variable(s.Result), Pred: c.expr(s.Pred), Agree: s.Agree, Pos: s.Pos}
	case *ir.MatchAny:
		return &ir.MatchAny{Result: c.variable(s.Result), Value: c.expr(s.Value), Pos: s.Pos}
	}
	return s
}

func (c *cloner) expr(e ir.Expr) ir.Expr {
	return ir.MapExpr(e, func(e ir.Expr) (ir.Expr, bool) {
		switch e := e.(type) {
		case *ir.Const:
			n := *e
			return &n, true
		case *ir.Var:
			return c.variable(e), true
		case *ir.Special:
			n := *e
			return &n, true
		case *ir.Load:
			return &ir.Load{Array: c.array(e.Array), Index: c.expr(e.Index), Pos: e.Pos}, true
		case *ir.Len:
			return &ir.Len{Array: c.array(e.Array)}, true
		case *ir.Invalid:
			n := *e
			return &n, true
		}
		return nil, false
	})
}
