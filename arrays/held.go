package arrays

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// Held is an array of a block that its threads hold in registers
// (dsl.Held) from a tile's load to its scatter, across the block's
// barriers, as CUB's threads hold their items: up to threads × per
// elements, per in each thread, dealt in one of two arrangements. Warp w
// holds elements [32·per·w, 32·per·(w+1)) in both.
//
// Warp-striped (NewHeld): lane l of warp w holds element 32·per·w + 32j +
// l in slot j. Each slot of a warp is a tile of 32 consecutive elements,
// so that loading or storing a slot is one coalesced access, and a warp's
// slots in order are its elements in order, as a stable multisplit by
// votes needs them (BlockMultisplitHeld).
//
// Blocked (NewHeldBlocked): thread t holds element per·t + j in slot j,
// consecutive elements, as a stable multisplit by per-thread counters
// needs them (BlockMultisplitCounted). A slot of a warp is 32 elements per
// apart: from shared memory laid out by BankPadded that is one access
// without bank conflicts for per a power of two, from global memory one
// access per lane.
type Held[T dsl.Scalar] struct {
	n            dsl.U32
	per, threads int
	blocked      bool
	slots        dsl.Array[T]
	bad          string // why the array could not be made
}

// NewHeld allocates in b an array of n elements that b's threads hold
// warp-striped, per each (1 to UnrollLimit: a slot is a register, every
// access to it written out), n at most b's threads × per: a constant n
// above that is an error, and one known only when the kernel runs is
// clamped to it. Load fills it.
func NewHeld[T dsl.Scalar](b *dsl.Block, per int, n dsl.U32) Held[T] {
	return newHeld[T](b, "NewHeld", per, n, false)
}

// NewHeldBlocked is NewHeld with the elements held blocked: thread t holds
// elements [per·t, per·(t+1)).
func NewHeldBlocked[T dsl.Scalar](b *dsl.Block, per int, n dsl.U32) Held[T] {
	return newHeld[T](b, "NewHeldBlocked", per, n, true)
}

// newHeld is NewHeld (what names it) with the arrangement blocked or
// warp-striped.
func newHeld[T dsl.Scalar](b *dsl.Block, what string, per int, n dsl.U32, blocked bool) Held[T] {
	bad := ""
	switch {
	case b == nil || b.Threads() == 0:
		bad = what + " on a nil builder (*dsl.Block)"
	case per < 1 || per > UnrollLimit:
		bad = fmt.Sprintf("%s of %d elements per thread: want 1 to %d", what, per, UnrollLimit)
	default:
		if c, ok := constLen(n); ok && int64(c) > int64(b.Threads()*per) {
			bad = fmt.Sprintf("%s of %d elements in %d threads of %d: they hold at most %d", what, c, b.Threads(), per,
				b.Threads()*per)
		}
	}
	if bad != "" {
		if b != nil {
			dsl.Let(b, dsl.Invalid[uint32](bad))
		}
		return Held[T]{bad: bad}
	}
	threads := b.Threads()
	count := n.Min(dsl.N(uint32(threads * per)))
	if _, fixed := constLen(count); !fixed {
		count = dsl.Let(b, count).Exp
	}
	return Held[T]{n: count, per: per, threads: threads, blocked: blocked, slots: dsl.Held[T](b, per)}
}

// full reports whether every slot of h holds an element: its length is a
// constant of the program, threads × per (a full tile), so that no slot
// needs a bound check.
func (h Held[T]) full() bool {
	n, fixed := constLen(h.n)
	return fixed && int64(n) == int64(h.threads*h.per)
}

// arrangement describes how h is dealt, for errors: "(16 per thread by
// 256 threads, blocked)".
func (h Held[T]) arrangement() string {
	how := "warp-striped"
	if h.blocked {
		how = "blocked"
	}
	return fmt.Sprintf("(%d per thread by %d threads, %s)", h.per, h.threads, how)
}

// Len returns the number of elements held.
func (h Held[T]) Len() dsl.U32 { return h.n }

// invalid returns the error a use of h for what reports, or "".
func (h Held[T]) invalid(what string) string {
	switch {
	case h.bad != "":
		return what + " of a failed " + h.bad
	case h.threads == 0:
		return what + " of a zero Held (held arrays come from NewHeld)"
	}
	return ""
}

