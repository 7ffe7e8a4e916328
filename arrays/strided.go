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
