package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// WarpAggregate combines the values of the lanes of a warp that hold equal
// keys: the lanes below valid (a count, the same in every lane of the warp,
// as for WarpScan) fall into groups by key, each group's values x are
// combined under op in lane order (op(lower lane, higher lane), so op need
// not be commutative), and the lowest lane of each group is its leader and
// gets the group's total. In the other lanes, leader is false and total is
// unspecified. The keys may come in any order: the groups are found with
// dsl.MatchAny (__match_any_sync, sm_70 and later; keys narrower than 32
// bits are widened first), and each group is reduced in as many rounds as
// the largest group needs, at most ir.LaneBits, each a shuffle and a
// ballot (NVIDIA's reduce_peers). When equal keys sit in consecutive lanes
// (sorted or nearly sorted keys), WarpAggregateRuns gives the same result
// more cheaply.
//
// Counting is op = dsl.U32.Add with x = 1: a histogram then takes one
// atomic per distinct key of a warp instead of one per key,
//
//	leader, count := arrays.WarpAggregate(t, dsl.U32.Add, key, dsl.N(1), valid)
//	t.If(leader, func(t *dsl.Thread) { bins.Atomic(t, dsl.AtomicAdd, key, count) })
//
// It runs where WarpScan does: in the Thread body of a ForAll that runs
// every lane of each warp, outside any condition that may differ between
// the lanes of a warp.
func WarpAggregate[K dsl.Integer, T dsl.Number](t *dsl.Thread, op Op[T], key dsl.Exp[K], x dsl.Exp[T],
	valid dsl.U32) (leader dsl.Bool, total dsl.Exp[T]) {
	op = op.orInvalid("WarpAggregate")
	lane := dsl.LaneIdx
	holds := dsl.Let(t, lane.Lt(valid))
	peers := dsl.Let(t, dsl.Select(holds.Exp, matchKeys(t, key).And(dsl.Ballot(t, holds.Exp)), dsl.N(0)))
	self := dsl.N(1).Shl(lane)
	below := self.Sub(dsl.N(1))
	// rank is the lane's position in its group; above holds the group's
	// lanes above the lane that still hold a partial total to take.
	rank := dsl.Let(t, peers.And(below).PopCount())
	above := dsl.Let(t, peers.And(below.Or(self).Not()))
	v := dsl.Let(t, x)
	more := dsl.Let(t, dsl.Any(t, above.Ne(dsl.N(0))))
	t.While(more.Exp, func(t *dsl.Thread) {
		// Round r: the lane of rank m*2^r combines its partial total (ranks
		// m*2^r up to (m+1)*2^r - 1 after the round) with that of the next
		// rank still holding one; the lanes whose rank has bit r set have
		// given theirs and drop out.
		next := dsl.Let(t, above.FindFirstSet())
		other := dsl.Shuffle(t, dsl.ShuffleIdx, v.Exp, dsl.LaneOf(next.Sub(dsl.N(1))))
		t.If(next.Ne(dsl.N(0)), func(t *dsl.Thread) { v.Set(op(v.Exp, other)) })
		done := dsl.Ballot(t, rank.And(dsl.N(1)).Ne(dsl.N(0)))
		above.Set(above.And(done.Not()))
		rank.Set(rank.Shr(dsl.N(1)))
		more.Set(dsl.Any(t, above.Ne(dsl.N(0))))
	})
	return holds.And(peers.And(below).Eq(dsl.N(0))), v.Exp
}

// matchKeys returns the mask of the lanes of the warp holding the lane's
// key, widening keys narrower than dsl.MatchAny takes.
func matchKeys[K dsl.Integer](t *dsl.Thread, key dsl.Exp[K]) dsl.U32 {
	if ir.Matchable(dsl.TypeOf[K]()) {
		return dsl.MatchAny(t, key)
	}
	return dsl.MatchAny(t, dsl.Cast[uint32](key))
}

// WarpAggregateRuns is WarpAggregate for keys whose equal values sit in
// consecutive lanes (keys sorted within the warp): each run of equal keys
// among the lanes below valid is a group, led by its first lane. A key
// equal to one of an earlier run, not next to it, starts a group of its
// own. It needs no MatchAny: the run heads are found with one shuffle and
// one ballot, and the runs are reduced in ir.LaneBits shuffles down, a
// segmented reduction (skipped when no run has two lanes), so it is the cheaper of the two for sorted or
// nearly sorted keys (where a few extra groups cost only extra leaders);
// WarpAggregate takes keys in any order.
func WarpAggregateRuns[K dsl.Integer, T dsl.Number](t *dsl.Thread, op Op[T], key dsl.Exp[K], x dsl.Exp[T],
	valid dsl.U32) (leader dsl.Bool, total dsl.Exp[T]) {
	op = op.orInvalid("WarpAggregateRuns")
	lane := dsl.LaneIdx
	holds := dsl.Let(t, lane.Lt(valid))
	before := dsl.Shuffle(t, dsl.ShuffleUp, key, dsl.N(1))
	// A lane past valid is a run of its own, so that no run reaches it.
	head := dsl.Let(t, lane.Eq(dsl.N(0)).Or(before.Ne(key)).Or(holds.Not()))
	// Bit j of next is set when lane+1+j starts a run, a lane past the
	// warp's last counting as one.
	heads := dsl.Let(t, dsl.Ballot(t, head.Exp))
	next := dsl.Let(t, heads.Shr(dsl.N(1)).Or(dsl.N(1<<(ir.WarpSize-1))).Shr(lane))
	v := dsl.Let(t, x)
	// When every lane is a run of its own (keys of a wide range) there is
	// nothing to combine, and the whole warp skips the shuffles.
	t.If(heads.Not().Ne(dsl.N(0)), func(t *dsl.Thread) {
		for d := uint32(1); d < ir.WarpSize; d *= 2 {
			// v holds the total of the lanes from this one up to lane+d-1 or
			// its run's end; it takes lane+d's when no run starts in between.
			after := dsl.Shuffle(t, dsl.ShuffleDown, v.Exp, dsl.N(d))
			v.Set(dsl.Select(next.And(dsl.N(1<<d-1)).Eq(dsl.N(0)), op(v.Exp, after), v.Exp))
		}
	})
	return head.And(holds.Exp), v.Exp
}
