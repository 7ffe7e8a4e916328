package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// Collective is a level whose threads scan or reduce an array together: a
// warp (*dsl.Warp) or a block (*dsl.Block). Scan, ScanExclusive and Reduce
// are written once for both, as Push arrays of that level.
type Collective interface {
	*dsl.Warp | *dsl.Block
	dsl.Parallel
}

// Scan returns the inclusive scan of a under op, a_0 op a_1 op ... op a_i
// at index i, as a Push array of level P, for an array of any length. The
// elements are dealt to the lanes (P = *dsl.Warp) or threads (*dsl.Block)
// in runs of consecutive elements, as evenly as they go; each lane or
// thread folds its run, the group scans the totals (WarpScan, and at Block
// level a scan of the warps' totals through shared memory), and each lane
// or thread scans its run again from the total of those before it, writing
// as it goes: a is read twice, so compute it into shared memory first when
// reading it costs. Writing into the array a reads is allowed.
func Scan[P Collective, T dsl.Number](op Op[T], a Pull[T]) Push[P, T] {
	op = op.orInvalid("Scan")
	return Push[P, T]{n: a.n, run: func(p P, w Writer[T]) { scanAt(p, op, nil, a, w) }}
}

// ScanExclusive returns the exclusive scan of a under op, identity op a_0
// op ... op a_(i-1) at index i, as Scan does the inclusive one. identity
// must be op's identity.
func ScanExclusive[P Collective, T dsl.Number](op Op[T], identity dsl.Exp[T], a Pull[T]) Push[P, T] {
	op = op.orInvalid("ScanExclusive")
	return Push[P, T]{n: a.n, run: func(p P, w Writer[T]) { scanAt(p, op, &identity, a, w) }}
}

// Reduce returns the total of a under op, a_0 op a_1 op ... in order, as
// a Push array of one element at level P, written by one thread. An empty
// array has no total: nothing is written.
func Reduce[P Collective, T dsl.Number](op Op[T], a Pull[T]) Push[P, T] {
	op = op.orInvalid("Reduce")
	return Push[P, T]{n: dsl.N(1), run: func(p P, w Writer[T]) {
		switch p := any(p).(type) {
		case *dsl.Warp:
			warpReduce(p, op, a, w)
		case *dsl.Block:
			blockReduce(p, op, a, w)
		}
	}}
}

// scanAt records the scan of a (exclusive when identity is not nil) in p.
func scanAt[P Collective, T dsl.Number](p P, op Op[T], identity *dsl.Exp[T], a Pull[T], w Writer[T]) {
	switch p := any(p).(type) {
	case *dsl.Warp:
		warpScan(p, op, identity, a, w)
	case *dsl.Block:
		BlockScan(p, op, a).write(p, identity, w, nil)
	}
}

// orInvalid returns op, or for a nil op one whose every result is an
// error at the user's line that called what.
func (op Op[T]) orInvalid(what string) Op[T] {
	if op != nil {
		return op
	}
	bad := dsl.Invalid[T](what + " of " + nilOp)
	return func(dsl.Exp[T], dsl.Exp[T]) dsl.Exp[T] { return bad }
}

// runs is how the n elements of an array are dealt to a group of threads:
// thread g < holders holds the per consecutive elements from g*per (the
// last holder fewer when per does not divide n); the others hold none.
type runs struct {
	n, per, holders dsl.U32
}

// dealt returns how n elements are dealt to size threads, computed once in
// p, or as constants for a constant n.
func dealt(p dsl.Program, n dsl.U32, size int) runs {
	if c, ok := constLen(n); ok {
		per := (c + uint32(size) - 1) / uint32(size)
		return runs{n: n, per: dsl.N(per), holders: dsl.N((c + max(per, 1) - 1) / max(per, 1))}
	}
	per := dsl.Let(p, dsl.CeilDiv(n, dsl.N(uint32(size))))
	holders := dsl.Let(p, dsl.CeilDiv(n, per.Max(dsl.N(1))))
	return runs{n: n, per: per.Exp, holders: holders.Exp}
}

// run returns the first index and the number of elements of thread g's
// run, for g < holders: per, a constant, when per divides a constant n.
func (r runs) run(g dsl.U32) (first, count dsl.U32) {
	first = g.Mul(r.per)
	n, constN := constLen(r.n)
	per, constPer := constLen(r.per)
	if constN && constPer && per > 0 && n%per == 0 {
		return first, r.per
	}
	return first, r.per.Min(r.n.Sub(first))
}

// zero returns T's zero value, which threads that hold no element pass to
// the warp collectives.
func zero[T dsl.Scalar]() dsl.Exp[T] {
	var z T
	return dsl.Lit(z)
}

