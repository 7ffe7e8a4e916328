package runtime

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/obsidian-go/obsidian/half"
	"github.com/obsidian-go/obsidian/ir"
)

// Scalar is the set of Go types a Buffer can hold and a launch can pass as a
// scalar argument; each is one ir.Type (half.Float16 and half.BFloat16 are
// the 16-bit float storage types).
type Scalar interface {
	bool | int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64 | float32 | float64 | half.Float16 |
		half.BFloat16
}

// TypeOf returns the IR type of the Go scalar type T.
func TypeOf[T Scalar]() ir.Type {
	var zero T
	t, _ := scalarValue(zero)
	return t.T
}

// scalarValue converts a Go scalar to an IR value; ok is false when x is not
// one of the Scalar types.
func scalarValue(x any) (v ir.Value, ok bool) {
	switch x := x.(type) {
	case bool:
		return ir.BoolValue(x), true
	case int32:
		return ir.IntValue(ir.Int32, int64(x)), true
	case uint32:
		return ir.UintValue(ir.Uint32, uint64(x)), true
	case int64:
		return ir.IntValue(ir.Int64, x), true
	case uint64:
		return ir.UintValue(ir.Uint64, x), true
	case float32:
		return ir.Value{T: ir.Float32, Bits: uint64(math.Float32bits(x))}, true
	case float64:
		return ir.Value{T: ir.Float64, Bits: math.Float64bits(x)}, true
	case int8:
		return ir.IntValue(ir.Int8, int64(x)), true
	case uint8:
		return ir.UintValue(ir.Uint8, uint64(x)), true
	case int16:
		return ir.IntValue(ir.Int16, int64(x)), true
	case uint16:
		return ir.UintValue(ir.Uint16, uint64(x)), true
	case half.Float16:
		return ir.Value{T: ir.Float16, Bits: uint64(x)}, true
	case half.BFloat16:
		return ir.Value{T: ir.BFloat16, Bits: uint64(x)}, true
	}
	return ir.Value{}, false
}

// valueBytes returns the little-endian bytes of one element holding v.
func valueBytes(v ir.Value) []byte {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v.Bits)
	return b[:v.T.Size()]
}

// bytesOf views the elements of s as bytes, without copying.
func bytesOf[T Scalar](s []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
