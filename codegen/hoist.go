package codegen

import (
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// Hoisting into locals at print time. The expressions of a statement that
// the printed C would evaluate more than once (a guarded store's index, a
// loop count) are computed into a const local just before the statement,
// unless trivial; then any expression nested deeper than maxPrintedHeight
// is cut into locals, so that the printed C stays well inside compilers'
// limits on nested parentheses. Repeated subexpressions are locals already
// (see eliminateCommonSubexpressions). This takes time linear in the size
// of the statement's expressions.

// maxPrintedHeight is the height of the deepest expression printed in one
// piece. Each level adds at most two parentheses, and clang accepts 256.
const maxPrintedHeight = 64

// temp is a local the printer introduces: const T name = value;
type temp struct {
	v     *ir.Var
	value ir.Expr
}

// hoisted is a statement's expressions after hoisting, and the temps they
// use, each defined before any temp or expression that uses it.
type hoisted struct {
	exprs []ir.Expr
	temps []temp
}

// hoist hoists every expression of exprs marked in once that is not
// trivial (one evaluated more than once by the printed C, like a guarded
// store's index, or a loop count evaluated once), then cuts expressions
// deeper than maxPrintedHeight.
func hoist(exprs []ir.Expr, once []bool) hoisted {
	var out hoisted
	for i, e := range exprs {
		if i < len(once) && once[i] && e != nil && !trivial(e) {
			v := &ir.Var{T: e.Type()} // named when printed
			out.temps = append(out.temps, temp{v: v, value: e})
			e = v
		}
		out.exprs = append(out.exprs, e)
	}
	return out.cut()
}

// trivial expressions are never hoisted.
func trivial(e ir.Expr) bool {
	switch e.(type) {
	case *ir.Var, *ir.Const, *ir.Special, *ir.Len:
		return true
	}
	return false
}

// alwaysChildren returns the operands of e evaluated whenever e is: the
// first ones of ir.Children(e).
func alwaysChildren(e ir.Expr) []ir.Expr {
	switch e := e.(type) {
	case *ir.Select:
		return []ir.Expr{e.Cond}
	case *ir.Binary:
		if o := e.Op.Operation(); o != nil {
			if sp, _ := o.CUDA(e.X.Type()); sp.Lazy {
				return []ir.Expr{e.X}
			}
		}
	}
	return ir.Children(e)
}

// cut splits every expression of h deeper than maxPrintedHeight: each
// subexpression that reaches that height becomes a temp defined just
// before its user, where it may be evaluated early (it is always evaluated,
// or it cannot fail).
func (h hoisted) cut() hoisted {
	var out hoisted
	emit := func(e ir.Expr) ir.Expr {
		var rewrite func(e ir.Expr, always bool) (ir.Expr, int)
		rewrite = func(e ir.Expr, always bool) (ir.Expr, int) {
			children := ir.Children(e)
			if len(children) == 0 {
				return e, 1
			}
			evaluated := len(alwaysChildren(e)) // the first ones
			height := 0
			rebuilt := make([]ir.Expr, len(children))
			for i, c := range children {
				r, ch := rewrite(c, always && i < evaluated)
				rebuilt[i] = r
				height = max(height, ch)
			}
			e = withChildren(e, rebuilt)
			if height+1 >= maxPrintedHeight && (always || !simplify.CanFail(e)) {
				v := &ir.Var{T: e.Type()} // named when printed
				out.temps = append(out.temps, temp{v: v, value: e})
				return v, 1
			}
			return e, height + 1
		}
		r, _ := rewrite(e, true)
		return r
	}
	for _, t := range h.temps {
		out.temps = append(out.temps, temp{v: t.v, value: emit(t.value)})
	}
	for _, e := range h.exprs {
		if e != nil {
			e = emit(e)
		}
		out.exprs = append(out.exprs, e)
	}
	return out
}

// withChildren returns e with its operands replaced by children (in the
// order of ir.Children), sharing e when they are unchanged.
func withChildren(e ir.Expr, children []ir.Expr) ir.Expr {
	same := true
	for i, c := range ir.Children(e) {
		same = same && c == children[i]
	}
	if same {
		return e
	}
	switch e := e.(type) {
	case *ir.Unary:
		return &ir.Unary{Op: e.Op, X: children[0]}
	case *ir.Binary:
		return &ir.Binary{Op: e.Op, X: children[0], Y: children[1]}
	case *ir.Ternary:
		return &ir.Ternary{Op: e.Op, X: children[0], Y: children[1], Z: children[2]}
	case *ir.Select:
		return &ir.Select{Cond: children[0], Then: children[1], Else: children[2]}
	case *ir.Convert:
		return &ir.Convert{To: e.To, X: children[0]}
	case *ir.Load:
		return &ir.Load{Array: e.Array, Index: children[0], Pos: e.Pos}
	}
	return e
}
