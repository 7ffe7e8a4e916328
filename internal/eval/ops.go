package eval

import "github.com/obsidian-go/obsidian/ir"

// The meaning of operators and conversions is the operator table's
// (ir.Operation.Func, ir.Conversion); this file adapts it to the machine.

// widthMask returns the mask of the bits a value of type t uses.
func widthMask(t ir.Type) uint64 { return t.Mask() }

// extendShifts holds, per integer type, the shift that sign-extends its
// bits: 64 minus the width for signed types, 0 for unsigned ones.
var extendShifts = func() (s [256]uint8) {
	for _, t := range ir.Types {
		if t.IsSigned() {
			s[t] = uint8(64 - t.Bits())
		}
	}
	return s
}()

// signExtend interprets bits of integer type t as a signed (or, for
// unsigned types, zero-extended) integer.
func signExtend(t ir.Type, x uint64) int64 {
	s := extendShifts[t]
	return int64(x<<s) >> s
}

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

// vecFn computes an operation for every lane of a warp at once: out[l] is
// the operation on x[l], y[l] and z[l] (the operands it has; the others may
// be nil). out may be one of the operands. Only operations that cannot
// fault on the operands they get have a vecFn.
type vecFn func(out, x, y, z *vec)

// vectorOp returns the vector form of operation o on operands of type t,
// whose per-lane function is fn: the one vectorForms writes out where it
// has one (the same results, checked for every operator by
// TestVectorFormsMatchTheOperatorTable), else fn called for each lane.
func vectorOp(o *ir.Operation, t ir.Type, fn ir.Func) vecFn {
	if form, ok := vectorForms[o]; ok && (t.IsInteger() || t == ir.Bool) {
		return form(t)
	}
	switch o.Arity {
	case 1:
		return func(out, x, _, _ *vec) {
			for l := range out {
				out[l], _ = fn(x[l], 0, 0)
			}
		}
	case 2:
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l], _ = fn(x[l], y[l], 0)
			}
		}
	}
	return func(out, x, y, z *vec) {
		for l := range out {
			out[l], _ = fn(x[l], y[l], z[l])
		}
	}
}

// orderKey returns, for an integer or bool type t, the shift and flip that
// turn its bits x into a key (x<<shift ^ flip) whose unsigned order is t's
// order: the sign bit moved to the top and flipped for signed types.
func orderKey(t ir.Type) (shift uint8, flip uint64) {
	if t.IsSigned() {
		return extendShifts[t], 1 << 63
	}
	return 0, 0
}

// vectorForms are the integer (and bool) forms of the operations kernels
// use most, each a loop over the lanes that the compiler compiles without
// a call per lane. A form is given the operand type, an integer type or
// bool on which the operation is defined, and computes exactly what the
// operator table's Func does on the values it applies to (shifts: counts
// in range, see compiler.operation).
var vectorForms = map[*ir.Operation]func(t ir.Type) vecFn{
	ir.Not.Operation(): func(t ir.Type) vecFn {
		m := widthMask(t)
		return func(out, x, _, _ *vec) {
			for l := range out {
				out[l] = ^x[l] & m
			}
		}
	},
	ir.Neg.Operation(): func(t ir.Type) vecFn {
		m := widthMask(t)
		return func(out, x, _, _ *vec) {
			for l := range out {
				out[l] = -x[l] & m
			}
		}
	},
	ir.Add.Operation(): func(t ir.Type) vecFn {
		m := widthMask(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = (x[l] + y[l]) & m
			}
		}
	},
	ir.Sub.Operation(): func(t ir.Type) vecFn {
		m := widthMask(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = (x[l] - y[l]) & m
			}
		}
	},
	ir.Mul.Operation(): func(t ir.Type) vecFn {
		m := widthMask(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = (x[l] * y[l]) & m
			}
		}
	},
	ir.And.Operation(): func(ir.Type) vecFn {
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = x[l] & y[l]
			}
		}
	},
	ir.Or.Operation(): func(ir.Type) vecFn {
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = x[l] | y[l]
			}
		}
	},
	ir.Xor.Operation(): func(ir.Type) vecFn {
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = x[l] ^ y[l]
			}
		}
	},
	ir.Shl.Operation(): func(t ir.Type) vecFn {
		m := widthMask(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = x[l] << y[l] & m
			}
		}
	},
	ir.Shr.Operation(): func(t ir.Type) vecFn {
		if !t.IsSigned() {
			return func(out, x, y, _ *vec) {
				for l := range out {
					out[l] = x[l] >> y[l]
				}
			}
		}
		m, s := widthMask(t), extendShifts[t]
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = uint64(int64(x[l]<<s)>>s>>y[l]) & m
			}
		}
	},
	ir.Min.Operation(): func(t ir.Type) vecFn {
		s, flip := orderKey(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				a, b := x[l], y[l]
				if a<<s^flip > b<<s^flip {
					a = b
				}
				out[l] = a
			}
		}
	},
	ir.Max.Operation(): func(t ir.Type) vecFn {
		s, flip := orderKey(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				a, b := x[l], y[l]
				if a<<s^flip < b<<s^flip {
					a = b
				}
				out[l] = a
			}
		}
	},
	ir.Eq.Operation(): func(ir.Type) vecFn {
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = boolBits(x[l] == y[l])
			}
		}
	},
	ir.Ne.Operation(): func(ir.Type) vecFn {
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = boolBits(x[l] != y[l])
			}
		}
	},
	ir.Lt.Operation(): func(t ir.Type) vecFn {
		s, flip := orderKey(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = boolBits(x[l]<<s^flip < y[l]<<s^flip)
			}
		}
	},
	ir.Le.Operation(): func(t ir.Type) vecFn {
		s, flip := orderKey(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = boolBits(x[l]<<s^flip <= y[l]<<s^flip)
			}
		}
	},
	ir.Gt.Operation(): func(t ir.Type) vecFn {
		s, flip := orderKey(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = boolBits(x[l]<<s^flip > y[l]<<s^flip)
			}
		}
	},
	ir.Ge.Operation(): func(t ir.Type) vecFn {
		s, flip := orderKey(t)
		return func(out, x, y, _ *vec) {
			for l := range out {
				out[l] = boolBits(x[l]<<s^flip >= y[l]<<s^flip)
			}
		}
	},
}
