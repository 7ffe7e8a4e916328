package eval

import (
	"math/bits"

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
	case ir.AtomicExch:
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

func (c *compiler) atomic(s *ir.Atomic, sc *scope) stmtFn {
	mi, okMem := c.writable(s.Array, sc)
	index, ti, okIndex := c.indexExpr(s.Index, sc)
	value, tv := c.expr(s.Value, sc)
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
	pos, site := sc.pos, c.site(sc.pos)
	return func(m *machine) {
		var iv, vv, cv, old vec
		index(m, &iv)
		value(m, &vv)
		compare(m, &cv)
		mem := m.mems[mi]
		done := uint32(0)
		for mask := m.mask; mask != 0 && !m.stop; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			i, ok := m.index(mem, ti, iv[l], pos, "atomic on")
			if !ok {
				return
			}
			old[l] = loadBits(mem.data, mem.elem, i)
			storeBits(mem.data, mem.elem, i, fn(old[l], vv[l], cv[l]))
			m.track(mem, i, l, atomicAccess, false, 0, site)
			done |= 1 << l
		}
		setResult(m, done, &old)
	}
}
