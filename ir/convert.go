package ir

import (
	"math"

	"github.com/obsidian-go/obsidian/half"
)

// ConversionDefined reports whether values of type from convert to type
// to: any two valid types, except that the storage floats (float16,
// bfloat16) convert only to and from float32.
func ConversionDefined(from, to Type) bool {
	switch {
	case !from.Valid() || !to.Valid():
		return false
	case from == to:
		return true
	case from.IsStorageFloat():
		return to == Float32
	case to.IsStorageFloat():
		return from == Float32
	}
	return true
}

// Conversion returns the function converting the bits of a value of type
// from to the bits of type to, with CUDA's rules as the printer writes them:
// integers wrap or extend, float to integer truncates toward zero and
// saturates at the type's limits (NaN gives 0, as the cvt.rzi instructions
// do), integer to float and float to float round to nearest even, bool to
// number gives 0 or 1, number to bool tests != 0 (so NaN is true), and the
// storage floats convert exactly to float32 and from it to nearest even. It
// reports false when the conversion is not defined (ConversionDefined).
func Conversion(from, to Type) (func(uint64) uint64, bool) {
	if !ConversionDefined(from, to) {
		return nil, false
	}
	switch {
	case from == to:
		return func(x uint64) uint64 { return x }, true
	case from == Float16:
		return func(x uint64) uint64 { return f32bits(half.Float16(x).Float32()) }, true
	case from == BFloat16:
		return func(x uint64) uint64 { return f32bits(half.BFloat16(x).Float32()) }, true
	case to == Float16:
		return func(x uint64) uint64 { return uint64(half.Float16From(f32(x))) }, true
	case to == BFloat16:
		return func(x uint64) uint64 { return uint64(half.BFloat16From(f32(x))) }, true
	case to == Bool && from.IsFloat():
		dec := floatDecoder(from)
		return func(x uint64) uint64 { return boolBits(dec(x) != 0) }, true
	case to == Bool:
		return func(x uint64) uint64 { return boolBits(x != 0) }, true
	case to.IsInteger() && from.IsFloat():
		dec := floatDecoder(from)
		return func(x uint64) uint64 { return saturate(dec(x), to) }, true
	case to.IsInteger():
		m := widthMask(to)
		return func(x uint64) uint64 { return uint64(signExtend(from, x)) & m }, true
	case to == Float32:
		return toFloat(from, f32bits), true
	}
	return toFloat(from, math.Float64bits), true
}

// Convert returns v converted to type to by Conversion's rules, and false
// when either type is invalid.
func (v Value) Convert(to Type) (Value, bool) {
	fn, ok := Conversion(v.T, to)
	if !ok {
		return Value{}, false
	}
	return Value{T: to, Bits: fn(v.Bits & widthMask(v.T))}, true
}

// floatDecoder returns the exact float64 value of bits of float type t.
func floatDecoder(t Type) func(uint64) float64 {
	if t == Float32 {
		return func(x uint64) float64 { return float64(f32(x)) }
	}
	return math.Float64frombits
}

// toFloat converts a value of type from to F, rounding once.
func toFloat[F float32 | float64](from Type, enc func(F) uint64) func(uint64) uint64 {
	switch {
	case from.IsSigned():
		return func(x uint64) uint64 { return enc(F(signExtend(from, x))) }
	case from.IsUnsigned() || from == Bool:
		return func(x uint64) uint64 { return enc(F(x)) }
	case from == Float32:
		return func(x uint64) uint64 { return enc(F(f32(x))) }
	}
	return func(x uint64) uint64 { return enc(F(math.Float64frombits(x))) }
}

// saturate converts f to integer type t as PTX's cvt.rzi does: truncated
// toward zero, clamped to t's range, NaN giving 0.
func saturate(f float64, t Type) uint64 {
	width := t.Bits()
	if f != f {
		return 0
	}
	f = math.Trunc(f)
	if t.IsSigned() {
		limit := math.Ldexp(1, width-1)
		switch {
		case f <= -limit:
			return uint64(int64(-1)<<(width-1)) & widthMask(t)
		case f >= limit:
			return widthMask(t) >> 1
		}
		return uint64(int64(f)) & widthMask(t)
	}
	switch {
	case f <= 0:
		return 0
	case f >= math.Ldexp(1, width):
		return widthMask(t)
	}
	return uint64(f)
}
