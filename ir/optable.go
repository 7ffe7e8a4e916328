package ir

import (
	"math"
	"math/bits"

	"github.com/obsidian-go/obsidian/internal/refmath"
)

// The operators. Each is an index into its table below; the tables, not
// these names, say what the operators mean.
const (
	Neg UnOp = iota + 1 // arithmetic negation (wraps for integers)
	Not                 // bitwise complement for integers, logical not for bool

	PopCount     // number of bits set
	LeadingZeros // number of zero bits above the highest bit set (the width for 0)
	FindFirstSet // position of the lowest bit set, counting from 1; 0 for 0
	BitReverse   // the bits in reverse order
	Abs          // absolute value (wraps for the minimum integer)

	Sqrt      // square root, correctly rounded
	Rsqrt     // 1 / square root
	Cbrt      // cube root
	Exp       // e^x
	Exp2      // 2^x
	Log       // natural logarithm
	Log2      // base 2 logarithm
	Log1p     // log(1 + x)
	Sin       // sine
	Cos       // cosine
	Tan       // tangent
	Tanh      // hyperbolic tangent
	Floor     // largest integer not above x
	Ceil      // smallest integer not below x
	Round     // nearest integer, halfway cases away from zero
	Trunc     // integer part
	RoundEven // nearest integer, halfway cases to even
	IsNaN     // x is a NaN
	IsInf     // x is an infinity
	IsFinite  // x is neither an infinity nor a NaN

	FloatBits     // the bits of a float as the unsigned integer as wide
	FloatFromBits // the float whose bits are the unsigned integer

	numUnOps // the size of the unary table
)

// The binary operators. Arithmetic, bitwise and Min/Max take two operands of
// one type and give that type; shifts take a shift count of the same type
// as the value; comparisons give Bool. And, Or and Xor on Bool are the
// logical operators.
const (
	Add BinOp = iota + 1
	Sub
	Mul
	Div
	Rem
	And
	Or
	Xor
	Shl
	Shr // arithmetic for signed types, logical for unsigned
	Min
	Max
	Eq
	Ne
	Lt
	Le
	Gt
	Ge

	MulHi    // the high half of the product of x and y, as wide as them
	Pow      // x^y
	Copysign // x with the sign of y

	numBinOps // the size of the binary table
)

// The ternary operators.
const (
	FMA          TernOp = iota + 1 // x * y + z, rounded once
	BytePerm                       // the bytes of y:x selected by z, as CUDA's __byte_perm
	FunnelShiftL                   // the high word of (y:x) << (z & 31)
	FunnelShiftR                   // the low word of (y:x) >> (z & 31)

	numTernOps // the size of the ternary table
)

// Sets of types the table uses.
var (
	uint32s  = SetOf(Uint32)
	integers = setWhere(Type.IsInteger)
	numbers  = setWhere(Type.IsNumeric)
	floatSet = setWhere(Type.IsFloat)
	bools    = SetOf(Bool)
	// the types CUDA's intrinsics take: 32 and 64 bits
	wideIntegers = setWhere(func(t Type) bool { return t.IsInteger() && t.Size() >= 4 })
	// every type but the storage floats, which no operator applies to
	allTypes = setWhere(func(t Type) bool { return t.Valid() && !t.IsStorageFloat() })
)

// Spelling helpers.

// infix spells an operator the same in C and Go, for every type.
func infix(op string) func(Type) Spelling {
	return func(Type) Spelling { return Spelling{Infix: op, Go: op} }
}

// boolOrInteger spells an operation on bools as boolean and on integers as
// integer.
func boolOrInteger(boolean, integer Spelling) func(Type) Spelling {
	return func(t Type) Spelling {
		if t == Bool {
			return boolean
		}
		return integer
	}
}

// integerOrFloat spells integer types as integer and float types as the C
// function floatName (with an "f" suffix for float32).
func integerOrFloat(integer Spelling, floatName string) func(Type) Spelling {
	return func(t Type) Spelling {
		if t.IsFloat() {
			return floatCall(floatName)(t)
		}
		return integer
	}
}

// floatCall spells a float operation as a C function with an "f" suffix
// for float32 (sqrtf, sqrt).
func floatCall(name string) func(Type) Spelling {
	return func(t Type) Spelling {
		if t == Float32 {
			return Spelling{Call: name + "f"}
		}
		return Spelling{Call: name}
	}
}

