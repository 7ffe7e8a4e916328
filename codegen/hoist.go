package codegen

import (
	"strconv"

	"github.com/obsidian-go/obsidian/ir"
)

// Hoisting of repeated subexpressions. Within one statement, a non-trivial
// subexpression that occurs at least twice where it is always evaluated
// (not in the arms of a select, nor on the right of && or ||, where it may
// be guarded) is computed once into a const local just before the
// statement. Expressions have no side effects, so this is always allowed.

// temp is a local the printer introduces: const T name = value;
type temp struct {
	v     *ir.Var
	value ir.Expr
}

// hoisted is a statement's expressions after hoisting, and the temps they use.
type hoisted struct {
	exprs []ir.Expr
	temps []temp
}

// hoist hoists the repeated subexpressions of exprs, then every expression
// marked in once that is not trivial (one evaluated more than once by the
// printed C, like a guarded store's index, or a loop count evaluated once).
func hoist(exprs []ir.Expr, once []bool) hoisted {
	h := hoisted{exprs: append([]ir.Expr(nil), exprs...)}
	for {
		key, found := h.repeated()
		if !found {
			break
		}
		h.extract(key)
	}
	for i, e := range h.exprs {
		if i < len(once) && once[i] && e != nil && !trivial(e) {
			h.extract(exprKey(e))
		}
	}
	return h
}

// trivial expressions are never hoisted.
func trivial(e ir.Expr) bool {
	switch e.(type) {
	case *ir.Var, *ir.Const, *ir.Special, *ir.Len:
		return true
	}
	return false
}

// exprKey identifies an expression by its text and type: names are unique
// in a kernel and constants are printed exactly, so equal keys mean equal
// values.
func exprKey(e ir.Expr) string {
	return strconv.Itoa(int(e.Type())) + ":" + expr(e)
}

// always calls f for e and the subexpressions of e that are evaluated
// whenever e is, parents first; f returns false to skip the children.
func always(e ir.Expr, f func(ir.Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *ir.Unary:
		always(e.X, f)
	case *ir.Binary:
		always(e.X, f)
		if e.X.Type() != ir.Bool || (e.Op != ir.And && e.Op != ir.Or) {
			always(e.Y, f)
		}
	case *ir.Select:
		always(e.Cond, f)
	case *ir.Convert:
		always(e.X, f)
	case *ir.Load:
		always(e.Index, f)
	}
}

// all returns the temps' values and the statement's expressions, in the
// order they are evaluated.
func (h *hoisted) all() []*ir.Expr {
	var es []*ir.Expr
	for i := range h.temps {
		es = append(es, &h.temps[i].value)
	}
	for i := range h.exprs {
		es = append(es, &h.exprs[i])
	}
	return es
}

// repeated finds the first (and so largest) always-evaluated non-trivial
// subexpression that occurs twice.
func (h *hoisted) repeated() (string, bool) {
	count := map[string]int{}
	var order []string
	for _, e := range h.all() {
		always(*e, func(e ir.Expr) bool {
			if trivial(e) {
				return false
			}
			k := exprKey(e)
			if count[k] == 0 {
				order = append(order, k)
			}
			count[k]++
			return true
		})
	}
	for _, k := range order {
		if count[k] >= 2 {
			return k, true
		}
	}
	return "", false
}

// extract replaces every occurrence of the subexpression with this key by
// a new temp, defined before the first temp that used it.
func (h *hoisted) extract(key string) {
	var value ir.Expr
	at := len(h.temps)
	for i, e := range h.all() {
		if _, found := replace(*e, key, nil); found != nil {
			if value == nil {
				value = found
			}
			at = min(at, i)
		}
	}
	if value == nil {
		return
	}
	v := &ir.Var{Name: "\x00temp" + strconv.Itoa(len(h.temps)), T: value.Type()}
	for _, e := range h.all() {
		*e, _ = replace(*e, key, v)
	}
	h.temps = append(h.temps, temp{})
	copy(h.temps[at+1:], h.temps[at:])
	h.temps[at] = temp{v: v, value: value}
}

// replace returns e with every subexpression of the given key replaced by
// v (e itself when v is nil), and the first such subexpression found.
func replace(e ir.Expr, key string, v *ir.Var) (ir.Expr, ir.Expr) {
	var found ir.Expr
	r := ir.MapExpr(e, func(x ir.Expr) (ir.Expr, bool) {
		if trivial(x) || exprKey(x) != key {
			return nil, false
		}
		if found == nil {
			found = x
		}
		if v == nil {
			return x, true
		}
		return v, true
	})
	return r, found
}
