package gen

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode"

	"github.com/dave/jennifer/jen"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
)

// launchPath is the import path of the package generated launchers call.
const launchPath = "github.com/obsidian-go/obsidian/gen/launch"

// errNotHost marks an expression that depends on more than a launch's
// arguments (variables of the body, array elements, hardware indices).
var errNotHost = errors.New("not a host expression")

// hostExpr translates expressions over a kernel's parameters into Go code
// with the IR's semantics: fixed-width wrap-around arithmetic, C's
// conversions, and faults (division by zero, shifts out of range) recorded
// in a launch.Fault named by fault.
type hostExpr struct {
	scalars map[*ir.Var]string   // scalar parameters: their Go names
	arrays  map[*ir.Array]string // array parameters: their Go names
	fault   string
}

// expr returns Go code computing e. Sub-expressions without parameters are
// folded to constants first, so no Go constant expression can overflow.
func (h *hostExpr) expr(e ir.Expr) (*jen.Statement, error) {
	if _, isConst := e.(*ir.Const); !isConst && closed(e) {
		if v, err := eval.Expr(e); err == nil {
			return literal(v), nil
		}
	}
	switch e := e.(type) {
	case *ir.Const:
		return literal(e.Value), nil
	case *ir.Var:
		if name, ok := h.scalars[e]; ok {
			return jen.Id(name), nil
		}
		return nil, fmt.Errorf("%w: variable %s", errNotHost, e.Name)
	case *ir.Len:
		if name, ok := h.arrays[e.Array]; ok {
			return jen.Qual(launchPath, "Len").Call(jen.Id(name)), nil
		}
		if e.Array.FixedLen() {
			return literal(ir.UintValue(ir.Uint32, uint64(e.Array.Size))), nil
		}
		return nil, fmt.Errorf("%w: length of %s", errNotHost, e.Array.Name)
	case *ir.Unary:
		return h.operation(e.Op.Operation(), e.Op.String(), e.Type(), []ir.Expr{e.X})
	case *ir.Binary:
		return h.operation(e.Op.Operation(), e.Op.String(), e.Type(), []ir.Expr{e.X, e.Y})
	case *ir.Ternary:
		return h.operation(e.Op.Operation(), e.Op.String(), e.Type(), []ir.Expr{e.X, e.Y, e.Z})
	case *ir.Select:
		return h.selection(e)
	case *ir.Convert:
		return h.convert(e)
	case *ir.Load:
		return nil, fmt.Errorf("%w: element of %s", errNotHost, e.Array.Name)
	case *ir.Special:
		return nil, fmt.Errorf("%w: %v", errNotHost, e.Kind)
	}
	return nil, fmt.Errorf("%w: %T", errNotHost, e)
}

// closed reports whether e uses no parameter, variable, array or index.
func closed(e ir.Expr) bool {
	ok := true
	ir.WalkExpr(e, func(x ir.Expr) {
		switch x.(type) {
		case *ir.Var, *ir.Len, *ir.Load, *ir.Special, *ir.Invalid:
			ok = false
		}
	})
	return ok
}

// halfPath is the import path of the 16-bit float storage types.
const halfPath = "github.com/obsidian-go/obsidian/half"

// goType returns the Go type of IR type t.
func goType(t ir.Type) *jen.Statement {
	switch t {
	case ir.Float16:
		return jen.Qual(halfPath, "Float16")
	case ir.BFloat16:
		return jen.Qual(halfPath, "BFloat16")
	}
	return jen.Id(t.String())
}

