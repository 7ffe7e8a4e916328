package ir

import "math"

// semantics is an operation's meaning, per kind of operand type. A nil
// field means the operation has no meaning for that kind.
type semantics struct {
	boolean Func
	integer func(t Type) Func // built per integer type: the result is masked to its width
	float32 Func
	float64 Func
}

func (s semantics) of(t Type) (Func, bool) {
	switch {
	case t == Bool && s.boolean != nil:
		return s.boolean, true
	case t.IsInteger() && s.integer != nil:
		return s.integer(t), true
	case t == Float32 && s.float32 != nil:
		return s.float32, true
	case t == Float64 && s.float64 != nil:
		return s.float64, true
	}
	return nil, false
}

// types returns the set of types the semantics define.
func (s semantics) types() TypeSet {
	return setWhere(func(t Type) bool { _, ok := s.of(t); return ok })
}

// signExtend interprets the bits x of integer type t as a signed value
// (signed types) or a zero-extended one (unsigned types).
func signExtend(t Type, x uint64) int64 {
	if !t.IsSigned() || t.Bits() >= 64 {
		return int64(x)
	}
	shift := 64 - t.Bits()
	return int64(x<<shift) >> shift
}

func boolBits(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// intOp is an integer operation on bits that cannot fault; its result is
// masked to the type's width.
func intOp(f func(t Type, x, y, z uint64) uint64) func(Type) Func {
	return func(t Type) Func {
		m := widthMask(t)
		return func(x, y, z uint64) (uint64, Fault) { return f(t, x, y, z) & m, NoFault }
	}
}

// intSigned is an integer operation on values: sign-extended for signed
// types, zero-extended for unsigned ones.
func intSigned(f func(t Type, a, b, c int64) int64) func(Type) Func {
	return intOp(func(t Type, x, y, z uint64) uint64 {
		return uint64(f(t, signExtend(t, x), signExtend(t, y), signExtend(t, z)))
	})
}

// signFlip is an operation on the sign bit of a float (negation, absolute
// value): f gets the mask of the sign bit and the operand's bits.
func signFlip(f func(sign, x uint64) uint64) semantics {
	return semantics{
		float32: func(x, _, _ uint64) (uint64, Fault) { return f(1<<31, x), NoFault },
		float64: func(x, _, _ uint64) (uint64, Fault) { return f(1<<63, x), NoFault },
	}
}

// ordering compares a and b: -1, 0 or 1, and false when unordered (a NaN).
func ordering[N int64 | uint64 | float32 | float64](a, b N) (int, bool) {
	switch {
	case a < b:
		return -1, true
	case a > b:
		return 1, true
	case a == b:
		return 0, true
	}
	return 0, false
}

// comparison is the semantics of a comparison that holds for the orderings
// holds accepts; unordered operands satisfy only Ne.
func comparison(holds func(c int) bool, withBool bool) semantics {
	ne := holds(-1) && holds(1) && !holds(0)
	result := func(c int, ok bool) uint64 {
		if !ok {
			return boolBits(ne)
		}
		return boolBits(holds(c))
	}
	s := semantics{
		integer: func(t Type) Func {
			if t.IsSigned() {
				return func(x, y, _ uint64) (uint64, Fault) {
					return result(ordering(signExtend(t, x), signExtend(t, y))), NoFault
				}
			}
			return func(x, y, _ uint64) (uint64, Fault) { return result(ordering(x, y)), NoFault }
		},
		float32: func(x, y, _ uint64) (uint64, Fault) { return result(ordering(f32(x), f32(y))), NoFault },
		float64: func(x, y, _ uint64) (uint64, Fault) { return result(ordering(f64(x), f64(y))), NoFault },
	}
	if withBool {
		s.boolean = func(x, y, _ uint64) (uint64, Fault) { return result(ordering(x, y)), NoFault }
	}
	return s
}

func f32(x uint64) float32     { return math.Float32frombits(uint32(x)) }
func f64(x uint64) float64     { return math.Float64frombits(x) }
func f32bits(f float32) uint64 { return uint64(math.Float32bits(f)) }

// floats is an operation computed with Go's arithmetic in each precision:
// float32 operations round to float32 at every step.
func floats(single func(a, b, c float32) float32, double func(a, b, c float64) float64) semantics {
	return semantics{
		float32: func(x, y, z uint64) (uint64, Fault) { return f32bits(single(f32(x), f32(y), f32(z))), NoFault },
		float64: func(x, y, z uint64) (uint64, Fault) {
			return math.Float64bits(double(f64(x), f64(y), f64(z))), NoFault
		},
	}
}

// viaFloat64 is a unary function computed in float64; the float32 form
// rounds the float64 result once.
func viaFloat64(f func(float64) float64) semantics {
	return floats(func(a, _, _ float32) float32 { return float32(f(float64(a))) },
		func(a, _, _ float64) float64 { return f(a) })
}

// viaFloat64Binary is viaFloat64 for a binary function.
func viaFloat64Binary(f func(a, b float64) float64) semantics {
	return floats(func(a, b, _ float32) float32 { return float32(f(float64(a), float64(b))) },
		func(a, b, _ float64) float64 { return f(a, b) })
}

// floatTest is a predicate on a float value.
func floatTest(p func(float64) bool) semantics {
	return semantics{
		float32: func(x, _, _ uint64) (uint64, Fault) { return boolBits(p(float64(f32(x)))), NoFault },
		float64: func(x, _, _ uint64) (uint64, Fault) { return boolBits(p(f64(x))), NoFault },
	}
}

// fmin is C's fmin: a NaN operand is ignored, and -0 is below +0.
func fmin(a, b float64) float64 {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a == 0 && b == 0:
		if math.Signbit(a) {
			return a
		}
		return b
	case a < b:
		return a
	}
	return b
}

