package codegen

import (
	"math"

	"github.com/obsidian-go/obsidian/ir"
)

// Constant folding with CUDA's semantics. Each function reports false when
// the operation is not folded: when it would be an error or undefined at run
// time (division by zero, INT_MIN / -1, a shift count outside [0, width), an
// out-of-range float to integer conversion) or when its result is a NaN,
// whose bits the GPU chooses.

// foldUnary folds op applied to the constant x.
func foldUnary(op ir.UnOp, x ir.Value) (ir.Value, bool) {
	t := x.T
	switch {
	case op == ir.Not && t == ir.Bool:
		return ir.BoolValue(!x.Bool()), true
	case op == ir.Not && t.IsInteger():
		return ir.UintValue(t, ^x.Bits), true
	case op == ir.Neg && t.IsInteger():
		return ir.UintValue(t, -x.Bits), true
	case op == ir.Neg && t == ir.Float32:
		return ir.Value{T: t, Bits: x.Bits ^ (1 << 31)}, true
	case op == ir.Neg && t == ir.Float64:
		return ir.Value{T: t, Bits: x.Bits ^ (1 << 63)}, true
	}
	return ir.Value{}, false
}

// foldBinary folds op applied to the constants x and y (of one type).
func foldBinary(op ir.BinOp, x, y ir.Value) (ir.Value, bool) {
	t := x.T
	if y.T != t {
		return ir.Value{}, false
	}
	if op.IsComparison() {
		c, ok := compare(x, y)
		if !ok {
			return foldUnordered(op), true
		}
		return ir.BoolValue(comparisonHolds(op, c)), true
	}
	switch {
	case t == ir.Bool:
		return foldBool(op, x, y)
	case t.IsInteger():
		return foldInteger(op, x, y)
	case t.IsFloat():
		return foldFloat(op, x, y)
	}
	return ir.Value{}, false
}

func foldBool(op ir.BinOp, x, y ir.Value) (ir.Value, bool) {
	switch op {
	case ir.And:
		return ir.BoolValue(x.Bool() && y.Bool()), true
	case ir.Or:
		return ir.BoolValue(x.Bool() || y.Bool()), true
	case ir.Xor:
		return ir.BoolValue(x.Bool() != y.Bool()), true
	}
	return ir.Value{}, false
}

func foldInteger(op ir.BinOp, x, y ir.Value) (ir.Value, bool) {
	t := x.T
	signed := t.IsSigned()
	switch op {
	case ir.Add:
		return ir.UintValue(t, x.Bits+y.Bits), true
	case ir.Sub:
		return ir.UintValue(t, x.Bits-y.Bits), true
	case ir.Mul:
		return ir.UintValue(t, x.Bits*y.Bits), true
	case ir.Div, ir.Rem:
		if y.Bits == 0 {
			return ir.Value{}, false
		}
		if !signed {
			if op == ir.Div {
				return ir.UintValue(t, x.Bits/y.Bits), true
			}
			return ir.UintValue(t, x.Bits%y.Bits), true
		}
		if x.Int() == minInt(t) && y.Int() == -1 {
			return ir.Value{}, false
		}
		if op == ir.Div {
			return ir.IntValue(t, x.Int()/y.Int()), true
		}
		return ir.IntValue(t, x.Int()%y.Int()), true
	case ir.And:
		return ir.UintValue(t, x.Bits&y.Bits), true
	case ir.Or:
		return ir.UintValue(t, x.Bits|y.Bits), true
	case ir.Xor:
		return ir.UintValue(t, x.Bits^y.Bits), true
	case ir.Shl, ir.Shr:
		n, ok := shiftCount(y)
		if !ok {
			return ir.Value{}, false
		}
		if op == ir.Shl {
			return ir.UintValue(t, x.Bits<<n), true
		}
		if signed {
			return ir.IntValue(t, x.Int()>>n), true
		}
		return ir.UintValue(t, x.Bits>>n), true
	case ir.Min, ir.Max:
		c, _ := compare(x, y)
		if (op == ir.Min) == (c <= 0) {
			return x, true
		}
		return y, true
	}
	return ir.Value{}, false
}

// shiftCount returns the constant shift count y when it is in [0, width).
func shiftCount(y ir.Value) (uint, bool) {
	if y.T.IsSigned() && y.Int() < 0 {
		return 0, false
	}
	if y.Uint() >= uint64(y.T.Bits()) {
		return 0, false
	}
	return uint(y.Uint()), true
}

