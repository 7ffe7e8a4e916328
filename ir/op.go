package ir

import (
	"fmt"
	"strings"
)

// The operator table. Every scalar operation of the IR (the Op of a Unary,
// Binary or Ternary node) is one Operation in the tables of optable.go,
// which every stage reads: the type rules (Verify, the dsl), the Go
// semantics (the evaluator, constant folding, generated host code, the test
// oracle), the CUDA spelling (the printer) and the GPU's documented accuracy
// (the GPU tests). Adding an operation is adding one entry there; nothing
// switches over operators elsewhere.

// UnOp is a unary operation: an index into the unary table.
type UnOp uint8

// BinOp is a binary operation: an index into the binary table.
type BinOp uint8

// TernOp is a ternary operation: an index into the ternary table.
type TernOp uint8

// Operation describes one scalar operation.
type Operation struct {
	// Name is the operation's name, as the dsl spells its method or
	// function.
	Name string
	// Doc says in a few words what the operation computes.
	Doc string
	// Arity is the number of operands: 1, 2 or 3.
	Arity int
	// Types is the set of types the operands may have. Every operand has
	// the same type.
	Types TypeSet
	// Operands names the operands in messages ("value and shift count");
	// empty for "operands".
	Operands string
	// Result gives the result type from the operand type.
	Result ResultRule
	// Faults says which operand values make the operation fail at run time
	// (integer types only).
	Faults FaultRule
	// Wraps marks an integer operation whose signed overflow C leaves
	// undefined and the IR defines as wrapping (the printer computes it in
	// the unsigned type of the same width).
	Wraps bool
	// ULP32 and ULP64 are the largest error, in units in the last place,
	// that CUDA documents for the float32 and float64 forms (CUDA C
	// Programming Guide, "Mathematical Functions"); 0 means correctly
	// rounded, so the GPU and the evaluator agree bit for bit. Constant
	// folding folds only correctly rounded operations.
	ULP32, ULP64 int
	// cuda gives the spelling for an operand type in Types.
	cuda func(t Type) Spelling
	// sem is the operation's meaning.
	sem semantics
}

// Spelling is how an operation is written for one operand type: in CUDA C
// and, where Go has an operator with the same meaning, in Go.
type Spelling struct {
	// Infix is the C operator of a binary operation, or the prefix
	// operator of a unary one; empty when the operation is a call.
	Infix string
	// Call is the C function to call when Infix is empty.
	Call string
	// Returns is the C type the function returns when it is not the
	// operation's result type (the printer converts); NoType otherwise.
	Returns Type
	// Helper is the C definition of Call when CUDA does not provide it; the
	// printer writes each helper a file uses once, before the kernel.
	Helper string
	// SelectorMask, for a call, is an unsigned mask the printer ands the
	// last operand with (CUDA documents only those bits); 0 for none.
	SelectorMask uint64
	// Go is the Go operator with the same meaning (wrapping, C's rules),
	// when the operation cannot fault; empty otherwise.
	Go string
	// Lazy marks C's && and ||: the second operand is evaluated only when
	// the first does not decide the result.
	Lazy bool
}

// FaultRule says when an integer operation fails.
type FaultRule uint8

// The fault rules.
const (
	NeverFaults  FaultRule = iota
	DivisorFault           // the second operand is 0, or -1 with the minimum value first
	CountFault             // the second operand is negative or not below the bit width
)

// Fault is a failure of an operation on particular values.
type Fault uint8

// The faults.
const (
	NoFault Fault = iota
	DivideByZero
	DivideOverflow
	ShiftOutOfRange
)

// String describes the fault.
func (f Fault) String() string {
	switch f {
	case NoFault:
		return "no fault"
	case DivideByZero:
		return "integer division or remainder by zero"
	case DivideOverflow:
		return "integer division overflow (minimum value divided by -1)"
	case ShiftOutOfRange:
		return "shift count negative or not below the bit width"
	}
	return fmt.Sprintf("Fault(%d)", uint8(f))
}

// ResultRule gives an operation's result type from its operand type.
type ResultRule uint8

