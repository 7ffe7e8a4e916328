package ir

import (
	"fmt"
	"math"

	"github.com/obsidian-go/obsidian/half"
)

// Type is a scalar type of the DSL.
type Type uint8

// The scalar types. Float16 and BFloat16 are storage types: arrays hold
// them and conversions to and from Float32 read and write them, but no
// operator applies to them.
const (
	NoType Type = iota // the zero Type: no type
	Bool
	Int32
	Uint32
	Int64
	Uint64
	Float32
	Float64
	Int8
	Uint8
	Int16
	Uint16
	Float16  // IEEE binary16
	BFloat16 // bfloat16, the upper half of a float32
)

// Types lists every valid scalar type, in a fixed order.
var Types = []Type{Bool, Int32, Uint32, Int64, Uint64, Float32, Float64, Int8, Uint8, Int16, Uint16, Float16,
	BFloat16}

// typeInfo describes a scalar type: its Go name, its size in bytes and its
// kind.
type typeInfo struct {
	name string
	c    string // the C spelling (the 16-bit floats are stored as their bits)
	size int
	kind typeKind
}

type typeKind uint8

const (
	boolKind typeKind = iota + 1
	signedKind
	unsignedKind
	floatKind
	storageFloatKind
)

var typeInfos = [...]typeInfo{
	Bool:     {"bool", "bool", 1, boolKind},
	Int32:    {"int32", "int", 4, signedKind},
	Uint32:   {"uint32", "unsigned int", 4, unsignedKind},
	Int64:    {"int64", "long long", 8, signedKind},
	Uint64:   {"uint64", "unsigned long long", 8, unsignedKind},
	Float32:  {"float32", "float", 4, floatKind},
	Float64:  {"float64", "double", 8, floatKind},
	Int8:     {"int8", "signed char", 1, signedKind},
	Uint8:    {"uint8", "unsigned char", 1, unsignedKind},
	Int16:    {"int16", "short", 2, signedKind},
	Uint16:   {"uint16", "unsigned short", 2, unsignedKind},
	Float16:  {"float16", "unsigned short", 2, storageFloatKind},
	BFloat16: {"bfloat16", "unsigned short", 2, storageFloatKind},
}

func (t Type) info() typeInfo {
	if int(t) < len(typeInfos) {
		return typeInfos[t]
	}
	return typeInfo{}
}

// C returns the C spelling of the type: the 16-bit floats as the bits
// they are stored as (unsigned short); "void" for an invalid type.
func (t Type) C() string {
	if i := t.info(); i.c != "" {
		return i.c
	}
	return "void"
}

// String returns the Go name of the type (float16 and bfloat16 for the
// storage types, whose Go types are half.Float16 and half.BFloat16).
func (t Type) String() string {
	if i := t.info(); i.name != "" {
		return i.name
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Valid reports whether t is one of the scalar types.
func (t Type) Valid() bool { return t.info().kind != 0 }

// Size returns the size of a value of type t in bytes (bool: 1).
func (t Type) Size() int { return t.info().size }

// Bits returns the width of t in bits.
func (t Type) Bits() int { return 8 * t.Size() }

// Mask returns the mask of the bits a value of type t uses in Value.Bits:
// 1 for bool.
func (t Type) Mask() uint64 { return widthMask(t) }

// IsInteger reports whether t is one of the integer types.
func (t Type) IsInteger() bool { return t.IsSigned() || t.IsUnsigned() }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t.info().kind == signedKind }

// IsUnsigned reports whether t is an unsigned integer type.
func (t Type) IsUnsigned() bool { return t.info().kind == unsignedKind }

// IsFloat reports whether t is a floating-point type arithmetic applies
// to: float32 or float64.
func (t Type) IsFloat() bool { return t.info().kind == floatKind }

// IsStorageFloat reports whether t is a 16-bit floating-point storage
// type: float16 or bfloat16.
func (t Type) IsStorageFloat() bool { return t.info().kind == storageFloatKind }

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

// FloatValue returns v as a constant of float type t (rounded to nearest
// for float32, and through float32 for the storage types).
func FloatValue(t Type, v float64) Value {
	switch t {
	case Float32:
		return Value{t, uint64(math.Float32bits(float32(v)))}
	case Float16:
		return Value{t, uint64(half.Float16From(float32(v)))}
	case BFloat16:
		return Value{t, uint64(half.BFloat16From(float32(v)))}
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

func truncate(t Type, v uint64) uint64 { return v & widthMask(t) }

// Int returns an integer value sign-extended (signed types) or
// zero-extended (unsigned types) to int64.
func (v Value) Int() int64 {
	if v.T.IsFloat() || v.T.IsStorageFloat() {
		return int64(v.Float())
	}
	return signExtend(v.T, v.Bits)
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
	case Float16:
		return float64(half.Float16(v.Bits).Float32())
	case BFloat16:
		return float64(half.BFloat16(v.Bits).Float32())
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
	case v.T == Float32 || v.T.IsStorageFloat():
		return fmt.Sprint(float32(v.Float()))
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
