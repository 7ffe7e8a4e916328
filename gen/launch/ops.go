package launch

import (
	"fmt"
	"math"

	"github.com/obsidian-go/obsidian/half"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// Integer is the set of the IR's integer types.
type Integer interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64
}

// Float is the set of the IR's floating-point types.
type Float interface{ ~float32 | ~float64 }

// Number is the set of the IR's numeric types.
type Number interface{ Integer | Float }

// Fault records the first fault met while computing a host expression.
type Fault struct{ msg string }

func (f *Fault) set(msg string) {
	if f.msg == "" {
		f.msg = msg
	}
}

// Err returns the first fault recorded, or nil.
func (f *Fault) Err() error {
	if f.msg == "" {
		return nil
	}
	return &faultError{f.msg}
}

type faultError struct{ msg string }

func (e *faultError) Error() string { return e.msg }

// Unary returns op applied to x, as the operator table defines it, as an
// R; a fault (or an operator undefined on T) is recorded in f, giving 0.
func Unary[R, T runtime.Scalar](f *Fault, op ir.UnOp, x T) R {
	return apply[R](f, op.Operation(), op.String(), valueOf(x))
}

// Binary returns op applied to x and y (see Unary).
func Binary[R, T runtime.Scalar](f *Fault, op ir.BinOp, x, y T) R {
	return apply[R](f, op.Operation(), op.String(), valueOf(x), valueOf(y))
}

// Ternary returns op applied to x, y and z (see Unary).
func Ternary[R, T runtime.Scalar](f *Fault, op ir.TernOp, x, y, z T) R {
	return apply[R](f, op.Operation(), op.String(), valueOf(x), valueOf(y), valueOf(z))
}

func apply[R runtime.Scalar](f *Fault, o *ir.Operation, name string, args ...ir.Value) R {
	var zero R
	if o == nil {
		f.set("unknown operator " + name)
		return zero
	}
	v, fault, ok := o.Apply(args...)
	switch {
	case !ok || v.T != runtime.TypeOf[R]() && fault == ir.NoFault:
		f.set(fmt.Sprintf("operator %s is not defined on %v giving %v", name, args[0].T, runtime.TypeOf[R]()))
		return zero
	case fault != ir.NoFault:
		f.set(fault.String())
		return zero
	}
	return fromValue[R](v)
}

// valueOf returns x as an IR constant.
func valueOf[T runtime.Scalar](x T) ir.Value {
	switch x := any(x).(type) {
	case bool:
		return ir.BoolValue(x)
	case float32:
		return ir.Value{T: ir.Float32, Bits: uint64(math.Float32bits(x))}
	case float64:
		return ir.Value{T: ir.Float64, Bits: math.Float64bits(x)}
	case int32:
		return ir.IntValue(ir.Int32, int64(x))
	case int64:
		return ir.IntValue(ir.Int64, x)
	case uint32:
		return ir.UintValue(ir.Uint32, uint64(x))
	case uint64:
		return ir.UintValue(ir.Uint64, x)
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
	panic(fmt.Sprintf("launch: %T is not a scalar type", x))
}

// fromValue returns the IR constant v, of R's type, as an R.
func fromValue[R runtime.Scalar](v ir.Value) R {
	var r R
	switch p := any(&r).(type) {
	case *bool:
		*p = v.Bool()
	case *float32:
		*p = math.Float32frombits(uint32(v.Bits))
	case *float64:
		*p = math.Float64frombits(v.Bits)
	case *int32:
		*p = int32(v.Int())
	case *int64:
		*p = v.Int()
	case *uint32:
		*p = uint32(v.Bits)
	case *uint64:
		*p = v.Bits
	case *int8:
		*p = int8(v.Int())
	case *uint8:
		*p = uint8(v.Bits)
	case *int16:
		*p = int16(v.Int())
	case *uint16:
		*p = uint16(v.Bits)
	case *half.Float16:
		*p = half.Float16(v.Bits)
	case *half.BFloat16:
		*p = half.BFloat16(v.Bits)
	}
	return r
}

// FromBool returns 1 for true and 0 for false.
func FromBool[T Number](b bool) T {
	if b {
		return 1
	}
	return 0
}

// Convert converts x to To with CUDA's rules as the IR defines them
// (ir.Conversion): float to integer truncates toward zero and saturates,
// NaN giving 0.
func Convert[To, From runtime.Scalar](x From) To {
	v, _ := valueOf(x).Convert(runtime.TypeOf[To]())
	return fromValue[To](v)
}

// Len returns the length of b as a kernel sees it (0 for a nil buffer,
// which the launch then rejects).
func Len[T runtime.Scalar](b *runtime.Buffer[T]) uint32 {
	if b == nil {
		return 0
	}
	return uint32(b.Len())
}

// maxBlocks is the largest grid a launch uses.
const maxBlocks = 1<<31 - 1

// Blocks returns a number of blocks n as a launch uses it: at least 1, at
// most 2^31-1.
func Blocks[T Integer](n T) int {
	switch {
	case n < 1:
		return 1
	case uint64(n) > maxBlocks:
		return maxBlocks
	}
	return int(n)
}