// The result rules.
const (
	SameType    ResultRule = iota + 1 // the operand type
	BoolResult                        // bool
	BitsResult                        // the unsigned integer type as wide as a float operand
	FloatResult                       // the float type as wide as an unsigned operand
)

// Of returns the result type for operand type t, or NoType.
func (r ResultRule) Of(t Type) Type {
	switch r {
	case SameType:
		return t
	case BoolResult:
		return Bool
	case BitsResult:
		return UnsignedOf(t)
	case FloatResult:
		return FloatOf(t)
	}
	return NoType
}

// UnsignedOf returns the unsigned integer type as wide as t, or NoType.
func UnsignedOf(t Type) Type {
	for _, u := range Types {
		if u.IsUnsigned() && u.Size() == t.Size() {
			return u
		}
	}
	return NoType
}

// FloatOf returns the float type as wide as t, or NoType.
func FloatOf(t Type) Type {
	for _, u := range Types {
		if u.IsFloat() && u.Size() == t.Size() {
			return u
		}
	}
	return NoType
}

// TypeSet is a set of scalar types.
type TypeSet uint32

// SetOf returns the set of the types ts.
func SetOf(ts ...Type) TypeSet {
	var s TypeSet
	for _, t := range ts {
		s |= 1 << t
	}
	return s
}

// setWhere returns the set of the valid types for which p holds.
func setWhere(p func(Type) bool) TypeSet {
	var s TypeSet
	for _, t := range Types {
		if p(t) {
			s |= SetOf(t)
		}
	}
	return s
}

// Has reports whether t is in s.
func (s TypeSet) Has(t Type) bool { return t < 32 && s&(1<<t) != 0 }

// Types returns the types of s in the order of Types.
func (s TypeSet) Types() []Type {
	var ts []Type
	for _, t := range Types {
		if s.Has(t) {
			ts = append(ts, t)
		}
	}
	return ts
}

// String lists the types, "int32, uint32".
func (s TypeSet) String() string {
	var names []string
	for _, t := range s.Types() {
		names = append(names, t.String())
	}
	return strings.Join(names, ", ")
}

// Check returns the result type of the operation on operands of the types
// ts, or an error saying why it does not apply.
func (o *Operation) Check(ts ...Type) (Type, error) {
	if len(ts) != o.Arity {
		return NoType, fmt.Errorf("%s takes %d operands, not %d", o.Name, o.Arity, len(ts))
	}
	for _, t := range ts[1:] {
		if t != ts[0] {
			operands := o.Operands
			if operands == "" {
				operands = "operands"
			}
			return NoType, fmt.Errorf("%s: %s have different types, %v and %v", o.Name, operands, ts[0], t)
		}
	}
	if !o.Types.Has(ts[0]) {
		return NoType, fmt.Errorf("%s on %v values; it takes %v", o.Name, ts[0], o.Types)
	}
	return o.Result.Of(ts[0]), nil
}

// CUDA returns the operation's spelling for operand type t, and false when
// the operation does not apply to t.
func (o *Operation) CUDA(t Type) (Spelling, bool) {
	if !o.Types.Has(t) {
		return Spelling{}, false
	}
	return o.cuda(t), true
}

// ULP returns the documented largest error of the GPU's result for operand
// type t in units in the last place: 0 for exact and correctly rounded
// operations.
func (o *Operation) ULP(t Type) int {
	switch {
	case t == Float32 && o.Result.Of(t).IsFloat():
		return o.ULP32
	case t == Float64 && o.Result.Of(t).IsFloat():
		return o.ULP64
	}
	return 0
}

// Exact reports whether the GPU computes the operation on type t exactly as
// the Go semantics (Func) do.
func (o *Operation) Exact(t Type) bool { return o.ULP(t) == 0 }

// FaultsFor returns the operation's fault rule on operand type t.
func (o *Operation) FaultsFor(t Type) FaultRule {
	if t.IsInteger() {
		return o.Faults
	}
	return NeverFaults
}

// AlwaysFaults reports whether the operation on type t fails whatever its
// first operand when its second operand is the constant y: a division by
// zero, a shift count out of range.
func (o *Operation) AlwaysFaults(t Type, y Value) bool {
	switch o.FaultsFor(t) {
	case DivisorFault:
		return y.IsZero()
	case CountFault:
		return !countInRange(y)
	}
	return false
}

