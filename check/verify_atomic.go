package check

import (
	"github.com/obsidian-go/obsidian/ir"
)

// atomicSupports reports whether CUDA has atomic op for elements of type t.
func atomicSupports(op ir.AtomicOp, t ir.Type) bool { return ir.AtomicSupported(op, t) }

// atomicTypes lists the element types CUDA has atomic op for, in the order
// of ir.Types.
func atomicTypes(op ir.AtomicOp) []ir.Type {
	var ts []ir.Type
	for _, t := range ir.Types {
		if ir.AtomicSupported(op, t) {
			ts = append(ts, t)
		}
	}
	return ts
}

func (v *verifier) atomic(s *ir.Atomic) {
	v.atLevel(s.Pos, ir.ThreadLevel, "an atomic")
	if !v.writable(s.Array, s.Pos, "atomic "+s.Op.String()) {
		return
	}
	if s.Array.Space == ir.Local {
		v.errorf(s.Pos, "atomic %v on %s, a local array: a thread's own array needs no atomics, and CUDA has "+
			"none for local memory", s.Op, s.Array.Name)
	}
	elem := s.Array.Elem
	v.index(s.Index, s.Array, s.Pos)
	types := atomicTypes(s.Op)
	if len(types) == 0 { // every operation CUDA has is defined for some type
		v.errorf(s.Pos, "unknown atomic operation %d", s.Op)
		return
	}
	if !atomicSupports(s.Op, elem) {
		v.errorf(s.Pos, "atomic %v on %s, an array of %v: CUDA has atomic %v only for %v", s.Op, s.Array.Name,
			elem, s.Op, types)
	}
	if !ir.OrderAllowed(s.Op, s.Order) {
		v.errorf(s.Pos, "atomic %v with memory ordering %v: a Load may be Relaxed or Acquire, a Store Relaxed "+
			"or Release, any other atomic only Relaxed", s.Op, s.Order)
	}
	switch {
	case s.Op == ir.AtomicLoad && s.Value != nil:
		v.errorf(s.Pos, "atomic Load has a value to write; a Load only reads")
	case s.Op == ir.AtomicStore && s.Result != nil:
		v.errorf(s.Pos, "atomic Store has a result; a Store returns nothing")
	case s.Op != ir.AtomicLoad:
		if t, ok := v.expr(s.Value, s.Pos); ok && t != elem {
			v.errorf(s.Pos, "atomic %v of a %v value on %s, an array of %v", s.Op, t, s.Array.Name, elem)
		}
	}
	switch {
	case s.Op == ir.AtomicCAS && s.Compare == nil:
		v.errorf(s.Pos, "atomic CAS without a value to compare with")
	case s.Op == ir.AtomicCAS:
		if t, ok := v.expr(s.Compare, s.Pos); ok && t != elem {
			v.errorf(s.Pos, "atomic CAS compares a %v value with %s, an array of %v", t, s.Array.Name, elem)
		}
	case s.Compare != nil:
		v.errorf(s.Pos, "atomic %v has a value to compare with; only CAS compares", s.Op)
	}
	v.result(s.Result, elem, s.Pos, "atomic "+s.Op.String())
}
