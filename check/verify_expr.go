package check

import "github.com/obsidian-go/obsidian/ir"

// expr checks e, reporting problems at pos unless e carries its own
// position. It returns e's type, and false when e is wrong (its problems are
// reported once, where they are, not again by the expressions around it).
func (v *verifier) expr(e ir.Expr, pos ir.Pos) (ir.Type, bool) {
	switch e := e.(type) {
	case nil:
		v.errorf(pos, "an expression is missing")
	case *ir.Const:
		if e.Value.T.Valid() {
			return e.Value.T, true
		}
		v.errorf(pos, "constant of invalid type %v", e.Value.T)
	case *ir.Var:
		return v.use(e, pos)
	case *ir.Special:
		if e.Kind >= ir.ThreadIdx && e.Kind <= ir.WarpIdx {
			return ir.Uint32, true
		}
		v.errorf(pos, "unknown hardware index %d", e.Kind)
	case *ir.Unary:
		return v.operation(e.Op.Operation(), "unary operator "+e.Op.String(), pos, e.X)
	case *ir.Binary:
		return v.operation(e.Op.Operation(), "binary operator "+e.Op.String(), pos, e.X, e.Y)
	case *ir.Ternary:
		return v.operation(e.Op.Operation(), "ternary operator "+e.Op.String(), pos, e.X, e.Y, e.Z)
	case *ir.Select:
		c, okc := v.expr(e.Cond, pos)
		a, oka := v.expr(e.Then, pos)
		b, okb := v.expr(e.Else, pos)
		switch {
		case !okc || !oka || !okb:
		case c != ir.Bool:
			v.errorf(pos, "select condition has type %v; it must be bool", c)
		case a != b:
			v.errorf(pos, "select arms have different types, %v and %v", a, b)
		default:
			return a, true
		}
	case *ir.Convert:
		from, ok := v.expr(e.X, pos)
		if ok && ir.ConversionDefined(from, e.To) {
			return e.To, true
		}
		if ok {
			v.errorf(pos, "conversion from %v to %v is not defined", from, e.To)
		}
	case *ir.Load:
		return v.load(e)
	case *ir.Len:
		if v.knownArray(e.Array, pos) {
			return ir.Uint32, true
		}
	case *ir.Invalid:
		at := e.Pos
		if at == (ir.Pos{}) {
			at = pos // a zero Exp knows no line: report it where it is used
		}
		v.errorf(at, "%s", e.Msg)
	default:
		v.errorf(pos, "unknown expression %T", e)
	}
	return ir.NoType, false
}

// use checks a use of variable x: declared and in scope.
func (v *verifier) use(x *ir.Var, pos ir.Pos) (ir.Type, bool) {
	if x == nil {
		v.errorf(pos, "a variable is missing")
		return ir.NoType, false
	}
	for _, s := range v.scopes {
		if s[x] {
			return x.T, x.T.Valid()
		}
	}
	if v.declared[x] {
		v.errorf(pos, "variable %s is used outside the scope of its declaration", x.Name)
	} else {
		v.errorf(pos, "variable %s is used before it is declared", x.Name)
	}
	return ir.NoType, false
}

// operation checks an operation of the operator table on operands args.
func (v *verifier) operation(o *ir.Operation, what string, pos ir.Pos, args ...ir.Expr) (ir.Type, bool) {
	ts := make([]ir.Type, len(args))
	ok := true
	for i, a := range args {
		t, okArg := v.expr(a, pos)
		ts[i], ok = t, ok && okArg
	}
	switch {
	case !ok:
		return ir.NoType, false
	case o == nil:
		v.errorf(pos, "unknown %s", what)
		return ir.NoType, false
	}
	t, err := o.Check(ts...)
	if err != nil {
		v.errorf(pos, "%v", err)
		return ir.NoType, false
	}
	return t, true
}

func (v *verifier) load(e *ir.Load) (ir.Type, bool) {
	okArray := v.knownArray(e.Array, e.Pos)
	t, ok := v.expr(e.Index, e.Pos)
	if ok && t != ir.Uint32 {
		v.errorf(e.Pos, "index into %s has type %v; indices are uint32", e.Array.Name, t)
		ok = false
	}
	if !okArray {
		return ir.NoType, false
	}
	v.sharedUse(e.Array, e.Pos)
	if e.Array.Access == ir.Output {
		v.errorf(e.Pos, "load from array %s, an output of the kernel: outputs are only written", e.Array.Name)
		return ir.NoType, false
	}
	return e.Array.Elem, ok && e.Array.Elem.Valid()
}

// knownArray checks that a is one of the kernel's arrays.
func (v *verifier) knownArray(a *ir.Array, pos ir.Pos) bool {
	if a == nil {
		v.errorf(pos, "an array is missing")
		return false
	}
	if !v.arrays[a] {
		v.errorf(pos, "array %s is neither a parameter nor a shared array of kernel %s", a.Name, v.k.Name)
		return false
	}
	return true
}
