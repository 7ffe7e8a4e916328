package irgen_test

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/obsidian-go/obsidian/half"
	"github.com/obsidian-go/obsidian/ir"
)

// A small interpreter of closed expressions, the reference the evaluator is
// compared with: a tree walk in C's order of evaluation, operators applied
// as the operator table defines them (ir.Operation.Apply, one constant at a
// time), conversions written directly with Go's arithmetic. Values are Go
// values of the matching types. It reports the faults the evaluator must
// report: integer division by zero, MIN / -1 and shift counts outside
// [0, width).

type integer interface {
	int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64
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
		return operation(e.Op.Operation(), e.X)
	case *ir.Binary:
		return operation(e.Op.Operation(), e.X, e.Y)
	case *ir.Ternary:
		return operation(e.Op.Operation(), e.X, e.Y, e.Z)
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
	case ir.Int8:
		return int8(v.Bits)
	case ir.Uint8:
		return uint8(v.Bits)
	case ir.Int16:
		return int16(v.Bits)
	case ir.Uint16:
		return uint16(v.Bits)
	case ir.Float16:
		return half.Float16(v.Bits)
	case ir.BFloat16:
		return half.BFloat16(v.Bits)
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
	case int8:
		return ir.IntValue(ir.Int8, int64(x))
	case uint8:
		return ir.UintValue(ir.Uint8, uint64(x))
	case int16:
		return ir.IntValue(ir.Int16, int64(x))
	case uint16:
		return ir.UintValue(ir.Uint16, uint64(x))
	case half.Float16:
		return ir.Value{T: ir.Float16, Bits: uint64(x)}
	case half.BFloat16:
		return ir.Value{T: ir.BFloat16, Bits: uint64(x)}
	}
	return ir.Value{T: ir.Float64, Bits: math.Float64bits(x.(float64))}
}

// operation evaluates the operands left to right, the second only when the
// first does not decide a lazy operation (C's && and ||), and applies o.
func operation(o *ir.Operation, args ...ir.Expr) (any, string) {
	values := make([]ir.Value, len(args))
	for i, a := range args {
		x, fault := interpret(a)
		if fault != "" {
			return nil, fault
		}
		values[i] = irValue(x)
		if sp, _ := o.CUDA(values[0].T); i == 0 && sp.Lazy {
			if decided, ok := decides(o, values[0]); ok {
				return goValue(decided), ""
			}
		}
	}
	v, fault, ok := o.Apply(values...)
	switch {
	case !ok:
		panic(fmt.Sprintf("generated %s on %v", o.Name, values[0].T))
	case fault != ir.NoFault:
		return nil, fault.String()
	}
	return goValue(v), ""
}

// decides returns the result of the lazy operation o when its first operand
// x decides it whatever the second.
func decides(o *ir.Operation, x ir.Value) (ir.Value, bool) {
	r0, _, _ := o.Apply(x, ir.BoolValue(false))
	r1, _, _ := o.Apply(x, ir.BoolValue(true))
	return r0, r0 == r1
}

func convert(x any, to ir.Type) any {
	switch x := x.(type) {
	case half.Float16:
		return convert(x.Float32(), to) // exact
	case half.BFloat16:
		return convert(x.Float32(), to)
	}
	switch to {
	case ir.Float16:
		return half.Float16From(x.(float32))
	case ir.BFloat16:
		return half.BFloat16From(x.(float32))
	case ir.Bool:
		return toBool(x)
	case ir.Int8:
		return convertTo[int8](x)
	case ir.Uint8:
		return convertTo[uint8](x)
	case ir.Int16:
		return convertTo[int16](x)
	case ir.Uint16:
		return convertTo[uint16](x)
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
	case int8:
		return x != 0
	case uint8:
		return x != 0
	case int16:
		return x != 0
	case uint16:
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
	case int8:
		return T(x)
	case uint8:
		return T(x)
	case int16:
		return T(x)
	case uint16:
		return T(x)
	case float32:
		return fromFloat[T](x)
	}
	return fromFloat[T](x.(float64))
}

// fromFloat converts f to T, saturating when T is an integer type. A float
// converts to a float type directly, so that float32 to float32 keeps its
// bits: a detour through float64 would quiet a signalling NaN.
func fromFloat[T integer | float, F float](f F) T {
	var t T
	switch any(t).(type) {
	case int32:
		return T(saturate[int32](float64(f)))
	case uint32:
		return T(saturate[uint32](float64(f)))
	case int64:
		return T(saturate[int64](float64(f)))
	case uint64:
		return T(saturate[uint64](float64(f)))
	case int8:
		return T(saturate[int8](float64(f)))
	case uint8:
		return T(saturate[uint8](float64(f)))
	case int16:
		return T(saturate[int16](float64(f)))
	case uint16:
		return T(saturate[uint16](float64(f)))
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