// literal returns a typed Go constant holding v.
func literal(v ir.Value) *jen.Statement {
	switch {
	case v.T.IsStorageFloat():
		return goType(v.T).Call(jen.Id(fmt.Sprintf("%#04x", v.Bits)))
	case v.T == ir.Bool:
		return jen.Lit(v.Bool())
	case v.T == ir.Float32:
		f := float64(math.Float32frombits(uint32(v.Bits)))
		if math.IsInf(f, 0) || math.IsNaN(f) || f == 0 && math.Signbit(f) {
			return jen.Qual("math", "Float32frombits").Call(jen.Id(fmt.Sprintf("%#x", v.Bits)))
		}
		return jen.Id("float32").Call(jen.Id(strconv.FormatFloat(f, 'g', -1, 32)))
	case v.T == ir.Float64:
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) || f == 0 && math.Signbit(f) {
			return jen.Qual("math", "Float64frombits").Call(jen.Id(fmt.Sprintf("%#x", v.Bits)))
		}
		return jen.Id("float64").Call(jen.Id(strconv.FormatFloat(f, 'g', -1, 64)))
	}
	return jen.Id(v.T.String()).Call(jen.Id(v.String()))
}

// operation translates the operation op (named name in package ir) of the
// operator table on args: with Go's operator or builtin of the same meaning
// where the table gives one and the operation cannot fault on these
// operands, else through launch.Unary, Binary or Ternary, which compute it
// as the table defines it.
func (h *hostExpr) operation(o *ir.Operation, name string, result ir.Type, args []ir.Expr) (*jen.Statement, error) {
	codes := make([]jen.Code, len(args))
	for i, a := range args {
		c, err := h.expr(a)
		if err != nil {
			return nil, err
		}
		codes[i] = c
	}
	if o == nil {
		return nil, fmt.Errorf("unknown operator %s", name)
	}
	t := args[0].Type()
	sp, ok := o.CUDA(t)
	if !ok {
		return nil, fmt.Errorf("operator %s on %v", o.Name, t)
	}
	safe := o.FaultsFor(t) == ir.NeverFaults
	if k, isConst := args[len(args)-1].(*ir.Const); isConst && len(args) == 2 {
		safe = safe || o.SafeWith(t, k.Value)
	}
	switch {
	case sp.Go == "" || !safe:
		call := [...]string{1: "Unary", 2: "Binary", 3: "Ternary"}[len(args)]
		return jen.Qual(launchPath, call).Types(goType(result)).
			Call(append([]jen.Code{jen.Op("&").Id(h.fault), jen.Qual(irPath, name)}, codes...)...), nil
	case isIdentifier(sp.Go):
		return jen.Id(sp.Go).Call(codes...), nil
	case len(args) == 1:
		return jen.Op(sp.Go).Parens(codes[0]), nil
	case result.IsFloat():
		// an explicit conversion rounds, so Go may not fuse it into another
		// operation
		return goType(result).Call(jen.Add(codes[0]).Op(sp.Go).Add(codes[1])), nil
	}
	return jen.Parens(jen.Add(codes[0]).Op(sp.Go).Add(codes[1])), nil
}

// isIdentifier reports whether s is a Go name (a builtin like min) rather
// than an operator.
func isIdentifier(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// selection evaluates only the branch chosen, as the IR does.
func (h *hostExpr) selection(e *ir.Select) (*jen.Statement, error) {
	c, err := h.expr(e.Cond)
	if err != nil {
		return nil, err
	}
	a, err := h.expr(e.Then)
	if err != nil {
		return nil, err
	}
	b, err := h.expr(e.Else)
	if err != nil {
		return nil, err
	}
	t := goType(e.Type())
	return jen.Func().Params().Add(t).Block(
		jen.If(c).Block(jen.Return(a)),
		jen.Return(b),
	).Call(), nil
}

func (h *hostExpr) convert(e *ir.Convert) (*jen.Statement, error) {
	x, err := h.expr(e.X)
	if err != nil {
		return nil, err
	}
	from, to := e.X.Type(), e.To
	switch {
	case from == to:
		return x, nil
	case to == ir.Bool:
		return jen.Parens(jen.Add(x).Op("!=").Add(literal(ir.Value{T: from}))), nil
	case from == ir.Bool:
		return jen.Qual(launchPath, "FromBool").Types(goType(to)).Call(x), nil
	case to.IsInteger() && from.IsFloat() || to.IsStorageFloat() || from.IsStorageFloat():
		return jen.Qual(launchPath, "Convert").Types(goType(to)).Call(x), nil
	}
	return goType(to).Call(x), nil
}
