package ir

import (
	"fmt"
	"math"
)

// Type is a scalar type of the DSL.
type Type uint8

// The scalar types.
const (
	NoType Type = iota // the zero Type: no type
	Bool
	Int32
	Uint32
	Int64
	Uint64
	Float32
	Float64
)

// Types lists every valid scalar type, in a fixed order.
var Types = []Type{Bool, Int32, Uint32, Int64, Uint64, Float32, Float64}

// String returns the Go name of the type.
func (t Type) String() string {
	switch t {
	case Bool:
		return "bool"
	case Int32:
		return "int32"
	case Uint32:
		return "uint32"
	case Int64:
		return "int64"
	case Uint64:
		return "uint64"
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Valid reports whether t is one of the scalar types.
func (t Type) Valid() bool { return t >= Bool && t <= Float64 }

// Size returns the size of a value of type t in bytes (bool: 1).
func (t Type) Size() int {
	switch t {
	case Bool:
		return 1
	case Int32, Uint32, Float32:
		return 4
	case Int64, Uint64, Float64:
		return 8
	}
	return 0
}

// Bits returns the width of t in bits.
func (t Type) Bits() int { return 8 * t.Size() }

// IsInteger reports whether t is one of the integer types.
func (t Type) IsInteger() bool { return t >= Int32 && t <= Uint64 }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t == Int32 || t == Int64 }

// IsUnsigned reports whether t is an unsigned integer type.
func (t Type) IsUnsigned() bool { return t == Uint32 || t == Uint64 }

// IsFloat reports whether t is a floating-point type.
func (t Type) IsFloat() bool { return t == Float32 || t == Float64 }

// IsNumeric reports whether t is an integer or floating-point type.
func (t Type) IsNumeric() bool { return t.IsInteger() || t.IsFloat() }

// Value is a constant of a scalar type. Bits holds the value: integers in
// two's complement truncated to the type's width (zero-extended), float32 as
// math.Float32bits, float64 as math.Float64bits, bool as 0 or 1.
type Value struct {
	T    Type
	Bits uint64
}

// IntValue returns the value v of integer type t, wrapped to t's width.
func IntValue(t Type, v int64) Value { return Value{t, truncate(t, uint64(v))} }

// UintValue returns the value v of integer type t, wrapped to t's width.
func UintValue(t Type, v uint64) Value { return Value{t, truncate(t, v)} }

// FloatValue returns v as a constant of float type t (rounded for float32).
func FloatValue(t Type, v float64) Value {
	if t == Float32 {
		return Value{t, uint64(math.Float32bits(float32(v)))}
	}
	return Value{t, math.Float64bits(v)}
}

// BoolValue returns v as a bool constant.
func BoolValue(v bool) Value {
	if v {
		return Value{Bool, 1}
	}
	return Value{Bool, 0}
}

func truncate(t Type, v uint64) uint64 {
	switch t {
	case Int32, Uint32, Float32:
		return v & 0xFFFFFFFF
	case Bool:
		return v & 1
	}
	return v
}

// Int returns an integer value sign-extended (signed types) or
// zero-extended (unsigned types) to int64.
func (v Value) Int() int64 {
	switch v.T {
	case Int32:
		return int64(int32(uint32(v.Bits)))
	case Float32, Float64:
		return int64(v.Float())
	}
	return int64(v.Bits)
}

// Uint returns an integer value as uint64 (sign-extended for signed types).
func (v Value) Uint() uint64 { return uint64(v.Int()) }

// Float returns the value of a float constant.
func (v Value) Float() float64 {
	switch v.T {
	case Float32:
		return float64(math.Float32frombits(uint32(v.Bits)))
	case Float64:
		return math.Float64frombits(v.Bits)
	}
	if v.T.IsSigned() {
		return float64(v.Int())
	}
	return float64(v.Bits)
}

// Bool returns the value of a bool constant (any non-zero bits are true).
func (v Value) Bool() bool { return v.Bits != 0 }

// IsZero reports whether v is the zero of its type (+0.0 for floats).
func (v Value) IsZero() bool { return v.Bits == 0 }

// String formats the value as Go would.
func (v Value) String() string {
	switch {
	case v.T == Bool:
		return fmt.Sprint(v.Bool())
	case v.T.IsSigned():
		return fmt.Sprint(v.Int())
	case v.T.IsUnsigned():
		return fmt.Sprint(v.Bits)
	case v.T == Float32:
		return fmt.Sprint(math.Float32frombits(uint32(v.Bits)))
	}
	return fmt.Sprint(v.Float())
}

// Pos is a position in the user's Go source: the line that built a node.
type Pos struct {
	File string
	Line int
}

// String returns "file:line", or "?" for an unknown position.
func (p Pos) String() string {
	if p.File == "" {
		return "?"
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Error is an error about a program, located at the user's Go line.
type Error struct {
	Pos Pos
	Msg string
}

// Error implements error: "file:line: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errorf returns an *Error at pos.
func Errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
