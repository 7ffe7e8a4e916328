package codegen

import (
	"strconv"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// Hoisting of subexpressions into locals. Within one statement, a
// non-trivial subexpression that occurs at least twice where it is always
// evaluated (not in the arms of a select, nor on the right of && or ||,
// where it may be guarded) is computed once into a const local just before
// the statement, the largest first. Expressions have no side effects, so
// this is always allowed. Then any expression nested deeper than
// maxPrintedHeight is cut into locals, so that the printed C stays well
// inside compilers' limits on nested parentheses. Everything here takes
// time linear in the size of the statement's expressions, up to the depth
// of nested repetitions.

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

// nodeKey identifies an expression node up to structural equality: its
// kind, operator or type, the ids of its children, and its identity as a
// leaf.
type nodeKey struct {
	kind     uint8
	op       uint8
	t        ir.Type
	children [3]int
	leaf     any
}

// hoister holds the analysis of one statement's expressions.
type hoister struct {
	id    map[ir.Expr]int // node → structural id
	keys  map[nodeKey]int
	count []int     // per id: occurrences where always evaluated, not inside a hoisted occurrence
	temp  []*ir.Var // per id: the temp holding it, if hoisted
	order []int     // hoisted ids, each after those it contains
	first []ir.Expr // per id: its first occurrence
}

// hoist hoists the repeated subexpressions of exprs, then every expression
// marked in once that is not trivial (one evaluated more than once by the
// printed C, like a guarded store's index, or a loop count evaluated once),
// then cuts expressions deeper than maxPrintedHeight.
func hoist(exprs []ir.Expr, once []bool) hoisted {
	h := &hoister{id: map[ir.Expr]int{}, keys: map[nodeKey]int{}}
	for _, e := range exprs {
		h.number(e)
	}
	h.count = make([]int, len(h.keys))
	h.temp = make([]*ir.Var, len(h.keys))
	h.first = make([]ir.Expr, len(h.keys))
	for _, e := range exprs {
		always(e, func(x ir.Expr) bool {
			if trivial(x) {
				return false
			}
			h.count[h.id[x]]++
			return true
		})
	}
	for _, e := range exprs {
		h.decide(e)
	}
	var out hoisted
	for _, id := range h.order {
		out.temps = append(out.temps, temp{v: h.temp[id], value: h.replace(h.first[id], id)})
	}
	for i, e := range exprs {
		e = h.replace(e, -1)
		if i < len(once) && once[i] && e != nil && !trivial(e) {
			v := newTemp(e.Type(), len(out.temps))
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

func newTemp(t ir.Type, n int) *ir.Var {
	return &ir.Var{Name: "\x00temp" + strconv.Itoa(n), T: t}
}

// number gives e and its subexpressions their structural ids.
func (h *hoister) number(e ir.Expr) int {
	if e == nil {
		return -1
	}
	if id, ok := h.id[e]; ok {
		return id
	}
	k := nodeKey{t: e.Type(), children: [3]int{-1, -1, -1}}
	for i, c := range ir.Children(e) {
		k.children[i] = h.number(c)
	}
	switch e := e.(type) {
	case *ir.Const:
		k.kind, k.leaf = 1, e.Value
	case *ir.Var:
		k.kind, k.leaf = 2, e
	case *ir.Special:
		k.kind, k.op = 3, uint8(e.Kind)
	case *ir.Len:
		k.kind, k.leaf = 4, e.Array
	case *ir.Unary:
		k.kind, k.op = 5, uint8(e.Op)
	case *ir.Binary:
		k.kind, k.op = 6, uint8(e.Op)
	case *ir.Ternary:
		k.kind, k.op = 7, uint8(e.Op)
	case *ir.Select:
		k.kind = 8
	case *ir.Convert:
		k.kind = 9
	case *ir.Load:
		k.kind, k.leaf = 10, e.Array
	default:
		k.kind, k.leaf = 11, e // unique
	}
	id, ok := h.keys[k]
	if !ok {
		id = len(h.keys)
		h.keys[k] = id
	}
	h.id[e] = id
	return id
}

// always calls f for e and the subexpressions of e that are evaluated
// whenever e is, parents first; f returns false to skip the children.
func always(e ir.Expr, f func(ir.Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	for _, c := range alwaysChildren(e) {
		always(c, f)
	}
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

// decide walks e's always-evaluated subexpressions top down, in the order
// they are evaluated, and hoists each whose remaining count is two or more:
// the largest repeated subexpressions first.
func (h *hoister) decide(e ir.Expr) {
	if e == nil || trivial(e) {
		return
	}
	id := h.id[e]
	if h.temp[id] != nil {
		return // a later occurrence of a hoisted expression, accounted for
	}
	hoisted := h.count[id] >= 2
	if hoisted {
		h.temp[id] = newTemp(e.Type(), len(h.order))
		h.first[id] = e
		// The other occurrences become the temp: what they contain no
		// longer counts.
		extra := h.count[id] - 1
		for _, c := range alwaysChildren(e) {
			h.discount(c, extra)
		}
	}
	for _, c := range alwaysChildren(e) {
		h.decide(c)
	}
	if hoisted {
		h.order = append(h.order, id)
	}
}

// discount removes n occurrences of e and its always-evaluated
// subexpressions from the counts.
func (h *hoister) discount(e ir.Expr, n int) {
	always(e, func(x ir.Expr) bool {
		if trivial(x) || h.temp[h.id[x]] != nil {
			return false
		}
		h.count[h.id[x]] -= n
		return true
	})
}

// replace returns e with every occurrence of a hoisted expression replaced
// by its temp, except e itself when its id is root.
func (h *hoister) replace(e ir.Expr, root int) ir.Expr {
	return ir.MapExpr(e, func(x ir.Expr) (ir.Expr, bool) {
		id, ok := h.id[x]
		if !ok || trivial(x) || h.temp[id] == nil || (x == e && id == root) {
			return nil, false
		}
		return h.temp[id], true
	})
}

// cut splits every expression of h deeper than maxPrintedHeight: each
// subexpression that reaches that height becomes a temp defined just
// before its user, where it may be evaluated early (it is always evaluated,
// or it cannot fail).
func (h hoisted) cut() hoisted {
	var out hoisted
	n := len(h.temps)
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
				v := newTemp(e.Type(), n)
				n++
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
