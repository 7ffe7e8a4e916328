package codegen

import (
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// simplifyKernel rewrites k's body in place: constants folded, identities applied,
// dead branches and empty loops removed. It never changes what the kernel
// computes, and leaves in place anything that could fail at run time.
func simplifyKernel(k *ir.Kernel) {
	k.Body = simplifyBody(k.Body)
	if k.Blocks != nil {
		k.Blocks = simplifyExpr(k.Blocks)
	}
}

func simplifyBody(body []ir.Stmt) []ir.Stmt {
	var out []ir.Stmt
	for _, s := range body {
		out = append(out, simplifyStmt(s)...)
	}
	return out
}

// simplifyStmt returns the statements that replace s.
func simplifyStmt(s ir.Stmt) []ir.Stmt {
	switch s := s.(type) {
	case *ir.Decl:
		s.Init = simplifyExpr(s.Init)
	case *ir.Assign:
		s.Value = simplifyExpr(s.Value)
	case *ir.Store:
		s.Index, s.Value = simplifyExpr(s.Index), simplifyExpr(s.Value)
	case *ir.Atomic:
		s.Index = simplifyExpr(s.Index)
		if s.Value != nil { // a Load has none
			s.Value = simplifyExpr(s.Value)
		}
		if s.Compare != nil {
			s.Compare = simplifyExpr(s.Compare)
		}
	case *ir.Shuffle:
		s.Value, s.Lane = simplifyExpr(s.Value), simplifyExpr(s.Lane)
	case *ir.Ballot:
		s.Pred = simplifyExpr(s.Pred)
	case *ir.MatchAny:
		s.Value = simplifyExpr(s.Value)
	case *ir.If:
		s.Cond = simplifyExpr(s.Cond)
		s.Then, s.Else = simplifyBody(s.Then), simplifyBody(s.Else)
		if c, ok := s.Cond.(*ir.Const); ok {
			if c.Value.Bool() {
				return s.Then
			}
			return s.Else
		}
	case *ir.For:
		s.Count = simplifyExpr(s.Count)
		if c, ok := s.Count.(*ir.Const); ok && c.Value.Int() <= 0 {
			return nil
		}
		s.Body = simplifyBody(s.Body)
	case *ir.While:
		s.Cond = simplifyExpr(s.Cond)
		if c, ok := s.Cond.(*ir.Const); ok && !c.Value.Bool() {
			return nil
		}
		s.Body = simplifyBody(s.Body)
	case *ir.ForAll:
		s.Count = simplifyExpr(s.Count)
		if c, ok := s.Count.(*ir.Const); ok && c.Value.IsZero() {
			return nil
		}
		s.Body = simplifyBody(s.Body)
	}
	return []ir.Stmt{s}
}

// simplifyExpr returns a simplified equivalent of e (see package
// simplify).
func simplifyExpr(e ir.Expr) ir.Expr { return simplify.Expr(e) }

// ConstValue returns the value of e when it simplifies to a constant (with
// CUDA's semantics; an expression that would fail at run time does not).
func ConstValue(e ir.Expr) (ir.Value, bool) { return simplify.Constant(e) }