// unaryTable is the table of unary operations, indexed by UnOp.
var unaryTable = [numUnOps]Operation{
	Neg: {Name: "Neg", Doc: "-x, wrapping for integers", Arity: 1, Types: numbers, Result: SameType, Wraps: true,
		cuda: infix("-"),
		sem: withInt(signFlip(func(sign, x uint64) uint64 { return x ^ sign }),
			func(_ Type, x, _, _ uint64) uint64 { return -x })},
	Not: {Name: "Not", Doc: "^x for integers, !x for bool", Arity: 1, Types: integers | bools, Result: SameType,
		cuda: boolOrInteger(Spelling{Infix: "!", Go: "!"}, Spelling{Infix: "~", Go: "^"}),
		sem: semantics{
			boolean: func(x, _, _ uint64) (uint64, Fault) { return x ^ 1, NoFault },
			integer: intOp(func(_ Type, x, _, _ uint64) uint64 { return ^x }),
		}},

	PopCount: {Name: "PopCount", Doc: "the number of bits set (__popc, __popcll)", Arity: 1, Types: wideIntegers,
		Result: SameType, cuda: intCall("__popc", "__popcll", Int32),
		sem: semantics{integer: intOp(func(_ Type, x, _, _ uint64) uint64 { return uint64(bits.OnesCount64(x)) })}},
	LeadingZeros: {Name: "LeadingZeros", Doc: "the number of zero bits above the highest bit set (__clz, __clzll)",
		Arity: 1, Types: wideIntegers, Result: SameType, cuda: intCall("__clz", "__clzll", Int32),
		sem: semantics{integer: intOp(func(t Type, x, _, _ uint64) uint64 {
			return uint64(bits.LeadingZeros64(x) - (64 - t.Bits()))
		})}},
	FindFirstSet: {Name: "FindFirstSet", Doc: "the position of the lowest bit set counting from 1, 0 for 0 (__ffs, __ffsll)",
		Arity: 1, Types: wideIntegers, Result: SameType, cuda: intCall("__ffs", "__ffsll", Int32),
		sem: semantics{integer: intOp(func(_ Type, x, _, _ uint64) uint64 {
			if x == 0 {
				return 0
			}
			return uint64(bits.TrailingZeros64(x) + 1)
		})}},
	BitReverse: {Name: "BitReverse", Doc: "the bits in reverse order (__brev, __brevll)", Arity: 1, Types: wideIntegers,
		Result: SameType,
		cuda: func(t Type) Spelling {
			if t.Bits() == 64 {
				return withReturn(Spelling{Call: "__brevll"}, Uint64, t)
			}
			return withReturn(Spelling{Call: "__brev"}, Uint32, t)
		},
		sem: semantics{integer: intOp(func(t Type, x, _, _ uint64) uint64 { return bits.Reverse64(x) >> (64 - t.Bits()) })}},
	Abs: {Name: "Abs", Doc: "the absolute value; the minimum integer stays itself (fabsf, fabs)", Arity: 1,
		Types: setWhere(Type.IsSigned)&wideIntegers | floatSet, Result: SameType,
		cuda: func(t Type) Spelling {
			if t.IsFloat() {
				return floatCall("fabs")(t)
			}
			c, u := t.C(), UnsignedOf(t).C()
			return Spelling{Call: "__obs_abs", Helper: "static __device__ __forceinline__ " + c + " __obs_abs(" + c +
				" x) { return x < 0 ? (" + c + ")(0u - (" + u + ")x) : x; }"}
		},
		sem: withInt(signFlip(func(sign, x uint64) uint64 { return x &^ sign }), func(t Type, x, _, _ uint64) uint64 {
			if signExtend(t, x) < 0 {
				return -x
			}
			return x
		})},

	Sqrt: {Name: "Sqrt", Doc: "the square root, correctly rounded (sqrtf, sqrt)", Arity: 1, Types: floatSet,
		Result: SameType, cuda: floatCall("sqrt"), sem: viaFloat64(math.Sqrt)},
	Rsqrt: {Name: "Rsqrt", Doc: "1 / the square root (rsqrtf, rsqrt)", Arity: 1, Types: floatSet, Result: SameType,
		ULP32: 2, ULP64: 1, cuda: floatCall("rsqrt"), sem: viaFloat64(func(x float64) float64 { return 1 / math.Sqrt(x) })},
	Cbrt: transcendental("Cbrt", "the cube root", "cbrt", 1, 1, math.Cbrt),
	Exp:  transcendental("Exp", "e to the power x", "exp", 2, 1, refmath.Exp),
	Exp2: transcendental("Exp2", "2 to the power x", "exp2", 2, 1, refmath.Exp2),
	Log:  transcendental("Log", "the natural logarithm", "log", 1, 1, refmath.Log),
	Log2: transcendental("Log2", "the base 2 logarithm", "log2", 1, 1, refmath.Log2),
	Log1p: transcendental("Log1p", "the natural logarithm of 1 + x, accurate near 0", "log1p", 1, 1,
		math.Log1p),
	Sin:  transcendental("Sin", "the sine", "sin", 2, 2, refmath.Sin),
	Cos:  transcendental("Cos", "the cosine", "cos", 2, 2, refmath.Cos),
	Tan:  transcendental("Tan", "the tangent", "tan", 4, 2, refmath.Tan),
	Tanh: transcendental("Tanh", "the hyperbolic tangent", "tanh", 2, 1, math.Tanh),
	Floor: {Name: "Floor", Doc: "the largest integer not above x (floorf, floor)", Arity: 1, Types: floatSet,
		Result: SameType, cuda: floatCall("floor"), sem: viaFloat64(math.Floor)},
	Ceil: {Name: "Ceil", Doc: "the smallest integer not below x (ceilf, ceil)", Arity: 1, Types: floatSet,
		Result: SameType, cuda: floatCall("ceil"), sem: viaFloat64(math.Ceil)},
	Round: {Name: "Round", Doc: "the nearest integer, halfway cases away from zero (roundf, round)", Arity: 1,
		Types: floatSet, Result: SameType, cuda: floatCall("round"), sem: viaFloat64(math.Round)},
	Trunc: {Name: "Trunc", Doc: "the integer part (truncf, trunc)", Arity: 1, Types: floatSet, Result: SameType,
		cuda: floatCall("trunc"), sem: viaFloat64(math.Trunc)},
	RoundEven: {Name: "RoundEven", Doc: "the nearest integer, halfway cases to even (rintf, rint)", Arity: 1,
		Types: floatSet, Result: SameType, cuda: floatCall("rint"), sem: viaFloat64(math.RoundToEven)},
	IsNaN: {Name: "IsNaN", Doc: "whether x is a NaN", Arity: 1, Types: floatSet, Result: BoolResult,
		cuda: floatTestHelper("__obs_isnan", "x != x"), sem: floatTest(math.IsNaN)},
	IsInf: {Name: "IsInf", Doc: "whether x is an infinity", Arity: 1, Types: floatSet, Result: BoolResult,
		cuda: floatTestHelper("__obs_isinf", "x - x != x - x && x == x"),
		sem:  floatTest(func(x float64) bool { return math.IsInf(x, 0) })},
	IsFinite: {Name: "IsFinite", Doc: "whether x is neither an infinity nor a NaN", Arity: 1,
		Types: floatSet, Result: BoolResult, cuda: floatTestHelper("__obs_isfinite", "x - x == x - x"),
		sem: floatTest(func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) })},

	FloatBits: {Name: "FloatBits", Doc: "the bits of x (__float_as_uint, __double_as_longlong)", Arity: 1,
		Types: floatSet, Result: BitsResult,
		cuda: func(t Type) Spelling {
			if t == Float32 {
				return Spelling{Call: "__float_as_uint"}
			}
			return Spelling{Call: "__double_as_longlong", Returns: Int64}
		},
		sem: semantics{float32: identity, float64: identity}},
	FloatFromBits: {Name: "FloatFromBits", Doc: "the float whose bits are x (__uint_as_float, __longlong_as_double)",
		Arity: 1, Types: SetOf(Uint32, Uint64), Result: FloatResult,
		cuda: func(t Type) Spelling {
			if t == Uint32 {
				return Spelling{Call: "__uint_as_float"}
			}
			return Spelling{Call: "__longlong_as_double"}
		},
		sem: semantics{integer: func(Type) Func { return identity }}},
}

