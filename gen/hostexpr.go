package gen

import (
	"errors"
	"fmt"
	"math"
	"strconv"

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
		if e.Array.Space == ir.Shared {
			return literal(ir.UintValue(ir.Uint32, uint64(e.Array.Size))), nil
		}
		return nil, fmt.Errorf("%w: length of %s", errNotHost, e.Array.Name)
	case *ir.Unary:
		return h.unary(e)
	case *ir.Binary:
		return h.binary(e)
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

// literal returns a typed Go constant holding v.
func literal(v ir.Value) *jen.Statement {
	switch {
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

func (h *hostExpr) unary(e *ir.Unary) (*jen.Statement, error) {
	x, err := h.expr(e.X)
	if err != nil {
		return nil, err
	}
	switch {
	case e.Op == ir.Neg:
		return jen.Op("-").Parens(x), nil
	case e.X.Type() == ir.Bool:
		return jen.Op("!").Parens(x), nil
	}
	return jen.Op("^").Parens(x), nil
}

// goOps spells the operators Go has with the IR's meaning for operands of
// the right types.
var goOps = map[ir.BinOp]string{ir.Add: "+", ir.Sub: "-", ir.Mul: "*", ir.And: "&", ir.Or: "|", ir.Xor: "^",
	ir.Eq: "==", ir.Ne: "!=", ir.Lt: "<", ir.Le: "<=", ir.Gt: ">", ir.Ge: ">="}

func (h *hostExpr) binary(e *ir.Binary) (*jen.Statement, error) {
	x, err := h.expr(e.X)
	if err != nil {
		return nil, err
	}
	y, err := h.expr(e.Y)
	if err != nil {
		return nil, err
	}
	t := e.X.Type()
	infix := func(op string) (*jen.Statement, error) {
		if t.IsFloat() && !e.Op.IsComparison() {
			// an explicit conversion rounds, so Go may not fuse it into
			// another operation
			return jen.Id(t.String()).Call(jen.Add(x).Op(op).Add(y)), nil
		}
		return jen.Parens(jen.Add(x).Op(op).Add(y)), nil
	}
	call := func(name string, args ...jen.Code) (*jen.Statement, error) {
		return jen.Qual(launchPath, name).Call(args...), nil
	}
	withFault := func(name string) (*jen.Statement, error) { return call(name, jen.Op("&").Id(h.fault), x, y) }
	if t == ir.Bool {
		switch e.Op {
		case ir.And:
			return infix("&&")
		case ir.Or:
			return infix("||")
		case ir.Min, ir.Max:
			// Unlike && and ||, min and max evaluate both operands.
			name := map[ir.BinOp]string{ir.Min: "min", ir.Max: "max"}[e.Op]
			bx := jen.Qual(launchPath, "FromBool").Types(jen.Uint32()).Call(x)
			by := jen.Qual(launchPath, "FromBool").Types(jen.Uint32()).Call(y)
			return jen.Parens(jen.Id(name).Call(bx, by).Op("!=").Lit(0)), nil
		case ir.Xor, ir.Ne:
			return infix("!=")
		case ir.Eq:
			return infix("==")
		}
		// ordered comparisons of bools compare 0 and 1
		x = jen.Qual(launchPath, "FromBool").Types(jen.Uint32()).Call(x)
		y = jen.Qual(launchPath, "FromBool").Types(jen.Uint32()).Call(y)
		return infix(goOps[e.Op])
	}
	switch e.Op {
	case ir.Div, ir.Rem:
		switch {
		case t.IsFloat() && e.Op == ir.Rem:
			return call("FRem", x, y)
		case t.IsFloat() && safeDivisor(e.Y):
			return infix("/")
		case t.IsFloat():
			return call("Quo", x, y)
		case safeDivisor(e.Y) && e.Op == ir.Div:
			return infix("/")
		case safeDivisor(e.Y):
			return infix("%")
		case e.Op == ir.Div:
			return withFault("Div")
		}
		return withFault("Rem")
	case ir.Shl, ir.Shr:
		op := map[ir.BinOp]string{ir.Shl: "<<", ir.Shr: ">>"}[e.Op]
		if c, ok := e.Y.(*ir.Const); ok && c.Value.Int() >= 0 && c.Value.Int() < int64(t.Bits()) {
			return infix(op)
		}
		return withFault(map[ir.BinOp]string{ir.Shl: "Shl", ir.Shr: "Shr"}[e.Op])
	case ir.Min, ir.Max:
		if t.IsFloat() {
			return call(map[ir.BinOp]string{ir.Min: "FMin", ir.Max: "FMax"}[e.Op], x, y)
		}
		return jen.Id(map[ir.BinOp]string{ir.Min: "min", ir.Max: "max"}[e.Op]).Call(x, y), nil
	}
	if op, ok := goOps[e.Op]; ok {
		return infix(op)
	}
	return nil, fmt.Errorf("operator %v on %v", e.Op, t)
}

// safeDivisor reports whether d is a constant that divides without fault
// and that Go accepts as a divisor: not zero, not -1.
func safeDivisor(d ir.Expr) bool {
	c, ok := d.(*ir.Const)
	if !ok || c.Value.IsZero() {
		return false
	}
	if c.Value.T.IsFloat() {
		return true
	}
	return !(c.Value.T.IsSigned() && c.Value.Int() == -1)
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
	t := jen.Id(e.Type().String())
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
		return jen.Qual(launchPath, "FromBool").Types(jen.Id(to.String())).Call(x), nil
	case to.IsInteger() && from.IsFloat():
		return jen.Qual(launchPath, "ToInt").Types(jen.Id(to.String())).Call(x), nil
	}
	return jen.Id(to.String()).Call(x), nil
}
