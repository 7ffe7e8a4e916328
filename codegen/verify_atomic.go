package codegen

import (
	"github.com/obsidian-go/obsidian/ir"
)

// atomicTypes lists the element types CUDA has each atomic operation for.
var atomicTypes = map[ir.AtomicOp][]ir.Type{
	ir.AtomicAdd:  {ir.Int32, ir.Uint32, ir.Int64, ir.Uint64, ir.Float32, ir.Float64},
	ir.AtomicSub:  {ir.Int32, ir.Uint32},
	ir.AtomicInc:  {ir.Uint32},
	ir.AtomicDec:  {ir.Uint32},
	ir.AtomicMin:  {ir.Int32, ir.Uint32, ir.Int64, ir.Uint64},
	ir.AtomicMax:  {ir.Int32, ir.Uint32, ir.Int64, ir.Uint64},
	ir.AtomicAnd:  {ir.Int32, ir.Uint32, ir.Int64, ir.Uint64},
	ir.AtomicOr:   {ir.Int32, ir.Uint32, ir.Int64, ir.Uint64},
	ir.AtomicXor:  {ir.Int32, ir.Uint32, ir.Int64, ir.Uint64},
	ir.AtomicExch: {ir.Int32, ir.Uint32, ir.Int64, ir.Uint64, ir.Float32},
	ir.AtomicCAS:  {ir.Int32, ir.Uint32, ir.Int64, ir.Uint64},
}

func atomicSupports(op ir.AtomicOp, t ir.Type) bool {
	for _, u := range atomicTypes[op] {
		if u == t {
			return true
		}
	}
	return false
}

func (v *verifier) atomic(s *ir.Atomic) {
	v.atLevel(s.Pos, ir.ThreadLevel, "an atomic")
	if !v.writable(s.Array, s.Pos, "atomic "+s.Op.String()) {
		return
	}
	elem := s.Array.Elem
	v.index(s.Index, s.Array, s.Pos)
	if _, known := atomicTypes[s.Op]; !known {
		v.errorf(s.Pos, "unknown atomic operation %d", s.Op)
		return
	}
	if !atomicSupports(s.Op, elem) {
		v.errorf(s.Pos, "atomic %v on %s, an array of %v: CUDA has atomic %v only for %v", s.Op, s.Array.Name,
			elem, s.Op, atomicTypes[s.Op])
	}
	if t, ok := v.expr(s.Value, s.Pos); ok && t != elem {
		v.errorf(s.Pos, "atomic %v of a %v value on %s, an array of %v", s.Op, t, s.Array.Name, elem)
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