// binaryTable is the table of binary operations, indexed by BinOp.
var binaryTable = [numBinOps]Operation{
	Add: {Name: "Add", Doc: "x + y, wrapping for integers", Arity: 2, Types: numbers, Result: SameType, Wraps: true,
		cuda: infix("+"),
		sem: withInt(floats(func(a, b, _ float32) float32 { return a + b }, func(a, b, _ float64) float64 { return a + b }),
			func(_ Type, x, y, _ uint64) uint64 { return x + y })},
	Sub: {Name: "Sub", Doc: "x - y, wrapping for integers", Arity: 2, Types: numbers, Result: SameType, Wraps: true,
		cuda: infix("-"),
		sem: withInt(floats(func(a, b, _ float32) float32 { return a - b }, func(a, b, _ float64) float64 { return a - b }),
			func(_ Type, x, y, _ uint64) uint64 { return x - y })},
	Mul: {Name: "Mul", Doc: "x * y, wrapping for integers", Arity: 2, Types: numbers, Result: SameType, Wraps: true,
		cuda: infix("*"),
		sem: withInt(floats(func(a, b, _ float32) float32 { return a * b }, func(a, b, _ float64) float64 { return a * b }),
			func(_ Type, x, y, _ uint64) uint64 { return x * y })},
	Div: {Name: "Div", Doc: "x / y, truncated toward zero for integers", Arity: 2, Types: numbers, Result: SameType,
		Faults: DivisorFault, cuda: infix("/"), sem: division(false)},
	Rem: {Name: "Rem", Doc: "the remainder of x / y, with the sign of x (fmod for floats)", Arity: 2, Types: numbers,
		Result: SameType, Faults: DivisorFault,
		cuda: integerOrFloat(Spelling{Infix: "%", Go: "%"}, "fmod"), sem: division(true)},
	And: {Name: "And", Doc: "x & y; x && y for bool", Arity: 2, Types: integers | bools, Result: SameType,
		cuda: boolOrInteger(Spelling{Infix: "&&", Go: "&&", Lazy: true}, Spelling{Infix: "&", Go: "&"}),
		sem:  bitwise(func(x, y uint64) uint64 { return x & y })},
	Or: {Name: "Or", Doc: "x | y; x || y for bool", Arity: 2, Types: integers | bools, Result: SameType,
		cuda: boolOrInteger(Spelling{Infix: "||", Go: "||", Lazy: true}, Spelling{Infix: "|", Go: "|"}),
		sem:  bitwise(func(x, y uint64) uint64 { return x | y })},
	Xor: {Name: "Xor", Doc: "x ^ y; x != y for bool", Arity: 2, Types: integers | bools, Result: SameType,
		cuda: boolOrInteger(Spelling{Infix: "!=", Go: "!="}, Spelling{Infix: "^", Go: "^"}),
		sem:  bitwise(func(x, y uint64) uint64 { return x ^ y })},
	Shl: {Name: "Shl", Doc: "x << y; a count outside [0, width) is an error", Arity: 2, Types: integers,
		Operands: "value and shift count", Result: SameType, Faults: CountFault, Wraps: true, cuda: infix("<<"), sem: shift(true)},
	Shr: {Name: "Shr", Doc: "x >> y, arithmetic for signed types; a count outside [0, width) is an error", Arity: 2,
		Types: integers, Operands: "value and shift count", Result: SameType, Faults: CountFault, cuda: infix(">>"),
		sem: shift(false)},
	Min: {Name: "Min", Doc: "the smaller of x and y (fmin for floats: a NaN is ignored, -0 < +0)", Arity: 2,
		Types: numbers, Result: SameType,
		cuda: integerOrFloat(Spelling{Call: "min", Go: "min"}, "fmin"), sem: minMax(true)},
	Max: {Name: "Max", Doc: "the larger of x and y (fmax for floats: a NaN is ignored, -0 < +0)", Arity: 2,
		Types: numbers, Result: SameType,
		cuda: integerOrFloat(Spelling{Call: "max", Go: "max"}, "fmax"), sem: minMax(false)},
	Eq: {Name: "Eq", Doc: "x == y", Arity: 2, Types: allTypes, Result: BoolResult, cuda: infix("=="),
		sem: comparison(func(c int) bool { return c == 0 }, true)},
	Ne: {Name: "Ne", Doc: "x != y", Arity: 2, Types: allTypes, Result: BoolResult, cuda: infix("!="),
		sem: comparison(func(c int) bool { return c != 0 }, true)},
	Lt: {Name: "Lt", Doc: "x < y", Arity: 2, Types: numbers, Result: BoolResult, cuda: infix("<"),
		sem: comparison(func(c int) bool { return c < 0 }, false)},
	Le: {Name: "Le", Doc: "x <= y", Arity: 2, Types: numbers, Result: BoolResult, cuda: infix("<="),
		sem: comparison(func(c int) bool { return c <= 0 }, false)},
	Gt: {Name: "Gt", Doc: "x > y", Arity: 2, Types: numbers, Result: BoolResult, cuda: infix(">"),
		sem: comparison(func(c int) bool { return c > 0 }, false)},
	Ge: {Name: "Ge", Doc: "x >= y", Arity: 2, Types: numbers, Result: BoolResult, cuda: infix(">="),
		sem: comparison(func(c int) bool { return c >= 0 }, false)},

	MulHi: {Name: "MulHi", Doc: "the high half of the full product x * y (__mulhi, __umulhi, __mul64hi, __umul64hi)",
		Arity: 2, Types: wideIntegers, Result: SameType,
		cuda: func(t Type) Spelling {
			return Spelling{Call: map[Type]string{Int32: "__mulhi", Uint32: "__umulhi", Int64: "__mul64hi",
				Uint64: "__umul64hi"}[t]}
		},
		sem: semantics{integer: intOp(mulHi)}},
	Pow: {Name: "Pow", Doc: "x to the power y (powf, pow)", Arity: 2, Types: floatSet, Result: SameType,
		ULP32: 4, ULP64: 2, cuda: floatCall("pow"), sem: viaFloat64Binary(refmath.Pow)},
	Copysign: {Name: "Copysign", Doc: "x with the sign of y (copysignf, copysign)", Arity: 2, Types: floatSet,
		Result: SameType, cuda: floatCall("copysign"), sem: viaFloat64Binary(math.Copysign)},
}

