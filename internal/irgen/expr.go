package irgen

import (
	"math/rand"
	"reflect"

	"github.com/leanovate/gopter"

	"github.com/obsidian-go/obsidian/ir"
)

// exprType is the type of the values the expression generators give.
var exprType = reflect.TypeOf((*ir.Expr)(nil)).Elem()

// Expr returns a generator of closed, well-defined expressions of type t
// at most depth operators deep: constants (edge values often), unary and
// binary operators valid for t (comparisons of operands of any type when t
// is Bool), selects and conversions from every type. Integer divisions and
// shifts are guarded (see Guarded). The shrinker replaces a subtree by a
// constant or a child of the same type and keeps guards whole.
func Expr(t ir.Type, depth int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		b := &builder{rng: p.Rng}
		return exprResult(b.expr(t, depth))
	}
}

// AnyExpr returns a generator of closed, well-defined expressions of a
// random type, as Expr builds them.
func AnyExpr(depth int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		b := &builder{rng: p.Rng}
		return exprResult(b.expr(ir.Types[p.Rng.Intn(len(ir.Types))], depth))
	}
}

// Unguarded returns a generator of closed expressions of a random type
// like AnyExpr's, except that integer divisions and shifts have no guard and
// their operands are often the values that make them fault: a zero divisor,
// the minimum value divided by -1, a negative shift count or one not below
// the bit width. Evaluating them may fault.
func Unguarded(depth int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		b := &builder{rng: p.Rng, unguarded: true}
		return exprResult(b.expr(ir.Types[p.Rng.Intn(len(ir.Types))], depth))
	}
}

func exprResult(e ir.Expr) *gopter.GenResult {
	return &gopter.GenResult{Result: e, ResultType: exprType, Shrinker: ShrinkExpr}
}

// builder draws random trees.
type builder struct {
	rng       *rand.Rand
	unguarded bool
	scope     *scope // what leaves may refer to besides constants; nil for closed expressions
	line      int    // the last position handed out
}

// scope is what the code being built may refer to.
type scope struct {
	vars       []*ir.Var // visible variables, innermost last
	assignable map[*ir.Var]bool
	loadable   []*ir.Array // arrays that may be loaded
	lengths    []*ir.Array // arrays whose lengths may be used
}

// pos returns a new position, one line after the last.
func (b *builder) pos() ir.Pos {
	b.line++
	return ir.Pos{File: "irgen", Line: b.line}
}

func (b *builder) chance(n int) bool { return b.rng.Intn(n) == 0 }

func (b *builder) anyType() ir.Type { return ir.Types[b.rng.Intn(len(ir.Types))] }

// convertibleTo returns a random type that converts to t.
func (b *builder) convertibleTo(t ir.Type) ir.Type {
	for {
		if u := b.anyType(); ir.ConversionDefined(u, t) {
			return u
		}
	}
}

// expr returns an expression of type t at most depth operators deep.
func (b *builder) expr(t ir.Type, depth int) ir.Expr {
	if depth <= 0 || b.chance(5) {
		return b.leaf(t)
	}
	if t.IsStorageFloat() {
		// no operator applies to them: from float32, or a select
		if b.chance(2) {
			return &ir.Select{Cond: b.expr(ir.Bool, depth-1), Then: b.expr(t, depth-1), Else: b.expr(t, depth-1)}
		}
		return &ir.Convert{To: t, X: b.expr(ir.Float32, depth-1)}
	}
	switch b.rng.Intn(8) {
	case 1:
		return &ir.Select{Cond: b.expr(ir.Bool, depth-1), Then: b.expr(t, depth-1), Else: b.expr(t, depth-1)}
	case 2:
		return &ir.Convert{To: t, X: b.expr(b.convertibleTo(t), depth-1)}
	case 3:
		return b.cancelling(t, depth)
	}
	return b.operation(t, depth)
}

// cancelling returns an expression shaped for an algebraic identity of a
// simplifier, such as (a - c) + c, which holds for integers only, ^^a or
// --a, with the repeated operand shared.
func (b *builder) cancelling(t ir.Type, depth int) ir.Expr {
	a, c := b.expr(t, depth-1), b.expr(t, depth-2)
	bin := func(op ir.BinOp, x, y ir.Expr) ir.Expr { return &ir.Binary{Op: op, X: x, Y: y} }
	if t == ir.Bool || !t.IsNumeric() {
		return &ir.Unary{Op: ir.Not, X: &ir.Unary{Op: ir.Not, X: a}}
	}
	switch b.rng.Intn(6) {
	case 0:
		return bin(ir.Add, bin(ir.Sub, a, c), c)
	case 1:
		return bin(ir.Add, c, bin(ir.Sub, a, c))
	case 2:
		return bin(ir.Sub, bin(ir.Add, a, c), c)
	case 3:
		return bin(ir.Sub, bin(ir.Add, c, a), c)
	case 4:
		return bin(ir.Add, bin(ir.Sub, a, constant(Value(b.rng, t))), constant(Value(b.rng, t)))
	}
	op := ir.Not
	if t.IsFloat() {
		op = ir.Neg
	}
	return &ir.Unary{Op: op, X: &ir.Unary{Op: op, X: a}}
}