// fmax is C's fmax: a NaN operand is ignored, and +0 is above -0.
func fmax(a, b float64) float64 {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a == 0 && b == 0:
		if math.Signbit(a) {
			return b
		}
		return a
	case a > b:
		return a
	}
	return b
}

// minMax is the semantics of Min (isMin) or Max: integers by value, floats
// as C's fmin and fmax (exact in either precision).
func minMax(isMin bool) semantics {
	pick := fmax
	if isMin {
		pick = fmin
	}
	s := viaFloat64Binary(pick)
	s.integer = intSigned(func(_ Type, a, b, _ int64) int64 {
		if (a < b) == isMin {
			return a
		}
		return b
	})
	// Unsigned values above the signed range order as unsigned.
	signed := s.integer
	s.integer = func(t Type) Func {
		if t.IsSigned() {
			return signed(t)
		}
		return func(x, y, _ uint64) (uint64, Fault) {
			if (x < y) == isMin {
				return x, NoFault
			}
			return y, NoFault
		}
	}
	return s
}

// division is Div (rem false) or Rem: integers truncate toward zero and
// fault on a zero divisor or the minimum value divided by -1; floats divide
// (Div) or take C's fmod (Rem), both exact or correctly rounded.
func division(rem bool) semantics {
	s := floats(func(a, b, _ float32) float32 { return a / b }, func(a, b, _ float64) float64 { return a / b })
	if rem {
		s = viaFloat64Binary(math.Mod) // fmod is exact, so one rounding changes nothing
	}
	s.integer = func(t Type) Func {
		m := widthMask(t)
		if t.IsSigned() {
			minimum := int64(-1) << (t.Bits() - 1)
			return func(x, y, _ uint64) (uint64, Fault) {
				a, b := signExtend(t, x), signExtend(t, y)
				switch {
				case b == 0:
					return 0, DivideByZero
				case b == -1 && a == minimum:
					return 0, DivideOverflow
				case rem:
					return uint64(a%b) & m, NoFault
				}
				return uint64(a/b) & m, NoFault
			}
		}
		return func(x, y, _ uint64) (uint64, Fault) {
			switch {
			case y == 0:
				return 0, DivideByZero
			case rem:
				return x % y, NoFault
			}
			return x / y, NoFault
		}
	}
	return s
}

// shift is Shl (left) or Shr: a count outside [0, width) faults; Shr is
// arithmetic for signed types.
func shift(left bool) semantics {
	return semantics{integer: func(t Type) Func {
		m, width := widthMask(t), uint64(t.Bits())
		return func(x, y, _ uint64) (uint64, Fault) {
			if (t.IsSigned() && signExtend(t, y) < 0) || y >= width {
				return 0, ShiftOutOfRange
			}
			switch {
			case left:
				return (x << y) & m, NoFault
			case t.IsSigned():
				return uint64(signExtend(t, x)>>y) & m, NoFault
			}
			return x >> y, NoFault
		}
	}}
}
