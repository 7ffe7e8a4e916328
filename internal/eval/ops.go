package eval

import (
	"math"

	"github.com/obsidian-go/obsidian/ir"
)

// fault is a problem an operator can have on one lane.
type fault uint8

const (
	noFault fault = iota
	divideByZero
	divideOverflow
	shiftOutOfRange
)

func (f fault) String() string {
	switch f {
	case divideByZero:
		return "integer division or remainder by zero"
	case divideOverflow:
		return "integer division overflow (minimum value divided by -1)"
	case shiftOutOfRange:
		return "shift count negative or not below the bit width"
	}
	return "no fault"
}

// binFn computes a binary operator on the bits of two values of one type.
type binFn func(x, y uint64) (uint64, fault)

// widthMask returns the mask of the bits a value of type t uses.
func widthMask(t ir.Type) uint64 {
	switch t.Size() {
	case 1:
		return 1
	case 4:
		return math.MaxUint32
	}
	return math.MaxUint64
}

// signExtend interprets bits of type t as a signed (or, for unsigned types,
// zero-extended) integer.
func signExtend(t ir.Type, x uint64) int64 {
	if t == ir.Int32 {
		return int64(int32(uint32(x)))
	}
	return int64(x)
}

// boolBits returns 1 for true and 0 for false.
func boolBits(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// binaryOp returns the function computing op on operands of type t, whether
// it can fault (and so must run on active lanes only), and ok false when op
// is not defined on t.
func binaryOp(op ir.BinOp, t ir.Type) (fn binFn, mayFault, ok bool) {
	switch {
	case t == ir.Bool:
		fn, ok = boolBinary(op)
		return fn, false, ok
	case t.IsInteger():
		return intBinary(op, t)
	case t == ir.Float32:
		fn, ok = floatBinary(op, f32dec, f32enc)
		return fn, false, ok
	case t == ir.Float64:
		fn, ok = floatBinary(op, math.Float64frombits, math.Float64bits)
		return fn, false, ok
	}
	return nil, false, false
}

func boolBinary(op ir.BinOp) (binFn, bool) {
	switch op {
	case ir.And, ir.Min:
		return func(x, y uint64) (uint64, fault) { return x & y, noFault }, true
	case ir.Or, ir.Max:
		return func(x, y uint64) (uint64, fault) { return x | y, noFault }, true
	case ir.Xor, ir.Ne:
		return func(x, y uint64) (uint64, fault) { return x ^ y, noFault }, true
	case ir.Eq:
		return func(x, y uint64) (uint64, fault) { return x ^ y ^ 1, noFault }, true
	}
	if op.IsComparison() {
		return unsignedCompare(op), true
	}
	return nil, false
}

func intBinary(op ir.BinOp, t ir.Type) (fn binFn, mayFault, ok bool) {
	m := widthMask(t)
	width := uint64(t.Bits())
	signed := t.IsSigned()
	minSigned := int64(-1) << (width - 1)
	sx := func(x uint64) int64 { return signExtend(t, x) }
	switch op {
	case ir.Add:
		return func(x, y uint64) (uint64, fault) { return (x + y) & m, noFault }, false, true
	case ir.Sub:
		return func(x, y uint64) (uint64, fault) { return (x - y) & m, noFault }, false, true
	case ir.Mul:
		return func(x, y uint64) (uint64, fault) { return (x * y) & m, noFault }, false, true
	case ir.And:
		return func(x, y uint64) (uint64, fault) { return x & y, noFault }, false, true
	case ir.Or:
		return func(x, y uint64) (uint64, fault) { return x | y, noFault }, false, true
	case ir.Xor:
		return func(x, y uint64) (uint64, fault) { return x ^ y, noFault }, false, true
	case ir.Div, ir.Rem:
		rem := op == ir.Rem
		if signed {
			return func(x, y uint64) (uint64, fault) {
				a, b := sx(x), sx(y)
				switch {
				case b == 0:
					return 0, divideByZero
				case b == -1 && a == minSigned:
					return 0, divideOverflow
				case rem:
					return uint64(a%b) & m, noFault
				}
				return uint64(a/b) & m, noFault
			}, true, true
		}
		return func(x, y uint64) (uint64, fault) {
			switch {
			case y == 0:
				return 0, divideByZero
			case rem:
				return x % y, noFault
			}
			return x / y, noFault
		}, true, true
	case ir.Shl, ir.Shr:
		left := op == ir.Shl
		return func(x, y uint64) (uint64, fault) {
			if (signed && sx(y) < 0) || y >= width {
				return 0, shiftOutOfRange
			}
			switch {
			case left:
				return (x << y) & m, noFault
			case signed:
				return uint64(sx(x)>>y) & m, noFault
			}
			return x >> y, noFault
		}, true, true
	case ir.Min, ir.Max:
		isMin := op == ir.Min
		return func(x, y uint64) (uint64, fault) {
			less := x < y
			if signed {
				less = sx(x) < sx(y)
			}
			if less == isMin {
				return x, noFault
			}
			return y, noFault
		}, false, true
	}
	if !op.IsComparison() {
		return nil, false, false
	}
	if signed {
		return compare(op, sx), false, true
	}
	return unsignedCompare(op), false, true
}

func unsignedCompare(op ir.BinOp) binFn {
	return compare(op, func(x uint64) uint64 { return x })
}

// compare returns the comparison op on values decoded by dec.
func compare[N int64 | uint64 | float32 | float64](op ir.BinOp, dec func(uint64) N) binFn {
	var c func(a, b N) bool
	switch op {
	case ir.Eq:
		c = func(a, b N) bool { return a == b }
	case ir.Ne:
		c = func(a, b N) bool { return a != b }
	case ir.Lt:
		c = func(a, b N) bool { return a < b }
	case ir.Le:
		c = func(a, b N) bool { return a <= b }
	case ir.Gt:
		c = func(a, b N) bool { return a > b }
	default:
		c = func(a, b N) bool { return a >= b }
	}
	return func(x, y uint64) (uint64, fault) { return boolBits(c(dec(x), dec(y))), noFault }
}

func f32dec(x uint64) float32 { return math.Float32frombits(uint32(x)) }
func f32enc(f float32) uint64 { return uint64(math.Float32bits(f)) }

// floatBinary returns op on IEEE values decoded by dec and encoded by enc;
// every operation rounds to the type's precision.
func floatBinary[F float32 | float64](op ir.BinOp, dec func(uint64) F, enc func(F) uint64) (binFn, bool) {
	var f func(a, b F) F
	switch op {
	case ir.Add:
		f = func(a, b F) F { return a + b }
	case ir.Sub:
		f = func(a, b F) F { return a - b }
	case ir.Mul:
		f = func(a, b F) F { return a * b }
	case ir.Div:
		f = func(a, b F) F { return a / b }
	case ir.Rem:
		f = func(a, b F) F { return F(math.Mod(float64(a), float64(b))) }
	case ir.Min:
		f = floatMin[F]
	case ir.Max:
		f = floatMax[F]
	default:
		if op.IsComparison() {
			return compare(op, dec), true
		}
		return nil, false
	}
	return func(x, y uint64) (uint64, fault) { return enc(f(dec(x), dec(y))), noFault }, true
}

// floatMin is C's fmin: a NaN operand is ignored, and -0 is below +0.
func floatMin[F float32 | float64](a, b F) F {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a == 0 && b == 0:
		if math.Signbit(float64(a)) {
			return a
		}
		return b
	case a < b:
		return a
	}
	return b
}

