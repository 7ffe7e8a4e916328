package simplify

import (
	"math/bits"

	"github.com/obsidian-go/obsidian/ir"
)

// Expr returns a simplified equivalent of e. It builds new nodes and never
// modifies e.
func Expr(e ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *ir.Unary:
		return unary(e.Op, Expr(e.X))
	case *ir.Binary:
		return binary(e.Op, Expr(e.X), Expr(e.Y))
	case *ir.Ternary:
		x, y, z := Expr(e.X), Expr(e.Y), Expr(e.Z)
		if kx, ky, kz, ok := consts3(x, y, z); ok {
			if v, ok := foldOp(e.Op.Operation(), kx, ky, kz); ok {
				return constant(v)
			}
		}
		return &ir.Ternary{Op: e.Op, X: x, Y: y, Z: z}
	case *ir.Select:
		c, t, f := Expr(e.Cond), Expr(e.Then), Expr(e.Else)
		if k, ok := c.(*ir.Const); ok {
			if k.Value.Bool() {
				return t
			}
			return f
		}
		return &ir.Select{Cond: c, Then: t, Else: f}
	case *ir.Convert:
		x := Expr(e.X)
		if x.Type() == e.To {
			return x
		}
		if k, ok := x.(*ir.Const); ok {
			if v, ok := foldConvert(e.To, k.Value); ok {
				return constant(v)
			}
		}
		return &ir.Convert{To: e.To, X: x}
	case *ir.Load:
		index := Expr(e.Index)
		if v, ok := tableElement(e.Array, index); ok {
			return constant(v)
		}
		return &ir.Load{Array: e.Array, Index: index, Pos: e.Pos}
	case *ir.Len:
		if e.Array != nil && e.Array.FixedLen() {
			return constant(ir.UintValue(ir.Uint32, uint64(e.Array.Size)))
		}
	}
	return e
}

// tableElement returns the element of a constant table a at index, when
// index is a constant within the table.
func tableElement(a *ir.Array, index ir.Expr) (ir.Value, bool) {
	k, ok := index.(*ir.Const)
	if !ok || a == nil || a.Space != ir.Constant || k.Value.Uint() >= uint64(len(a.Values)) {
		return ir.Value{}, false
	}
	return a.Values[k.Value.Uint()], true
}

// Constant returns the value of e when it simplifies to a constant (with
// CUDA's semantics; an expression that would fail at run time does not).
func Constant(e ir.Expr) (ir.Value, bool) {
	if k, ok := Expr(e).(*ir.Const); ok {
		return k.Value, true
	}
	return ir.Value{}, false
}

func consts3(x, y, z ir.Expr) (ir.Value, ir.Value, ir.Value, bool) {
	kx, okx := x.(*ir.Const)
	ky, oky := y.(*ir.Const)
	kz, okz := z.(*ir.Const)
	if !okx || !oky || !okz {
		return ir.Value{}, ir.Value{}, ir.Value{}, false
	}
	return kx.Value, ky.Value, kz.Value, true
}

func unary(op ir.UnOp, x ir.Expr) ir.Expr {
	if k, ok := x.(*ir.Const); ok {
		if v, ok := foldOp(op.Operation(), k.Value); ok {
			return constant(v)
		}
	}
	if op == ir.Not {
		if u, ok := x.(*ir.Unary); ok && u.Op == ir.Not {
			return u.X
		}
	}
	return &ir.Unary{Op: op, X: x}
}

