package irgen

import (
	"github.com/leanovate/gopter"

	"github.com/obsidian-go/obsidian/ir"
)

// ShrinkExpr is the gopter shrinker of the expression generators. The
// shrinks of an expression are the trees in which one subtree is replaced
// by a smaller one of the same type: the constant 0 or 1 (false or true),
// a child of the same type, or a child (of a conversion, a grandchild) of
// another type converted to it, through float32 where the type is float16
// or bfloat16, which convert only from float32. Larger subtrees come
// first. Guards built by Guarded and in-range indices built by InRange are
// kept whole: their operands shrink, not the guards themselves.
func ShrinkExpr(value any) gopter.Shrink {
	e, ok := value.(ir.Expr)
	if !ok {
		return gopter.NoShrink
	}
	return sliceShrink(exprShrinks(e))
}

// sliceShrink returns a gopter.Shrink going through the given values.
func sliceShrink[T any](values []T) gopter.Shrink {
	i := 0
	return func() (any, bool) {
		if i >= len(values) {
			return nil, false
		}
		i++
		return values[i-1], true
	}
}

// exprShrinks returns the one-step shrinks of e.
func exprShrinks(e ir.Expr) []ir.Expr {
	out := constantShrinks(e)
	t := e.Type()
	child := func(c ir.Expr) {
		switch {
		case c.Type() == t:
			out = append(out, c)
		case ir.ConversionDefined(c.Type(), t):
			out = append(out, &ir.Convert{To: t, X: c})
		case t.IsStorageFloat() && ir.ConversionDefined(c.Type(), ir.Float32):
			// e is a select, as a float16 or bfloat16 has no operator, so
			// this is smaller (a conversion's grandchild comes here only
			// when it converts directly)
			out = append(out, &ir.Convert{To: t, X: &ir.Convert{To: ir.Float32, X: c}})
		}
	}
	switch e := e.(type) {
	case *ir.Unary:
		child(e.X)
		for _, x := range exprShrinks(e.X) {
			out = append(out, &ir.Unary{Op: e.Op, X: x})
		}
	case *ir.Binary:
		x, y, guarded := unguard(e)
		rebuild := Guarded
		if !guarded {
			x, y = e.X, e.Y
			rebuild = func(op ir.BinOp, x, y ir.Expr) ir.Expr { return &ir.Binary{Op: op, X: x, Y: y} }
		}
		child(x)
		child(y)
		for _, s := range exprShrinks(x) {
			out = append(out, rebuild(e.Op, s, y))
		}
		for _, s := range exprShrinks(y) {
			out = append(out, rebuild(e.Op, x, s))
		}
	case *ir.Ternary:
		child(e.X)
		child(e.Y)
		child(e.Z)
		for _, s := range exprShrinks(e.X) {
			out = append(out, &ir.Ternary{Op: e.Op, X: s, Y: e.Y, Z: e.Z})
		}
		for _, s := range exprShrinks(e.Y) {
			out = append(out, &ir.Ternary{Op: e.Op, X: e.X, Y: s, Z: e.Z})
		}
		for _, s := range exprShrinks(e.Z) {
			out = append(out, &ir.Ternary{Op: e.Op, X: e.X, Y: e.Y, Z: s})
		}
	case *ir.Select:
		child(e.Cond)
		child(e.Then)
		child(e.Else)
		for _, s := range exprShrinks(e.Cond) {
			out = append(out, &ir.Select{Cond: s, Then: e.Then, Else: e.Else})
		}
		for _, s := range exprShrinks(e.Then) {
			out = append(out, &ir.Select{Cond: e.Cond, Then: s, Else: e.Else})
		}
		for _, s := range exprShrinks(e.Else) {
			out = append(out, &ir.Select{Cond: e.Cond, Then: e.Then, Else: s})
		}
	case *ir.Convert:
		if e.X.Type() == t {
			out = append(out, e.X)
		}
		if inner, ok := e.X.(*ir.Convert); ok && ir.ConversionDefined(inner.X.Type(), t) {
			child(inner.X)
		}
		for _, s := range exprShrinks(e.X) {
			out = append(out, &ir.Convert{To: e.To, X: s})
		}
	case *ir.Load:
		for _, s := range indexShrinks(e.Array, e.Index) {
			out = append(out, &ir.Load{Array: e.Array, Index: s, Pos: e.Pos})
		}
	}
	return out
}

// indexShrinks returns the shrinks of an index into a: those of the
// operand of an InRange index, none of any other.
func indexShrinks(a *ir.Array, index ir.Expr) []ir.Expr {
	i, ok := inRangeOperand(a, index)
	if !ok {
		return nil
	}
	var out []ir.Expr
	for _, s := range exprShrinks(i) {
		out = append(out, InRange(a, s))
	}
	return out
}

// constantShrinks returns the constants 0 and 1 of e's type that are
// simpler than e: both for anything but a constant, 0 for the constant 1,
// and nothing for 0.
func constantShrinks(e ir.Expr) []ir.Expr {
	t := e.Type()
	z, o := zero(t), one(t)
	c, isConst := e.(*ir.Const)
	switch {
	case !isConst:
		return []ir.Expr{constant(z), constant(o)}
	case c.Value == z:
		return nil
	case c.Value == o:
		return []ir.Expr{constant(z)}
	}
	return []ir.Expr{constant(z), constant(o)}
}