// floatMax is C's fmax: a NaN operand is ignored, and +0 is above -0.
func floatMax[F float32 | float64](a, b F) F {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a == 0 && b == 0:
		if math.Signbit(float64(a)) {
			return b
		}
		return a
	case a > b:
		return a
	}
	return b
}

// unaryOp returns the function computing op on a value of type t, and ok
// false when op is not defined on t.
func unaryOp(op ir.UnOp, t ir.Type) (fn func(uint64) uint64, ok bool) {
	m := widthMask(t)
	switch {
	case op == ir.Not && (t.IsInteger() || t == ir.Bool):
		return func(x uint64) uint64 { return ^x & m }, true
	case op == ir.Neg && t.IsInteger():
		return func(x uint64) uint64 { return -x & m }, true
	case op == ir.Neg && t.IsFloat():
		sign := uint64(1) << (t.Bits() - 1)
		return func(x uint64) uint64 { return x ^ sign }, true
	}
	return nil, false
}

// conversion returns the function converting bits of type from to bits of
// type to with CUDA's rules: integers wrap or sign-extend, float to integer
// truncates toward zero and saturates (NaN gives 0), integer to float rounds
// to nearest, bool to number gives 0 or 1, number to bool tests != 0.
func conversion(from, to ir.Type) (func(uint64) uint64, bool) {
	if !from.Valid() || !to.Valid() {
		return nil, false
	}
	if from == to {
		return func(x uint64) uint64 { return x }, true
	}
	if to == ir.Bool {
		if from.IsFloat() {
			dec := floatDecoder(from)
			return func(x uint64) uint64 { return boolBits(dec(x) != 0) }, true
		}
		return func(x uint64) uint64 { return boolBits(x != 0) }, true
	}
	switch {
	case to.IsInteger() && from.IsFloat():
		dec := floatDecoder(from)
		return func(x uint64) uint64 { return saturate(dec(x), to) }, true
	case to.IsInteger():
		m := widthMask(to)
		return func(x uint64) uint64 { return uint64(signExtend(from, x)) & m }, true
	case to == ir.Float32:
		return toFloat(from, f32enc), true
	}
	return toFloat(from, math.Float64bits), true
}

// floatDecoder returns the exact float64 value of bits of float type t.
func floatDecoder(t ir.Type) func(uint64) float64 {
	if t == ir.Float32 {
		return func(x uint64) float64 { return float64(f32dec(x)) }
	}
	return math.Float64frombits
}

// toFloat converts from a value of type from to F, rounding once.
func toFloat[F float32 | float64](from ir.Type, enc func(F) uint64) func(uint64) uint64 {
	switch {
	case from.IsSigned():
		return func(x uint64) uint64 { return enc(F(signExtend(from, x))) }
	case from.IsUnsigned() || from == ir.Bool:
		return func(x uint64) uint64 { return enc(F(x)) }
	case from == ir.Float32:
		return func(x uint64) uint64 { return enc(F(f32dec(x))) }
	}
	return func(x uint64) uint64 { return enc(F(math.Float64frombits(x))) }
}

// saturate converts f to integer type t as PTX cvt.rzi.sat does.
func saturate(f float64, t ir.Type) uint64 {
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