func binary(op ir.BinOp, x, y ir.Expr) ir.Expr {
	kx, xConst := x.(*ir.Const)
	ky, yConst := y.(*ir.Const)
	if xConst && yConst {
		if v, ok := foldOp(op.Operation(), kx.Value, ky.Value); ok {
			return constant(v)
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
		if t.IsInteger() && is(y, isZero) && !CanFail(x) {
			return y
		}
		if t.IsInteger() && is(x, isZero) && !CanFail(y) {
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
			return binary(ir.Shr, x, constant(ir.UintValue(t, n)))
		}
	case ir.Rem:
		if n, ok := log2(y); ok && t.IsUnsigned() {
			return binary(ir.And, x, constant(ir.UintValue(t, 1<<n-1)))
		}
	case ir.And:
		if is(y, isZero) && !CanFail(x) {
			return y
		}
		if is(x, isZero) && !CanFail(y) {
			return x
		}
		if t.IsInteger() || t == ir.Bool {
			if is(y, isAllOnes) {
				return x
			}
			if is(x, isAllOnes) {
				return y
			}
		}
	case ir.Or:
		if is(y, isZero) {
			return x
		}
		if is(x, isZero) {
			return y
		}
		if t.IsInteger() || t == ir.Bool {
			if is(y, isAllOnes) && !CanFail(x) {
				return y
			}
			if is(x, isAllOnes) && !CanFail(y) {
				return x
			}
		}
	case ir.Xor:
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

// isAllOnes: an integer with every bit of its type set, or true: the
// identity of And, the absorbing element of Or.
func isAllOnes(v ir.Value) bool {
	if v.T == ir.Bool {
		return v.Bits == 1
	}
	return v.Bits == ir.UintValue(v.T, ^uint64(0)).Bits
}

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

// CanFail reports whether evaluating e could be an error at run time (an
// out-of-bounds load, a division by zero, a bad shift), so that it must not
// be dropped from the program nor evaluated where the program would not.
func CanFail(e ir.Expr) bool {
	fails := false
	ir.WalkExpr(e, func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.Load, *ir.Invalid:
			fails = true
		case *ir.Binary:
			o, t := e.Op.Operation(), e.X.Type()
			if o == nil {
				fails = true
				break
			}
			k, isConst := e.Y.(*ir.Const)
			if o.FaultsFor(t) != ir.NeverFaults && !(isConst && o.SafeWith(t, k.Value)) {
				fails = true
			}
		}
	})
	return fails
}

// cancel applies the integer identities that index arithmetic of the array
// combinators leaves behind (a part's base added back, an offset dropped
// and re-added): (a-b)+b = b+(a-b) = a, (a+b)-b = a, (a+b)-a = b, and
// constants gathered, (a±c1)±c2 = a±c. Integer + and - wrap, so these hold
// for every value; the dropped operand must not be able to fail.
func cancel(op ir.BinOp, x, y ir.Expr) (ir.Expr, bool) {
	same := func(a, b ir.Expr) bool { return Same(a, b) && !CanFail(b) }
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
	// x = a ± c1; the result is a ± c, with the sign that keeps c small.
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
	if c := ir.UintValue(t, sum); ir.UintValue(t, -sum).Bits < c.Bits {
		// a - 2, not a + 4294967294
		return binary(ir.Sub, bx.X, constant(ir.UintValue(t, -sum))), true
	}
	return binary(ir.Add, bx.X, constant(ir.UintValue(t, sum))), true
}

// sameBudget bounds the nodes Same compares, so that simplifying stays
// linear in the size of an expression.
const sameBudget = 64

// Same reports whether a and b are the same expression: the same operators,
// constants, variables and arrays. It answers false for trees larger than a
// small bound.
func Same(a, b ir.Expr) bool {
	budget := sameBudget
	return same(a, b, &budget)
}

func same(a, b ir.Expr, budget *int) bool {
	if *budget--; *budget < 0 {
		return false
	}
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
		return ok && a.Op == b.Op && same(a.X, b.X, budget)
	case *ir.Binary:
		b, ok := b.(*ir.Binary)
		return ok && a.Op == b.Op && same(a.X, b.X, budget) && same(a.Y, b.Y, budget)
	case *ir.Ternary:
		b, ok := b.(*ir.Ternary)
		return ok && a.Op == b.Op && same(a.X, b.X, budget) && same(a.Y, b.Y, budget) && same(a.Z, b.Z, budget)
	case *ir.Select:
		b, ok := b.(*ir.Select)
		return ok && same(a.Cond, b.Cond, budget) && same(a.Then, b.Then, budget) && same(a.Else, b.Else, budget)
	case *ir.Convert:
		b, ok := b.(*ir.Convert)
		return ok && a.To == b.To && same(a.X, b.X, budget)
	case *ir.Load:
		b, ok := b.(*ir.Load)
		return ok && a.Array == b.Array && same(a.Index, b.Index, budget)
	}
	return false
}
