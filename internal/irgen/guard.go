package irgen

import "github.com/obsidian-go/obsidian/ir"

// Guarded returns op applied to x and y, made well defined where the
// operation could fault: an integer division's divisor becomes 1 where it is
// 0 (and, for signed types, where x / y would overflow), and a shift count is
// masked to below the bit width. Other operations are returned as they are.
// x and y appear in the guard as the same nodes as in the operation.
func Guarded(op ir.BinOp, x, y ir.Expr) ir.Expr {
	t := x.Type()
	switch faults(op, t) {
	case ir.DivisorFault:
		return &ir.Binary{Op: op, X: x, Y: divisorGuard(x, y)}
	case ir.CountFault:
		return &ir.Binary{Op: op, X: x, Y: &ir.Binary{Op: ir.And, X: y, Y: constant(ir.UintValue(t, uint64(t.Bits()-1)))}}
	}
	return &ir.Binary{Op: op, X: x, Y: y}
}

// faults returns the fault rule of op on operands of type t.
func faults(op ir.BinOp, t ir.Type) ir.FaultRule {
	if o := op.Operation(); o != nil {
		return o.FaultsFor(t)
	}
	return ir.NeverFaults
}

// divisorGuard is Select(y == 0, 1, y) for unsigned types and
// Select(y == 0 || (y == -1 && x == MIN), 1, y) for signed ones.
func divisorGuard(x, y ir.Expr) ir.Expr {
	t := y.Type()
	bad := ir.Expr(&ir.Binary{Op: ir.Eq, X: y, Y: constant(zero(t))})
	if t.IsSigned() {
		overflow := &ir.Binary{Op: ir.And,
			X: &ir.Binary{Op: ir.Eq, X: y, Y: constant(ir.IntValue(t, -1))},
			Y: &ir.Binary{Op: ir.Eq, X: x, Y: constant(minSigned(t))}}
		bad = &ir.Binary{Op: ir.Or, X: bad, Y: overflow}
	}
	return &ir.Select{Cond: bad, Then: constant(one(t)), Else: y}
}

// unguard recognises an operation built by Guarded with a guard, and
// returns its operands.
func unguard(b *ir.Binary) (x, y ir.Expr, ok bool) {
	switch faults(b.Op, b.X.Type()) {
	case ir.DivisorFault:
		if s, isSelect := b.Y.(*ir.Select); isSelect {
			y = s.Else
		}
	case ir.CountFault:
		if a, isAnd := b.Y.(*ir.Binary); isAnd && a.Op == ir.And {
			y = a.X
		}
	}
	if y == nil || y.Type() != b.X.Type() {
		return nil, nil, false
	}
	return b.X, y, sameExpr(b, Guarded(b.Op, b.X, y))
}

// InRange returns an index into a that is always in range: i % len(a). a
// must not be empty when it is evaluated.
func InRange(a *ir.Array, i ir.Expr) ir.Expr {
	return &ir.Binary{Op: ir.Rem, X: i, Y: &ir.Len{Array: a}}
}

// inRangeOperand recognises an index built by InRange for a and returns
// the index it reduces.
func inRangeOperand(a *ir.Array, e ir.Expr) (ir.Expr, bool) {
	b, ok := e.(*ir.Binary)
	if !ok || b.Op != ir.Rem {
		return nil, false
	}
	if l, ok := b.Y.(*ir.Len); ok && l.Array == a {
		return b.X, true
	}
	return nil, false
}

// sameExpr reports whether a and b are the same tree: the same operators
// and constants, the same variables and arrays.
func sameExpr(a, b ir.Expr) bool {
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *ir.Const:
		b, ok := b.(*ir.Const)
		return ok && a.Value == b.Value
	case *ir.Special:
		b, ok := b.(*ir.Special)
		return ok && a.Kind == b.Kind
	case *ir.Len:
		b, ok := b.(*ir.Len)
		return ok && a.Array == b.Array
	case *ir.Unary:
		b, ok := b.(*ir.Unary)
		return ok && a.Op == b.Op && sameExpr(a.X, b.X)
	case *ir.Binary:
		b, ok := b.(*ir.Binary)
		return ok && a.Op == b.Op && sameExpr(a.X, b.X) && sameExpr(a.Y, b.Y)
	case *ir.Ternary:
		b, ok := b.(*ir.Ternary)
		return ok && a.Op == b.Op && sameExpr(a.X, b.X) && sameExpr(a.Y, b.Y) && sameExpr(a.Z, b.Z)
	case *ir.Select:
		b, ok := b.(*ir.Select)
		return ok && sameExpr(a.Cond, b.Cond) && sameExpr(a.Then, b.Then) && sameExpr(a.Else, b.Else)
	case *ir.Convert:
		b, ok := b.(*ir.Convert)
		return ok && a.To == b.To && sameExpr(a.X, b.X)
	case *ir.Load:
		b, ok := b.(*ir.Load)
		return ok && a.Array == b.Array && sameExpr(a.Index, b.Index)
	}
	return false
}
