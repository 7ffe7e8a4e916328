package arrays

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
)

// EachStrided runs f in thread t on the elements of a at first, first +
// stride, first + 2×stride, ... that lie below a's length, in that order,
// passing each element's index and value. It reads them batch at a time:
// every load of a batch is issued before f runs on any of its elements, so
// that the loads are in flight together. A thread that reads a large array
// one element at a time waits out the memory's latency at every element;
// a grid whose threads start at consecutive firsts and share a stride of
// the grid's threads reads each step of the loop in coalesced rows.
//
// The number of steps is counted before the loop, so no element read has
// an index that overflowed, whatever the length. The stride must be above
// 0: a constant stride of 0, or a batch below 1, makes the kernel fail to
// build, naming the caller's line.
func EachStrided[T dsl.Scalar](t *dsl.Thread, a Pull[T], first, stride dsl.U32, batch int,
	f func(t *dsl.Thread, i dsl.U32, x dsl.Exp[T])) {
	if batch < 1 {
		dsl.Let(t, dsl.Invalid[uint32](fmt.Sprintf("EachStrided in batches of %d: want at least 1", batch)))
		return
	}
	if c, ok := constLen(stride); ok && c == 0 {
		dsl.Let(t, dsl.Invalid[uint32]("EachStrided by a stride of 0: want a stride above 0"))
		return
	}
	n, per := a.Len(), dsl.N(uint32(batch))
	var zero T
	t.If(first.Lt(n), func(t *dsl.Thread) {
		steps := dsl.Let(t, n.Sub(first).Sub(dsl.N(1)).Div(stride).Add(dsl.N(1)))
		t.For(steps.Sub(dsl.N(1)).Div(per).Add(dsl.N(1)), func(t *dsl.Thread, round dsl.U32) {
			ok := make([]dsl.Bool, batch)
			at := make([]dsl.U32, batch)
			x := make([]dsl.Exp[T], batch)
			for u := range batch {
				step := dsl.Let(t, round.Mul(per).Add(dsl.N(uint32(u))))
				ok[u] = step.Lt(steps.Exp)
				at[u] = first.Add(step.Mul(stride))
				x[u] = dsl.Let(t, dsl.Select(ok[u], a.At(at[u]), dsl.Lit(zero))).Exp
			}
			for u := range batch {
				t.If(ok[u], func(t *dsl.Thread) { f(t, at[u], x[u]) })
			}
		})
	})
}

// Batch is a batch of elements that EachBatch hands a thread: element u
// is a's element Index[u], of value Value[u], and lies in a when In[u]
// holds (Value[u] is then T's zero).
type Batch[T dsl.Scalar] struct {
	Index []dsl.U32
	Value []dsl.Exp[T]
	In    []dsl.Bool
	// full: every element lies in a, and In holds only true.
	full bool
}

// Each runs f in thread t on the elements of the batch that lie in the
// array, in order, passing each one's index and value. In a full batch it
// tests nothing.
func (b Batch[T]) Each(t *dsl.Thread, f func(t *dsl.Thread, i dsl.U32, x dsl.Exp[T])) {
	for u := range b.Value {
		if b.full {
			f(t, b.Index[u], b.Value[u])
			continue
		}
		t.If(b.In[u], func(t *dsl.Thread) { f(t, b.Index[u], b.Value[u]) })
	}
}

// EachBatch runs f in thread t on batches of the elements of a, round
// after round: the batch of round r holds the elements at base + u×step
// for u in [0, batch), base = first + r×advance, and the rounds go on
// while base lies below a's length. Every load of a batch is issued before
// f runs, so that they are in flight together, and f sees the whole batch
// at once, so that it can order its work across the elements (a pass at a
// time over all of them, say). A batch whose elements all lie in a is
// loaded without tests and handed over as full (Batch.Each tests none of
// them); only a batch that reaches past the end pays for them. With a
// constant step (a block's threads), a batch's loads lie at constant
// offsets from one address.
//
// Tiles of batch×step elements, one a block, dealt out by advance =
// blocks×batch×step and read by threads at first = block×batch×step +
// thread (step = threads), visit every element once, each read of a
// batch coalesced across the threads.
//
// No index overflows, whatever the length: the rounds and the elements in
// reach of each are counted before they are read. step and advance must
// be above 0: a constant 0 for either, or a batch below 1, makes the
// kernel fail to build, naming the caller's line.
func EachBatch[T dsl.Scalar](t *dsl.Thread, a Pull[T], first, step, advance dsl.U32, batch int,
	f func(t *dsl.Thread, b Batch[T])) {
	if batch < 1 {
		dsl.Let(t, dsl.Invalid[uint32](fmt.Sprintf("EachBatch in batches of %d: want at least 1", batch)))
		return
	}
	for _, s := range []struct {
		n    dsl.U32
		what string
	}{{step, "a step of 0: want a step"}, {advance, "an advance of 0: want an advance"}} {
		if c, ok := constLen(s.n); ok && c == 0 {
			dsl.Let(t, dsl.Invalid[uint32]("EachBatch by "+s.what+" above 0"))
			return
		}
	}
	n := a.Len()
	var zero T
	t.If(first.Lt(n), func(t *dsl.Thread) {
		rounds := dsl.Let(t, n.Sub(first).Sub(dsl.N(1)).Div(advance).Add(dsl.N(1)))
		t.For(rounds.Exp, func(t *dsl.Thread, round dsl.U32) {
			base := dsl.Let(t, first.Add(round.Mul(advance))).Exp
			// reach: the elements of this round that lie in a (at least 1).
			reach := dsl.Let(t, n.Sub(base).Sub(dsl.N(1)).Div(step).Add(dsl.N(1))).Exp
			index := make([]dsl.U32, batch)
			for u := range batch {
				index[u] = base.Add(step.Mul(dsl.N(uint32(u))))
			}
			t.IfElse(reach.Ge(dsl.N(uint32(batch))), func(t *dsl.Thread) {
				b := Batch[T]{Index: index, Value: make([]dsl.Exp[T], batch), In: make([]dsl.Bool, batch), full: true}
				for u := range batch {
					b.Value[u] = dsl.Let(t, a.At(index[u])).Exp
					b.In[u] = dsl.Lit(true)
				}
				f(t, b)
			}, func(t *dsl.Thread) {
				b := Batch[T]{Index: index, Value: make([]dsl.Exp[T], batch), In: make([]dsl.Bool, batch)}
				for u := range batch {
					b.In[u] = dsl.N(uint32(u)).Lt(reach)
					b.Value[u] = dsl.Let(t, dsl.Select(b.In[u], a.At(index[u]), dsl.Lit(zero))).Exp
				}
				f(t, b)
			})
		})
	})
}
