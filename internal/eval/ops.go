package eval

import "github.com/obsidian-go/obsidian/ir"

// The meaning of operators and conversions is the operator table's
// (ir.Operation.Func, ir.Conversion); this file adapts it to the machine.

// widthMask returns the mask of the bits a value of type t uses.
func widthMask(t ir.Type) uint64 { return t.Mask() }

// signExtend interprets bits of type t as a signed (or, for unsigned types,
// zero-extended) integer.
func signExtend(t ir.Type, x uint64) int64 { return ir.Value{T: t, Bits: x}.Int() }

// boolBits returns 1 for true and 0 for false.
func boolBits(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// binaryOp returns the function computing op on operands of type t, and
// false when op is not defined on t.
func binaryOp(op ir.BinOp, t ir.Type) (func(x, y uint64) (uint64, ir.Fault), bool) {
	o := op.Operation()
	if o == nil {
		return nil, false
	}
	fn, ok := o.Func(t)
	if !ok {
		return nil, false
	}
	return func(x, y uint64) (uint64, ir.Fault) { return fn(x, y, 0) }, true
}

// first returns the result of an operation, dropping its fault.
func first(r uint64, _ ir.Fault) uint64 { return r }