func foldFloat(op ir.BinOp, x, y ir.Value) (ir.Value, bool) {
	t := x.T
	var r float64
	if op == ir.Min || op == ir.Max {
		a, b := x.Float(), y.Float()
		if a == 0 && b == 0 && math.Signbit(a) != math.Signbit(b) {
			return ir.Value{}, false
		}
		switch {
		case math.IsNaN(a):
			return y, !math.IsNaN(b)
		case math.IsNaN(b):
			return x, true
		case (op == ir.Min) == (a <= b):
			return x, true
		}
		return y, true
	}
	if t == ir.Float32 {
		a, b := float32(x.Float()), float32(y.Float())
		switch op {
		case ir.Add:
			r = float64(a + b)
		case ir.Sub:
			r = float64(a - b)
		case ir.Mul:
			r = float64(a * b)
		case ir.Div:
			r = float64(a / b)
		case ir.Rem:
			r = math.Mod(float64(a), float64(b))
		default:
			return ir.Value{}, false
		}
	} else {
		a, b := x.Float(), y.Float()
		switch op {
		case ir.Add:
			r = a + b
		case ir.Sub:
			r = a - b
		case ir.Mul:
			r = a * b
		case ir.Div:
			r = a / b
		case ir.Rem:
			r = math.Mod(a, b)
		default:
			return ir.Value{}, false
		}
	}
	if math.IsNaN(r) {
		return ir.Value{}, false
	}
	return ir.FloatValue(t, r), true
}

// compare orders two constants of one type: -1, 0 or 1. It reports false
// when they are unordered (a NaN).
func compare(x, y ir.Value) (int, bool) {
	switch {
	case x.T.IsFloat():
		a, b := x.Float(), y.Float()
		if math.IsNaN(a) || math.IsNaN(b) {
			return 0, false
		}
		return cmp3(a < b, a > b), true
	case x.T.IsSigned():
		return cmp3(x.Int() < y.Int(), x.Int() > y.Int()), true
	}
	return cmp3(x.Bits < y.Bits, x.Bits > y.Bits), true
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// comparisonHolds applies a comparison to an ordering c.
func comparisonHolds(op ir.BinOp, c int) bool {
	switch op {
	case ir.Eq:
		return c == 0
	case ir.Ne:
		return c != 0
	case ir.Lt:
		return c < 0
	case ir.Le:
		return c <= 0
	case ir.Gt:
		return c > 0
	}
	return c >= 0
}

// foldUnordered folds a comparison with a NaN operand: only Ne holds.
func foldUnordered(op ir.BinOp) ir.Value { return ir.BoolValue(op == ir.Ne) }

func minInt(t ir.Type) int64 {
	if t == ir.Int32 {
		return math.MinInt32
	}
	return math.MinInt64
}

// foldConvert folds the conversion of the constant x to type to.
func foldConvert(to ir.Type, x ir.Value) (ir.Value, bool) {
	from := x.T
	switch {
	case from == to:
		return x, true
	case to == ir.Bool:
		if from.IsFloat() {
			return ir.BoolValue(x.Float() != 0 || math.IsNaN(x.Float())), true
		}
		return ir.BoolValue(x.Bits != 0), true
	case from == ir.Bool:
		if to.IsFloat() {
			return ir.FloatValue(to, float64(x.Bits)), true
		}
		return ir.UintValue(to, x.Bits), true
	case from.IsInteger() && to.IsInteger():
		if from.IsSigned() {
			return ir.IntValue(to, x.Int()), true
		}
		return ir.UintValue(to, x.Bits), true
	case from.IsInteger() && to.IsFloat():
		return intToFloat(to, x), true
	case from.IsFloat() && to.IsInteger():
		return floatToInt(to, x.Float())
	case from.IsFloat() && to.IsFloat():
		if math.IsNaN(x.Float()) {
			return ir.Value{}, false
		}
		return ir.FloatValue(to, x.Float()), true
	}
	return ir.Value{}, false
}

// intToFloat converts with one rounding to nearest, as CUDA does.
func intToFloat(to ir.Type, x ir.Value) ir.Value {
	if to == ir.Float32 {
		var f float32
		if x.T.IsSigned() {
			f = float32(x.Int())
		} else {
			f = float32(x.Bits)
		}
		return ir.Value{T: to, Bits: uint64(math.Float32bits(f))}
	}
	if x.T.IsSigned() {
		return ir.FloatValue(to, float64(x.Int()))
	}
	return ir.FloatValue(to, float64(x.Bits))
}

// floatToInt truncates toward zero; values out of range and NaN are left
// to the GPU.
func floatToInt(to ir.Type, f float64) (ir.Value, bool) {
	if math.IsNaN(f) {
		return ir.Value{}, false
	}
	r := math.Trunc(f)
	var lo, hi float64 // the range is [lo, hi)
	switch to {
	case ir.Int32:
		lo, hi = math.MinInt32, 1<<31
	case ir.Uint32:
		lo, hi = 0, 1<<32
	case ir.Int64:
		lo, hi = math.MinInt64, 1<<63
	case ir.Uint64:
		lo, hi = 0, 1<<64
	}
	if r < lo || r >= hi {
		return ir.Value{}, false
	}
	if to == ir.Uint64 {
		return ir.UintValue(to, uint64(r)), true
	}
	return ir.IntValue(to, int64(r)), true
}