// ternaryTable is the table of ternary operations, indexed by TernOp.
var ternaryTable = [numTernOps]Operation{
	FMA: {Name: "FMA", Doc: "x * y + z with one rounding (fmaf, fma)", Arity: 3, Types: floatSet, Result: SameType,
		cuda: floatCall("fma"), sem: semantics{float32: fma32, float64: fma64}},
	BytePerm: {Name: "BytePerm", Doc: "byte n of the result is byte (z >> 4n) & 7 of y:x (__byte_perm)", Arity: 3,
		Types: uint32s, Operands: "x, y and selector", Result: SameType,
		cuda: func(Type) Spelling { return Spelling{Call: "__byte_perm", SelectorMask: 0x7777} },
		sem: semantics{integer: intOp(func(_ Type, x, y, z uint64) uint64 {
			source, r := y<<32|x, uint64(0)
			for n := range 4 {
				r |= (source >> (8 * (z >> (4 * n) & 7)) & 0xff) << (8 * n)
			}
			return r
		})}},
	FunnelShiftL: {Name: "FunnelShiftL", Doc: "the high word of the 64-bit y:x shifted left by z & 31 (__funnelshift_l)",
		Arity: 3, Types: uint32s, Operands: "low word, high word and count", Result: SameType,
		cuda: func(Type) Spelling { return Spelling{Call: "__funnelshift_l"} },
		sem:  semantics{integer: intOp(func(_ Type, x, y, z uint64) uint64 { return (y<<32 | x) << (z & 31) >> 32 })}},
	FunnelShiftR: {Name: "FunnelShiftR", Doc: "the low word of the 64-bit y:x shifted right by z & 31 (__funnelshift_r)",
		Arity: 3, Types: uint32s, Operands: "low word, high word and count", Result: SameType,
		cuda: func(Type) Spelling { return Spelling{Call: "__funnelshift_r"} },
		sem:  semantics{integer: intOp(func(_ Type, x, y, z uint64) uint64 { return (y<<32 | x) >> (z & 31) })}},
}

