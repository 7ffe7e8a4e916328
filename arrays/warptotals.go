package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// WarpTotals scans or reduces one value per thread of a block under an
// associative operator, in the two steps a barrier separates (CUB's
// BlockScan and BlockReduce by warp scans). In a Block.ForAll over the
// block's threads, Scan gives every thread the scan of its warp's values
// up to its own and keeps each warp's total in shared memory; after a
// barrier (Block.Sync), Warp and Total read those totals in any thread.
//
// Where Scan, ScanExclusive and Reduce take an array and read it twice,
// WarpTotals takes values the threads hold in registers, computed in any
// order and layout (a thread's sum of a row of loads, its minimum key, ...),
// which stay in the registers across the first step: the block writes one
// word of shared memory per warp and meets at one barrier.
type WarpTotals[T dsl.Number] struct {
	op     Op[T]
	totals dsl.Array[T] // one per warp: the scan of its last lane
	warps  int
}

// NewWarpTotals declares in b the shared memory for the totals of its
// warps under op.
func NewWarpTotals[T dsl.Number](b *dsl.Block, op Op[T]) WarpTotals[T] {
	warps := max(b.Threads()/ir.WarpSize, 1) // a block is whole warps
	return WarpTotals[T]{op: op.orInvalid("NewWarpTotals"), totals: dsl.Shared[T](b, warps), warps: warps}
}

// zeroWarpTotals is what the methods of the zero WarpTotals report.
const zeroWarpTotals = "a zero WarpTotals (make it with NewWarpTotals)"

// invalid returns, for the zero WarpTotals, the error that method of it
// records at the user's line; nil otherwise.
func (w WarpTotals[T]) invalid(method string) *dsl.Exp[T] {
	if w.op != nil {
		return nil
	}
	bad := dsl.Invalid[T](method + " of " + zeroWarpTotals)
	return &bad
}

// Scan returns x_f op ... op x_tid, where f is the first thread of tid's
// warp and x_i the value of thread i: the inclusive scan of the warp's
// values up to the thread (WarpScan, five shuffles), and has the warp's
// last thread store the warp's total. It runs in the Thread body of a
// Block.ForAll over the block's threads, tid being its index, outside any
// condition that may differ between the lanes of a warp: every thread
// calls it once, with a value (op's identity for a thread that has none).
func (w WarpTotals[T]) Scan(t *dsl.Thread, tid dsl.U32, x dsl.Exp[T]) dsl.Exp[T] {
	if bad := w.invalid("Scan"); bad != nil {
		return dsl.Let(t, *bad).Exp
	}
	upTo := dsl.Let(t, laneScan("WarpTotals.Scan", t, w.op, x, dsl.N(ir.WarpSize)))
	t.If(dsl.LaneOf(tid).Eq(dsl.N(ir.WarpSize-1)), func(t *dsl.Thread) { w.totals.Store(t, dsl.WarpOf(tid), upTo.Exp) })
	return upTo.Exp
}

// Warp returns the total of warp wid's values, below the number of warps
// of the block, read from shared memory: after the barrier that follows
// Scan, in any thread.
func (w WarpTotals[T]) Warp(wid dsl.U32) dsl.Exp[T] {
	if bad := w.invalid("Warp"); bad != nil {
		return *bad
	}
	return w.totals.At(wid)
}

// Total returns the total of the block's values in the threads' order,
// read from shared memory by the thread t after the barrier that follows
// Scan: a Fold of the warps' totals, written out, whose loads the compiler
// keeps in flight together.
func (w WarpTotals[T]) Total(t *dsl.Thread) dsl.Exp[T] {
	if bad := w.invalid("Total"); bad != nil {
		return *bad
	}
	rest := Generate(dsl.N(uint32(w.warps-1)), func(i dsl.U32) dsl.Exp[T] { return w.totals.At(i.Add(dsl.N(1))) })
	return Fold(t, w.op, w.totals.At(dsl.N(0)), rest)
}

// Before returns the total of the values of the warps below wid (identity,
// op's identity, for warp 0), read from shared memory by thread t after
// the barrier that follows Scan: a Fold of the warps' totals, written out.
// With Scan's result it gives a thread the exclusive scan of the block's
// values up to it: Before(t, WarpOf(tid), identity) op (Scan's result
// without the thread's own value).
func (w WarpTotals[T]) Before(t *dsl.Thread, wid dsl.U32, identity dsl.Exp[T]) dsl.Exp[T] {
	if bad := w.invalid("Before"); bad != nil {
		return *bad
	}
	below := Generate(dsl.N(uint32(w.warps)), func(i dsl.U32) dsl.Exp[T] {
		return dsl.Select(i.Lt(wid), w.totals.At(i), identity)
	})
	return Fold(t, w.op, identity, below)
}