// foldRun returns the total of thread g's run under op, or zero when g
// holds no element.
func foldRun[T dsl.Number](t *dsl.Thread, op Op[T], a Pull[T], r runs, g dsl.U32) dsl.Exp[T] {
	total := dsl.Let(t, zero[T]())
	t.If(g.Lt(r.holders), func(t *dsl.Thread) {
		first, count := r.run(g)
		acc := dsl.Let(t, a.At(first))
		t.For(count.Sub(dsl.N(1)), func(t *dsl.Thread, j dsl.U32) {
			acc.Set(op(acc.Exp, a.At(first.Add(j).Add(dsl.N(1)))))
		})
		total.Set(acc.Exp)
	})
	return total.Exp
}

// scanRun writes the scan of thread g's run (for g < holders), starting
// from prefix, the total of the elements before the run, when has holds:
// inclusive, or exclusive from identity when identity is not nil. Each
// element is read before its result is written, so that a may be the
// array written.
func scanRun[T dsl.Number](t *dsl.Thread, op Op[T], identity *dsl.Exp[T], a Pull[T], r runs, g dsl.U32,
	prefix dsl.Exp[T], has dsl.Bool, w Writer[T]) {
	first, count := r.run(g)
	if identity != nil {
		acc := dsl.Let(t, dsl.Select(has, prefix, *identity))
		t.For(count, func(t *dsl.Thread, j dsl.U32) {
			i := dsl.Let(t, first.Add(j))
			x := dsl.Let(t, a.At(i.Exp))
			w(t, i.Exp, acc.Exp)
			acc.Set(op(acc.Exp, x.Exp))
		})
		return
	}
	acc := dsl.Let(t, a.At(first))
	t.If(has, func(t *dsl.Thread) { acc.Set(op(prefix, acc.Exp)) })
	w(t, first, acc.Exp)
	t.For(count.Sub(dsl.N(1)), func(t *dsl.Thread, j dsl.U32) {
		i := dsl.Let(t, first.Add(j).Add(dsl.N(1)))
		acc.Set(op(acc.Exp, a.At(i.Exp)))
		w(t, i.Exp, acc.Exp)
	})
}

// warpScan records the scan of a by the lanes of the warp: runs folded,
// their totals scanned with shuffles, runs scanned from the lane before.
func warpScan[T dsl.Number](wp *dsl.Warp, op Op[T], identity *dsl.Exp[T], a Pull[T], w Writer[T]) {
	r := dealt(wp, a.n, ir.WarpSize)
	wp.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
		upTo := WarpScan(t, op, foldRun(t, op, a, r, lane), r.holders)
		before := dsl.Shuffle(t, dsl.ShuffleUp, upTo, dsl.N(1))
		t.If(lane.Lt(r.holders), func(t *dsl.Thread) {
			scanRun(t, op, identity, a, r, lane, before, lane.Gt(dsl.N(0)), w)
		})
	})
}

// warpReduce records the reduction of a by the lanes of the warp; lane 0
// writes the total.
func warpReduce[T dsl.Number](wp *dsl.Warp, op Op[T], a Pull[T], w Writer[T]) {
	r := dealt(wp, a.n, ir.WarpSize)
	wp.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
		total := WarpReduce(t, op, foldRun(t, op, a, r, lane), r.holders)
		t.If(lane.Eq(dsl.N(0)).And(r.holders.Gt(dsl.N(0))), func(t *dsl.Thread) { w(t, dsl.N(0), total) })
	})
}

// blockReduce records the reduction of a by the threads of the block: runs
// folded, each warp's totals reduced with shuffles into shared memory, and
// those reduced by one warp, whose lane 0 writes the total.
func blockReduce[T dsl.Number](b *dsl.Block, op Op[T], a Pull[T], w Writer[T]) {
	threads := b.Threads()
	r := dealt(b, a.n, threads)
	warpTotals := dsl.Shared[T](b, max(threads/ir.WarpSize, 1))
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		total := WarpReduce(t, op, foldRun(t, op, a, r, tid), LanesBelow(r.holders, tid))
		t.If(dsl.LaneOf(tid).Eq(dsl.N(0)).And(tid.Lt(r.holders)), func(t *dsl.Thread) {
			warpTotals.Store(t, dsl.WarpOf(tid), total)
		})
	})
	b.Sync()
	warps := dsl.Let(b, dsl.CeilDiv(r.holders, dsl.N(ir.WarpSize)))
	b.ForAllWarps(dsl.N(1), func(wp *dsl.Warp, _ dsl.U32) {
		warpReduce(wp, op, Take(warps.Exp, FromArray(warpTotals)), w)
	})
}

// Scanned is the scan of an array by a block, from BlockScan: the threads'
// and the warps' totals are in shared memory, from which Inclusive and
// Exclusive write the scanned array and Total reads the array's total.
type Scanned[T dsl.Number] struct {
	op Op[T]
	a  Pull[T]
	r  runs
	// upTo holds, for each thread holding elements, the scan of the run
	// totals of its warp up to it; warpsUpTo the scan of the warps' totals.
	upTo, warpsUpTo dsl.Array[T]
	warps           dsl.U32 // the number of warps holding elements
	threads         int
}