// withInt adds a wrapping integer operation to s.
func withInt(s semantics, f func(t Type, x, y, z uint64) uint64) semantics {
	s.integer = intOp(f)
	return s
}

// bitwise is a bitwise operation on integers and bools.
func bitwise(f func(x, y uint64) uint64) semantics {
	return semantics{
		boolean: func(x, y, _ uint64) (uint64, Fault) { return f(x, y) & 1, NoFault },
		integer: intOp(func(_ Type, x, y, _ uint64) uint64 { return f(x, y) }),
	}
}

// intCall spells an integer operation as a CUDA function for 32-bit types
// (name32) and one for 64-bit types (name64), both returning returns.
func intCall(name32, name64 string, returns Type) func(Type) Spelling {
	return func(t Type) Spelling {
		if t.Bits() == 64 {
			return withReturn(Spelling{Call: name64}, returns, t)
		}
		return withReturn(Spelling{Call: name32}, returns, t)
	}
}

// withReturn sets the spelling's Returns to the type the C function
// returns when it is not t, the operation's result.
func withReturn(sp Spelling, returns, t Type) Spelling {
	if returns != t {
		sp.Returns = returns
	}
	return sp
}

// transcendental is a float function CUDA computes within ulp32 and ulp64
// units in the last place, named name (with an "f" suffix for float32),
// and f its meaning in float64: a function within one ulp of the correctly
// rounded result (internal/refmath's, or Go's math package's where it is
// that accurate), so that the float32 form, rounding f's result, is too.
func transcendental(name, doc, cName string, ulp32, ulp64 int, f func(float64) float64) Operation {
	return Operation{Name: name, Doc: doc + " (" + cName + "f, " + cName + ")", Arity: 1, Types: floatSet,
		Result: SameType, ULP32: ulp32, ULP64: ulp64, cuda: floatCall(cName), sem: viaFloat64(f)}
}

