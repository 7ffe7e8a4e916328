package irgen

import (
	"github.com/leanovate/gopter"

	"github.com/obsidian-go/obsidian/ir"
)

// ShrinkProgram is the gopter shrinker of Kernel's generator. A shrink of a
// program removes a thread statement (a declaration only once nothing uses
// its variable; never the store that fills a shared array), replaces an if
// by its then or else branch, lowers a loop count, drops an atomic's result
// or an if's else branch, shrinks one expression as ShrinkExpr does, or
// launches one block. Indices stay in range and the block structure stays
// as it is, so every shrink is well formed too.
func ShrinkProgram(value any) gopter.Shrink {
	p, ok := value.(*Program)
	if !ok || p.Kernel == nil {
		return gopter.NoShrink
	}
	return sliceShrink(programShrinks(p))
}

func programShrinks(p *Program) []*Program {
	var out []*Program
	if p.Blocks > 1 {
		q := *p
		q.Blocks = 1
		out = append(out, &q)
	}
	for _, body := range bodyShrinks(p.Kernel.Body, usedVars(p.Kernel.Body), ir.GridLevel, false) {
		k := *p.Kernel
		k.Body = body
		q := *p
		q.Kernel = &k
		out = append(out, &q)
	}
	return out
}

// usedVars returns the variables that statements of body read or write,
// other than by declaring them.
func usedVars(body []ir.Stmt) map[*ir.Var]bool {
	used := map[*ir.Var]bool{}
	ir.WalkStmts(body, func(s ir.Stmt) bool {
		for _, e := range ir.Exprs(s) {
			ir.WalkExpr(e, func(e ir.Expr) {
				if v, ok := e.(*ir.Var); ok {
					used[v] = true
				}
			})
		}
		switch s := s.(type) {
		case *ir.Assign:
			used[s.Var] = true
		case *ir.Atomic:
			used[s.Result] = true
		}
		return true
	})
	return used
}

// bodyShrinks returns the one-step shrinks of a statement list of the
// given level; top says whether it is the body of a ForAll. Only thread
// code shrinks: the Grid and Block levels keep their structure and
// expressions.
func bodyShrinks(body []ir.Stmt, used map[*ir.Var]bool, level ir.Level, top bool) [][]ir.Stmt {
	var out [][]ir.Stmt
	splice := func(i int, with ...ir.Stmt) {
		b := make([]ir.Stmt, 0, len(body)-1+len(with))
		b = append(append(append(b, body[:i]...), with...), body[i+1:]...)
		out = append(out, b)
	}
	if level != ir.ThreadLevel {
		for i, s := range body {
			if f, ok := s.(*ir.ForAll); ok {
				for _, b := range bodyShrinks(f.Body, used, f.Kind.Inner(), true) {
					c := *f
					c.Body = b
					splice(i, &c)
				}
			}
		}
		return out
	}
	for i, s := range body {
		if removable(s, used, top) {
			splice(i)
		}
	}
	for i, s := range body {
		if s, ok := s.(*ir.If); ok {
			splice(i, s.Then...)
			splice(i, s.Else...)
		}
	}
	for i, s := range body {
		for _, r := range stmtShrinks(s, used) {
			splice(i, r)
		}
	}
	return out
}

// removable reports whether thread statement s can go without making the
// kernel wrong; top says whether s is directly in a ForAll's body, where a
// store to a shared array fills the array for the code after the barrier.
func removable(s ir.Stmt, used map[*ir.Var]bool, top bool) bool {
	switch s := s.(type) {
	case *ir.Decl:
		return !used[s.Var]
	case *ir.Store:
		return !top || s.Array.Space != ir.Shared
	case *ir.Assign, *ir.Atomic, *ir.If, *ir.For:
		return true
	}
	return false
}

// stmtShrinks returns the shrinks of thread statement s that replace it by
// one statement.
func stmtShrinks(s ir.Stmt, used map[*ir.Var]bool) []ir.Stmt {
	var out []ir.Stmt
	switch s := s.(type) {
	case *ir.Decl:
		for _, e := range exprShrinks(s.Init) {
			out = append(out, &ir.Decl{Var: s.Var, Init: e, Pos: s.Pos})
		}
	case *ir.Assign:
		for _, e := range exprShrinks(s.Value) {
			out = append(out, &ir.Assign{Var: s.Var, Value: e, Pos: s.Pos})
		}
	case *ir.Store:
		for _, e := range exprShrinks(s.Value) {
			c := *s
			c.Value = e
			out = append(out, &c)
		}
	case *ir.Atomic:
		out = atomicShrinks(s)
	case *ir.If:
		if len(s.Else) > 0 {
			out = append(out, &ir.If{Cond: s.Cond, Then: s.Then, Pos: s.Pos})
		}
		for _, e := range exprShrinks(s.Cond) {
			out = append(out, &ir.If{Cond: e, Then: s.Then, Else: s.Else, Pos: s.Pos})
		}
		for _, b := range bodyShrinks(s.Then, used, ir.ThreadLevel, false) {
			out = append(out, &ir.If{Cond: s.Cond, Then: b, Else: s.Else, Pos: s.Pos})
		}
		for _, b := range bodyShrinks(s.Else, used, ir.ThreadLevel, false) {
			out = append(out, &ir.If{Cond: s.Cond, Then: s.Then, Else: b, Pos: s.Pos})
		}
	case *ir.For:
		if c, ok := s.Count.(*ir.Const); ok && c.Value.Int() > 1 {
			out = append(out, &ir.For{Var: s.Var, Count: constant(one(c.Value.T)), Body: s.Body, Pos: s.Pos})
		}
		for _, b := range bodyShrinks(s.Body, used, ir.ThreadLevel, false) {
			out = append(out, &ir.For{Var: s.Var, Count: s.Count, Body: b, Pos: s.Pos})
		}
	}
	return out
}

func atomicShrinks(s *ir.Atomic) []ir.Stmt {
	var out []ir.Stmt
	with := func(f func(c *ir.Atomic)) {
		c := *s
		f(&c)
		out = append(out, &c)
	}
	if s.Result != nil {
		with(func(c *ir.Atomic) { c.Result = nil })
	}
	for _, e := range indexShrinks(s.Array, s.Index) {
		with(func(c *ir.Atomic) { c.Index = e })
	}
	for _, e := range exprShrinks(s.Value) {
		with(func(c *ir.Atomic) { c.Value = e })
	}
	if s.Compare != nil {
		for _, e := range exprShrinks(s.Compare) {
			with(func(c *ir.Atomic) { c.Compare = e })
		}
	}
	return out
}
