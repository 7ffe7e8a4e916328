package arrays

import (
	"fmt"
	"math/bits"

	"github.com/obsidian-go/obsidian/dsl"
)

// Combiner is a hash table in a block's shared memory that folds values
// by key with an atomic operation, so that the threads of a block that
// update the same key of a global table (a hot bin of a histogram) meet in
// shared memory and the global table takes one update per key and block.
//
// A block declares it with NewCombiner (which clears it and synchronises
// the block), its threads Add to it, and Flush then visits each key with
// its folded value, once, for the global update:
//
//	c := arrays.NewCombiner[uint32](b, 1024, 4, dsl.AtomicAdd, dsl.N(0))
//	b.ForAll(threads, func(t *dsl.Thread, tid dsl.U32) {
//		c.Add(t, bin, count, func(t *dsl.Thread) { table.Atomic(t, dsl.AtomicAdd, bin, count) })
//	})
//	c.Flush(b, func(t *dsl.Thread, bin dsl.U32, count dsl.U32) { table.Atomic(t, dsl.AtomicAdd, bin, count) })
//
// A key takes a slot by an atomic compare-and-swap, at its hash and up to
// probes-1 slots after it (linear probing); when all of them hold other
// keys, Add runs its spill instead, which updates the global table
// directly. So every value is either folded into exactly one slot or
// spilled, and none is lost however many keys there are. The key
// EmptyKey marks a free slot and is always spilled.
type Combiner[T dsl.Number] struct {
	keys   dsl.Array[uint32]
	vals   dsl.Array[T]
	bits   int // log2 of the slots
	probes int
	op     dsl.AtomicOp
}

// EmptyKey marks a free slot of a Combiner: a key that is never stored.
const EmptyKey = ^uint32(0)

// hashMultiplier is Knuth's multiplicative hash constant, 2^32 over the
// golden ratio: keys that differ in their low bits spread over the slots.
const hashMultiplier = 0x9E3779B1

// NewCombiner declares a Combiner of slots slots (a power of two) in the
// block's shared memory, whose values fold with op (an atomic operation
// such as dsl.AtomicAdd or dsl.AtomicOr, commutative and associative) from
// identity, and whose Add tries probes slots; it clears the table and
// synchronises the block. It needs 4+sizeof(T) bytes of shared memory a
// slot. Slots that are not a power of two, or probes outside 1 to slots,
// make the kernel fail to build, naming the caller's line.
func NewCombiner[T dsl.Number](b *dsl.Block, slots, probes int, op dsl.AtomicOp, identity dsl.Exp[T]) *Combiner[T] {
	switch {
	case slots < 1 || slots&(slots-1) != 0:
		identity = dsl.Invalid[T](fmt.Sprintf("NewCombiner of %d slots: want a power of two", slots))
		slots = 1
	case probes < 1 || probes > slots:
		identity = dsl.Invalid[T](fmt.Sprintf("NewCombiner of %d probes: want 1 to %d (the slots)", probes, slots))
	}
	probes = min(max(probes, 1), slots)
	c := &Combiner[T]{
		keys:   dsl.Shared[uint32](b, slots),
		vals:   dsl.Shared[T](b, slots),
		bits:   bits.TrailingZeros(uint(slots)),
		probes: probes,
		op:     op,
	}
	b.ForAll(dsl.N(uint32(slots)), func(t *dsl.Thread, i dsl.U32) {
		c.keys.Store(t, i, dsl.N(EmptyKey))
		c.vals.Store(t, i, identity)
	})
	b.Sync()
	return c
}

// slotOf returns the first slot of key: the top bits of key times
// hashMultiplier.
func (c *Combiner[T]) slotOf(key dsl.U32) dsl.U32 {
	if c.bits == 0 {
		return dsl.N(0)
	}
	return key.Mul(dsl.N(hashMultiplier)).Shr(dsl.N(uint32(32 - c.bits)))
}

// Add folds v into key's slot, taking a free slot for a key not yet in the
// table, or runs spill when none of its probes finds one (or key is
// EmptyKey). Any thread of the block may call it, under any condition.
func (c *Combiner[T]) Add(t *dsl.Thread, key dsl.U32, v dsl.Exp[T], spill func(t *dsl.Thread)) {
	mask := dsl.N(uint32(1)<<c.bits - 1)
	slot := dsl.Let(t, c.slotOf(key))
	// pending: the value is not folded yet; an EmptyKey never is.
	pending := dsl.Let(t, dsl.Lit(true))
	storable := dsl.Let(t, key.Ne(dsl.N(EmptyKey)))
	for range c.probes {
		t.If(pending.And(storable.Exp), func(t *dsl.Thread) {
			held := dsl.Let(t, c.keys.CAS(t, slot.Exp, dsl.N(EmptyKey), key))
			t.If(held.Eq(dsl.N(EmptyKey)).Or(held.Eq(key)), func(t *dsl.Thread) {
				c.vals.Atomic(t, c.op, slot.Exp, v)
				pending.Set(dsl.Lit(false))
			})
			slot.Set(slot.Add(dsl.N(1)).And(mask))
		})
	}
	t.If(pending.Exp, spill)
}

// Flush synchronises the block, then runs visit once for each key in the
// table with its folded value, spreading the slots over the block's
// threads.
func (c *Combiner[T]) Flush(b *dsl.Block, visit func(t *dsl.Thread, key dsl.U32, v dsl.Exp[T])) {
	b.Sync()
	b.ForAll(dsl.N(uint32(1)<<c.bits), func(t *dsl.Thread, i dsl.U32) {
		key := dsl.Let(t, c.keys.At(i))
		t.If(key.Ne(dsl.N(EmptyKey)), func(t *dsl.Thread) { visit(t, key.Exp, c.vals.At(i)) })
	})
}
