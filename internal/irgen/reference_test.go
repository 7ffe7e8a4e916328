package irgen_test

import (
	"math"
	"unsafe"

	"github.com/obsidian-go/obsidian/ir"
)

// A small interpreter of closed expressions written directly with Go's
// arithmetic, the reference the evaluator is compared with. Values are Go
// values of the matching types; float32 operations are done in float32.
// It reports the faults the evaluator must report: integer division by
// zero, MIN / -1 and shift counts outside [0, width).

// The faults, as the evaluator's messages word them.
const (
	faultDivideByZero = "division or remainder by zero"
	faultOverflow     = "division overflow"
	faultShift        = "shift count"
)

type integer interface {
	int32 | uint32 | int64 | uint64
}

type float interface{ float32 | float64 }

// interpret evaluates e, returning its value or the first fault, in the
// order C evaluates: operands left to right, && and || short-circuit, a
// select evaluates only the arm it picks.
func interpret(e ir.Expr) (any, string) {
	switch e := e.(type) {
	case *ir.Const:
		return goValue(e.Value), ""
	case *ir.Unary:
		x, fault := interpret(e.X)
		if fault != "" {
			return nil, fault
		}
		return unary(e.Op, x), ""
	case *ir.Binary:
		x, fault := interpret(e.X)
		if fault != "" {
			return nil, fault
		}
		if b, ok := x.(bool); ok && (e.Op == ir.And && !b || e.Op == ir.Or && b) {
			return b, ""
		}
		y, fault := interpret(e.Y)
		if fault != "" {
			return nil, fault
		}
		return binary(e.Op, x, y)
	case *ir.Select:
		c, fault := interpret(e.Cond)
		if fault != "" {
			return nil, fault
		}
		if c.(bool) {
			return interpret(e.Then)
		}
		return interpret(e.Else)
	case *ir.Convert:
		x, fault := interpret(e.X)
		if fault != "" {
			return nil, fault
		}
		return convert(x, e.To), ""
	}
	panic("the reference interprets closed expressions only")
}

func goValue(v ir.Value) any {
	switch v.T {
	case ir.Bool:
		return v.Bits != 0
	case ir.Int32:
		return int32(uint32(v.Bits))
	case ir.Uint32:
		return uint32(v.Bits)
	case ir.Int64:
		return int64(v.Bits)
	case ir.Uint64:
		return v.Bits
	case ir.Float32:
		return math.Float32frombits(uint32(v.Bits))
	}
	return math.Float64frombits(v.Bits)
}

func irValue(x any) ir.Value {
	switch x := x.(type) {
	case bool:
		return ir.BoolValue(x)
	case int32:
		return ir.IntValue(ir.Int32, int64(x))
	case uint32:
		return ir.UintValue(ir.Uint32, uint64(x))
	case int64:
		return ir.IntValue(ir.Int64, x)
	case uint64:
		return ir.UintValue(ir.Uint64, x)
	case float32:
		return ir.Value{T: ir.Float32, Bits: uint64(math.Float32bits(x))}
	}
	return ir.Value{T: ir.Float64, Bits: math.Float64bits(x.(float64))}
}

func unary(op ir.UnOp, x any) any {
	switch x := x.(type) {
	case bool:
		return !x
	case int32:
		return intUnary(op, x)
	case uint32:
		return intUnary(op, x)
	case int64:
		return intUnary(op, x)
	case uint64:
		return intUnary(op, x)
	case float32:
		return -x
	}
	return -x.(float64)
}

func intUnary[I integer](op ir.UnOp, x I) I {
	if op == ir.Neg {
		return -x
	}
	return ^x
}

func binary(op ir.BinOp, x, y any) (any, string) {
	switch x := x.(type) {
	case bool:
		return boolBinary(op, x, y.(bool)), ""
	case int32:
		return intBinary(op, x, y.(int32))
	case uint32:
		return intBinary(op, x, y.(uint32))
	case int64:
		return intBinary(op, x, y.(int64))
	case uint64:
		return intBinary(op, x, y.(uint64))
	case float32:
		return floatBinary(op, x, y.(float32)), ""
	}
	return floatBinary(op, x.(float64), y.(float64)), ""
}

func boolBinary(op ir.BinOp, x, y bool) bool {
	toInt := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	switch op {
	case ir.And:
		return x && y
	case ir.Or:
		return x || y
	case ir.Xor, ir.Ne:
		return x != y
	case ir.Eq:
		return x == y
	}
	return compare(op, toInt(x), toInt(y))
}

func compare[N integer | float | int](op ir.BinOp, x, y N) bool {
	switch op {
	case ir.Eq:
		return x == y
	case ir.Ne:
		return x != y
	case ir.Lt:
		return x < y
	case ir.Le:
		return x <= y
	case ir.Gt:
		return x > y
	case ir.Ge:
		return x >= y
	}
	panic("not a comparison")
}