// Load records in b the load of the held elements from a: each thread
// reads its slots' elements of a, those below Len and a's length (a slot
// past them holds zero), slot by slot, every read written out so that the
// compiler keeps them in flight together. When both lengths are constants
// that cover every slot (a full tile), the reads take no bound checks.
func (h Held[T]) Load(b *dsl.Block, a Pull[T]) {
	if msg := h.invalid("Load"); msg != "" {
		dsl.Let(b, dsl.Invalid[uint32](msg))
		return
	}
	bound := h.n.Min(a.Len())
	every := false
	if c, fixed := constLen(bound); fixed {
		every = int64(c) == int64(h.threads*h.per)
	}
	b.ForAll(dsl.N(uint32(h.threads)), func(t *dsl.Thread, tid dsl.U32) {
		if every {
			h.each(t, tid, func(j int, i dsl.U32, _ dsl.Bool) { h.slots.Store(t, dsl.N(uint32(j)), a.At(i)) })
			return
		}
		n := dsl.Let(t, bound)
		h.each(t, tid, func(j int, i dsl.U32, _ dsl.Bool) {
			h.slots.Store(t, dsl.N(uint32(j)), dsl.Select(i.Lt(n.Exp), a.At(i), zero[T]()))
		})
	})
}

// each runs body in thread tid of a ForAll over the block's threads for
// each of its slots j, in order: i is the slot's element and valid whether
// it is below Len (the constant true for a full tile). Every lane of a warp runs every slot, so body may
// ballot and shuffle.
func (h Held[T]) each(t *dsl.Thread, tid dsl.U32, body func(j int, i dsl.U32, valid dsl.Bool)) {
	first, step := dsl.WarpOf(tid).Mul(dsl.N(uint32(ir.WarpSize*h.per))).Add(dsl.LaneOf(tid)), ir.WarpSize
	if h.blocked {
		first, step = tid.Mul(dsl.N(uint32(h.per))), 1
	}
	from := dsl.Let(t, first)
	full := h.full()
	for j := range h.per {
		i := dsl.Let(t, from.Add(dsl.N(uint32(j*step))))
		valid := dsl.Lit(true)
		if !full {
			valid = i.Lt(h.n)
		}
		body(j, i.Exp, valid)
	}
}

// Slot returns the element in slot j (0 to per-1) of the thread that runs
// the code, in a thread body of the block's ForAlls (iteration i of a
// Block.ForAll runs in thread i mod the block's threads): element
// 32·per·w + 32j + l of the array for lane l of warp w (per·t + j for
// thread t, held blocked), when below Len.
func (h Held[T]) Slot(j int) dsl.Exp[T] {
	if msg := h.invalid("Slot"); msg != "" {
		return dsl.Invalid[T](msg)
	}
	if j < 0 || j >= h.per {
		return dsl.Invalid[T](fmt.Sprintf("Slot %d of elements held %d per thread", j, h.per))
	}
	return h.slots.At(dsl.N(uint32(j)))
}

// Push returns the held elements as a Push array of the block, each
// thread writing its own elements at their indices: each slot of a warp
// is 32 consecutive elements, one coalesced access.
func (h Held[T]) Push() Push[*dsl.Block, T] {
	if msg := h.invalid("Push"); msg != "" {
		bad := dsl.Invalid[uint32](msg)
		return Push[*dsl.Block, T]{n: bad, run: func(b *dsl.Block, _ Writer[T]) { dsl.Let(b, bad) }}
	}
	return Push[*dsl.Block, T]{n: h.n, run: func(b *dsl.Block, w Writer[T]) {
		b.ForAll(dsl.N(uint32(h.threads)), func(t *dsl.Thread, tid dsl.U32) {
			h.each(t, tid, func(j int, i dsl.U32, valid dsl.Bool) {
				t.If(valid, func(t *dsl.Thread) { w(t, i, h.Slot(j)) })
			})
		})
	}}
}

// Uniform returns, in every thread of the block, f of the first held
// element and whether f gives that value for every held element (true
// when none is held): each warp compares its elements' values with its
// first one's by a vote, and the warps' first values and verdicts meet in
// shared memory, one barrier later. A tile of keys that all have one
// digit, for example, needs no ranking.
func (h Held[T]) Uniform(b *dsl.Block, f func(dsl.Exp[T]) dsl.U32) (dsl.U32, dsl.Bool) {
	return h.uniform(b, "Uniform", f, func(t *dsl.Thread, tid dsl.U32, first dsl.U32) dsl.Bool {
		same := dsl.Let(t, dsl.Lit(true))
		h.each(t, tid, func(j int, _ dsl.U32, valid dsl.Bool) {
			same.Set(same.And(valid.Not().Or(f(h.Slot(j)).Eq(first))))
		})
		return same.Exp
	})
}