// Operation is an operation of the operator table with the type of its
// operands.
type Operation struct {
	Arity   int
	Operand ir.Type
	Build   func(args ...ir.Expr) ir.Expr // the operation applied to Arity operands
	faults  ir.FaultRule
	op      ir.BinOp // binary operations: the operator, for guards
}

// OperationsGiving lists the operations of the operator table whose result
// has type t, for each operand type they accept, in table order.
func OperationsGiving(t ir.Type) []Operation {
	var out []Operation
	for _, u := range ir.Types {
		for _, op := range ir.UnOps() {
			if o := op.Operation(); o.Types.Has(u) && o.Result.Of(u) == t {
				out = append(out, Operation{Arity: 1, Operand: u,
					Build: func(a ...ir.Expr) ir.Expr { return &ir.Unary{Op: op, X: a[0]} }})
			}
		}
		for _, op := range ir.BinOps() {
			if o := op.Operation(); o.Types.Has(u) && o.Result.Of(u) == t {
				out = append(out, Operation{Arity: 2, Operand: u, faults: o.FaultsFor(u), op: op,
					Build: func(a ...ir.Expr) ir.Expr { return &ir.Binary{Op: op, X: a[0], Y: a[1]} }})
			}
		}
		for _, op := range ir.TernOps() {
			if o := op.Operation(); o.Types.Has(u) && o.Result.Of(u) == t {
				out = append(out, Operation{Arity: 3, Operand: u,
					Build: func(a ...ir.Expr) ir.Expr { return &ir.Ternary{Op: op, X: a[0], Y: a[1], Z: a[2]} }})
			}
		}
	}
	return out
}

// operation returns an operation of the operator table giving type t.
func (b *builder) operation(t ir.Type, depth int) ir.Expr {
	ops := OperationsGiving(t)
	o := ops[b.rng.Intn(len(ops))]
	args := make([]ir.Expr, o.Arity)
	for i := range args {
		args[i] = b.expr(o.Operand, depth-1)
	}
	if o.faults == ir.NeverFaults {
		return o.Build(args...)
	}
	x, y := args[0], args[1]
	if !b.unguarded {
		return Guarded(o.op, x, y)
	}
	if b.chance(2) {
		switch o.faults {
		case ir.DivisorFault:
			y = constant(faultyDivisor(b.rng, o.Operand))
			if o.Operand.IsSigned() && b.chance(2) {
				x = constant(minSigned(o.Operand))
			}
		case ir.CountFault:
			y = constant(faultyShift(b.rng, o.Operand))
		}
	}
	return o.Build(x, y)
}

// faultyDivisor returns 0, or -1 for signed types.
func faultyDivisor(rng *rand.Rand, t ir.Type) ir.Value {
	if t.IsSigned() && rng.Intn(2) == 0 {
		return ir.IntValue(t, -1)
	}
	return zero(t)
}

// faultyShift returns a shift count at or beyond the bit width, or a
// negative one, or (rarely) the largest valid one.
func faultyShift(rng *rand.Rand, t ir.Type) ir.Value {
	counts := []int64{int64(t.Bits()), int64(t.Bits()) + 1, 1 << 40, int64(t.Bits()) - 1}
	if t.IsSigned() {
		counts = append(counts, -1, -int64(t.Bits()))
	}
	return ir.IntValue(t, counts[rng.Intn(len(counts))])
}

// leaf returns a constant, or something of type t the scope offers.
func (b *builder) leaf(t ir.Type) ir.Expr {
	if b.scope == nil || b.chance(3) {
		return constant(Value(b.rng, t))
	}
	var options []func() ir.Expr
	for _, v := range b.scope.vars {
		if v.T == t {
			options = append(options, func() ir.Expr { return v })
		}
	}
	for _, a := range b.scope.loadable {
		if a.Elem == t {
			options = append(options, func() ir.Expr {
				return &ir.Load{Array: a, Index: InRange(a, b.expr(ir.Uint32, 1)), Pos: b.pos()}
			})
		}
	}
	if t == ir.Uint32 {
		for _, a := range b.scope.lengths {
			options = append(options, func() ir.Expr { return &ir.Len{Array: a} })
		}
		options = append(options, func() ir.Expr { return &ir.Special{Kind: ir.ThreadIdx + ir.SpecialKind(b.rng.Intn(6))} })
	}
	if len(options) == 0 {
		return constant(Value(b.rng, t))
	}
	return options[b.rng.Intn(len(options))]()
}