// floatTestHelper spells a predicate on floats as a helper function name,
// overloaded for float and double, returning test (a C expression of x
// that needs no header: x - x is 0 for finite x and NaN otherwise).
func floatTestHelper(name, test string) func(Type) Spelling {
	return func(t Type) Spelling {
		c := map[Type]string{Float32: "float", Float64: "double"}[t]
		return Spelling{Call: name, Helper: "static __device__ __forceinline__ bool " + name + "(" + c + " x) { return " +
			test + "; }"}
	}
}

// identity is an operation that keeps the bits (a reinterpretation).
func identity(x, _, _ uint64) (uint64, Fault) { return x, NoFault }

// mulHi returns the high half of the full product of x and y of integer
// type t.
func mulHi(t Type, x, y, _ uint64) uint64 {
	if t.Bits() <= 32 {
		if t.IsSigned() {
			return uint64(signExtend(t, x) * signExtend(t, y) >> t.Bits())
		}
		return x * y >> t.Bits()
	}
	hi, _ := bits.Mul64(x, y)
	if t.IsSigned() {
		// the unsigned product less y·2^64 when x < 0 and x·2^64 when y < 0
		if int64(x) < 0 {
			hi -= y
		}
		if int64(y) < 0 {
			hi -= x
		}
	}
	return hi
}

// fma32 is fmaf: x * y + z rounded once to float32. The product is exact in
// float64; the sum is rounded to odd in float64, which then rounds to the
// correctly rounded float32 (float64 has more than 24 + 1 bits).
func fma32(x, y, z uint64) (uint64, Fault) {
	a, b, c := float64(f32(x)), float64(f32(y)), float64(f32(z))
	p := float64(a * b) // exact; the conversion keeps Go from fusing it into the sum
	s := p + c
	if math.IsInf(s, 0) || math.IsNaN(s) || math.IsInf(p, 0) || math.IsInf(c, 0) {
		return f32bits(float32(s)), NoFault
	}
	// the rounding error of s, exactly (Knuth's TwoSum)
	bb := s - p
	err := (p - (s - bb)) + (c - bb)
	if err != 0 && math.Float64bits(s)&1 == 0 {
		if err > 0 {
			s = math.Nextafter(s, math.Inf(1))
		} else {
			s = math.Nextafter(s, math.Inf(-1))
		}
	}
	return f32bits(float32(s)), NoFault
}

// fma64 is fma: x * y + z rounded once.
func fma64(x, y, z uint64) (uint64, Fault) {
	return math.Float64bits(math.FMA(f64(x), f64(y), f64(z))), NoFault
}