// BlockScan records in b the first steps of the scan of a under op (see
// Scan): the runs of the threads are folded, each warp scans its threads'
// totals with shuffles into shared memory, and one warp scans the warps'
// totals there, the block's threads meeting at a barrier after each step.
// The result's Inclusive and Exclusive are the last step, which writes the
// scanned array; its Total is the array's total.
func BlockScan[T dsl.Number](b *dsl.Block, op Op[T], a Pull[T]) Scanned[T] {
	op = op.orInvalid("BlockScan")
	threads := b.Threads()
	s := Scanned[T]{op: op, a: a, r: dealt(b, a.n, threads), threads: threads,
		upTo: dsl.Shared[T](b, max(threads, 1)), warpsUpTo: dsl.Shared[T](b, max(threads/ir.WarpSize, 1))}
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		upTo := WarpScan(t, op, foldRun(t, op, a, s.r, tid), LanesBelow(s.r.holders, tid))
		t.If(tid.Lt(s.r.holders), func(t *dsl.Thread) {
			s.upTo.Store(t, tid, upTo)
			lastOfWarp := dsl.LaneOf(tid).Eq(dsl.N(ir.WarpSize - 1)).Or(tid.Add(dsl.N(1)).Eq(s.r.holders))
			t.If(lastOfWarp, func(t *dsl.Thread) { s.warpsUpTo.Store(t, dsl.WarpOf(tid), upTo) })
		})
	})
	b.Sync()
	s.warps = dsl.Let(b, dsl.CeilDiv(s.r.holders, dsl.N(ir.WarpSize))).Exp
	b.ForAllWarps(dsl.N(1), func(w *dsl.Warp, _ dsl.U32) {
		warpsUpTo := Take(s.warps, FromArray(s.warpsUpTo))
		warpScan(w, op, nil, warpsUpTo, s.warpsUpTo.Store)
	})
	b.Sync()
	return s
}

// zeroScanned is what the methods of the zero Scanned report.
const zeroScanned = "a zero Scanned (scans come from BlockScan)"

// Inclusive returns the inclusive scan as a Push array of the block, to
// run in the block body given to BlockScan.
func (s Scanned[T]) Inclusive() Push[*dsl.Block, T] {
	bad := s.invalid("Inclusive")
	return Push[*dsl.Block, T]{n: s.a.n, run: func(b *dsl.Block, w Writer[T]) { s.write(b, nil, w, bad) }}
}

// Exclusive returns the exclusive scan from identity, op's identity, as a
// Push array of the block, to run in the block body given to BlockScan.
func (s Scanned[T]) Exclusive(identity dsl.Exp[T]) Push[*dsl.Block, T] {
	bad := s.invalid("Exclusive")
	return Push[*dsl.Block, T]{n: s.a.n, run: func(b *dsl.Block, w Writer[T]) { s.write(b, &identity, w, bad) }}
}

// Total returns the total of the array under op (T's zero value for an
// empty array), read from shared memory: a value of the block, usable in
// its Block-level code and in its threads.
func (s Scanned[T]) Total() dsl.Exp[T] {
	if bad := s.invalid("Total"); bad != nil {
		return *bad
	}
	return dsl.Select(s.warps.Gt(dsl.N(0)), s.warpsUpTo.At(s.warps.Sub(dsl.N(1))), zero[T]())
}

// invalid returns, for the zero Scanned, the error that method of it
// records at the user's line; nil otherwise.
func (s Scanned[T]) invalid(method string) *dsl.Exp[T] {
	if s.op != nil {
		return nil
	}
	bad := dsl.Invalid[T](method + " of " + zeroScanned)
	return &bad
}

// write records the last step of the scan: each thread holding elements
// scans its run again from the total of the warps before its warp and of
// the threads before it in its warp.
func (s Scanned[T]) write(b *dsl.Block, identity *dsl.Exp[T], w Writer[T], bad *dsl.Exp[T]) {
	if bad != nil {
		dsl.Let(b, *bad)
		return
	}
	b.ForAll(dsl.N(uint32(s.threads)), func(t *dsl.Thread, tid dsl.U32) {
		t.If(tid.Lt(s.r.holders), func(t *dsl.Thread) {
			wid, lane := dsl.WarpOf(tid), dsl.LaneOf(tid)
			warpsBefore := s.warpsUpTo.At(wid.Sub(dsl.N(1)))
			lanesBefore := s.upTo.At(tid.Sub(dsl.N(1)))
			prefix := dsl.Select(wid.Gt(dsl.N(0)),
				dsl.Select(lane.Gt(dsl.N(0)), s.op(warpsBefore, lanesBefore), warpsBefore), lanesBefore)
			scanRun(t, s.op, identity, s.a, s.r, tid, prefix, tid.Gt(dsl.N(0)), w)
		})
	})
}
