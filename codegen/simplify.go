package codegen

import (
	"math/bits"

	"github.com/obsidian-go/obsidian/ir"
)

// simplify rewrites k's body in place: constants folded, identities applied,
// dead branches and empty loops removed. It never changes what the kernel
// computes, and leaves in place anything that could fail at run time.
func simplify(k *ir.Kernel) {
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
		s.Index, s.Value = simplifyExpr(s.Index), simplifyExpr(s.Value)
		if s.Compare != nil {
			s.Compare = simplifyExpr(s.Compare)
		}
	case *ir.Shuffle:
		s.Value, s.Lane = simplifyExpr(s.Value), simplifyExpr(s.Lane)
	case *ir.Ballot:
		s.Pred = simplifyExpr(s.Pred)
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

// simplifyExpr returns a simplified equivalent of e. It builds new nodes and
// never modifies e.
func simplifyExpr(e ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *ir.Unary:
		return simplifyUnary(e.Op, simplifyExpr(e.X))
	case *ir.Binary:
		return simplifyBinary(e.Op, simplifyExpr(e.X), simplifyExpr(e.Y))
	case *ir.Select:
		c, t, f := simplifyExpr(e.Cond), simplifyExpr(e.Then), simplifyExpr(e.Else)
		if k, ok := c.(*ir.Const); ok {
			if k.Value.Bool() {
				return t
			}
			return f
		}
		return &ir.Select{Cond: c, Then: t, Else: f}
	case *ir.Convert:
		x := simplifyExpr(e.X)
		if x.Type() == e.To {
			return x
		}
		if k, ok := x.(*ir.Const); ok {
			if v, ok := foldConvert(e.To, k.Value); ok {
				return &ir.Const{Value: v}
			}
		}
		return &ir.Convert{To: e.To, X: x}
	case *ir.Load:
		return &ir.Load{Array: e.Array, Index: simplifyExpr(e.Index), Pos: e.Pos}
	case *ir.Len:
		if e.Array != nil && e.Array.Space == ir.Shared {
			return constant(ir.UintValue(ir.Uint32, uint64(e.Array.Size)))
		}
	}
	return e
}

func simplifyUnary(op ir.UnOp, x ir.Expr) ir.Expr {
	if k, ok := x.(*ir.Const); ok {
		if v, ok := foldUnary(op, k.Value); ok {
			return &ir.Const{Value: v}
		}
	}
	if op == ir.Not {
		if u, ok := x.(*ir.Unary); ok && u.Op == ir.Not {
			return u.X
		}
	}
	return &ir.Unary{Op: op, X: x}
}

func simplifyBinary(op ir.BinOp, x, y ir.Expr) ir.Expr {
	kx, xConst := x.(*ir.Const)
	ky, yConst := y.(*ir.Const)
	if xConst && yConst {
		if v, ok := foldBinary(op, kx.Value, ky.Value); ok {
			return &ir.Const{Value: v}
		}
		return &ir.Binary{Op: op, X: x, Y: y}
	}
	is := func(e ir.Expr, p func(ir.Value) bool) bool {
		k, ok := e.(*ir.Const)
		return ok && p(k.Value)
	}
	t := x.Type()
	if t.IsInteger() {
		if e, ok := cancel(op, x, y); ok {
			return e
		}
	}
	switch op {
	case ir.Add:
		if is(y, isAdditiveIdentity) {
			return x
		}
		if is(x, isAdditiveIdentity) {
			return y
		}
	case ir.Sub:
		if is(y, isZero) {
			return x
		}
	case ir.Mul:
		if is(y, isOne) {
			return x
		}
		if is(x, isOne) {
			return y
		}
		if t.IsInteger() && is(y, isZero) && !canFail(x) {
			return y
		}
		if t.IsInteger() && is(x, isZero) && !canFail(y) {
			return x
		}
		if n, ok := log2(y); ok && t.IsUnsigned() {
			return &ir.Binary{Op: ir.Shl, X: x, Y: constant(ir.UintValue(t, n))}
		}
		if n, ok := log2(x); ok && t.IsUnsigned() {
			return &ir.Binary{Op: ir.Shl, X: y, Y: constant(ir.UintValue(t, n))}
		}
	case ir.Div:
		if is(y, isOne) {
			return x
		}
		if n, ok := log2(y); ok && t.IsUnsigned() {
			return simplifyBinary(ir.Shr, x, constant(ir.UintValue(t, n)))
		}
	case ir.Rem:
		if n, ok := log2(y); ok && t.IsUnsigned() {
			return simplifyBinary(ir.And, x, constant(ir.UintValue(t, 1<<n-1)))
		}
	case ir.And:
		if is(y, isZero) && !canFail(x) {
			return y
		}
		if is(x, isZero) && !canFail(y) {
			return x
		}
	case ir.Or, ir.Xor:
		if is(y, isZero) {
			return x
		}
		if is(x, isZero) {
			return y
		}
	case ir.Shl, ir.Shr:
		if is(y, isZero) {
			return x
		}
	}
	return &ir.Binary{Op: op, X: x, Y: y}
}

