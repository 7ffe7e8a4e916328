package dsl

import "github.com/obsidian-go/obsidian/ir"

// The intrinsics: operations of ir's operator table beyond C's operators.
// Each is an error of the kernel that uses it (at the line that built it)
// on a type the table does not define it for; the operator table documents
// what each computes and how it prints.

// PopCount returns the number of bits of x that are set (integers).
func (x Exp[T]) PopCount() Exp[T] { return unary[T](ir.PopCount, x) }

// LeadingZeros returns the number of zero bits above the highest bit set:
// the bit width for 0 (integers).
func (x Exp[T]) LeadingZeros() Exp[T] { return unary[T](ir.LeadingZeros, x) }

// FindFirstSet returns the position of the lowest bit set, counting from
// 1, or 0 when x is 0 (integers).
func (x Exp[T]) FindFirstSet() Exp[T] { return unary[T](ir.FindFirstSet, x) }

// BitReverse returns x with its bits in reverse order (integers).
func (x Exp[T]) BitReverse() Exp[T] { return unary[T](ir.BitReverse, x) }

// MulHi returns the high half of the full product x * y (integers).
func (x Exp[T]) MulHi(y Exp[T]) Exp[T] { return binary[T](ir.MulHi, x, y) }

// Abs returns the absolute value of x (signed integers, where the minimum
// value stays itself, and floats).
func (x Exp[T]) Abs() Exp[T] { return unary[T](ir.Abs, x) }

// Sqrt returns the square root of x, correctly rounded (floats).
func (x Exp[T]) Sqrt() Exp[T] { return unary[T](ir.Sqrt, x) }

// Rsqrt returns 1 / Sqrt(x) (floats).
func (x Exp[T]) Rsqrt() Exp[T] { return unary[T](ir.Rsqrt, x) }

// Cbrt returns the cube root of x (floats).
func (x Exp[T]) Cbrt() Exp[T] { return unary[T](ir.Cbrt, x) }

// Exp returns e^x (floats).
func (x Exp[T]) Exp() Exp[T] { return unary[T](ir.Exp, x) }

// Exp2 returns 2^x (floats).
func (x Exp[T]) Exp2() Exp[T] { return unary[T](ir.Exp2, x) }

// Log returns the natural logarithm of x (floats).
func (x Exp[T]) Log() Exp[T] { return unary[T](ir.Log, x) }

// Log2 returns the base 2 logarithm of x (floats).
func (x Exp[T]) Log2() Exp[T] { return unary[T](ir.Log2, x) }

// Log1p returns the natural logarithm of 1 + x, accurate for x near 0
// (floats).
func (x Exp[T]) Log1p() Exp[T] { return unary[T](ir.Log1p, x) }

// Sin returns the sine of x (floats).
func (x Exp[T]) Sin() Exp[T] { return unary[T](ir.Sin, x) }

// Cos returns the cosine of x (floats).
func (x Exp[T]) Cos() Exp[T] { return unary[T](ir.Cos, x) }

// Tan returns the tangent of x (floats).
func (x Exp[T]) Tan() Exp[T] { return unary[T](ir.Tan, x) }

// Tanh returns the hyperbolic tangent of x (floats).
func (x Exp[T]) Tanh() Exp[T] { return unary[T](ir.Tanh, x) }

// Pow returns x^y (floats).
func (x Exp[T]) Pow(y Exp[T]) Exp[T] { return binary[T](ir.Pow, x, y) }

// Floor returns the largest integer not above x (floats).
func (x Exp[T]) Floor() Exp[T] { return unary[T](ir.Floor, x) }

// Ceil returns the smallest integer not below x (floats).
func (x Exp[T]) Ceil() Exp[T] { return unary[T](ir.Ceil, x) }

// Round returns the integer nearest x, halfway cases away from zero
// (floats).
func (x Exp[T]) Round() Exp[T] { return unary[T](ir.Round, x) }

// Trunc returns the integer part of x (floats).
func (x Exp[T]) Trunc() Exp[T] { return unary[T](ir.Trunc, x) }

// RoundEven returns the integer nearest x, halfway cases to even (floats).
func (x Exp[T]) RoundEven() Exp[T] { return unary[T](ir.RoundEven, x) }

// FMA returns x * y + z rounded once (floats).
func (x Exp[T]) FMA(y, z Exp[T]) Exp[T] { return ternary[T](ir.FMA, x, y, z) }

// Copysign returns x with the sign of y (floats).
func (x Exp[T]) Copysign(y Exp[T]) Exp[T] { return binary[T](ir.Copysign, x, y) }

// IsNaN reports whether x is a NaN (floats).
func (x Exp[T]) IsNaN() Bool { return unary[bool](ir.IsNaN, x) }

// IsInf reports whether x is an infinity (floats).
func (x Exp[T]) IsInf() Bool { return unary[bool](ir.IsInf, x) }

// IsFinite reports whether x is neither an infinity nor a NaN (floats).
func (x Exp[T]) IsFinite() Bool { return unary[bool](ir.IsFinite, x) }

// BytePerm returns the bytes of the 64-bit value y:x selected by s: byte n
// of the result is byte (s >> 4n) & 7 of y:x, bytes 0 to 3 being x's
// (CUDA's __byte_perm).
func BytePerm(x, y, s U32) U32 { return ternary[uint32](ir.BytePerm, x, y, s) }

// FunnelShiftL returns the high word of the 64-bit value hi:lo shifted
// left by n & 31.
func FunnelShiftL(lo, hi, n U32) U32 { return ternary[uint32](ir.FunnelShiftL, lo, hi, n) }

// FunnelShiftR returns the low word of the 64-bit value hi:lo shifted
// right by n & 31.
func FunnelShiftR(lo, hi, n U32) U32 { return ternary[uint32](ir.FunnelShiftR, lo, hi, n) }

// Float32Bits returns the bits of x, as math.Float32bits does.
func Float32Bits(x F32) U32 { return unary[uint32](ir.FloatBits, x) }

// Float32FromBits returns the float32 whose bits are x, as
// math.Float32frombits does.
func Float32FromBits(x U32) F32 { return unary[float32](ir.FloatFromBits, x) }

// Float64Bits returns the bits of x, as math.Float64bits does.
func Float64Bits(x F64) U64 { return unary[uint64](ir.FloatBits, x) }

// Float64FromBits returns the float64 whose bits are x, as
// math.Float64frombits does.
func Float64FromBits(x U64) F64 { return unary[float64](ir.FloatFromBits, x) }
