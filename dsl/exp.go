package dsl

import (
	"fmt"
	"math"

	"github.com/obsidian-go/obsidian/half"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// Scalar is the set of Go types an expression can have. half.Float16 and
// half.BFloat16 are storage types: arrays hold them and Cast converts them
// to and from float32, where arithmetic on them is done.
type Scalar interface {
	bool | int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64 | float32 | float64 | half.Float16 |
		half.BFloat16
}

// Integer is the set of integer scalar types.
type Integer interface {
	int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64
}

// Number is the set of numeric scalar types.
type Number interface {
	Integer | float32 | float64
}

// TypeOf returns the IR type of the Go type T.
func TypeOf[T Scalar]() ir.Type {
	var z T
	switch any(z).(type) {
	case bool:
		return ir.Bool
	case int32:
		return ir.Int32
	case uint32:
		return ir.Uint32
	case int64:
		return ir.Int64
	case uint64:
		return ir.Uint64
	case float32:
		return ir.Float32
	case int8:
		return ir.Int8
	case uint8:
		return ir.Uint8
	case int16:
		return ir.Int16
	case uint16:
		return ir.Uint16
	case half.Float16:
		return ir.Float16
	case half.BFloat16:
		return ir.BFloat16
	}
	return ir.Float64
}

// Exp is an expression of type T: a node of the IR, built by the methods and
// functions of this package.
type Exp[T Scalar] struct {
	e ir.Expr
	n uint32 // the number of nodes of e as a tree (0: a leaf)
}

// MaxExprNodes is the largest expression the dsl builds, in nodes counted
// as a tree (a subexpression used twice counts twice, as the printed CUDA
// and the evaluator compute it twice). An expression that grows past it is
// an error at the line that built it: usually a program that forgot to
// compute intermediate results into shared memory (arrays.Compute) or a
// variable (Let), whose expressions then grow exponentially.
const MaxExprNodes = 1 << 17

// size returns the number of nodes of x as a tree.
func (x Exp[T]) size() uint32 { return max(x.n, 1) }

// tooLarge marks an Invalid reporting an expression past MaxExprNodes, so
// that the expressions built on it report it once instead of growing.
const tooLarge = math.MaxUint32

// operand is an Exp of any type, as build sees it.
type operand interface {
	size() uint32
	IR() ir.Expr
}

// build returns the expression node() built from operands, or an error at
// the user's line when it would be larger than MaxExprNodes. An operand
// that is already too large is passed on, at its line.
func build[R Scalar](node func() ir.Expr, operands ...operand) Exp[R] {
	n := uint64(1)
	for _, x := range operands {
		s := x.size()
		if s == tooLarge {
			inv, ok := x.IR().(*ir.Invalid)
			if !ok {
				inv = &ir.Invalid{Msg: exprTooLarge, Pos: callerPos()}
			}
			return Exp[R]{e: &ir.Invalid{T: TypeOf[R](), Msg: inv.Msg, Pos: inv.Pos}, n: tooLarge}
		}
		n += uint64(s)
	}
	if n > MaxExprNodes {
		return Exp[R]{e: &ir.Invalid{T: TypeOf[R](), Msg: exprTooLarge, Pos: callerPos()}, n: tooLarge}
	}
	return Exp[R]{e: node(), n: uint32(n)}
}

var exprTooLarge = fmt.Sprintf("the expression grew past %d nodes (counting a subexpression as often as it is "+
	"used): compute intermediate results into shared memory with arrays.Compute, or into a variable with dsl.Let",
	MaxExprNodes)

// Aliases for the expression types, named like Obsidian's.
type (
	Bool = Exp[bool]
	I32  = Exp[int32]
	U32  = Exp[uint32]
	I64  = Exp[int64]
	U64  = Exp[uint64]
	F32  = Exp[float32]
	F64  = Exp[float64]
)

// FromIR wraps an IR expression of type T. It is the way in for code that
// builds IR directly; the expression's type must be T.
func FromIR[T Scalar](e ir.Expr) Exp[T] {
	if e == nil || e.Type() != TypeOf[T]() {
		return invalid[T](fmt.Sprintf("FromIR: expression is not of type %v", TypeOf[T]()))
	}
	n := treeSize(e, MaxExprNodes+1)
	if n > MaxExprNodes {
		return Exp[T]{e: &ir.Invalid{T: TypeOf[T](), Msg: exprTooLarge, Pos: callerPos()}, n: tooLarge}
	}
	return Exp[T]{e: e, n: uint32(n)}
}

// treeSize returns the number of nodes of e as a tree, or limit when it
// has at least that many, looking at no more.
func treeSize(e ir.Expr, limit int) int {
	n := 0
	stack := []ir.Expr{e}
	for len(stack) > 0 && n < limit {
		e, stack = stack[len(stack)-1], stack[:len(stack)-1]
		n++
		stack = append(stack, ir.Children(e)...)
	}
	return n
}

// IR returns the expression's IR node.
func (x Exp[T]) IR() ir.Expr {
	if x.e == nil {
		return &ir.Invalid{T: TypeOf[T](), Msg: "use of a zero Exp (an expression that was never built)"}
	}
	return x.e
}

func invalid[T Scalar](msg string) Exp[T] {
	return Exp[T]{e: &ir.Invalid{T: TypeOf[T](), Msg: msg, Pos: callerPos()}}
}

// Invalid returns an expression that stands for a mistake: any kernel that
// uses it fails to build with msg, at the line of the user's code that
// called the combinator reporting it. It is for combinators built on the
// DSL, which cannot report errors otherwise.
func Invalid[T Scalar](msg string) Exp[T] { return invalid[T](msg) }

// Lit returns the constant v.
func Lit[T Scalar](v T) Exp[T] { return Exp[T]{e: &ir.Const{Value: valueOf(v)}} }

// valueOf returns v as an IR value of its type.
func valueOf[T Scalar](v T) ir.Value {
	t := TypeOf[T]()
	switch v := any(v).(type) {
	case bool:
		return ir.BoolValue(v)
	case int32:
		return ir.IntValue(t, int64(v))
	case uint32:
		return ir.UintValue(t, uint64(v))
	case int64:
		return ir.IntValue(t, v)
	case uint64:
		return ir.UintValue(t, v)
	case float32:
		return ir.FloatValue(t, float64(v))
	case float64:
		return ir.FloatValue(t, v)
	case int8:
		return ir.IntValue(t, int64(v))
	case uint8:
		return ir.UintValue(t, uint64(v))
	case int16:
		return ir.IntValue(t, int64(v))
	case uint16:
		return ir.UintValue(t, uint64(v))
	case half.Float16:
		return ir.Value{T: t, Bits: uint64(v)}
	case half.BFloat16:
		return ir.Value{T: t, Bits: uint64(v)}
	}
	return ir.Value{T: t} // Scalar admits no other type
}

// N returns the uint32 constant v: the type of sizes and indices.
func N(v uint32) U32 { return Lit(v) }

// Const returns the integer constant v as a T. Unlike Lit it takes an
// untyped Go integer, and reports a value that T cannot hold (a negative
// literal for an unsigned type, say) as an error of the kernel that uses it.
func Const[T Number](v int64) Exp[T] {
	t := TypeOf[T]()
	switch {
	case t.IsUnsigned() && v < 0:
		return invalid[T](fmt.Sprintf("negative literal %d for unsigned type %v", v, t))
	case t.IsInteger() && ir.IntValue(t, v).Int() != v:
		return invalid[T](fmt.Sprintf("literal %d overflows %v", v, t))
	case t.IsFloat():
		return Exp[T]{e: &ir.Const{Value: ir.FloatValue(t, float64(v))}}
	}
	return Exp[T]{e: &ir.Const{Value: ir.IntValue(t, v)}}
}

// apply builds the operation o of the operator table on operands of type
// A and of the given sizes, giving an R, or an Invalid saying why o does
// not apply.
func apply[R, A Scalar](o *ir.Operation, node func() ir.Expr, operands ...operand) Exp[R] {
	ts := make([]ir.Type, o.Arity)
	for i := range ts {
		ts[i] = TypeOf[A]()
	}
	rt, err := o.Check(ts...)
	if err != nil {
		return invalid[R](err.Error())
	}
	if rt != TypeOf[R]() {
		return invalid[R](fmt.Sprintf("%s gives %v, not %v", o.Name, rt, TypeOf[R]()))
	}
	return build[R](node, operands...)
}

func unary[R, A Scalar](op ir.UnOp, x Exp[A]) Exp[R] {
	return apply[R, A](op.Operation(), func() ir.Expr { return &ir.Unary{Op: op, X: x.IR()} }, x)
}

func binary[R, A Scalar](op ir.BinOp, x, y Exp[A]) Exp[R] {
	return apply[R, A](op.Operation(), func() ir.Expr { return &ir.Binary{Op: op, X: x.IR(), Y: y.IR()} }, x, y)
}

func ternary[R, A Scalar](op ir.TernOp, x, y, z Exp[A]) Exp[R] {
	return apply[R, A](op.Operation(), func() ir.Expr { return &ir.Ternary{Op: op, X: x.IR(), Y: y.IR(), Z: z.IR()} },
		x, y, z)
}

func (x Exp[T]) bin(op ir.BinOp, y Exp[T]) Exp[T] { return binary[T](op, x, y) }

func (x Exp[T]) cmp(op ir.BinOp, y Exp[T]) Bool { return binary[bool](op, x, y) }

// faultCheck builds op, reporting a constant second operand that makes it
// fail whatever the first (a division by zero, a shift count out of range)
// where the expression is built.
func (x Exp[T]) faultCheck(op ir.BinOp, y Exp[T]) Exp[T] {
	t := TypeOf[T]()
	if v, ok := smallConstant(y.IR()); ok && op.Operation().AlwaysFaults(t, v) {
		_, fault, _ := op.Operation().Apply(ir.Value{T: t}, v)
		return invalid[T](fmt.Sprintf("%v of a %v by constant %v: %v", op, t, v, fault))
	}
	return x.bin(op, y)
}

// constantBudget bounds the size of an operand the DSL folds to look for a
// constant, so that building an expression stays linear in its size.
const constantBudget = 64

// smallConstant returns the value of e when e is small and simplifies to a
// constant.
func smallConstant(e ir.Expr) (ir.Value, bool) {
	if !smaller(e, constantBudget) {
		return ir.Value{}, false
	}
	return simplify.Constant(e)
}

// smaller reports whether e has fewer than n nodes, looking at no more.
func smaller(e ir.Expr, n int) bool {
	stack := []ir.Expr{e}
	for len(stack) > 0 {
		if n--; n <= 0 {
			return false
		}
		e, stack = stack[len(stack)-1], stack[:len(stack)-1]
		stack = append(stack, ir.Children(e)...)
	}
	return true
}

// Add returns x + y.
func (x Exp[T]) Add(y Exp[T]) Exp[T] { return x.bin(ir.Add, y) }

// Sub returns x - y.
func (x Exp[T]) Sub(y Exp[T]) Exp[T] { return x.bin(ir.Sub, y) }

// Mul returns x * y.
func (x Exp[T]) Mul(y Exp[T]) Exp[T] { return x.bin(ir.Mul, y) }

// Div returns x / y (truncated toward zero for integers). Division by a
// constant zero is reported as an error.
func (x Exp[T]) Div(y Exp[T]) Exp[T] { return x.faultCheck(ir.Div, y) }

// Rem returns the remainder x % y (sign of x). A constant zero divisor is
// reported as an error.
func (x Exp[T]) Rem(y Exp[T]) Exp[T] { return x.faultCheck(ir.Rem, y) }

// And returns x & y (x && y for Bool).
func (x Exp[T]) And(y Exp[T]) Exp[T] { return x.bin(ir.And, y) }

// Or returns x | y (x || y for Bool).
func (x Exp[T]) Or(y Exp[T]) Exp[T] { return x.bin(ir.Or, y) }

// Xor returns x ^ y (x != y for Bool).
func (x Exp[T]) Xor(y Exp[T]) Exp[T] { return x.bin(ir.Xor, y) }

// Shl returns x << y. A constant count at least the bit width is an error.
func (x Exp[T]) Shl(y Exp[T]) Exp[T] { return x.faultCheck(ir.Shl, y) }

// Shr returns x >> y (arithmetic for signed types). A constant count at
// least the bit width is an error.
func (x Exp[T]) Shr(y Exp[T]) Exp[T] { return x.faultCheck(ir.Shr, y) }

// Min returns the smaller of x and y.
func (x Exp[T]) Min(y Exp[T]) Exp[T] { return x.bin(ir.Min, y) }

// Max returns the larger of x and y.
func (x Exp[T]) Max(y Exp[T]) Exp[T] { return x.bin(ir.Max, y) }

// Eq returns x == y.
func (x Exp[T]) Eq(y Exp[T]) Bool { return x.cmp(ir.Eq, y) }

// Ne returns x != y.
func (x Exp[T]) Ne(y Exp[T]) Bool { return x.cmp(ir.Ne, y) }

// Lt returns x < y.
func (x Exp[T]) Lt(y Exp[T]) Bool { return x.cmp(ir.Lt, y) }

// Le returns x <= y.
func (x Exp[T]) Le(y Exp[T]) Bool { return x.cmp(ir.Le, y) }

// Gt returns x > y.
func (x Exp[T]) Gt(y Exp[T]) Bool { return x.cmp(ir.Gt, y) }

// Ge returns x >= y.
func (x Exp[T]) Ge(y Exp[T]) Bool { return x.cmp(ir.Ge, y) }

// Neg returns -x (wrapping for integers).
func (x Exp[T]) Neg() Exp[T] { return unary[T](ir.Neg, x) }

// Not returns ^x for integers and !x for Bool.
func (x Exp[T]) Not() Exp[T] { return unary[T](ir.Not, x) }

// Cast converts x to type To with CUDA C's conversion rules (see
// ir.Conversion): float16 and bfloat16 convert only to and from float32.
func Cast[To, From Scalar](x Exp[From]) Exp[To] {
	if from, to := TypeOf[From](), TypeOf[To](); !ir.ConversionDefined(from, to) {
		return invalid[To](fmt.Sprintf("conversion from %v to %v: the 16-bit float types convert only to and from "+
			"float32", from, to))
	}
	return build[To](func() ir.Expr { return &ir.Convert{To: TypeOf[To](), X: x.IR()} }, x)
}

// Select returns a when c holds and b otherwise; only the chosen one is
// evaluated.
func Select[T Scalar](c Bool, a, b Exp[T]) Exp[T] {
	return build[T](func() ir.Expr { return &ir.Select{Cond: c.IR(), Then: a.IR(), Else: b.IR()} }, c, a, b)
}

// Special index and size expressions (uint32). Inside a ForAll, prefer the
// index the body is given: it stays right when the ForAll is virtualised.
var (
	ThreadIdx = U32{e: &ir.Special{Kind: ir.ThreadIdx}}
	BlockIdx  = U32{e: &ir.Special{Kind: ir.BlockIdx}}
	BlockDim  = U32{e: &ir.Special{Kind: ir.BlockDim}}
	GridDim   = U32{e: &ir.Special{Kind: ir.GridDim}}
	LaneIdx   = U32{e: &ir.Special{Kind: ir.LaneIdx}}
	WarpIdx   = U32{e: &ir.Special{Kind: ir.WarpIdx}}
)