// UniformBits is Held.Uniform for a function f that selects bits of an
// element, as a shift and a mask do (a radix digit): f(x & y) = f(x) &
// f(y) and f(x | y) = f(x) | f(y). Each thread folds its elements with &
// and with |, one bitwise operation per element where Uniform applies f
// and compares, and its elements agree on f exactly when f of the fold by
// & equals f of the fold by |. For an f that does not select bits the
// verdict is not defined.
func UniformBits[T dsl.Integer](h Held[T], b *dsl.Block, f func(dsl.Exp[T]) dsl.U32) (dsl.U32, dsl.Bool) {
	return h.uniform(b, "UniformBits", f, func(t *dsl.Thread, tid dsl.U32, first dsl.U32) dsl.Bool {
		all, any := dsl.Let(t, dsl.Lit(^T(0))), dsl.Let(t, dsl.Lit(T(0)))
		held := dsl.Lit(false) // whether slot 0, the thread's lowest index, holds an element
		h.each(t, tid, func(j int, _ dsl.U32, valid dsl.Bool) {
			x := h.Slot(j)
			all.Set(dsl.Select(valid, all.And(x), all.Exp))
			any.Set(dsl.Select(valid, any.Or(x), any.Exp))
			if j == 0 {
				held = valid
			}
		})
		bits := dsl.Let(t, f(all.Exp)).Exp
		return held.Not().Or(bits.Eq(f(any.Exp)).And(bits.Eq(first)))
	})
}

// uniform is Uniform and UniformBits: same gives, in a thread of the
// block's ForAll, whether f agrees with first (the warp's first value) on
// every element the thread holds.
func (h Held[T]) uniform(b *dsl.Block, op string, f func(dsl.Exp[T]) dsl.U32,
	same func(t *dsl.Thread, tid, first dsl.U32) dsl.Bool) (dsl.U32, dsl.Bool) {
	msg := h.invalid(op)
	if msg == "" && f == nil {
		msg = op + " with a nil function: give a function of an element to a U32"
	}
	if msg != "" {
		dsl.Let(b, dsl.Invalid[uint32](msg))
		return dsl.Invalid[uint32](msg), dsl.Invalid[bool](msg)
	}
	warps := h.threads / ir.WarpSize
	firsts, agree := dsl.Shared[uint32](b, warps), dsl.Shared[uint32](b, warps)
	b.ForAll(dsl.N(uint32(h.threads)), func(t *dsl.Thread, tid dsl.U32) {
		// Lane 0's first slot holds the warp's first element.
		first := dsl.Let(t, dsl.Shuffle(t, dsl.ShuffleIdx, f(h.Slot(0)), dsl.N(0)))
		all := dsl.All(t, same(t, tid, first.Exp))
		t.If(dsl.LaneOf(tid).Eq(dsl.N(0)), func(t *dsl.Thread) {
			w := dsl.WarpOf(tid)
			firsts.Store(t, w, first.Exp)
			agree.Store(t, w, dsl.Select(all, dsl.N(1), dsl.N(0)))
		})
	})
	b.Sync()
	value := dsl.Let(b, firsts.At(dsl.N(0))).Exp
	agreed := dsl.Let(b, dsl.Lit(true))
	for w := range warps {
		holds := dsl.N(uint32(w * ir.WarpSize * h.per)).Lt(h.n)
		ok := agree.At(dsl.N(uint32(w))).Eq(dsl.N(1)).And(firsts.At(dsl.N(uint32(w))).Eq(value))
		agreed.Set(agreed.And(holds.Not().Or(ok)))
	}
	return value, agreed.Exp
}

// ScatterBy returns the array that puts each held element at the index
// that ranks holds for it (a permutation of 0..Len-1, as
// Multisplit.HeldRanks gives): a Push array of the block, each thread
// writing its own elements. ranks must be dealt as h is.
func (h Held[T]) ScatterBy(ranks Held[uint32]) Push[*dsl.Block, T] {
	msg := h.invalid("ScatterBy")
	if msg == "" {
		msg = ranks.invalid("ScatterBy's ranks")
	}
	if msg == "" && (ranks.per != h.per || ranks.threads != h.threads || ranks.blocked != h.blocked) {
		msg = fmt.Sprintf("ScatterBy of elements held %s by ranks held %s: hold the ranks as the elements",
			h.arrangement(), ranks.arrangement())
	}
	if msg != "" {
		bad := dsl.Invalid[uint32](msg)
		return Push[*dsl.Block, T]{n: bad, run: func(b *dsl.Block, _ Writer[T]) { dsl.Let(b, bad) }}
	}
	return Push[*dsl.Block, T]{n: h.n, run: func(b *dsl.Block, w Writer[T]) {
		b.ForAll(dsl.N(uint32(h.threads)), func(t *dsl.Thread, tid dsl.U32) {
			h.each(t, tid, func(j int, _ dsl.U32, valid dsl.Bool) {
				t.If(valid, func(t *dsl.Thread) { w(t, ranks.Slot(j), h.Slot(j)) })
			})
		})
	}}
}