func intBinary[I integer](op ir.BinOp, x, y I) (any, string) {
	bits := I(unsafe.Sizeof(x) * 8)
	signed := ^I(0) < 0
	minimum := I(1) << (bits - 1)
	switch op {
	case ir.Add:
		return x + y, ""
	case ir.Sub:
		return x - y, ""
	case ir.Mul:
		return x * y, ""
	case ir.And:
		return x & y, ""
	case ir.Or:
		return x | y, ""
	case ir.Xor:
		return x ^ y, ""
	case ir.Div, ir.Rem:
		switch {
		case y == 0:
			return nil, faultDivideByZero
		case signed && x == minimum && y == ^I(0):
			return nil, faultOverflow
		case op == ir.Div:
			return x / y, ""
		}
		return x % y, ""
	case ir.Shl, ir.Shr:
		switch {
		case y < 0 || y >= bits:
			return nil, faultShift
		case op == ir.Shl:
			return x << y, ""
		}
		return x >> y, ""
	case ir.Min:
		return min(x, y), ""
	case ir.Max:
		return max(x, y), ""
	}
	return compare(op, x, y), ""
}

func floatBinary[F float](op ir.BinOp, x, y F) any {
	switch op {
	case ir.Add:
		return F(x + y)
	case ir.Sub:
		return F(x - y)
	case ir.Mul:
		return F(x * y)
	case ir.Div:
		return F(x / y)
	case ir.Rem:
		return F(math.Mod(float64(x), float64(y)))
	case ir.Min:
		return fmin(x, y)
	case ir.Max:
		return fmax(x, y)
	}
	return compare(op, x, y)
}

// fmin is C's fmin: a NaN operand is ignored; of two zeros, -0 is the
// smaller.
func fmin[F float](x, y F) F {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == 0 && y == 0 && math.Signbit(float64(y)):
		return y
	case y < x:
		return y
	}
	return x
}

// fmax is C's fmax: a NaN operand is ignored; of two zeros, +0 is the
// larger.
func fmax[F float](x, y F) F {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == 0 && y == 0 && !math.Signbit(float64(y)):
		return y
	case y > x:
		return y
	}
	return x
}

func convert(x any, to ir.Type) any {
	switch to {
	case ir.Bool:
		return toBool(x)
	case ir.Int32:
		return convertTo[int32](x)
	case ir.Uint32:
		return convertTo[uint32](x)
	case ir.Int64:
		return convertTo[int64](x)
	case ir.Uint64:
		return convertTo[uint64](x)
	case ir.Float32:
		return convertTo[float32](x)
	}
	return convertTo[float64](x)
}

// toBool is C's conversion to bool: x != 0 (so NaN is true).
func toBool(x any) bool {
	switch x := x.(type) {
	case bool:
		return x
	case int32:
		return x != 0
	case uint32:
		return x != 0
	case int64:
		return x != 0
	case uint64:
		return x != 0
	case float32:
		return x != 0
	}
	return x.(float64) != 0
}

// convertTo converts x to T as CUDA does: integers wrap or extend, bool is
// 0 or 1, float to integer truncates toward zero and saturates, NaN giving
// 0, and conversions to float round to nearest.
func convertTo[T integer | float](x any) T {
	switch x := x.(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int32:
		return T(x)
	case uint32:
		return T(x)
	case int64:
		return T(x)
	case uint64:
		return T(x)
	case float32:
		return fromFloat[T](float64(x))
	}
	return fromFloat[T](x.(float64))
}

// fromFloat converts f to T, saturating when T is an integer type.
func fromFloat[T integer | float](f float64) T {
	var t T
	switch any(t).(type) {
	case int32:
		return T(saturate[int32](f))
	case uint32:
		return T(saturate[uint32](f))
	case int64:
		return T(saturate[int64](f))
	case uint64:
		return T(saturate[uint64](f))
	}
	return T(f)
}

// saturate converts f to I, truncating toward zero and clamping to I's
// range; NaN gives 0.
func saturate[I integer](f float64) I {
	bits := unsafe.Sizeof(I(0)) * 8
	lowest, limit, maximum := 0.0, math.Exp2(float64(bits)), ^I(0)
	if ^I(0) < 0 {
		lowest, limit, maximum = -math.Exp2(float64(bits-1)), math.Exp2(float64(bits-1)), ^(I(1) << (bits - 1))
	}
	f = math.Trunc(f)
	switch {
	case f != f:
		return 0
	case f <= lowest:
		return I(lowest)
	case f >= limit:
		return maximum
	}
	return I(f)
}