func constant(v ir.Value) *ir.Const { return &ir.Const{Value: v} }

// isZero: integer 0, false, or +0.0 (x - +0.0 == x for every x).
func isZero(v ir.Value) bool { return v.Bits == 0 }

// isAdditiveIdentity: integer 0, false, or -0.0 (x + -0.0 == x for every x;
// x + +0.0 is +0.0 for x == -0.0).
func isAdditiveIdentity(v ir.Value) bool {
	switch v.T {
	case ir.Float32:
		return v.Bits == 1<<31
	case ir.Float64:
		return v.Bits == 1<<63
	}
	return v.Bits == 0
}

func isOne(v ir.Value) bool {
	switch {
	case v.T.IsInteger():
		return v.Bits == 1
	case v.T.IsFloat():
		return v.Float() == 1
	}
	return false
}

// log2 returns k when e is the unsigned constant 2^k.
func log2(e ir.Expr) (uint64, bool) {
	k, ok := e.(*ir.Const)
	if !ok || !k.Value.T.IsUnsigned() || k.Value.Bits == 0 || k.Value.Bits&(k.Value.Bits-1) != 0 {
		return 0, false
	}
	return uint64(bits.TrailingZeros64(k.Value.Bits)), true
}

// canFail reports whether evaluating e could be an error at run time (an
// out-of-bounds load, a division by zero, a bad shift), so that it must not
// be dropped from the program.
func canFail(e ir.Expr) bool {
	fails := false
	ir.WalkExpr(e, func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.Load, *ir.Invalid:
			fails = true
		case *ir.Binary:
			switch e.Op {
			case ir.Div, ir.Rem:
				fails = fails || e.Type().IsInteger()
			case ir.Shl, ir.Shr:
				k, ok := e.Y.(*ir.Const)
				if !ok {
					fails = true
				} else if _, ok := shiftCount(k.Value); !ok {
					fails = true
				}
			}
		}
	})
	return fails
}

// ConstValue returns the value of e when it simplifies to a constant (with
// CUDA's semantics; an expression that would fail at run time does not).
func ConstValue(e ir.Expr) (ir.Value, bool) {
	if k, ok := simplifyExpr(e).(*ir.Const); ok {
		return k.Value, true
	}
	return ir.Value{}, false
}

// cancel applies the integer identities that index arithmetic of the array
// combinators leaves behind (a part's base added back, an offset dropped
// and re-added): (a-b)+b = b+(a-b) = a, (a+b)-b = a, (a+b)-a = b, and
// constants gathered, (a±c1)±c2 = a±c. Integer + and - wrap, so these hold
// for every value; the dropped operand must not be able to fail.
func cancel(op ir.BinOp, x, y ir.Expr) (ir.Expr, bool) {
	same := func(a, b ir.Expr) bool { return !canFail(b) && exprKey(a) == exprKey(b) }
	bx, _ := x.(*ir.Binary)
	by, _ := y.(*ir.Binary)
	switch {
	case op == ir.Add && bx != nil && bx.Op == ir.Sub && same(bx.Y, y):
		return bx.X, true
	case op == ir.Add && by != nil && by.Op == ir.Sub && same(by.Y, x):
		return by.X, true
	case op == ir.Sub && bx != nil && bx.Op == ir.Add && same(bx.Y, y):
		return bx.X, true
	case op == ir.Sub && bx != nil && bx.Op == ir.Add && same(bx.X, y):
		return bx.Y, true
	}
	c2, ok := y.(*ir.Const)
	if !ok || bx == nil || (op != ir.Add && op != ir.Sub) || (bx.Op != ir.Add && bx.Op != ir.Sub) {
		return nil, false
	}
	c1, ok := bx.Y.(*ir.Const)
	if !ok {
		return nil, false
	}
	// x = a ± c1; the result is a + (±c1 ± c2).
	t := x.Type()
	sum := c1.Value.Bits
	if bx.Op == ir.Sub {
		sum = -sum
	}
	if op == ir.Add {
		sum += c2.Value.Bits
	} else {
		sum -= c2.Value.Bits
	}
	return simplifyBinary(ir.Add, bx.X, constant(ir.UintValue(t, sum))), true
}
