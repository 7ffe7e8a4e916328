package eval

import (
	"github.com/obsidian-go/obsidian/ir"
)

// atomicFn computes the new value of an atomic operation from the old one,
// the operand v and (CAS) the comparand.
type atomicFn func(old, v, cmp uint64) uint64

// atomicOp returns op on elements of type t with CUDA's semantics, and ok
// false when CUDA has no such atomic (see ir.AtomicSupported).
func atomicOp(op ir.AtomicOp, t ir.Type) (atomicFn, bool) {
	if !ir.AtomicSupported(op, t) {
		return nil, false
	}
	switch op {
	case ir.AtomicLoad:
		return func(old, _, _ uint64) uint64 { return old }, true
	case ir.AtomicExch, ir.AtomicStore:
		return func(_, v, _ uint64) uint64 { return v }, true
	case ir.AtomicCAS:
		return func(old, v, cmp uint64) uint64 {
			if old == cmp {
				return v
			}
			return old
		}, true
	case ir.AtomicInc, ir.AtomicDec:
		m := widthMask(t)
		if op == ir.AtomicInc {
			return func(old, v, _ uint64) uint64 {
				if old >= v {
					return 0
				}
				return (old + 1) & m
			}, true
		}
		return func(old, v, _ uint64) uint64 {
			if old == 0 || old > v {
				return v
			}
			return old - 1
		}, true
	}
	binOps := map[ir.AtomicOp]ir.BinOp{ir.AtomicAdd: ir.Add, ir.AtomicSub: ir.Sub, ir.AtomicMin: ir.Min,
		ir.AtomicMax: ir.Max, ir.AtomicAnd: ir.And, ir.AtomicOr: ir.Or, ir.AtomicXor: ir.Xor}
	b, ok := binOps[op]
	if !ok {
		return nil, false
	}
	fn, ok := binaryOp(b, t)
	return func(old, v, _ uint64) uint64 {
		r, _ := fn(old, v)
		return r
	}, ok
}

// atomicFamily is a set of atomic operations whose updates of a cell give
// the same value in any order, so that blocks that make them may run in
// any order; orderDependent is an atomic whose effect depends on the order.
type atomicFamily uint8

const (
	orderDependent atomicFamily = iota
	additive
	minimum
	maximum
	bitAnd
	bitOr
	bitXor
)

// integerFamilies gives the family of each atomic operation on integers
// (Inc and Dec are additive only with the operand that makes them wrap
// around, see familyOf).
var integerFamilies = map[ir.AtomicOp]atomicFamily{
	ir.AtomicAdd: additive, ir.AtomicSub: additive, ir.AtomicInc: additive, ir.AtomicDec: additive,
	ir.AtomicMin: minimum, ir.AtomicMax: maximum, ir.AtomicAnd: bitAnd, ir.AtomicOr: bitOr, ir.AtomicXor: bitXor,
}

// familyOf returns the family of atomic s. Its old value, when used, depends
// on the order of the updates, and so do float additions (rounded), and
// increments and decrements that wrap around before the type does.
func familyOf(s *ir.Atomic) atomicFamily {
	if s.Result != nil || !s.Array.Elem.IsInteger() {
		return orderDependent
	}
	if s.Op == ir.AtomicInc || s.Op == ir.AtomicDec {
		if c, ok := s.Value.(*ir.Const); !ok || c == nil || c.Value.Bits != widthMask(s.Array.Elem) {
			return orderDependent
		}
	}
	return integerFamilies[s.Op]
}

// globalAtomic is an atomic statement on a global memory.
type globalAtomic struct {
	memory int
	family atomicFamily
}

func (c *compiler) atomic(s *ir.Atomic, sc *scope) stmtFn {
	mi, okMem := c.writable(s.Array, sc)
	index, ti, okIndex := c.indexExpr(s.Index, sc)
	value, tv := func(*machine, *vec) {}, ir.NoType
	switch {
	case s.Op != ir.AtomicLoad:
		value, tv = c.expr(s.Value, sc)
	case okMem:
		tv = s.Array.Elem // a Load has no operand
	}
	compare, tc := func(*machine, *vec) {}, ir.NoType
	if s.Op == ir.AtomicCAS {
		compare, tc = c.expr(s.Compare, sc)
	}
	if !okMem || !okIndex || tv == ir.NoType || (s.Op == ir.AtomicCAS && tc == ir.NoType) {
		return nil
	}
	elem := s.Array.Elem
	fn, ok := atomicOp(s.Op, elem)
	switch {
	case !ok:
		c.errorf(sc.pos, "atomic %v on array %s of %v", s.Op, s.Array.Name, elem)
		return nil
	case tv != elem || (s.Op == ir.AtomicCAS && tc != elem):
		c.errorf(sc.pos, "atomic %v with operands of type %v on array %s of %v", s.Op, tv, s.Array.Name, elem)
		return nil
	}
	setResult := func(*machine, uint32, *vec) {}
	if s.Result != nil {
		slot, lane, ok := c.target(s.Result, elem, sc)
		if !ok {
			return nil
		}
		setResult = setter(slot, lane)
	}
	if s.Array.Space == ir.Global {
		c.prog.globalAtomics = append(c.prog.globalAtomics, globalAtomic{memory: mi, family: familyOf(s)})
	}
	pos, site := sc.pos, c.site(sc.pos)
	return func(m *machine) {
		iv, vv, cv, old := m.scratch(), m.scratch(), m.scratch(), m.scratch()
		defer m.release(4)
		index(m, iv)
		value(m, vv)
		compare(m, cv)
		done := m.atomicLanes(m.mems[mi], ti, iv, vv, cv, old, fn, pos, site)
		if !m.stop {
			setResult(m, done, old)
		}
	}
}