// SafeWith reports whether the operation on type t cannot fail when its
// second operand is the constant y.
func (o *Operation) SafeWith(t Type, y Value) bool {
	switch o.FaultsFor(t) {
	case DivisorFault:
		return !y.IsZero() && !(t.IsSigned() && y.Int() == -1)
	case CountFault:
		return countInRange(y)
	}
	return true
}

// countInRange reports whether the shift count y is in [0, width).
func countInRange(y Value) bool {
	if y.T.IsSigned() && y.Int() < 0 {
		return false
	}
	return y.Uint() < uint64(y.T.Bits())
}

// Func computes an operation on the bits of its operands (as Value.Bits
// holds them; operands a unary or binary operation does not have are 0) and
// returns the bits of the result, or the fault.
type Func func(x, y, z uint64) (uint64, Fault)

// Func returns the function computing the operation on operands of type t,
// and false when the operation does not apply to t.
func (o *Operation) Func(t Type) (Func, bool) {
	if !o.Types.Has(t) {
		return nil, false
	}
	return o.sem.of(t)
}

// Apply computes the operation on constants of one type. It returns the
// result, the fault, and false when the operation does not apply to them.
func (o *Operation) Apply(args ...Value) (Value, Fault, bool) {
	ts := make([]Type, len(args))
	for i, a := range args {
		ts[i] = a.T
	}
	rt, err := o.Check(ts...)
	if err != nil {
		return Value{}, NoFault, false
	}
	fn, ok := o.Func(ts[0])
	if !ok {
		return Value{}, NoFault, false
	}
	var bits [3]uint64
	for i, a := range args {
		bits[i] = a.Bits & widthMask(a.T)
	}
	r, f := fn(bits[0], bits[1], bits[2])
	if f != NoFault {
		return Value{}, f, true
	}
	return Value{T: rt, Bits: r}, NoFault, true
}

// Operation returns the unary operation's table entry, or nil for an
// unknown operator.
func (op UnOp) Operation() *Operation { return lookup(unaryTable[:], int(op)) }

// Operation returns the binary operation's table entry, or nil for an
// unknown operator.
func (op BinOp) Operation() *Operation { return lookup(binaryTable[:], int(op)) }

// Operation returns the ternary operation's table entry, or nil for an
// unknown operator.
func (op TernOp) Operation() *Operation { return lookup(ternaryTable[:], int(op)) }

func lookup(table []Operation, i int) *Operation {
	if i <= 0 || i >= len(table) {
		return nil
	}
	return &table[i]
}

// String returns the operation's name.
func (op UnOp) String() string { return opName(op.Operation(), "UnOp", int(op)) }

// String returns the operation's name.
func (op BinOp) String() string { return opName(op.Operation(), "BinOp", int(op)) }

// String returns the operation's name.
func (op TernOp) String() string { return opName(op.Operation(), "TernOp", int(op)) }

func opName(o *Operation, kind string, i int) string {
	if o == nil {
		return fmt.Sprintf("%s(%d)", kind, i)
	}
	return o.Name
}

// UnOps returns every unary operator, in table order.
func UnOps() []UnOp { return indices[UnOp](len(unaryTable)) }

// BinOps returns every binary operator, in table order.
func BinOps() []BinOp { return indices[BinOp](len(binaryTable)) }

// TernOps returns every ternary operator, in table order.
func TernOps() []TernOp { return indices[TernOp](len(ternaryTable)) }

func indices[Op ~uint8](n int) []Op {
	ops := make([]Op, 0, max(n-1, 0))
	for i := 1; i < n; i++ {
		ops = append(ops, Op(i))
	}
	return ops
}

// IsComparison reports whether op gives a Bool from two operands of any one
// type.
func (op BinOp) IsComparison() bool {
	o := op.Operation()
	return o != nil && o.Result == BoolResult
}

// widthMask returns the mask of the bits a value of type t uses.
func widthMask(t Type) uint64 {
	if t == Bool {
		return 1
	}
	if t.Size() >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*t.Size()) - 1
}
