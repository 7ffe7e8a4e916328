package ir

// The operators. Each is an index into its table below; the tables, not
// these names, say what the operators mean.
const (
	Neg UnOp = iota + 1 // arithmetic negation (wraps for integers)
	Not                 // bitwise complement for integers, logical not for bool
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
)

// Sets of types the table uses.
var (
	integers = setWhere(Type.IsInteger)
	numbers  = setWhere(Type.IsNumeric)
	floatSet = setWhere(Type.IsFloat)
	bools    = SetOf(Bool)
	allTypes = setWhere(Type.Valid)
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
var unaryTable = [...]Operation{
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
}

// binaryTable is the table of binary operations, indexed by BinOp.
var binaryTable = [...]Operation{
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
}

// ternaryTable is the table of ternary operations, indexed by TernOp.
var ternaryTable = [...]Operation{}

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
